/**
 * Group commit: one writer that settles together whatever arrived while its previous batch was
 * being written. Nothing waits for a batch to fill — on a quiet service a batch is one job —, and
 * under load one transaction carries many. Used by the casino's money paths
 * (server/games/settlementBatch.ts, server/payments/depositBatch.ts).
 *
 * A batch holds at most one job per key (`keys`: a player, an id, a round…), and two batches in
 * flight share none: a job whose key is taken waits for the next batch, so the jobs of one key run
 * in arrival order and no batch meets the same row twice. `run` answers every job of its batch (each job's `done`); a
 * batch once started runs to its end, even while the service stops, since its callers wait.
 */
import { Deferred, Effect, Queue, type Scope } from "effect"

export interface Pending<J, A> {
  readonly job: J
  readonly done: Deferred.Deferred<A>
}

/** A batch finished: its keys are free again (wakes the writer when jobs wait on them). */
const WAKE = Symbol("wake")

export const makeBatcher = <J, A>(options: {
  /** What a batch may hold only once — and what two batches in flight never share. */
  readonly keys: (job: J) => ReadonlyArray<string>
  readonly maxBatch: number
  /**
   * Batches in flight at once (default 1). Their keys are disjoint, so two would meet only on the
   * shared rows every settlement takes last (a house or clearing account). Measured on two cores
   * (docs/performance.md#game-settlement), a second batch in flight made batches smaller and each
   * call dearer: 1 is the default.
   */
  readonly concurrency?: number
  /** Settles a batch and completes every job's `done`; must not fail. */
  readonly run: (batch: ReadonlyArray<Pending<J, A>>) => Effect.Effect<void>
}): Effect.Effect<{ readonly submit: (job: J) => Effect.Effect<A> }, never, Scope.Scope> =>
  Effect.gen(function* () {
    const queue = yield* Queue.unbounded<Pending<J, A> | typeof WAKE>()
    const concurrency = options.concurrency ?? 1
    /** The keys of the batches in flight. */
    const held = new Set<string>()
    let running = 0

    const pick = (waiting: ReadonlyArray<Pending<J, A>>) => {
      const batch: Array<Pending<J, A>> = []
      const carry: Array<Pending<J, A>> = []
      const taken = new Set<string>()
      for (const p of waiting) {
        const keys = options.keys(p.job)
        if (batch.length >= options.maxBatch || keys.some((k) => taken.has(k) || held.has(k))) carry.push(p)
        else {
          for (const k of keys) taken.add(k)
          batch.push(p)
        }
      }
      return { batch, carry, keys: taken }
    }

    yield* Effect.forkScoped(
      Effect.gen(function* () {
        let carry: ReadonlyArray<Pending<J, A>> = []
        // True when nothing can start until a job arrives or a batch ends: then the writer sleeps.
        let stalled = false
        while (true) {
          const arrived =
            carry.length === 0 || stalled ? yield* Queue.takeAll(queue) : yield* Queue.clear(queue)
          carry = [...carry, ...arrived.filter((m): m is Pending<J, A> => m !== WAKE)]
          if (running >= concurrency) {
            stalled = true
            continue
          }
          const next = pick(carry)
          carry = next.carry
          stalled = next.batch.length === 0
          if (stalled) continue
          for (const k of next.keys) held.add(k)
          running++
          yield* Effect.forkChild(
            Effect.uninterruptible(
              options.run(next.batch).pipe(
                Effect.ensuring(
                  Effect.suspend(() => {
                    for (const k of next.keys) held.delete(k)
                    running--
                    return Queue.offer(queue, WAKE)
                  }),
                ),
              ),
            ),
          )
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
