-- 0083_rollback_undoes_bonus: a rolled-back bet undoes what it did to a bonus, its conversion included
-- (docs/bonuses.md, "Rollbacks"); a win on a rolled-back round is kept void (docs/game-wallet-protocol.md).
-- Portable PostgreSQL (15 … 18 / PGlite).

-- The bet whose wagering met the requirement ("<integration>:<transaction id>"), for the record.
ALTER TABLE player_bonuses ADD COLUMN converted_by text;
-- Bonus money that became cash because the bonus converted: the conversion itself, and the bonus
-- shares of wins and refunds paid to cash after it. What undoing the conversion takes back.
ALTER TABLE player_bonuses ADD COLUMN converted_total numeric(38, 0) NOT NULL DEFAULT 0 CHECK (converted_total >= 0);
-- How often a conversion of it was undone: the ledger key of its next end names it.
ALTER TABLE player_bonuses ADD COLUMN reversals integer NOT NULL DEFAULT 0 CHECK (reversals >= 0);
-- What undoing its conversion could not take back (the cash was spent or withdrawn since).
ALTER TABLE player_bonuses ADD COLUMN unrecovered numeric(38, 0) NOT NULL DEFAULT 0 CHECK (unrecovered >= 0);
-- Its conversion undone while another bonus was active: its money joined that one.
ALTER TABLE player_bonuses ADD COLUMN merged_into uuid REFERENCES player_bonuses (id);

-- A win on a round whose bets were all rolled back: answered, nothing paid.
ALTER TABLE game_transactions ADD COLUMN voided boolean NOT NULL DEFAULT false;
