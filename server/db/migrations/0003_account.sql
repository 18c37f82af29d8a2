-- 0003_account: the player's account — sign-in history, promo e-mail unsubscribe links,
-- verification documents (stored in the database with their SHA-256), self-exclusion history,
-- deposit limits with their pending raises, the reality-check setting, and the operator audit.
-- Portable PostgreSQL (15 … 18 / PGlite).

ALTER TABLE users ADD COLUMN avatar text;
-- The period the player chose (services/profile-rules.ts SelfExclusionPeriods); self_exclusion_kind
-- keeps its meaning ('indefinite' = no end) so sign-in and session checks are unchanged.
ALTER TABLE users ADD COLUMN self_exclusion_period text;
ALTER TABLE users ADD COLUMN reality_check_minutes integer
  CHECK (reality_check_minutes IN (15, 30, 45, 60, 90, 120));
-- The welcome offer (the first promotional mail) goes out once.
ALTER TABLE users ADD COLUMN welcome_offer_sent_at timestamptz;

-- The country of the session's IP when it started (GeoIP data changes; the list shows what it was).
ALTER TABLE sessions ADD COLUMN country text;

-- Every sign-in (and the registration, which signs the new player in): "last login" in the profile.
CREATE TABLE logins (
  id          bigserial PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  session_id  uuid REFERENCES sessions (id) ON DELETE SET NULL,
  kind        text NOT NULL CHECK (kind IN ('registration', 'signin')),
  at          timestamptz NOT NULL DEFAULT now(),
  ip          text NOT NULL,
  country     text NOT NULL,
  user_agent  text
);
CREATE INDEX logins_user_idx ON logins (user_id, id DESC);
CREATE UNIQUE INDEX logins_session_key ON logins (session_id);

-- Unsubscribe links of promotional mails: only the SHA-256 of the id is stored.
CREATE TABLE unsubscribe_links (
  token_hash  text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  used_at     timestamptz
);
CREATE INDEX unsubscribe_links_user_idx ON unsubscribe_links (user_id);

-- Identity (ID) and proof-of-address (BILL) documents; every upload stays as history.
CREATE TABLE verification_documents (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind IN ('ID', 'BILL')),
  status        text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  file_name     text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 128),
  content_type  text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'application/pdf')),
  size          integer NOT NULL CHECK (size > 0),
  sha256        text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  uploaded_at   timestamptz NOT NULL DEFAULT now(),
  reviewed_at   timestamptz,
  reviewed_by   text,
  reason        text,
  CHECK ((status = 'PENDING') = (reviewed_at IS NULL)),
  CHECK ((status = 'REJECTED') = (reason IS NOT NULL))
);
CREATE INDEX verification_documents_user_idx ON verification_documents (user_id, kind, uploaded_at DESC);
CREATE INDEX verification_documents_pending_idx ON verification_documents (uploaded_at) WHERE status = 'PENDING';
-- The lock rule, also in the database: per player and kind, at most one document waiting or approved.
CREATE UNIQUE INDEX verification_documents_open_key ON verification_documents (user_id, kind)
  WHERE status IN ('PENDING', 'APPROVED');

-- The bytes, apart from the metadata so listing never reads them. Never served to players.
CREATE TABLE verification_document_files (
  document_id  uuid PRIMARY KEY REFERENCES verification_documents (id) ON DELETE CASCADE,
  content      bytea NOT NULL
);

-- Every self-exclusion a player set (the current one is also on users).
CREATE TABLE self_exclusions (
  id          bigserial PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  period      text NOT NULL,
  kind        text NOT NULL,
  starts_at   timestamptz NOT NULL DEFAULT now(),
  until       timestamptz
);
CREATE INDEX self_exclusions_user_idx ON self_exclusions (user_id, id DESC);

-- Deposit limits in EUR cents, per rolling window; no row = no limit.
CREATE TABLE deposit_limits (
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  period      text NOT NULL CHECK (period IN ('daily', 'weekly', 'monthly')),
  amount      numeric(20, 0) NOT NULL CHECK (amount >= 0),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, period)
);

-- A raise or removal waiting for its effective time (amount NULL = removal); applied on read.
CREATE TABLE deposit_limit_changes (
  user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  period        text NOT NULL CHECK (period IN ('daily', 'weekly', 'monthly')),
  amount        numeric(20, 0) CHECK (amount >= 0),
  requested_at  timestamptz NOT NULL DEFAULT now(),
  effective_at  timestamptz NOT NULL,
  PRIMARY KEY (user_id, period)
);

-- What operators did (approvals, rejections…): who, when, what, to whom.
CREATE TABLE operator_audit (
  id         bigserial PRIMARY KEY,
  at         timestamptz NOT NULL DEFAULT now(),
  actor      text NOT NULL CHECK (length(actor) BETWEEN 1 AND 200),
  action     text NOT NULL,
  user_id    uuid REFERENCES users (id) ON DELETE SET NULL,
  subject    text,
  details    jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX operator_audit_at_idx ON operator_audit (at);
