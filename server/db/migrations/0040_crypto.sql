-- 0040_crypto: crypto deposits (server/crypto/, docs/crypto.md): per-player deposit
-- addresses derived from the chains' account xpubs, the transfers the chain watcher saw, its
-- per-network cursor and recent block hashes (reorg detection), and operator alerts.

-- The next derivation index per network (<xpub>/0/<index>): taken under the row's lock, so two
-- processes never hand out one index twice.
CREATE TABLE crypto_address_counters (
  network     text PRIMARY KEY CHECK (network IN ('bitcoin', 'litecoin', 'dogecoin', 'ethereum')),
  next_index  integer NOT NULL DEFAULT 0 CHECK (next_index >= 0)
);

-- One address per player and network (ETH and USDT share the ethereum one); never reused.
CREATE TABLE crypto_addresses (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id           uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  network           text NOT NULL CHECK (network IN ('bitcoin', 'litecoin', 'dogecoin', 'ethereum')),
  derivation_index  integer NOT NULL CHECK (derivation_index >= 0),
  -- As the chain prints it (EIP-55 checksummed on ethereum) ...
  address           text NOT NULL,
  -- ... and as the watcher compares it (lowercase on ethereum).
  address_normalized text NOT NULL,
  -- The account xpub's fingerprint it was derived from: a changed xpub is visible, never silent.
  xpub_fingerprint  text NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, network),
  UNIQUE (network, address_normalized),
  UNIQUE (network, xpub_fingerprint, derivation_index)
);

-- Every transfer to a player's address the watcher saw, once per output (UTXO vout, ERC-20 log
-- index; native ETH has none: -1 in the unique key through COALESCE).
CREATE TABLE crypto_deposits (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id                uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  network                text NOT NULL,
  currency               text NOT NULL REFERENCES currencies (code),
  tx_hash                text NOT NULL,
  output_index           integer CHECK (output_index IS NULL OR output_index >= 0),
  address                text NOT NULL,
  amount                 numeric(38, 0) NOT NULL CHECK (amount > 0),
  block_height           bigint NOT NULL,
  block_hash             text NOT NULL,
  confirmations          integer NOT NULL DEFAULT 0 CHECK (confirmations >= 0),
  required_confirmations integer NOT NULL CHECK (required_confirmations >= 1),
  -- Bumped when an orphaned transfer is mined again in another block: each generation is credited
  -- (and reversed) at most once, under its own ledger key.
  generation             integer NOT NULL DEFAULT 0 CHECK (generation >= 0),
  status                 text NOT NULL DEFAULT 'pending'
                           CHECK (status IN ('pending', 'credited', 'below_minimum', 'orphaned')),
  ledger_transaction_id  uuid REFERENCES ledger_transactions (id),
  -- The reversal posting of a credit whose block was replaced by a reorg.
  reversal_transaction_id uuid REFERENCES ledger_transactions (id),
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  credited_at            timestamptz,
  CHECK ((status = 'credited') = (ledger_transaction_id IS NOT NULL AND reversal_transaction_id IS NULL))
);
CREATE UNIQUE INDEX crypto_deposits_output_key
  ON crypto_deposits (network, tx_hash, (COALESCE(output_index, -1)));
CREATE INDEX crypto_deposits_user_created_idx ON crypto_deposits (user_id, created_at DESC);
CREATE INDEX crypto_deposits_open_idx ON crypto_deposits (network, block_height) WHERE status = 'pending';

-- Where the watcher of each network stands: the last block scanned (height and hash).
CREATE TABLE crypto_chain_cursors (
  network      text PRIMARY KEY,
  height       bigint NOT NULL,
  block_hash   text NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- The hashes of the recently scanned blocks per network: a parent-hash mismatch walks back through
-- them to the fork point. Older ones are pruned (they are deeper than any reorg we accept).
CREATE TABLE crypto_scanned_blocks (
  network      text NOT NULL,
  height       bigint NOT NULL,
  block_hash   text NOT NULL,
  PRIMARY KEY (network, height)
);

-- What the watcher could not settle alone, for an operator (e.g. a reorg reversal the player's
-- balance no longer covers). One row per event, never auto-resolved.
CREATE TABLE crypto_alerts (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind        text NOT NULL,
  deposit_id  uuid REFERENCES crypto_deposits (id),
  detail      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  UNIQUE (kind, deposit_id)
);
