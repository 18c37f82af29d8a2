-- 0071_loyalty: loyalty levels (server/loyalty/, docs/loyalty.md). Portable PostgreSQL (15 … 18 / PGlite).
-- Points come from real-money bets (the bet minus its bonus part) in EUR, times the game kind's
-- weight (bonus_game_weights): 1 point = 1 EUR so weighted. A job reads new bets after a cursor, so
-- the game wallet's own statements are unchanged.

-- The levels and their perks, as data. Percentages are basis points (1 % = 100).
CREATE TABLE loyalty_levels (
  level               integer PRIMARY KEY CHECK (level BETWEEN 1 AND 100),
  name                text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 40),
  -- Reached at this many points (level 1 at 0: every player has a level).
  min_points          bigint NOT NULL UNIQUE CHECK (min_points >= 0),
  -- Weekly cashback: this share of last week's net real-money losses, paid as cash.
  cashback_bps        integer NOT NULL CHECK (cashback_bps BETWEEN 0 AND 10000),
  -- The daily withdrawal cap times this (10000 = as everyone's).
  withdraw_limit_bps  integer NOT NULL CHECK (withdraw_limit_bps BETWEEN 10000 AND 100000),
  -- Further perks an operator promises, shown after the cashback and withdrawal lines.
  perks               text[] NOT NULL DEFAULT '{}'
);
INSERT INTO loyalty_levels (level, name, min_points, cashback_bps, withdraw_limit_bps) VALUES
  (1, 'Bronze', 0, 0, 10000),
  (2, 'Silver', 1000, 200, 12500),
  (3, 'Gold', 5000, 500, 15000),
  (4, 'Platinum', 25000, 800, 20000),
  (5, 'Diamond', 100000, 1000, 30000);

-- A player's standing. `wagered` is the weighted real-money wagering in ten-thousandths of a EUR
-- (a 10 % weight of a 1-cent bet still counts); points = floor(wagered / 10000). The level never
-- goes down (a rolled-back bet takes its points back, not the level reached).
CREATE TABLE loyalty_accounts (
  user_id     uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  wagered     numeric(40, 0) NOT NULL DEFAULT 0 CHECK (wagered >= 0),
  points      bigint NOT NULL DEFAULT 0 CHECK (points >= 0),
  level       integer NOT NULL REFERENCES loyalty_levels (level),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- How far the jobs have read: 'accrual' = the last game_transactions id taken into account.
CREATE TABLE loyalty_cursors (
  name        text PRIMARY KEY CHECK (name IN ('accrual')),
  position    bigint NOT NULL CHECK (position >= 0),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO loyalty_cursors (name, position) VALUES ('accrual', 0);

-- Weekly cashback paid, once per player, currency and ISO week (UTC, Monday start).
CREATE TABLE loyalty_cashbacks (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  currency        text NOT NULL REFERENCES currencies (code),
  week_start      date NOT NULL CHECK (extract(isodow FROM week_start) = 1),
  level           integer NOT NULL REFERENCES loyalty_levels (level),
  cashback_bps    integer NOT NULL CHECK (cashback_bps BETWEEN 0 AND 10000),
  -- The week's real-money bets minus real-money wins and refunds (minor units).
  net_loss        numeric(38, 0) NOT NULL CHECK (net_loss > 0),
  amount          numeric(38, 0) NOT NULL CHECK (amount > 0),
  transaction_id  uuid NOT NULL REFERENCES ledger_transactions (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, currency, week_start)
);
CREATE INDEX loyalty_cashbacks_week_idx ON loyalty_cashbacks (week_start);

-- Weeks the cashback job finished (it then skips them).
CREATE TABLE loyalty_cashback_weeks (
  week_start  date PRIMARY KEY CHECK (extract(isodow FROM week_start) = 1),
  payments    integer NOT NULL CHECK (payments >= 0),
  paid_at     timestamptz NOT NULL DEFAULT now()
);
