/**
 * The sandbox's payout API (protocols/payments/payouts.ts; docs/payment-sandbox.md, "Payouts"): a
 * Skrill-style "send money" to an e-mail and a bank transfer to the account an e-mail names,
 * merchant to provider:
 *
 *   POST /sandbox-pay/skrill/payouts   POST /sandbox-pay/bank/payouts
 *   Authorization: Bearer <apiKey of the gateway "skrill" / "bank">
 *   { reference, amount, currency, email, notifyUrl }  → 201 { payoutId, status: "pending" }
 *
 * The payee's e-mail decides, as the test cards do for payments: a local part starting with `fail`
 * (e.g. `fail@example.com`) has no account — the payout fails ("Recipient account not found");
 * any other is paid. The decision is taken when the payout is created and its signed callback
 * (`payout.paid` / `payout.failed`, body below) queued in the SAME transaction in the provider's
 * webhook outbox, which the dispatcher delivers with retries like payment webhooks:
 *
 *   { id, type, payoutId, reference, amount, currency, reason, createdAt }
 *
 * Idempotent: the same gateway + reference with the same data answers the same payout (201);
 * other data is 409. Errors are JSON `{ error, message }`: 400 bad body, 401 bad key.
 */
import { randomUUID } from "node:crypto"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { SqlClient } from "effect/sql"
import { payoutEventBody } from "../../protocols/payments/events.ts"
import {
  type PayoutCreated,
  type PayoutRail,
  PayoutRequest,
  payoutPath,
  payoutRails,
} from "../../protocols/payments/payouts.ts"
import { json, SANDBOX_PREFIX } from "./http.ts"
import { Sandbox } from "./Sandbox.ts"

export const payoutGateways = payoutRails
export type PayoutGateway = PayoutRail

export const payoutFailedReason = "Recipient account not found"

interface PayoutRow {
  readonly id: string
  readonly gateway: string
  readonly reference: string
  readonly amount: string
  readonly currency: string
  readonly email: string
  readonly status: "paid" | "failed"
  readonly reason: string | null
  readonly createdAt: Date
}

/** The sandbox's rule: whether a payout to this e-mail succeeds. */
export const payoutSucceeds = (email: string): boolean => !/^fail/i.test(email)

const columns = `id::text AS id, gateway, reference, amount::text AS amount, currency, email, status, reason,
  created_at AS "createdAt"`

const payoutRoute = (sql: SqlClient.SqlClient, gateway: PayoutGateway) =>
  Effect.gen(function* () {
    const sandbox = yield* Sandbox
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!sandbox.isMerchant(gateway, request.headers.authorization)) {
      yield* Effect.logWarning(`sandbox-pay: ${request.method} ${request.url}: wrong or missing API key`)
      return json(401, { error: "unauthorized", message: "The API key is missing or wrong." })
    }
    const raw = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
    let parsed: unknown
    try {
      parsed = JSON.parse(raw)
    } catch {
      return json(400, { error: "bad_request", message: "The body is not JSON." })
    }
    const decoded = Schema.decodeUnknownExit(PayoutRequest)(parsed)
    if (decoded._tag === "Failure")
      return json(400, {
        error: "bad_request",
        message: "Expected { reference, amount, currency, email, notifyUrl }.",
      })
    const input: typeof PayoutRequest.Type = decoded.value
    const cols = sql.literal(columns)

    const same = (row: PayoutRow) =>
      row.amount === input.amount && row.currency === input.currency && row.email === input.email

    const created = yield* sql.withTransaction(
      Effect.gen(function* () {
        const existing = yield* sql<PayoutRow>`
          SELECT ${cols} FROM sandbox_payouts WHERE gateway = ${gateway} AND reference = ${input.reference}
        `
        if (existing[0] !== undefined) return { row: existing[0], fresh: false }
        const ok = payoutSucceeds(input.email)
        const id = randomUUID()
        const inserted = yield* sql<PayoutRow>`
          INSERT INTO sandbox_payouts (id, gateway, reference, amount, currency, email, notify_url, status, reason)
          VALUES (${id}, ${gateway}, ${input.reference}, ${input.amount}::bigint, ${input.currency}, ${input.email},
                  ${input.notifyUrl}, ${ok ? "paid" : "failed"}, ${ok ? null : payoutFailedReason})
          ON CONFLICT (gateway, reference) DO NOTHING
          RETURNING ${cols}
        `
        const row = inserted[0]
        if (row === undefined) {
          // A concurrent request with this reference won the insert.
          const winner = yield* sql<PayoutRow>`
            SELECT ${cols} FROM sandbox_payouts WHERE gateway = ${gateway} AND reference = ${input.reference}
          `
          if (winner[0] === undefined) return yield* Effect.die(new Error("sandbox payout vanished"))
          return { row: winner[0], fresh: false }
        }
        const eventId = randomUUID()
        const body = payoutEventBody({
          id: eventId,
          type: row.status === "paid" ? "payout.paid" : "payout.failed",
          payoutId: row.id,
          reference: row.reference,
          amount: row.amount,
          currency: row.currency,
          reason: row.reason,
          createdAt: row.createdAt.toISOString(),
        })
        yield* sql`
          INSERT INTO sandbox_webhook_outbox (id, payout_id, gateway, url, body)
          VALUES (${eventId}, ${row.id}, ${gateway}, ${input.notifyUrl}, ${body})
        `
        return { row, fresh: true }
      }),
    )
    if (created.fresh) yield* sandbox.notify
    else if (!same(created.row))
      return json(409, {
        error: "conflict",
        message: `The reference ${input.reference} is already used by payout ${created.row.id} with other data.`,
      })
    const answer: typeof PayoutCreated.Type = { payoutId: created.row.id, status: "pending" }
    return json(201, answer)
  }).pipe(
    Effect.catchTag("SqlError", (e) =>
      Effect.as(
        Effect.logError(`sandbox-pay: payout failed: ${e.message}`),
        json(503, { error: "unavailable", message: "The payout could not be recorded, try again." }),
      ),
    ),
  )

export const payoutRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return Layer.mergeAll(
      HttpRouter.add("POST", `${SANDBOX_PREFIX}${payoutPath("skrill")}`, payoutRoute(sql, "skrill")),
      HttpRouter.add("POST", `${SANDBOX_PREFIX}${payoutPath("bank")}`, payoutRoute(sql, "bank")),
    )
  }),
)
