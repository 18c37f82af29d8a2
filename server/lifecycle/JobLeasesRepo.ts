/**
 * The SQL of the background jobs' leases (migration 0085): take or renew one, count a round, give
 * it back. Only `Jobs` (Jobs.ts) calls it; times are the database's clock, the same for every node.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export interface JobLeasesRepoShape {
  /**
   * Takes the lease of `job` for `holder` (or renews it) for `ttlMs`, when it is free, expired or
   * already this holder's. A first taker schedules the first round `firstInMs` from now. Returns
   * how long until the job is due (0: now), or undefined when another node holds it.
   */
  hold(
    job: string,
    holder: string,
    ttlMs: number,
    firstInMs: number,
  ): Effect.Effect<number | undefined, SqlError.SqlError>
  /** A round done by the holder: counted, the next one due in `everyMs`, the lease renewed. */
  ran(job: string, holder: string, everyMs: number, ttlMs: number): Effect.Effect<void, SqlError.SqlError>
  /** Gives the lease back (a graceful stop): the next node that asks takes it. */
  release(job: string, holder: string): Effect.Effect<void, SqlError.SqlError>
}

export class JobLeasesRepo extends Context.Service<JobLeasesRepo, JobLeasesRepoShape>()(
  "casino/server/JobLeasesRepo",
) {
  static readonly layer = Layer.effect(
    JobLeasesRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return {
        hold: (job, holder, ttlMs, firstInMs) =>
          sql<{ readonly dueInMs: number }>`
            INSERT INTO job_leases (job, holder, expires_at, next_run_at)
            VALUES (${job}, ${holder}, now() + ${ttlMs}::int * interval '1 millisecond',
                    now() + ${firstInMs}::int * interval '1 millisecond')
            ON CONFLICT (job) DO UPDATE SET
              holder = EXCLUDED.holder,
              expires_at = EXCLUDED.expires_at,
              acquired_at = CASE WHEN job_leases.holder = EXCLUDED.holder
                                 THEN job_leases.acquired_at ELSE now() END
            WHERE job_leases.holder = EXCLUDED.holder OR job_leases.expires_at < now()
            RETURNING GREATEST(0, floor(extract(epoch FROM (job_leases.next_run_at - now())) * 1000))::int AS "dueInMs"`.pipe(
            Effect.map((rows) => rows[0]?.dueInMs),
          ),
        ran: (job, holder, everyMs, ttlMs) =>
          sql`
            UPDATE job_leases SET runs = runs + 1, last_run_at = now(),
              next_run_at = now() + ${everyMs}::int * interval '1 millisecond',
              expires_at = now() + ${ttlMs}::int * interval '1 millisecond'
            WHERE job = ${job} AND holder = ${holder}`.pipe(Effect.asVoid),
        release: (job, holder) =>
          sql`UPDATE job_leases SET expires_at = now() - interval '1 millisecond'
              WHERE job = ${job} AND holder = ${holder}`.pipe(Effect.asVoid),
      } satisfies JobLeasesRepoShape
    }),
  )
}
