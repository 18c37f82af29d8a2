-- 0031_games: the casino's games module: the catalogue (seeded at start from the
-- studio's catalogue), launch sessions, the seamless wallet's transactions (idempotency by
-- provider and transaction id), rounds, favorites and jackpots. Portable PostgreSQL / PGlite.
-- Amounts are integer minor units (numeric(38,0)); bet limits of the catalogue in EUR cents.

CREATE TABLE game_categories (
  slug  text PRIMARY KEY CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  name  text NOT NULL,
  sort  integer NOT NULL
);

CREATE TABLE games (
  id           text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  -- The provider's own id of the game (what the launch carries).
  launch_id    text NOT NULL,
  name         text NOT NULL,
  -- The studio brand (the contract's Game.provider, the bet-history provider filter).
  brand        text NOT NULL,
  -- The integration (GAME_PROVIDERS code) whose wallet calls settle its rounds.
  integration  text NOT NULL,
  category     text NOT NULL REFERENCES game_categories (slug),
  kind         text NOT NULL CHECK (kind IN ('dice', 'crash', 'mines', 'plinko', 'roulette', 'slot')),
  volatility   text NOT NULL CHECK (volatility IN ('low', 'medium', 'high')),
  -- Exact theoretical RTP, two decimals ("96.12").
  rtp          text NOT NULL CHECK (rtp ~ '^[0-9]{1,3}\.[0-9]{2}$'),
  image        text NOT NULL,
  is_new       boolean NOT NULL DEFAULT false,
  featured     boolean NOT NULL DEFAULT false,
  demo         boolean NOT NULL DEFAULT true,
  -- The progressive jackpot its bets feed and can win (NULL: none).
  jackpot_id   text,
  tags         jsonb NOT NULL DEFAULT '[]'::jsonb,
  min_bet_eur  numeric(38, 0) NOT NULL CHECK (min_bet_eur > 0),
  max_bet_eur  numeric(38, 0) NOT NULL,
  sort         integer NOT NULL,
  -- A game gone from the catalogue stays (its rounds reference it) but is no longer listed.
  active       boolean NOT NULL DEFAULT true,
  CHECK (max_bet_eur >= min_bet_eur),
  UNIQUE (integration, launch_id)
);
CREATE INDEX games_sort_idx ON games (sort);

CREATE TABLE jackpots (
  id           text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  name         text NOT NULL,
  -- What a pool starts with (and is topped up to after a win) in EUR cents, from the house.
  seed_eur     numeric(38, 0) NOT NULL CHECK (seed_eur >= 0),
  last_won_at  timestamptz
);

-- A real-money launch: the provider's calls name the session by its token (stored hashed).
CREATE TABLE game_sessions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash    text NOT NULL UNIQUE,
  user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The casino sign-in it was launched from: signing out (or a self-exclusion, which revokes every
  -- session) ends the game session with it.
  casino_session_id  uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  currency      text NOT NULL REFERENCES currencies (code),
  game_id       text NOT NULL REFERENCES games (id),
  integration   text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at    timestamptz
);
CREATE INDEX game_sessions_user_idx ON game_sessions (user_id, created_at DESC);

-- One round of a game as the provider reports it: bet history and winners read it.
CREATE TABLE game_rounds (
  id           bigserial PRIMARY KEY,
  integration  text NOT NULL,
  round_id     text NOT NULL CHECK (length(round_id) BETWEEN 1 AND 100),
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  game_id      text NOT NULL REFERENCES games (id),
  currency     text NOT NULL REFERENCES currencies (code),
  bet_total    numeric(38, 0) NOT NULL DEFAULT 0 CHECK (bet_total >= 0),
  win_total    numeric(38, 0) NOT NULL DEFAULT 0 CHECK (win_total >= 0),
  -- The jackpot paid in this round (part of win_total), 0 when none.
  jackpot_win  numeric(38, 0) NOT NULL DEFAULT 0 CHECK (jackpot_win >= 0),
  status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'settled', 'rolled-back')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (integration, round_id)
);
CREATE INDEX game_rounds_user_idx ON game_rounds (user_id, created_at DESC);
CREATE INDEX game_rounds_created_idx ON game_rounds (created_at);
CREATE INDEX game_rounds_win_idx ON game_rounds (updated_at) WHERE win_total > 0;

-- Every wallet call the casino answered, once per (integration, transaction id): a replay finds
-- the first answer here. op 'tombstone' = a rollback arrived for a bet never seen: that bet id is
-- taken, so the bet arriving later is refused (ROLLED_BACK).
CREATE TABLE game_transactions (
  id              bigserial PRIMARY KEY,
  integration     text NOT NULL,
  transaction_id  text NOT NULL CHECK (length(transaction_id) BETWEEN 1 AND 100),
  op              text NOT NULL CHECK (op IN ('bet', 'win', 'rollback', 'tombstone')),
  round_id        text NOT NULL,
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  currency        text NOT NULL REFERENCES currencies (code),
  amount          numeric(38, 0) NOT NULL CHECK (amount >= 0),
  -- A bet's share sent to a jackpot pool (a rollback takes it back from that pool).
  jackpot_id      text,
  jackpot_share   numeric(38, 0) NOT NULL DEFAULT 0 CHECK (jackpot_share >= 0),
  -- SHA-256 of the call's content: the same id with other content is DUPLICATE_MISMATCH.
  fingerprint     text NOT NULL,
  -- The first answer (status and body), replayed verbatim.
  status          integer NOT NULL,
  response        jsonb NOT NULL,
  -- A bet's rollback (the rollback's own transaction id), so a second rollback refunds nothing.
  rolled_back_by  text,
  ledger_tx       uuid REFERENCES ledger_transactions (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (integration, transaction_id)
);

CREATE TABLE favorite_games (
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  game_id     text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, game_id)
);
