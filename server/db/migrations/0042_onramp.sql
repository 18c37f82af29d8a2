-- 0042_onramp: the Buy crypto widgets' order-status callbacks (docs/onramp.md). (The sandbox
-- on-ramp, an outside party, keeps its own tables in its own storage.)
-- Portable PostgreSQL (15 … 18 / PGlite).

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
