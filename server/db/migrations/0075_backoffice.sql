-- The back office: operator accounts, their sessions, and an audit trail nobody can rewrite.

-- An operator of the back office (not a player). The TOTP secret is stored encrypted (AES-256-GCM,
-- server/backoffice/secretBox.ts) and no API returns it after enrolment; `totp_last_step` is the
-- time-step of the last code accepted, so a code is never accepted twice.
CREATE TABLE backoffice_operators (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email           text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  password_hash   text NOT NULL,
  role            text NOT NULL CHECK (role IN ('support', 'kyc', 'payments', 'marketing', 'admin')),
  totp_secret     text,
  totp_enrolled   boolean NOT NULL DEFAULT false,
  totp_last_step  bigint,
  disabled        boolean NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK (NOT totp_enrolled OR totp_secret IS NOT NULL)
);
CREATE UNIQUE INDEX backoffice_operators_email_key ON backoffice_operators (lower(email));

-- Back-office sessions, apart from the players'. Only the token's SHA-256 is kept. A session is
-- `password` (first factor passed, waiting for the code; minutes long) or `active`. Times come
-- from the server's back-office clock (testable), not the database's.
CREATE TABLE backoffice_sessions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash    text NOT NULL UNIQUE,
  operator_id   uuid NOT NULL REFERENCES backoffice_operators (id),
  stage         text NOT NULL CHECK (stage IN ('password', 'active')),
  created_at    timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  revoked_at    timestamptz,
  ip            text NOT NULL,
  user_agent    text
);
CREATE INDEX backoffice_sessions_operator_idx ON backoffice_sessions (operator_id);

-- The audit learns who acted as a back-office operator (id and e-mail), the state before and
-- after, and from which address. Rows written by `npm run operator` keep these NULL.
ALTER TABLE operator_audit ADD COLUMN operator_id uuid REFERENCES backoffice_operators (id);
ALTER TABLE operator_audit ADD COLUMN operator_email text;
ALTER TABLE operator_audit ADD COLUMN before jsonb;
ALTER TABLE operator_audit ADD COLUMN after jsonb;
ALTER TABLE operator_audit ADD COLUMN ip text;

-- ON DELETE SET NULL would be an UPDATE of the audit, which the trigger below refuses: a player
-- with an audit history cannot be deleted (nothing deletes players).
ALTER TABLE operator_audit DROP CONSTRAINT operator_audit_user_id_fkey;
ALTER TABLE operator_audit ADD CONSTRAINT operator_audit_user_id_fkey
  FOREIGN KEY (user_id) REFERENCES users (id);

-- Append-only: an audit that can be edited proves nothing.
CREATE FUNCTION operator_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_audit is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER operator_audit_no_update_delete BEFORE UPDATE OR DELETE ON operator_audit
  FOR EACH ROW EXECUTE FUNCTION operator_audit_append_only();
CREATE TRIGGER operator_audit_no_truncate BEFORE TRUNCATE ON operator_audit
  FOR EACH STATEMENT EXECUTE FUNCTION operator_audit_append_only();
