-- 0060_payment_sandbox_apart: the payment provider's test environment keeps its own storage (its own
-- schema or PGlite folder, with its own migrations): its old tables leave the casino's database.
-- Nothing of the casino references them. Portable PostgreSQL (15 … 18 / PGlite).
DROP TABLE IF EXISTS sandbox_webhook_outbox CASCADE;
DROP TABLE IF EXISTS sandbox_payouts CASCADE;
DROP TABLE IF EXISTS sandbox_gateway_rules CASCADE;
DROP TABLE IF EXISTS sandbox_payments CASCADE;
DROP TABLE IF EXISTS sandbox_settings CASCADE;
