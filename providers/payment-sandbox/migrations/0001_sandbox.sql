-- 0001_sandbox: the payment sandbox's own tables (its own schema `payment_sandbox` on a shared
-- PostgreSQL, or its own PGlite). Nothing here references a merchant's tables, nor they these.
-- Its secret is not stored here: it is PAYMENT_SANDBOX_SECRET or the file `secret` in its data folder.
-- Portable PostgreSQL (15 … 18 / PGlite).

-- One payment per initiation. A decision (approved, declined, failed, cancelled) is final: it is
-- written only over 'created' (UPDATE … WHERE status = 'created'), in the same transaction as its
-- webhook's outbox row.
CREATE TABLE sandbox_payments (
  id               uuid PRIMARY KEY,
  gateway          text NOT NULL,
  family           text NOT NULL CHECK (family IN ('hosted-card', 'skrill', 'jeton', 'mifinity')),
  -- jeton: CHECKOUT | QR | JETON_CASH; skrill: the requested payment methods; else null.
  method           text,
  reference        text NOT NULL,
  amount           bigint NOT NULL CHECK (amount > 0),
  currency         text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  customer         jsonb NOT NULL,
  language         text,
  return_url       text NOT NULL,
  notify_url       text NOT NULL,
  -- mifinity's initializationToken (the widget is addressed by it).
  token            text UNIQUE,
  qr               text,
  status           text NOT NULL DEFAULT 'created'
                   CHECK (status IN ('created', 'approved', 'declined', 'failed', 'cancelled')),
  reason           text,
  -- Card payments: a 3-D Secure challenge was started (test card 4000 0000 0000 3220).
  challenge        boolean NOT NULL DEFAULT false,
  card_last4       text,
  -- E-wallets: the payer signed in as this e-mail.
  wallet_email     text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  decided_at       timestamptz,
  CHECK ((status = 'created') = (decided_at IS NULL))
);
-- A merchant's reference is unique per gateway: a replayed initiation finds the first payment.
CREATE UNIQUE INDEX sandbox_payments_reference_key ON sandbox_payments (gateway, reference);
-- The sweeper's look-up of payments left 'created'.
CREATE INDEX sandbox_payments_open_idx ON sandbox_payments (created_at) WHERE status = 'created';

-- Rules set at runtime (the control endpoint); a row replaces PAYMENT_SANDBOX_GATEWAY_RULES for its gateway.
CREATE TABLE sandbox_gateway_rules (
  gateway     text PRIMARY KEY,
  rule        text NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- One payout per (gateway, reference); decided when created (the e-mail decides: fail@… fails), its
-- callback queued in the same transaction in the webhook outbox.
CREATE TABLE sandbox_payouts (
  id           uuid PRIMARY KEY,
  gateway      text NOT NULL CHECK (gateway IN ('skrill', 'bank')),
  reference    text NOT NULL,
  amount       bigint NOT NULL CHECK (amount > 0),
  currency     text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  email        text NOT NULL,
  notify_url   text NOT NULL,
  status       text NOT NULL CHECK (status IN ('paid', 'failed')),
  reason       text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sandbox_payouts_reference_key ON sandbox_payouts (gateway, reference);

-- The durable outbox of payment webhooks and payout callbacks (a row belongs to exactly one):
-- id = the event id sent in the body. The body is stored as the exact text that is signed and sent,
-- so every retry delivers the same bytes (a fresh timestamp each time).
CREATE TABLE sandbox_webhook_outbox (
  id               uuid PRIMARY KEY,
  payment_id       uuid REFERENCES sandbox_payments (id),
  payout_id        uuid REFERENCES sandbox_payouts (id),
  gateway          text NOT NULL,
  url              text NOT NULL,
  body             text NOT NULL,
  attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  delivered_at     timestamptz,
  last_status      integer,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT sandbox_webhook_outbox_owner_check CHECK ((payment_id IS NULL) <> (payout_id IS NULL))
);
CREATE INDEX sandbox_webhook_outbox_due_idx ON sandbox_webhook_outbox (next_attempt_at)
  WHERE delivered_at IS NULL;
CREATE INDEX sandbox_webhook_outbox_payment_idx ON sandbox_webhook_outbox (payment_id);
