-- 0002_users: accounts, passwords, sessions, e-mail tokens, captcha replay guard, wallets.
-- Portable PostgreSQL (15 … 18 / PGlite). Tokens are never stored: only their SHA-256 (hex).

CREATE TABLE users (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email                 text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  password_hash         text NOT NULL,
  full_name             text NOT NULL,
  first_name            text,
  last_name             text,
  language              text NOT NULL DEFAULT 'en',
  currency              text NOT NULL REFERENCES currencies (code),
  click_id              text,
  registration_code     text,
  confirmed_at          timestamptz,
  locked_at             timestamptz,
  -- Self-exclusion / cool-off: kind names the chosen period; until = NULL with kind 'indefinite'
  -- means no end. The profile capability sets these; sign-in already enforces them.
  self_exclusion_until  timestamptz,
  self_exclusion_kind   text,
  receive_email_promo   boolean NOT NULL DEFAULT false,
  nick_name             text,
  phone_number          text,
  dialing_code          text,
  address               text,
  address2              text,
  zip_code              text,
  country               text,
  city                  text,
  state                 text,
  gender                text CHECK (gender IN ('FEMALE', 'MALE')),
  date_of_birth         date,
  created_at            timestamptz NOT NULL DEFAULT now()
);

-- One account per address, case-insensitively: registration relies on this index (no check-then-insert).
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));

CREATE TABLE password_history (
  id          bigserial PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  hash        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_history_user_idx ON password_history (user_id, id DESC);

CREATE TABLE sessions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash    text NOT NULL UNIQUE,
  user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  ip            text,
  user_agent    text,
  revoked_at    timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE email_tokens (
  id          bigserial PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE,
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('confirm', 'reset')),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, purpose);

-- A solved captcha challenge may be used once: the key is its HMAC signature.
CREATE TABLE captcha_uses (
  challenge_key  text PRIMARY KEY,
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX captcha_uses_expires_idx ON captcha_uses (expires_at);

-- Balances in integer minor units of the currency; never negative.
CREATE TABLE wallets (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  currency    text NOT NULL REFERENCES currencies (code),
  is_default  boolean NOT NULL DEFAULT false,
  balance     numeric(38, 0) NOT NULL DEFAULT 0 CHECK (balance >= 0),
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, currency)
);
-- At most one default wallet per player.
CREATE UNIQUE INDEX wallets_one_default_idx ON wallets (user_id) WHERE is_default;
