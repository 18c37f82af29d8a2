-- 0045_crypto_payouts: the EVM hot wallet's payout transactions (server/crypto/evm/HotWallet.ts).
--
-- A payout is signed ONCE per request key and the signed transaction is stored here BEFORE it is
-- broadcast: a repeat (a retry, a restart, a second server) finds the row and rebroadcasts the very
-- same bytes, so one withdrawal can never become two transfers. Nonces are handed out under a row
-- lock on the wallet's row, so concurrent payouts (two servers) never sign two transactions with
-- the same nonce.

CREATE TABLE crypto_hot_wallets (
  network     text NOT NULL,
  address     text NOT NULL,            -- lowercase 0x address
  next_nonce  bigint NOT NULL CHECK (next_nonce >= 0),
  PRIMARY KEY (network, address)
);

CREATE TABLE crypto_payout_transactions (
  id               bigserial PRIMARY KEY,
  request_key      text NOT NULL UNIQUE,
  network          text NOT NULL,
  currency         text NOT NULL,
  from_address     text NOT NULL,
  to_address       text NOT NULL,
  -- Minor units (wei, USDT's 6 decimals): wei amounts outgrow bigint, hence numeric.
  amount           numeric(78, 0) NOT NULL CHECK (amount > 0),
  nonce            bigint NOT NULL CHECK (nonce >= 0),
  gas_limit        numeric(78, 0) NOT NULL CHECK (gas_limit > 0),
  max_fee_per_gas  numeric(78, 0) NOT NULL CHECK (max_fee_per_gas > 0),
  tx_hash          text NOT NULL UNIQUE,
  raw_tx           text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  broadcast_at     timestamptz,
  FOREIGN KEY (network, from_address) REFERENCES crypto_hot_wallets (network, address),
  UNIQUE (network, from_address, nonce)
);
