-- 0070_bonuses: bonus money in the ledger, promotions as data, the bonuses players hold
-- (server/bonuses/, docs/bonuses.md). Portable PostgreSQL (15 … 18 / PGlite).

-- A player's bonus balance is a ledger account of its own (one per player and currency), beside the
-- cash account: never negative, locked like the cash account, owned by the player. The house's
-- account 'bonus' (kind house) is what bonuses cost: a grant takes from it, a forfeit or expiry gives
-- back, a conversion moves bonus money to the player's cash.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('player_cash', 'player_bonus', 'gateway_clearing', 'house', 'jackpot_pool', 'pending_withdrawal'));
-- The two unnamed table checks of 0010 said "player_cash ⇔ a user, no code"; now both player kinds.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_check;
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_check1;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_player_owned
  CHECK ((kind IN ('player_cash', 'player_bonus')) = (user_id IS NOT NULL));
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_player_uncoded
  CHECK ((user_id IS NOT NULL) = (code IS NULL));
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_player_not_negative;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_player_not_negative
  CHECK (user_id IS NULL OR balance >= 0);
CREATE UNIQUE INDEX ledger_accounts_bonus_key ON ledger_accounts (user_id, currency) WHERE kind = 'player_bonus';

-- What an operator offers. A deposit bonus pays `percent` of a qualifying deposit (by band of the
-- deposit's EUR value when it has several), capped; each may grant free spins. The terms the
-- player reads are these columns.
CREATE TABLE promotions (
  id                   text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  kind                 text NOT NULL CHECK (kind IN ('deposit_bonus', 'free_spins')),
  name                 text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  description          text NOT NULL DEFAULT '',
  -- A coupon code that names it (stored upper-case, matched without case); NULL: offered by rule.
  code                 text UNIQUE CHECK (code IS NULL OR code ~ '^[A-Z0-9_-]{3,32}$'),
  -- Which completed deposit it rewards (1 = the first); NULL: any deposit.
  deposit_number       integer CHECK (deposit_number IS NULL OR deposit_number BETWEEN 1 AND 100),
  -- The bonus may not exceed this, in EUR cents, converted at the deposit's rate.
  max_bonus_eur_cents  numeric(38, 0) NOT NULL DEFAULT 0 CHECK (max_bonus_eur_cents >= 0),
  -- Bonus money must be wagered this many times (bets × their game's weight) before it converts.
  wagering_multiple    integer NOT NULL CHECK (wagering_multiple BETWEEN 0 AND 100),
  -- The largest bet while the bonus is active, in EUR cents (converted at the wallet's rate).
  max_bet_eur_cents    numeric(38, 0) NOT NULL CHECK (max_bet_eur_cents > 0),
  -- How long a granted bonus lives.
  valid_days           integer NOT NULL CHECK (valid_days BETWEEN 1 AND 365),
  -- Free spins: which game, at what bet (EUR cents).
  free_spin_game       text,
  free_spin_bet_eur_cents numeric(38, 0) CHECK (free_spin_bet_eur_cents IS NULL OR free_spin_bet_eur_cents > 0),
  -- NULL: every currency.
  currencies           text[],
  starts_at            timestamptz,
  ends_at              timestamptz,
  -- Grants in all (NULL: no limit) and per player.
  max_uses             integer CHECK (max_uses IS NULL OR max_uses > 0),
  max_uses_per_player  integer NOT NULL DEFAULT 1 CHECK (max_uses_per_player > 0),
  active               boolean NOT NULL DEFAULT true,
  sort                 integer NOT NULL DEFAULT 0,
  created_at           timestamptz NOT NULL DEFAULT now(),
  CHECK (starts_at IS NULL OR ends_at IS NULL OR starts_at < ends_at)
);

-- The bands of a deposit bonus: the first whose bound the deposit's EUR value does not exceed.
CREATE TABLE promotion_bands (
  promotion_id     text NOT NULL REFERENCES promotions (id) ON DELETE CASCADE,
  -- Inclusive upper bound of the deposit in EUR cents; NULL: no bound (the last band).
  up_to_eur_cents  numeric(38, 0) CHECK (up_to_eur_cents IS NULL OR up_to_eur_cents > 0),
  percent          integer NOT NULL CHECK (percent BETWEEN 0 AND 1000),
  free_spins       integer NOT NULL DEFAULT 0 CHECK (free_spins BETWEEN 0 AND 10000),
  UNIQUE (promotion_id, up_to_eur_cents)
);

-- How much of a bet counts towards wagering, per game kind (percent).
CREATE TABLE bonus_game_weights (
  game_kind  text PRIMARY KEY CHECK (game_kind IN ('dice', 'crash', 'mines', 'plinko', 'roulette', 'slot')),
  percent    integer NOT NULL CHECK (percent BETWEEN 0 AND 100)
);

-- A bonus a player holds. One active per player and currency: its money is that wallet's bonus
-- account. Ended bonuses stay as history.
CREATE TABLE player_bonuses (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id               uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  promotion_id          text NOT NULL REFERENCES promotions (id) ON DELETE RESTRICT,
  currency              text NOT NULL REFERENCES currencies (code),
  status                text NOT NULL CHECK (status IN ('active', 'completed', 'forfeited', 'expired')),
  -- The deposit that earned it (NULL: a coupon redeemed without a deposit).
  deposit_id            uuid UNIQUE REFERENCES deposits (id),
  coupon                text,
  amount                numeric(38, 0) NOT NULL CHECK (amount >= 0),
  percent               integer NOT NULL,
  free_spins            integer NOT NULL DEFAULT 0 CHECK (free_spins >= 0),
  wagering_required     numeric(38, 0) NOT NULL CHECK (wagering_required >= 0),
  -- Weighted bets count fractions of a cent (10 % of a 5-cent bet): kept exact, shown rounded down.
  wagered               numeric(40, 2) NOT NULL DEFAULT 0 CHECK (wagered >= 0),
  max_bet               numeric(38, 0) NOT NULL CHECK (max_bet > 0),
  expires_at            timestamptz NOT NULL,
  created_at            timestamptz NOT NULL DEFAULT now(),
  ended_at              timestamptz,
  -- What the end moved: converted to cash, or given back to the house (minor units).
  ended_amount          numeric(38, 0),
  grant_transaction_id  uuid REFERENCES ledger_transactions (id),
  end_transaction_id    uuid REFERENCES ledger_transactions (id),
  CHECK ((status = 'active') = (ended_at IS NULL))
);
CREATE UNIQUE INDEX player_bonuses_one_active ON player_bonuses (user_id, currency) WHERE status = 'active';
CREATE INDEX player_bonuses_user_idx ON player_bonuses (user_id, created_at DESC);
CREATE INDEX player_bonuses_expiring_idx ON player_bonuses (expires_at) WHERE status = 'active';

-- The player's answers to offers (POST …/profile/promotion {id, accepted}) and the opt-out of all
-- offers (DELETE …/profile/promotion-eligible).
CREATE TABLE promotion_choices (
  user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  promotion_id  text NOT NULL REFERENCES promotions (id) ON DELETE CASCADE,
  accepted      boolean NOT NULL,
  decided_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, promotion_id)
);
ALTER TABLE users ADD COLUMN promotions_opted_out boolean NOT NULL DEFAULT false;

-- The spec's tiers (section 9), exactly: by completed-deposit number, bonus capped at 8,000 EUR;
-- the wagering multiple 10× (the UK regulator's cap from 2026), 30 days, at most 5 EUR a bet.
INSERT INTO promotions (id, kind, name, description, code, deposit_number, max_bonus_eur_cents,
                        wagering_multiple, max_bet_eur_cents, valid_days, sort) VALUES
  ('welcome-1', 'deposit_bonus', 'Welcome bonus', 'Your first deposit: 50 % up to 16 EUR, 125 % up to 50 EUR, 200 % above, with free spins.', 'WELCOME1', 1, 800000, 10, 500, 30, 1),
  ('welcome-2', 'deposit_bonus', 'Second deposit bonus', '150 % of your second deposit and 100 free spins.', 'WELCOME2', 2, 800000, 10, 500, 30, 2),
  ('welcome-3', 'deposit_bonus', 'Third deposit bonus', '100 % of your third deposit and 100 free spins.', 'WELCOME3', 3, 800000, 10, 500, 30, 3),
  ('welcome-4', 'deposit_bonus', 'Fourth deposit bonus', '100 % of your fourth deposit and 100 free spins.', 'WELCOME4', 4, 800000, 10, 500, 30, 4),
  ('welcome-5', 'deposit_bonus', 'Fifth deposit bonus', '200 % of your fifth deposit and 100 free spins.', 'WELCOME5', 5, 800000, 10, 500, 30, 5);
INSERT INTO promotion_bands (promotion_id, up_to_eur_cents, percent, free_spins) VALUES
  ('welcome-1', 1600, 50, 100),
  ('welcome-1', 5000, 125, 125),
  ('welcome-1', NULL, 200, 150),
  ('welcome-2', NULL, 150, 100),
  ('welcome-3', NULL, 100, 100),
  ('welcome-4', NULL, 100, 100),
  ('welcome-5', NULL, 200, 100);
INSERT INTO bonus_game_weights (game_kind, percent) VALUES
  ('slot', 100), ('plinko', 50), ('mines', 20), ('dice', 10), ('crash', 10), ('roulette', 10);

-- Play with a bonus: the part of each bet taken from the bonus account (cash first, then bonus),
-- kept on the round (wins are paid in the same proportion) and on the bet (a rollback refunds it).
ALTER TABLE game_rounds ADD COLUMN bonus_id uuid REFERENCES player_bonuses (id);
ALTER TABLE game_rounds ADD COLUMN bonus_bet numeric(38, 0) NOT NULL DEFAULT 0 CHECK (bonus_bet >= 0);
ALTER TABLE game_transactions ADD COLUMN bonus_id uuid;
ALTER TABLE game_transactions ADD COLUMN bonus_amount numeric(38, 0) NOT NULL DEFAULT 0 CHECK (bonus_amount >= 0);
