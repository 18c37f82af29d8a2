-- 0003_free_rounds: free rounds granted by the casino (protocols/game-wallet/free-rounds.ts): N rounds
-- of one game at one bet for one player and currency, played with no bet call, each win reported with
-- the grant's id. Portable PostgreSQL (15 … 18 / PGlite).

-- One grant, keyed by the casino's id (a grant sent again is the same grant). rounds_left is what can
-- still be played: a finished, cancelled or expired grant has 0.
CREATE TABLE studio_free_rounds (
  grant_id     uuid PRIMARY KEY,
  player_id    text NOT NULL,
  currency     text NOT NULL,
  launch_id    text NOT NULL,
  rounds       integer NOT NULL CHECK (rounds > 0),
  rounds_left  integer NOT NULL CHECK (rounds_left >= 0 AND rounds_left <= rounds),
  bet          bigint NOT NULL CHECK (bet > 0),
  expires_at   timestamptz NOT NULL,
  status       text NOT NULL DEFAULT 'active'
                 CHECK (status IN ('active', 'finished', 'cancelled', 'expired')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'active') = (rounds_left > 0))
);
-- A real round looks up the active grant of (player, currency, game), the one expiring first.
CREATE INDEX studio_free_rounds_active_idx ON studio_free_rounds (player_id, currency, launch_id, expires_at)
  WHERE status = 'active';

-- A free round has no bet (no bet transaction, no jackpot contribution, no jackpot draw) and names its grant.
ALTER TABLE studio_rounds ADD COLUMN free_round_grant_id uuid REFERENCES studio_free_rounds (grant_id);
ALTER TABLE studio_rounds ALTER COLUMN bet_tx DROP NOT NULL;
ALTER TABLE studio_rounds ADD CONSTRAINT studio_rounds_free_round_check CHECK (
  (free_round_grant_id IS NULL AND bet_tx IS NOT NULL)
  OR (free_round_grant_id IS NOT NULL AND bet_tx IS NULL AND jackpot_contribution = 0 AND NOT jackpot_hit)
);
CREATE INDEX studio_rounds_free_round_idx ON studio_rounds (free_round_grant_id)
  WHERE free_round_grant_id IS NOT NULL;
