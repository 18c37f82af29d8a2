-- 0055_game_wallet_signatures: the signatures of the providers' wallet calls the casino accepted
-- (docs/game-wallet-protocol.md, "Signatures"). A call whose exact signature is here is a replay,
-- refused 401 REPLAYED_SIGNATURE on any instance (the primary key decides, not a process's memory).
-- Written in the statement that claims the call (bet, win) or reads its session (balance), so it
-- commits with the settlement. Rows are pruned once `signed_at` is past the tolerance: a replay of
-- them is refused as stale anyway. No index on signed_at on purpose: a scan once a minute is
-- cheaper than a second index written by every call.
CREATE TABLE game_wallet_signatures (
  -- The accepted v1: HMAC-SHA256 of t + "." + body under the integration's wallet secret.
  signature  bytea PRIMARY KEY CHECK (length(signature) = 32),
  -- Its t (unix seconds).
  signed_at  bigint NOT NULL
);
