-- API tokens of back-office operators: what `npm run operator` (and any script of the team) sends
-- as `Authorization: Bearer <token>` to the back-office API, acting as that operator with that
-- operator's role. Created only from a signed-in browser session (password and TOTP passed), shown
-- once; only the SHA-256 is kept. A token ends when revoked, when it expires, and when its operator
-- is disabled or has the password or second factor reset.
CREATE TABLE backoffice_api_tokens (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash    text NOT NULL UNIQUE,
  operator_id   uuid NOT NULL REFERENCES backoffice_operators (id),
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  last_used_at  timestamptz,
  last_used_ip  text,
  revoked_at    timestamptz,
  CHECK (expires_at > created_at)
);
CREATE INDEX backoffice_api_tokens_operator_idx ON backoffice_api_tokens (operator_id);
