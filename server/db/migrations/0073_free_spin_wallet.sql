-- The free-spin wallet (docs/bonuses.md, "The free-spin wallet"): free spins granted without a
-- deposit (the welcome banner's 125 spins, or a free-spins code), whose winnings are held apart —
-- neither cash nor bonus money, not playable, not withdrawable — until a deposit that meets the
-- wallet's `winUnlockConfig` (spec section 3) moves them into that deposit's bonus, with an extra
-- bonus of a percent of the deposit, under the bonus's wagering. Unused, they go back to the house
-- when the wallet expires.

-- The held winnings are a ledger account of the player's own, like cash and bonus money.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('player_cash', 'player_bonus', 'player_free_spins', 'gateway_clearing', 'house',
                  'jackpot_pool', 'pending_withdrawal'));
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_player_owned;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_player_owned
  CHECK ((kind IN ('player_cash', 'player_bonus', 'player_free_spins')) = (user_id IS NOT NULL));
CREATE UNIQUE INDEX ledger_accounts_free_spins_key ON ledger_accounts (user_id, currency)
  WHERE kind = 'player_free_spins';

-- A free-spins promotion's unlock terms: the smallest deposit (EUR cents, compared with the
-- deposit's EUR value) that unlocks the winnings, and the extra bonus that deposit earns (percent
-- of the deposit). Its cap (max_bonus_eur_cents) bounds what is unlocked: winnings and extra.
ALTER TABLE promotions ADD COLUMN unlock_deposit_eur_cents numeric(38, 0)
  CHECK (unlock_deposit_eur_cents IS NULL OR unlock_deposit_eur_cents > 0);
ALTER TABLE promotions ADD COLUMN extra_bonus_percent integer NOT NULL DEFAULT 0
  CHECK (extra_bonus_percent BETWEEN 0 AND 1000);

CREATE TABLE free_spin_wallets (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id               uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  promotion_id          text NOT NULL REFERENCES promotions (id) ON DELETE RESTRICT,
  currency              text NOT NULL REFERENCES currencies (code),
  -- 'locked' while its winnings wait for a deposit; 'unlocked' once one moved them into a bonus;
  -- 'expired' when its time ran out first (the winnings went back to the house).
  status                text NOT NULL DEFAULT 'locked' CHECK (status IN ('locked', 'unlocked', 'expired')),
  -- The terms, fixed when granted (a later change of the promotion does not move them).
  unlock_deposit_eur_cents numeric(38, 0) NOT NULL CHECK (unlock_deposit_eur_cents > 0),
  extra_bonus_percent   integer NOT NULL CHECK (extra_bonus_percent BETWEEN 0 AND 1000),
  max_unlock_eur_cents  numeric(38, 0) NOT NULL CHECK (max_unlock_eur_cents >= 0),
  wagering_multiple     integer NOT NULL CHECK (wagering_multiple BETWEEN 0 AND 100),
  expires_at            timestamptz NOT NULL,
  -- The unlock: the deposit, the bonus the winnings joined, what moved (winnings and extra).
  deposit_id            uuid UNIQUE REFERENCES deposits (id),
  bonus_id              uuid REFERENCES player_bonuses (id),
  unlocked_winnings     numeric(38, 0),
  extra_bonus           numeric(38, 0),
  -- What the unlock or the expiry moved, and its ledger transaction.
  ended_amount          numeric(38, 0),
  end_transaction_id    uuid REFERENCES ledger_transactions (id),
  created_at            timestamptz NOT NULL DEFAULT now(),
  ended_at              timestamptz,
  UNIQUE (user_id, promotion_id)
);
-- One wallet waiting per player and currency: a deposit unlocks one thing.
CREATE UNIQUE INDEX free_spin_wallets_one_locked ON free_spin_wallets (user_id, currency) WHERE status = 'locked';
CREATE INDEX free_spin_wallets_expiring_idx ON free_spin_wallets (expires_at) WHERE status = 'locked';

-- A grant made for a free-spin wallet (no bonus yet: its winnings go to the wallet's account).
ALTER TABLE free_round_grants ADD COLUMN free_spin_wallet_id uuid REFERENCES free_spin_wallets (id);

-- The welcome banner's 125 free spins, granted on registration (a free-spins promotion without a
-- code): Viking Voyage at 0.10 EUR a spin; their winnings, up to 100 EUR, unlocked by a deposit of
-- 20 EUR or more that takes a bonus, with 25 % of that deposit as an extra bonus, wagered 10×.
INSERT INTO promotions (id, kind, name, description, code, deposit_number, max_bonus_eur_cents,
                        wagering_multiple, max_bet_eur_cents, valid_days, free_spin_game,
                        free_spin_bet_eur_cents, unlock_deposit_eur_cents, extra_bonus_percent, sort)
VALUES ('welcome-spins', 'free_spins', 'Welcome free spins',
        '125 free spins on Viking Voyage when you join. What they win is kept for you and unlocked by a deposit of 20 EUR or more that takes a bonus, with an extra 25 % of that deposit as bonus money.',
        NULL, NULL, 10000, 10, 500, 7, 'viking-voyage', 10, 2000, 25, 0);
INSERT INTO promotion_bands (promotion_id, up_to_eur_cents, percent, free_spins)
VALUES ('welcome-spins', NULL, 0, 125);
