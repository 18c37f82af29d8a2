-- 0005_play_rules: what the casino's launch allowed for the player's jurisdiction (autoplay, turbo,
-- the least time between rounds), and when the session's last round started, so a round that comes
-- too soon is refused by one conditional UPDATE (no race between two quick requests).
ALTER TABLE studio_sessions ADD COLUMN autoplay boolean NOT NULL DEFAULT true;
ALTER TABLE studio_sessions ADD COLUMN turbo boolean NOT NULL DEFAULT true;
ALTER TABLE studio_sessions ADD COLUMN min_round_ms integer NOT NULL DEFAULT 0
  CHECK (min_round_ms BETWEEN 0 AND 60000);
ALTER TABLE studio_sessions ADD COLUMN last_round_at timestamptz;
