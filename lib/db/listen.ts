/**
 * A PostgreSQL `LISTEN` held for the lifetime of the enclosing scope: every notification's payload
 * is handed to `onPayload`, one at a time, in the order PostgreSQL delivers them (commit order). A
 * lost connection is logged and the LISTEN taken again a second later; notifications sent while
 * it was down are gone, so callers treat them as hints beside a re-read.
 *
 * The effect returns once the first LISTEN is confirmed (or after `readyWithin`, logged), so a
 * server that has started already hears what other processes publish.
 */
import { PgClient } from "@effect/sql-pg"
import { Deferred, Duration, Effect, type Scope, Stream } from "effect"

export const listenForever = (
  channel: string,
  onPayload: (payload: string) => Effect.Effect<void>,
  readyWithin: Duration.Input = Duration.seconds(10),
): Effect.Effect<void, never, PgClient.PgClient | Scope.Scope> =>
  Effect.gen(function* () {
    const pg = yield* PgClient.PgClient
    const ready = yield* Deferred.make<void>()
    yield* Effect.gen(function* () {
      const queue = yield* pg.listen(channel)
      yield* Deferred.succeed(ready, undefined)
      yield* Stream.fromQueue(queue).pipe(Stream.runForEach((n) => onPayload(n.payload)))
    }).pipe(
      Effect.scoped,
      Effect.catchCause((cause) => Effect.logWarning(`LISTEN ${channel} stopped; restarting`, cause)),
      Effect.andThen(Effect.sleep(Duration.seconds(1))),
      Effect.forever,
      Effect.forkScoped,
    )
    const confirmed = yield* Deferred.await(ready).pipe(Effect.timeoutOption(readyWithin))
    if (confirmed._tag === "None")
      yield* Effect.logWarning(`LISTEN ${channel} not confirmed yet; starting without it`)
  })
