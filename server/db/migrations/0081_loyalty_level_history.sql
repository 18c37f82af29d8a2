-- 0081_loyalty_level_history: when each player reached each loyalty level (server/loyalty/,
-- docs/loyalty.md), so that a week's cashback is paid at the level held at the week's end, not at
-- the one held when it is paid. Portable PostgreSQL (15 … 18 / PGlite).

-- A level is reached once (levels never go down). `reached_at` is the time of the bet that reached
-- it, not of the accrual job that counted it (up to a minute later, maybe in the next week).
CREATE TABLE loyalty_level_history (
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  level       integer NOT NULL REFERENCES loyalty_levels (level),
  reached_at  timestamptz NOT NULL,
  PRIMARY KEY (user_id, level)
);

-- The levels held before this table existed: since before any week still to be paid, so those weeks
-- are paid at the level held now, as they were before.
INSERT INTO loyalty_level_history (user_id, level, reached_at)
SELECT user_id, level, '-infinity'::timestamptz FROM loyalty_accounts;
