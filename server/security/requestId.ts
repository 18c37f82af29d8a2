/**
 * One id per request, on every log line the request causes, on its answer (`X-Request-Id`) and on
 * the calls it makes to providers: the proxy's (HAProxy sets one, compose/cluster/haproxy.cfg) or
 * the client's when it is a plain token, else a new one. A background job's round gets its own
 * (server/lifecycle/Jobs.ts), so what it sends to a provider can be found too.
 */
import { randomUUID } from "node:crypto"
import { Effect, References } from "effect"

export const REQUEST_ID_HEADER = "x-request-id"

/** What is accepted from outside: a short token, nothing that could forge a log line. */
const ACCEPTED = /^[A-Za-z0-9._:+/=-]{1,128}$/

export const requestIdFrom = (header: string | undefined): string =>
  header !== undefined && ACCEPTED.test(header) ? header : randomUUID()

/** The id of the request (or job round) this fiber works for, if any. */
export const currentRequestId: Effect.Effect<string | undefined> = Effect.gen(function* () {
  const annotations = yield* References.CurrentLogAnnotations
  const id = annotations.requestId
  return typeof id === "string" ? id : undefined
})

/** Headers for a call to a provider: `X-Request-Id` when this fiber serves a request or a job round. */
export const withRequestId = (headers: Record<string, string>): Effect.Effect<Record<string, string>> =>
  Effect.map(currentRequestId, (id) => (id === undefined ? headers : { ...headers, [REQUEST_ID_HEADER]: id }))
