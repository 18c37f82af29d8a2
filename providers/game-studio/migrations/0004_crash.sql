-- 0004_crash: multiplayer crash (providers/game-studio/crash/). One hash chain per crash title,
-- generated on first start (the seed never leaves the studio; the terminating hash and the salt are
-- published), the games played from it in order, and each session's bet in a game. A bet is written
-- before the wallet hears of it and a cash-out before its win is sent, so a restart settles from here
-- (docs/game-studio.md, "Multiplayer crash").
-- Portable PostgreSQL (15 … 18 / PGlite).

CREATE TABLE studio_crash_chains (
  game_id           text PRIMARY KEY,
  seed              text NOT NULL CHECK (seed ~ '^[0-9a-f]{64}$'),
  salt              text NOT NULL,
  length            integer NOT NULL CHECK (length > 0),
  terminating_hash  text NOT NULL CHECK (terminating_hash ~ '^[0-9a-f]{64}$'),
  created_at        timestamptz NOT NULL DEFAULT now()
);

-- Game `number` of a chain uses its hash number `number` (1 = the one after the terminating hash).
-- bust in hundredths (100 = 1.00×); shown only once the phase is busted.
CREATE TABLE studio_crash_games (
  game_id     text NOT NULL REFERENCES studio_crash_chains (game_id),
  number      integer NOT NULL CHECK (number > 0),
  hash        text NOT NULL,
  bust        integer NOT NULL CHECK (bust >= 100),
  phase       text NOT NULL CHECK (phase IN ('betting', 'running', 'busted')),
  started_at  timestamptz,
  busted_at   timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (game_id, number)
);

-- A session's bet in one game; id is the round id the casino's wallet sees (bet-<id>, win-<id>).
-- status: pending (bet sent to the wallet) → open (taken) → cashed (win queued) | lost (win 0 queued);
-- refused (the wallet said no); rolled-back (no answer, or taken too late, or the game never ran).
CREATE TABLE studio_crash_bets (
  id            uuid PRIMARY KEY,
  game_id       text NOT NULL,
  number        integer NOT NULL,
  session_id    text NOT NULL REFERENCES studio_sessions (id),
  name          text NOT NULL,
  demo          boolean NOT NULL,
  currency      text NOT NULL,
  bet           bigint NOT NULL CHECK (bet > 0),
  auto_cashout  integer CHECK (auto_cashout IS NULL OR auto_cashout >= 101),
  cashed_out    integer CHECK (cashed_out IS NULL OR cashed_out >= 100),
  win           bigint CHECK (win IS NULL OR win >= 0),
  status        text NOT NULL CHECK (status IN ('pending', 'open', 'cashed', 'lost', 'refused', 'rolled-back')),
  error         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  settled_at    timestamptz,
  FOREIGN KEY (game_id, number) REFERENCES studio_crash_games (game_id, number),
  UNIQUE (game_id, number, session_id)
);
CREATE INDEX studio_crash_bets_open_idx ON studio_crash_bets (game_id, number) WHERE status IN ('pending', 'open');

-- The outbox now carries crash bets' wins and rollbacks too: its round id is a studio round's or a
-- crash bet's.
ALTER TABLE studio_outbox DROP CONSTRAINT IF EXISTS studio_outbox_round_id_fkey;
