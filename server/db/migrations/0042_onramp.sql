-- 0042_onramp: the sandbox on-ramp (server/providers/onramp-sandbox/, docs/onramp.md). Like the
-- payment sandbox it behaves as an EXTERNAL provider living in this database: its tables are
-- prefixed onramp_sandbox_ and nothing of the casino references them.
-- Portable PostgreSQL (15 … 18 / PGlite).

-- One purchase. The order id is minted by the purchase page (one per page view) and is the
-- idempotency key: a replayed "Buy" finds the same row and never sends twice. The send is claimed
-- by moving 'paid' → 'sending' in one UPDATE; only the claimer calls the faucet.
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
  -- The casino's EUR rate used (EUR per whole unit, exact decimal).
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

-- The casino's side: order-status callbacks received from the widgets, verified. A replayed
-- callback (same widget and event id) is refused by the UNIQUE key.
CREATE TABLE onramp_callbacks (
  widget       text NOT NULL,
  event_id     text NOT NULL CHECK (length(event_id) BETWEEN 1 AND 100),
  order_id     text NOT NULL,
  status       text NOT NULL,
  currency     text NOT NULL,
  address      text NOT NULL,
  crypto_amount numeric(78, 0) NOT NULL,
  tx_hash      text,
  received_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (widget, event_id)
);
