-- 0001_orders: the sandbox on-ramp's own tables (docs/onramp.md), in its own schema
-- (onramp_sandbox on a shared PostgreSQL) or its own PGlite. Portable PostgreSQL (15 … 18 / PGlite).

-- One purchase. The order id is minted by the purchase page (one per page view) and is the
-- idempotency key: a replayed "Buy" finds the same row and never sends twice. The send is claimed
-- by moving 'paid' → 'sending' in one UPDATE; only the claimer asks the chains' faucet.
CREATE TABLE onramp_sandbox_orders (
  id               uuid PRIMARY KEY,
  widget           text NOT NULL CHECK (widget IN ('banxa', 'mercuryo', 'moonpay', 'transak')),
  currency         text NOT NULL CHECK (currency IN ('BTC', 'LTC', 'DOG', 'ETH', 'USDT')),
  address          text NOT NULL CHECK (length(address) BETWEEN 1 AND 128),
  gross_eur_cents  bigint NOT NULL CHECK (gross_eur_cents > 0),
  fee_eur_cents    bigint NOT NULL CHECK (fee_eur_cents >= 0),
  net_eur_cents    bigint NOT NULL CHECK (net_eur_cents > 0),
  -- The currency's minor units (wei needs more than bigint for large amounts).
  crypto_amount    numeric(78, 0) NOT NULL CHECK (crypto_amount > 0),
  -- The sandbox's own EUR price used (EUR per whole unit, exact decimal).
  eur_rate         numeric(38, 18) NOT NULL CHECK (eur_rate > 0),
  -- Identity verification passed (above the tier's threshold); only the name is kept, never the
  -- date of birth or the document number.
  verified_name    text,
  status           text NOT NULL DEFAULT 'paid' CHECK (status IN ('paid', 'sending', 'sent', 'failed')),
  tx_hash          text,
  reason           text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CHECK (fee_eur_cents + net_eur_cents = gross_eur_cents),
  CHECK ((status = 'sent') = (tx_hash IS NOT NULL))
);
-- The orders a purchase page lists: the player's (one deposit address per player and chain).
CREATE INDEX onramp_sandbox_orders_address_idx ON onramp_sandbox_orders (address, created_at DESC);

-- What the sandbox sells at: its own EUR price per whole unit of each currency, as a seller quotes
-- (not the casino's rates). A currency without a row is not sold. ONRAMP_SANDBOX_PRICES sets them.
CREATE TABLE onramp_sandbox_prices (
  currency    text PRIMARY KEY CHECK (currency IN ('BTC', 'LTC', 'DOG', 'ETH', 'USDT')),
  eur_rate    numeric(38, 18) NOT NULL CHECK (eur_rate > 0),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO onramp_sandbox_prices (currency, eur_rate) VALUES
  ('BTC', 60000),
  ('ETH', 3000),
  ('LTC', 70),
  ('DOG', 0.12),
  ('USDT', 0.92);
