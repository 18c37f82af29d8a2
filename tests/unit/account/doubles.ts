/**
 * Doubles for the account-flow actor tests: a promise actor the test settles by hand (so it can
 * look at the call's input and at its abort signal), a toast recorder, and a microtask flush.
 */
import { fromPromise } from "xstate"
import type { ToastParams } from "../../../machines/flowSupport.ts"

export interface Call<I, O> {
  readonly input: I
  readonly signal: AbortSignal
  readonly resolve: (output: O) => void
  readonly reject: (error: unknown) => void
}

/** A promise actor whose every call waits until the test resolves or rejects it. */
export const controlled = <O, I>() => {
  const calls: Array<Call<I, O>> = []
  const logic = fromPromise<O, I>(
    ({ input, signal }) =>
      new Promise<O>((resolve, reject) => {
        calls.push({ input, signal, resolve, reject })
      }),
  )
  const last = (): Call<I, O> => {
    const call = calls.at(-1)
    if (call === undefined) throw new Error("the call was not made")
    return call
  }
  return { logic, calls, last }
}

/** Records the machine's `toast` action instead of showing a toast. */
export const toastRecorder = () => {
  const toasts: Array<ToastParams> = []
  const toast = (_: unknown, params: ToastParams) => {
    toasts.push(params)
  }
  return { toasts, toast }
}

/** Lets a settled promise reach the actor (its outcome is delivered asynchronously). */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0))
