/**
 * The casino's background loops (signature pruning, payouts…): a round every interval for the
 * server's lifetime. A failed round is logged and the loop carries on — a database hiccup must not
 * end it — while interruption (the server stopping) still ends it.
 */
import { Cause, type Duration, Effect, type Scope } from "effect"

export const forkEvery = <E, R>(
  round: Effect.Effect<unknown, E, R>,
  every: Duration.Input,
  what: string,
  options: { readonly firstAfterInterval?: boolean } = {},
): Effect.Effect<void, never, R | Scope.Scope> => {
  const loop = round.pipe(
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : Effect.logWarning(`${what} failed`, cause),
    ),
    Effect.andThen(Effect.sleep(every)),
    Effect.forever,
  )
  return (options.firstAfterInterval === true ? Effect.delay(loop, every) : loop).pipe(
    Effect.forkScoped,
    Effect.asVoid,
  )
}
