-- 0062_onramp_sandbox_apart: the sandbox on-ramp is an outside party with storage of its own
-- (docs/onramp.md); drop the table it once kept in the casino's database.
DROP TABLE IF EXISTS onramp_sandbox_orders CASCADE;
