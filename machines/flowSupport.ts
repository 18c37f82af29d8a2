/**
 * Pieces the account flows (login, register, forgot/reset password, e-mail confirmation) share:
 * turning the `unknown` that XState hands to `onError` back into the typed failure union of the
 * invoked call, and the HTTP status of a client error for the status-based rules of the spec.
 * Pure: no fetch, no DOM, no clock.
 */
import { Schema } from "effect"
import { UnexpectedError } from "../services/bridge.ts"
import { ClientError } from "../services/client.ts"
import type { ToastKind } from "../services/notify.ts"

/** A class whose instances `onError` may receive. */
type FailureClass = abstract new (...args: never) => { readonly _tag: string }

/** Failures every call can produce on the client side, whatever the endpoint declares. */
export const clientFailureClasses = [ClientError, Schema.SchemaError, UnexpectedError] as const

export type ClientFailure = ClientError | Schema.SchemaError | UnexpectedError

/**
 * Narrows the error of an `xstate.error.actor.*` event to the invoked call's failure union.
 * Anything else (a bug, a double throwing a plain Error) becomes an `UnexpectedError`, so a
 * ts-pattern `.exhaustive()` over the union always has a branch for it.
 */
export const failureFrom =
  <const C extends ReadonlyArray<FailureClass>>(classes: C) =>
  (error: unknown): InstanceType<C[number]> | UnexpectedError => {
    for (const cls of classes) {
      if (error instanceof cls) return error as InstanceType<C[number]>
    }
    return error instanceof UnexpectedError ? error : new UnexpectedError(error)
  }

/** The HTTP status of a client error that carries a response (e.g. a proxy's 423 without our body). */
export const httpStatusOf = (error: ClientError): number | null => error.status

/** Field name → message shown under that field; `form` is the message above the submit button. */
export type FieldErrors<F extends string> = Partial<Record<F | "form" | "captcha", string>>

/** Params of the named `toast` action every flow declares (replaceable in tests). */
export interface ToastParams {
  readonly kind: ToastKind
  readonly message: string
}

/**
 * The user a signed-in/registered final state reports. The guards that lead there check the user
 * is present, so a null here is a broken invariant of the machine, not a runtime condition.
 */
export const requireUser = <U>(user: U | null): U => {
  if (user === null) throw new Error("flow reached its final state without a user")
  return user
}
