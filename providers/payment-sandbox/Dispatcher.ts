/**
 * The webhook dispatcher and the expiry sweeper of the sandbox: fibers started with its server (a
 * scoped layer; they stop with it).
 *
 * Delivery (docs/payments-protocol.md, "Webhooks"): claim due outbox rows (one statement, `FOR UPDATE
 * SKIP LOCKED`, leased for `leaseSeconds`), sign each with its gateway's webhook secret
 * (protocols/payments/signature.ts: `X-Sandbox-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`), POST it, and mark
 * it delivered on a 2xx; anything else (status, network error, timeout) is retried after
 * 1, 2, 4 … 60 s, 12 attempts in all. No transaction is held while posting, so PGlite's single
 * connection stays free and several processes can run
 * dispatchers on one PostgreSQL: a claimed row is invisible to the others until its lease ends,
 * which is longer than the post's timeout. At-least-once: a process killed between the receiver's
 * 2xx and `markDelivered` delivers that event again after the lease; receivers are idempotent.
 */
import { Cause, Duration, Effect, Layer } from "effect"
import { SIGNATURE_HEADER, signEvent } from "../../protocols/payments/signature.ts"
import { Sandbox } from "./Sandbox.ts"
import { type OutboxRow, SandboxRepo } from "./SandboxRepo.ts"

export const maxAttempts = 12
export const leaseSeconds = 60
export const postTimeoutMs = 10_000
const batchSize = 20
const pollInterval = Duration.seconds(1)
const sweepInterval = Duration.seconds(60)

/** Delay before the next attempt after `attempts` failed ones: 1, 2, 4 … capped at 60 s. */
export const backoffSeconds = (attempts: number): number => Math.min(2 ** Math.max(0, attempts - 1), 60)

type PostResult =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly status: number | null; readonly error: string }

const post = (row: OutboxRow, secret: string): Effect.Effect<PostResult> =>
  Effect.tryPromise({
    try: async (signal): Promise<PostResult> => {
      const response = await fetch(row.url, {
        method: "POST",
        body: row.body,
        redirect: "manual",
        headers: {
          "content-type": "application/json",
          "user-agent": "casino-sandbox-pay/1",
          [SIGNATURE_HEADER]: signEvent(secret, Math.floor(Date.now() / 1000), row.body),
        },
        signal: AbortSignal.any([signal, AbortSignal.timeout(postTimeoutMs)]),
      })
      // Drain the body so the connection is released.
      const text = await response.text().catch(() => "")
      if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status }
      return {
        ok: false,
        status: response.status,
        error: `HTTP ${response.status} ${text.slice(0, 200)}`.trim(),
      }
    },
    catch: (error) => error,
  }).pipe(
    Effect.catch((error) =>
      Effect.succeed<PostResult>({
        ok: false,
        status: null,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      }),
    ),
  )

/** One round: claims and delivers up to a batch of due events; how many were claimed. */
export const deliverDue = Effect.gen(function* () {
  const repo = yield* SandboxRepo
  const sandbox = yield* Sandbox
  const rows = yield* repo.claimDue(batchSize, maxAttempts, leaseSeconds)
  yield* Effect.forEach(
    rows,
    (row) =>
      Effect.gen(function* () {
        const result = yield* post(row, sandbox.webhookSecret(row.gateway))
        if (result.ok) {
          yield* repo.markDelivered(row.id, result.status)
          return
        }
        yield* repo.markFailed(row.id, result.status, result.error, backoffSeconds(row.attempts))
        if (row.attempts >= maxAttempts) {
          yield* Effect.logError(
            `sandbox-pay: webhook ${row.id} of payment ${row.paymentId} to ${row.url} given up after ${row.attempts} attempts: ${result.error}`,
          )
        } else {
          yield* Effect.logInfo(
            `sandbox-pay: webhook ${row.id} attempt ${row.attempts} failed (${result.error}); next in ${backoffSeconds(row.attempts)} s`,
          )
        }
      }),
    { concurrency: 4, discard: true },
  )
  return rows.length
})

/** Logs a failed round and carries on: the loops never die of a database hiccup. */
const survive = <R>(effect: Effect.Effect<unknown, unknown, R>, what: string) =>
  effect.pipe(
    Effect.asVoid,
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        : Effect.logWarning(`sandbox-pay: ${what} failed: ${Cause.pretty(cause)}`),
    ),
  )

const dispatchLoop = Effect.gen(function* () {
  const sandbox = yield* Sandbox
  while (true) {
    let claimed = batchSize
    // Drain everything due, then wait for a wake-up (a decision here) or the next poll (other processes).
    while (claimed === batchSize) {
      claimed = yield* deliverDue.pipe(
        Effect.catchCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.failCause(cause)
            : Effect.as(Effect.logWarning(`sandbox-pay: dispatch failed: ${Cause.pretty(cause)}`), 0),
        ),
      )
    }
    yield* sandbox.waitForWork(pollInterval)
  }
})

const sweepLoop = Effect.gen(function* () {
  const sandbox = yield* Sandbox
  while (true) {
    yield* survive(sandbox.expireStale(), "expiry sweep")
    yield* Effect.sleep(sweepInterval)
  }
})

/** The dispatcher and the sweeper, forked for the lifetime of the layer. */
export const DispatcherLive = Layer.effectDiscard(
  Effect.gen(function* () {
    yield* Effect.forkScoped(dispatchLoop)
    yield* Effect.forkScoped(sweepLoop)
  }),
)
