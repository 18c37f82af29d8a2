-- 0011_deposits: fiat deposits and the payment providers' webhooks (server/payments/).

CREATE TABLE deposits (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id                uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  method                 text NOT NULL CHECK (method IN ('card', 'skrill', 'jeton', 'jeton-cash', 'mifinity')),
  -- The configured gateway that carries it (a card gateway's code, skrill, jeton, mifinity).
  provider               text NOT NULL,
  amount                 numeric(38, 0) NOT NULL CHECK (amount > 0),
  currency               text NOT NULL REFERENCES currencies (code),
  -- What the amount was worth in EUR cents at the rate of the moment it was started (limits, tiers).
  amount_eur_cents       numeric(38, 0) NOT NULL CHECK (amount_eur_cents >= 0),
  status                 text NOT NULL DEFAULT 'initiated'
                           CHECK (status IN ('initiated', 'pending', 'completed', 'failed', 'expired')),
  provider_reference     text,
  promotion_coupon       text,
  reason                 text,
  ledger_transaction_id  uuid REFERENCES ledger_transactions (id),
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  completed_at           timestamptz,
  -- A completed deposit is exactly one that the ledger credited.
  CHECK ((status = 'completed') = (ledger_transaction_id IS NOT NULL AND completed_at IS NOT NULL))
);
CREATE INDEX deposits_user_created_idx ON deposits (user_id, created_at DESC);
CREATE INDEX deposits_user_completed_idx ON deposits (user_id, completed_at) WHERE status = 'completed';
CREATE INDEX deposits_initiated_idx ON deposits (created_at) WHERE status = 'initiated';

-- Every webhook processed, once per (provider, event id): a replay with the same body answers the
-- same; the same id with another body is refused (409).
CREATE TABLE payment_webhook_events (
  provider      text NOT NULL,
  event_id      text NOT NULL CHECK (length(event_id) BETWEEN 1 AND 200),
  payload_hash  text NOT NULL,
  event_type    text NOT NULL,
  deposit_id    uuid REFERENCES deposits (id),
  -- What the casino answered: 'processed', 'ignored' (e.g. a late event for a final deposit) or
  -- 'refused' (amount or currency differ from the deposit).
  outcome       text NOT NULL CHECK (outcome IN ('processed', 'ignored', 'refused')),
  detail        text,
  received_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
