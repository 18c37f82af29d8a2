/**
 * Effect → XState bridge. An invoked actor runs an Effect program; success is the actor's output, a
 * typed failure is thrown as itself so `onError` receives the tagged error (matched exhaustively
 * with ts-pattern in the machine). Leaving the invoking state aborts the signal, which interrupts
 * the fiber and cancels the fetch. The programs need no services: the contract's clients
 * (`services/client.ts`) are plain values.
 */
import { Cause, Effect, Exit, Result } from "effect"
import { fromPromise, type PromiseActorLogic } from "xstate"

/** A defect or interruption: nothing the contract describes. Machines treat it as unexpected. */
export class UnexpectedError extends Error {
  readonly _tag = "UnexpectedError"
  override readonly cause: unknown
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause))
    this.name = "UnexpectedError"
    this.cause = cause
  }
}

export const runForActor = async <A, E>(program: Effect.Effect<A, E>, signal: AbortSignal): Promise<A> => {
  const exit = await Effect.runPromiseExit(program, { signal })
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.findError(exit.cause)
  if (Result.isSuccess(failure)) throw failure.success
  throw new UnexpectedError(Cause.squash(exit.cause))
}

/** Actor logic from an Effect program: `fromEffect((input: I) => program)`. */
export const fromEffect = <A, I, E>(program: (input: I) => Effect.Effect<A, E>): PromiseActorLogic<A, I> =>
  fromPromise<A, I>(({ input, signal }) => runForActor(program(input), signal))

/**
 * The same, for a program whose module is downloaded on first need (`load` imports it): the first
 * screen does not carry it. A failed download is the actor's error, like a failed call.
 */
export const fromLazyEffect = <A, E, I = unknown>(
  load: (input: I) => Promise<Effect.Effect<A, E>>,
): PromiseActorLogic<A, I> =>
  fromPromise<A, I>(async ({ input, signal }) => runForActor(await load(input), signal))
