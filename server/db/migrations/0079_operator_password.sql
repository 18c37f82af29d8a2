-- An operator created or reset with a generated one-time password must choose their own before
-- anything else: until then every back-office call but the session's own is refused.
ALTER TABLE backoffice_operators ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;
