-- 0077_backoffice_players: what the back office's players group writes — why a player is locked,
-- the operators' notes on a player, and balance adjustments (posted through the ledger; above
-- BACKOFFICE_ADJUST_APPROVAL_MINOR they wait for a second operator). Portable PostgreSQL (15 … 18 / PGlite).

-- users.locked_at (0002) already refuses sign-in (423) and ends sessions; the reason goes beside it.
ALTER TABLE users ADD COLUMN locked_reason text
  CHECK (locked_reason IS NULL OR length(locked_reason) BETWEEN 1 AND 500);

-- Notes are append-only in the API (written, never edited): the history is the page's.
CREATE TABLE player_notes (
  id              bigserial PRIMARY KEY,
  user_id         uuid NOT NULL REFERENCES users (id),
  operator_id     uuid NOT NULL REFERENCES backoffice_operators (id),
  operator_email  text NOT NULL,
  body            text NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_notes_user_idx ON player_notes (user_id, id DESC);

-- One row per requested adjustment of a player's cash balance. `pending` waits for a second
-- operator (never its requester: the CHECK says so too); `posted` names its ledger transaction.
CREATE TABLE balance_adjustments (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The operator's client sends it: a retried request finds the first one instead of posting twice.
  idempotency_key     text NOT NULL UNIQUE CHECK (length(idempotency_key) BETWEEN 8 AND 100),
  user_id             uuid NOT NULL REFERENCES users (id),
  currency            text NOT NULL REFERENCES currencies (code),
  -- Signed minor units: + credits the player, - debits them.
  amount              numeric(38, 0) NOT NULL CHECK (amount <> 0),
  reason              text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  needs_approval      boolean NOT NULL,
  status              text NOT NULL CHECK (status IN ('pending', 'posted', 'rejected')),
  requested_by        uuid NOT NULL REFERENCES backoffice_operators (id),
  requested_by_email  text NOT NULL,
  requested_at        timestamptz NOT NULL DEFAULT now(),
  decided_by          uuid REFERENCES backoffice_operators (id),
  decided_by_email    text,
  decided_at          timestamptz,
  decision_reason     text CHECK (decision_reason IS NULL OR length(decision_reason) BETWEEN 1 AND 500),
  transaction_id      uuid REFERENCES ledger_transactions (id),
  -- Below the threshold it is pending only inside the transaction that posts it: never rejected.
  CHECK (needs_approval OR status <> 'rejected'),
  CHECK ((status = 'pending') = (decided_at IS NULL)),
  CHECK ((status = 'posted') = (transaction_id IS NOT NULL)),
  CHECK ((status = 'rejected') = (decision_reason IS NOT NULL)),
  -- Above the threshold a decision is another operator's; below it nobody decides.
  CHECK ((needs_approval AND status <> 'pending') = (decided_by IS NOT NULL)),
  CHECK (decided_by IS NULL OR decided_by <> requested_by)
);
CREATE INDEX balance_adjustments_user_idx ON balance_adjustments (user_id, requested_at DESC);
CREATE INDEX balance_adjustments_pending_idx ON balance_adjustments (requested_at) WHERE status = 'pending';
