-- 0032_games_jackpot_pool: progressive jackpot pools are ledger accounts (one per jackpot and
-- currency, code = the jackpot id), funded by a share of qualifying bets and paid out by the ledger.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('player_cash', 'gateway_clearing', 'house', 'jackpot_pool'));
