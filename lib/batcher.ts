/**
 * Group commit: one writer that settles together whatever arrived while its previous batch was
 * being written. Nothing waits for a batch to fill — on a quiet service a batch is one job —, and
 * under load one transaction carries many. Used by the casino's money paths
 * (server/games/settlementBatch.ts, server/payments/depositBatch.ts).
 *
 * A batch holds at most one job per key (`keys`: a player, an id, a round…): a second job with a
 * key already taken waits for the next batch, so the jobs of one key run in arrival order and no
 * batch meets the same row twice. `run` answers every job of its batch (each job's `done`); a
 * batch once started runs to its end, even while the service stops, since its callers wait.
 */
import { Deferred, Effect, Queue, type Scope } from "effect"

export interface Pending<J, A> {
  readonly job: J
  readonly done: Deferred.Deferred<A>
}

export const makeBatcher = <J, A>(options: {
  /** What a batch may hold only once. */
  readonly keys: (job: J) => ReadonlyArray<string>
  readonly maxBatch: number
  /** Settles a batch and completes every job's `done`; must not fail. */
  readonly run: (batch: ReadonlyArray<Pending<J, A>>) => Effect.Effect<void>
}): Effect.Effect<{ readonly submit: (job: J) => Effect.Effect<A> }, never, Scope.Scope> =>
  Effect.gen(function* () {
    const queue = yield* Queue.unbounded<Pending<J, A>>()

    const pick = (waiting: ReadonlyArray<Pending<J, A>>) => {
      const batch: Array<Pending<J, A>> = []
      const carry: Array<Pending<J, A>> = []
      const taken = new Set<string>()
      for (const p of waiting) {
        const keys = options.keys(p.job)
        if (batch.length >= options.maxBatch || keys.some((k) => taken.has(k))) carry.push(p)
        else {
          for (const k of keys) taken.add(k)
          batch.push(p)
        }
      }
      return { batch, carry }
    }

    yield* Effect.forkScoped(
      Effect.gen(function* () {
        let carry: ReadonlyArray<Pending<J, A>> = []
        while (true) {
          const arrived = carry.length === 0 ? yield* Queue.takeAll(queue) : yield* Queue.clear(queue)
          const next = pick([...carry, ...arrived])
          carry = next.carry
          yield* Effect.uninterruptible(options.run(next.batch))
        }
      }),
    )

    const submit = (job: J) =>
      Effect.gen(function* () {
        const done = yield* Deferred.make<A>()
        yield* Queue.offer(queue, { job, done })
        return yield* Deferred.await(done)
      })
    return { submit }
  })
