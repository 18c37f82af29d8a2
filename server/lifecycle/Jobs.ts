/**
 * The casino's background jobs, once per cluster: each job's rounds run on the node holding its
 * lease (a `job_leases` row, JobLeasesRepo.ts), whatever the number of nodes on the database.
 *
 * - The holder renews the lease at each check and each round; the row says when the job is due
 *   next, so a node that takes over keeps the cluster's rhythm (no extra round at a handover).
 * - A lease lives one period and a margin (half a period, at least 2 s) past its last renewal: a
 *   holder that dies (kill -9) is replaced when it expires, and the job's next round comes at most
 *   about one period late. Nodes without the lease ask every period, at most every 5 s.
 * - A node that stops gracefully (its scope closes: SIGTERM's drain) gives its leases back, and the
 *   next node that asks runs the job when it is due.
 * - A failed round is logged and counted (`background_job_runs_total{outcome="failed"}`) and the
 *   loop carries on; a database that does not answer means "not the holder" until it does.
 */
import { Cause, Context, Duration, Effect, Exit, Layer, type Scope } from "effect"
import { observeJobLease, observeJobRound } from "../metrics/registry.ts"
import { JobLeasesRepo } from "./JobLeasesRepo.ts"

export interface JobOptions {
  /** The first round's delay for a cluster that never ran the job (the server is still starting). */
  readonly firstAfter?: Duration.Input
}

export interface JobsShape {
  /** This node's name on its leases (random per start: a restarted node is a new holder). */
  readonly holder: string
  /**
   * Runs `round` every `every` for the cluster, on whichever node holds `job`'s lease, for the
   * scope's lifetime (forked; returns at once).
   */
  readonly every: <E, R>(
    job: string,
    round: Effect.Effect<unknown, E, R>,
    every: Duration.Input,
    options?: JobOptions,
  ) => Effect.Effect<void, never, R | Scope.Scope>
}

const POLL_MAX_MS = 5_000

export class Jobs extends Context.Service<Jobs, JobsShape>()("casino/server/Jobs") {
  static readonly layer = Layer.effect(
    Jobs,
    Effect.gen(function* () {
      const repo = yield* JobLeasesRepo
      const holder = `node-${crypto.randomUUID()}`
      const every: JobsShape["every"] = (job, round, period, options = {}) =>
        Effect.gen(function* () {
          const everyMs = Math.max(1, Math.round(Duration.toMillis(Duration.fromInputUnsafe(period))))
          const ttlMs = everyMs + Math.max(2_000, Math.round(everyMs / 2))
          const firstInMs = Math.round(Duration.toMillis(Duration.fromInputUnsafe(options.firstAfter ?? 0)))
          const pollMs = Math.min(everyMs, POLL_MAX_MS)
          let held = false
          const step = Effect.gen(function* () {
            const due = yield* repo
              .hold(job, holder, ttlMs, firstInMs)
              .pipe(
                Effect.catchCause((cause) =>
                  Effect.as(Effect.logWarning(`job ${job}: its lease could not be read`, cause), undefined),
                ),
              )
            held = due !== undefined
            observeJobLease(job, held)
            if (due === undefined) return yield* Effect.sleep(Duration.millis(pollMs))
            if (due > 0) return yield* Effect.sleep(Duration.millis(Math.min(due, everyMs)))
            const started = performance.now()
            // Each round has an id of its own on its log lines and its calls to providers.
            const roundId = `job-${job}-${crypto.randomUUID().slice(0, 8)}`
            const exit = yield* Effect.exit(round.pipe(Effect.annotateLogs({ job, requestId: roundId })))
            if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause))
              return yield* Effect.failCause(exit.cause)
            observeJobRound(job, Exit.isSuccess(exit), (performance.now() - started) / 1000)
            if (Exit.isFailure(exit)) yield* Effect.logWarning(`job ${job} failed`, exit.cause)
            yield* repo
              .ran(job, holder, everyMs, ttlMs)
              .pipe(
                Effect.catchCause((cause) =>
                  Effect.logWarning(`job ${job}: its round was not recorded`, cause),
                ),
              )
            yield* Effect.sleep(Duration.millis(everyMs))
          })
          // Given back when the server stops (its scope closes), so another node need not wait.
          yield* Effect.addFinalizer(() =>
            held
              ? repo.release(job, holder).pipe(
                  Effect.tap(() => Effect.sync(() => observeJobLease(job, false))),
                  Effect.ignore,
                )
              : Effect.void,
          )
          yield* Effect.forkScoped(Effect.forever(step))
        })
      return { holder, every } satisfies JobsShape
    }),
  )
}
