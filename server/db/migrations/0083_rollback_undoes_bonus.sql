-- 0083_rollback_undoes_bonus: a win on a rolled-back round is kept void (docs/game-wallet-protocol.md).
-- Portable PostgreSQL (15 … 18 / PGlite).

-- A win on a round whose bets were all rolled back: answered, nothing paid.
ALTER TABLE game_transactions ADD COLUMN voided boolean NOT NULL DEFAULT false;
