-- 0085_job_leases: which node runs each background job (server/lifecycle/Jobs.ts). With several
-- casino nodes on one database, each job (bonus expiry, loyalty points and cashback, the chain
-- watcher, deposit expiry, payouts, the free-rounds outbox, pruning and sweeps) runs on the node
-- holding its lease, once per period for the whole cluster. A holder renews at each round; a lease
-- not renewed before `expires_at` (its node died) is taken by the next node that asks, and a node
-- that stops gracefully gives its leases back at once.
CREATE TABLE job_leases (
  job text PRIMARY KEY CHECK (length(job) BETWEEN 1 AND 64),
  holder text NOT NULL CHECK (length(holder) BETWEEN 1 AND 128),
  acquired_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  -- When the job is due next, whoever holds it: a node that takes over keeps the cluster's rhythm.
  next_run_at timestamptz NOT NULL,
  -- Rounds run under this lease, by any holder: what an operator reads to see the job is alive.
  runs bigint NOT NULL DEFAULT 0,
  last_run_at timestamptz
);
