-- Core tables of the casino server: reference data (currencies, countries), the shared rate-limit
-- counters and browser error reports. Portable PostgreSQL (PGlite 18 and PostgreSQL 15).

CREATE TABLE currencies (
  code TEXT PRIMARY KEY CHECK (code ~ '^[A-Z0-9]{2,10}$'),
  name TEXT NOT NULL,
  symbol TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('FIAT', 'CRYPTO')),
  -- Minor units per unit (100 for cents, 10^8 satoshi, 10^18 wei): exact integer, never a float.
  subunits_to_unit NUMERIC(38, 0) NOT NULL CHECK (subunits_to_unit >= 1),
  sort_order INTEGER NOT NULL DEFAULT 0,
  enabled BOOLEAN NOT NULL DEFAULT TRUE
);

CREATE TABLE countries (
  code CHAR(2) PRIMARY KEY CHECK (code ~ '^[A-Z]{2}$'),
  name TEXT NOT NULL,
  -- Country calling code without '+', e.g. '356'.
  dialing_code TEXT NOT NULL CHECK (dialing_code ~ '^[0-9]{1,4}$')
);

-- Fixed-window counters shared by every server process: one row per (key, window).
CREATE TABLE rate_limit_counters (
  key TEXT NOT NULL,
  window_start TIMESTAMPTZ NOT NULL,
  window_seconds INTEGER NOT NULL CHECK (window_seconds > 0),
  hits INTEGER NOT NULL CHECK (hits >= 1),
  expires_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (key, window_seconds, window_start)
);
CREATE INDEX rate_limit_counters_expires_at ON rate_limit_counters (expires_at);

-- Unexpected errors reported by browsers (POST /api/error-logger).
CREATE TABLE error_reports (
  id BIGSERIAL PRIMARY KEY,
  report JSONB NOT NULL,
  ip TEXT NOT NULL,
  user_agent TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX error_reports_created_at ON error_reports (created_at);
