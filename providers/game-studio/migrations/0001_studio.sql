-- 0001_studio: the game studio's play sessions, provably fair seeds, rounds and the outbox of wallet
-- calls that must arrive. The studio's own storage (schema game_studio on a shared PostgreSQL, or
-- its own PGlite): nothing of a casino is here, nor does a casino read it.
-- Portable PostgreSQL (15 … 18 / PGlite).

-- A play session opened by a launch. Real: the casino's session token (sent back on every wallet
-- call) and player id. Demo: no token, play money in demo_balance.
CREATE TABLE studio_sessions (
  id             text PRIMARY KEY,
  casino_token   text,
  player_id      text,
  nickname       text,
  currency       text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  game_id        text NOT NULL,
  demo           boolean NOT NULL,
  demo_balance   bigint CHECK (demo_balance IS NULL OR demo_balance >= 0),
  lang           text NOT NULL,
  platform       text NOT NULL,
  lobby_url      text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  CHECK (demo = (casino_token IS NULL)),
  CHECK (demo = (demo_balance IS NOT NULL))
);

-- Provably fair seeds per player key ('player:<id>' or 'demo:<session>'): the active one has
-- revealed_at NULL (one per key); rotation reveals it and commits the next.
CREATE TABLE studio_seeds (
  id           bigserial PRIMARY KEY,
  player_key   text NOT NULL,
  server_seed  text NOT NULL,
  hash         text NOT NULL,
  client_seed  text NOT NULL,
  nonce        bigint NOT NULL DEFAULT 0 CHECK (nonce >= 0),
  created_at   timestamptz NOT NULL DEFAULT now(),
  revealed_at  timestamptz
);
CREATE UNIQUE INDEX studio_seeds_active_key ON studio_seeds (player_key) WHERE revealed_at IS NULL;

-- One round. status: pending (bet sent) → open (bet accepted, win queued) → settled (win acknowledged);
-- refused (the wallet said no to the bet); rolled-back (no answer to the bet: rollback queued/sent).
CREATE TABLE studio_rounds (
  id                    uuid PRIMARY KEY,
  session_id            text NOT NULL REFERENCES studio_sessions (id),
  game_id               text NOT NULL,
  seed_id               bigint NOT NULL REFERENCES studio_seeds (id),
  client_seed           text NOT NULL,
  nonce                 bigint NOT NULL,
  options               jsonb NOT NULL,
  bet                   bigint NOT NULL CHECK (bet > 0),
  multiplier            bigint NOT NULL CHECK (multiplier >= 0),
  win                   bigint NOT NULL CHECK (win >= 0),
  detail                jsonb NOT NULL,
  jackpot_hit           boolean NOT NULL DEFAULT false,
  jackpot_contribution  bigint NOT NULL DEFAULT 0,
  jackpot_amount        bigint,
  bet_tx                text NOT NULL,
  win_tx                text NOT NULL,
  rollback_tx           text,
  status                text NOT NULL CHECK (status IN ('pending', 'open', 'settled', 'refused', 'rolled-back')),
  error                 text,
  created_at            timestamptz NOT NULL DEFAULT now(),
  settled_at            timestamptz,
  UNIQUE (seed_id, nonce)
);
CREATE INDEX studio_rounds_session_idx ON studio_rounds (session_id, created_at DESC);

-- Wallet calls that must arrive (win, rollback): retried until acknowledged. The body is the exact
-- JSON text sent every time (same transaction id: the casino answers a replay with the first answer).
CREATE TABLE studio_outbox (
  transaction_id   text PRIMARY KEY,
  round_id         uuid NOT NULL REFERENCES studio_rounds (id),
  op               text NOT NULL CHECK (op IN ('win', 'rollback')),
  body             text NOT NULL,
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  delivered_at     timestamptz,
  answer           text,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX studio_outbox_due_idx ON studio_outbox (next_attempt_at) WHERE delivered_at IS NULL;
