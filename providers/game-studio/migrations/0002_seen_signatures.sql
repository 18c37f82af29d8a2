-- 0002_seen_signatures: the casino requests the studio accepted that carried a requestId (launch,
-- games list), so a captured request replayed within the 300 s tolerance is refused (401
-- REPLAYED_SIGNATURE) on any studio instance of this database. Pruned when written to: rows older
-- than the tolerance could not pass as fresh anyway.
CREATE TABLE studio_seen_signatures (
  -- The accepted v1: HMAC-SHA256 of t + "." + body under the casino key (32 bytes).
  signature  bytea PRIMARY KEY CHECK (length(signature) = 32),
  -- Its t (unix seconds).
  signed_at  bigint NOT NULL
);
