-- 0050_withdrawals: money out (server/withdrawals/, docs/withdrawals.md): the withdrawals
-- with their timeline, the pending-withdrawal ledger accounts and the payout callbacks received.
-- Portable PostgreSQL (15 … 18 / PGlite).

-- A request moves the amount from the player's cash to the currency's pending_withdrawal account
-- (code 'withdrawals'); paid moves it on to the provider's / chain's clearing account; a rejection
-- or failure moves it back to the player.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('player_cash', 'gateway_clearing', 'house', 'jackpot_pool', 'pending_withdrawal'));

CREATE TABLE withdrawals (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id             uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  method              text NOT NULL CHECK (method IN ('crypto', 'skrill', 'bank')),
  currency            text NOT NULL REFERENCES currencies (code),
  amount              numeric(38, 0) NOT NULL CHECK (amount > 0),
  -- What the amount was worth in EUR cents when requested (the daily cap counts these).
  amount_eur_cents    numeric(38, 0) NOT NULL CHECK (amount_eur_cents >= 0),
  -- Payout address (crypto) or e-mail (skrill, bank).
  destination         text NOT NULL CHECK (length(destination) BETWEEN 1 AND 254),
  status              text NOT NULL DEFAULT 'requested'
                        CHECK (status IN ('requested', 'approved', 'sent', 'paid', 'rejected', 'failed')),
  -- The payout's provider (skrill, bank) or chain network (ethereum, bitcoin…).
  provider            text NOT NULL,
  provider_reference  text,
  tx_hash             text,
  reason              text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK ((status IN ('rejected', 'failed')) = (reason IS NOT NULL))
);
CREATE INDEX withdrawals_user_created_idx ON withdrawals (user_id, created_at DESC);
-- The payout loop's work: approved ones to send, sent ones to track.
CREATE INDEX withdrawals_open_idx ON withdrawals (status, updated_at) WHERE status IN ('approved', 'sent');

-- The timeline: every status a withdrawal went through, with who/what moved it.
CREATE TABLE withdrawal_steps (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  withdrawal_id  uuid NOT NULL REFERENCES withdrawals (id) ON DELETE CASCADE,
  status         text NOT NULL CHECK (status IN ('requested', 'approved', 'sent', 'paid', 'rejected', 'failed')),
  note           text,
  actor          text NOT NULL,
  at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX withdrawal_steps_withdrawal_idx ON withdrawal_steps (withdrawal_id, id);

-- Payout callbacks processed, once per (provider, event id), as payment_webhook_events for deposits.
CREATE TABLE withdrawal_callback_events (
  provider       text NOT NULL,
  event_id       text NOT NULL CHECK (length(event_id) BETWEEN 1 AND 200),
  payload_hash   text NOT NULL,
  event_type     text NOT NULL,
  withdrawal_id  uuid REFERENCES withdrawals (id),
  outcome        text NOT NULL CHECK (outcome IN ('processed', 'ignored', 'refused')),
  detail         text,
  received_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
