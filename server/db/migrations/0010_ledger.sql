-- 0010_ledger: the double-entry ledger (accounts, transactions, entries), every wallet made the
-- player's cash account of the ledger, per-currency rates and minimums, analytics events.
-- Portable PostgreSQL (15 … 18 / PGlite). Amounts are integer minor units (numeric(38,0)).

CREATE TABLE ledger_accounts (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- player_cash: a player's wallet; gateway_clearing: what a payment provider owes the casino for
  -- payments it confirmed (one per provider and currency); house: the casino's own money.
  kind        text NOT NULL CHECK (kind IN ('player_cash', 'gateway_clearing', 'house')),
  user_id     uuid REFERENCES users (id) ON DELETE RESTRICT,
  -- Names a system account (the provider's code for gateway_clearing); NULL for a player's.
  code        text,
  currency    text NOT NULL REFERENCES currencies (code),
  -- The sum of the account's entries, kept by the ledger in the same transaction as the entries.
  balance     numeric(38, 0) NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'player_cash') = (user_id IS NOT NULL)),
  CHECK ((kind = 'player_cash') = (code IS NULL)),
  -- A player can never owe the casino: no overdraft, whatever the code above does.
  CONSTRAINT ledger_accounts_player_not_negative CHECK (kind <> 'player_cash' OR balance >= 0)
);
CREATE UNIQUE INDEX ledger_accounts_player_key ON ledger_accounts (user_id, currency) WHERE kind = 'player_cash';
CREATE UNIQUE INDEX ledger_accounts_system_key ON ledger_accounts (kind, code, currency) WHERE kind <> 'player_cash';

CREATE TABLE ledger_transactions (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind             text NOT NULL CHECK (kind ~ '^[a-z_.]{1,40}$'),
  -- One posting per business event (e.g. 'deposit:<deposit id>'): a replay finds the first one.
  idempotency_key  text NOT NULL UNIQUE CHECK (length(idempotency_key) BETWEEN 1 AND 200),
  -- SHA-256 of the posting's content (kind, entries): the same key with other content is refused.
  fingerprint      text NOT NULL,
  metadata         jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_transactions_created_idx ON ledger_transactions (created_at);

CREATE TABLE ledger_entries (
  id              bigserial PRIMARY KEY,
  transaction_id  uuid NOT NULL REFERENCES ledger_transactions (id) ON DELETE RESTRICT,
  account_id      uuid NOT NULL REFERENCES ledger_accounts (id) ON DELETE RESTRICT,
  currency        text NOT NULL REFERENCES currencies (code),
  -- Signed: + increases the account's balance, - decreases it. Never 0.
  amount          numeric(38, 0) NOT NULL CHECK (amount <> 0)
);
CREATE INDEX ledger_entries_transaction_idx ON ledger_entries (transaction_id);
CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id);

-- Wallets become the players' cash accounts: a wallet's id IS its ledger account's id, and the
-- balance lives only in ledger_accounts (the wallets.balance column goes: one source of truth).
-- Before this migration nothing could change a balance, so every wallet is at 0; refuse otherwise
-- rather than invent an opening balance.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM wallets WHERE balance <> 0) THEN
    RAISE EXCEPTION 'wallets with a non-zero balance exist: post opening balances before migrating';
  END IF;
END
$$;

INSERT INTO ledger_accounts (id, kind, user_id, currency, created_at)
SELECT id, 'player_cash', user_id, currency, created_at FROM wallets;

ALTER TABLE wallets DROP COLUMN balance;
ALTER TABLE wallets ADD CONSTRAINT wallets_ledger_account_fk
  FOREIGN KEY (id) REFERENCES ledger_accounts (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;

-- Whoever inserts a wallet (registration, adding a currency) gets its ledger account with it.
CREATE FUNCTION wallets_open_ledger_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A second wallet in the same currency is refused by wallets' own UNIQUE (user_id, currency)
  -- (ON CONFLICT there): let that decide, instead of failing here on the accounts' twin index.
  INSERT INTO ledger_accounts (id, kind, user_id, currency)
  VALUES (NEW.id, 'player_cash', NEW.user_id, NEW.currency)
  ON CONFLICT (user_id, currency) WHERE kind = 'player_cash' DO NOTHING;
  RETURN NEW;
END
$$;
CREATE TRIGGER wallets_open_ledger_account BEFORE INSERT ON wallets
  FOR EACH ROW EXECUTE FUNCTION wallets_open_ledger_account();

-- Rates and minimums per currency (spec: minPromotion, minDeposit, eurRate; minWithdraw).
-- eur_rate: EUR per ONE WHOLE unit of the currency, exact. Minimums in the currency's minor units.
CREATE TABLE currency_rates (
  currency       text PRIMARY KEY REFERENCES currencies (code),
  eur_rate       numeric(38, 18) NOT NULL CHECK (eur_rate > 0),
  min_deposit    numeric(38, 0) NOT NULL CHECK (min_deposit >= 0),
  min_promotion  numeric(38, 0) NOT NULL CHECK (min_promotion >= 0),
  min_withdraw   numeric(38, 0) NOT NULL CHECK (min_withdraw >= 0),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  updated_by     text NOT NULL DEFAULT 'seed'
);

-- The casino's own first-party analytics (POST /api/analytics/events).
CREATE TABLE analytics_events (
  id          bigserial PRIMARY KEY,
  name        text NOT NULL,
  properties  jsonb NOT NULL,
  user_id     uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX analytics_events_name_created_idx ON analytics_events (name, created_at);
