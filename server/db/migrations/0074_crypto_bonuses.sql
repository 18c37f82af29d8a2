-- Crypto deposits earn bonuses like card deposits (docs/bonuses.md, "Crypto deposits"). A crypto
-- deposit has no request the player confirms: they ask for an address (POST …/crypto/deposit with
-- the spec's promotionCoupon) and send coins whenever they like. The code named with that request
-- is kept for the player and currency for a day, and the next transfer credited in that currency
-- takes it (once: the choice is consumed by that credit).
CREATE TABLE crypto_bonus_choices (
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  currency    text NOT NULL REFERENCES currencies (code),
  coupon      text NOT NULL CHECK (length(coupon) BETWEEN 1 AND 64),
  expires_at  timestamptz NOT NULL,
  PRIMARY KEY (user_id, currency)
);

-- A bonus (and an unlock of free-spin winnings) is paid on a card deposit or on a crypto one.
ALTER TABLE player_bonuses ADD COLUMN crypto_deposit_id uuid UNIQUE REFERENCES crypto_deposits (id);
ALTER TABLE free_spin_wallets ADD COLUMN crypto_deposit_id uuid UNIQUE REFERENCES crypto_deposits (id);
