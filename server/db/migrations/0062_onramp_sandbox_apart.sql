-- 0062_onramp_sandbox_apart: the sandbox on-ramp now keeps its orders in its own storage
-- (providers/onramp-sandbox/migrations/); drop the table it once had in the casino's database.
DROP TABLE IF EXISTS onramp_sandbox_orders CASCADE;
