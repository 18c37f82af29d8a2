/**
 * Fiat payouts (docs/withdrawals.md): the casino's side of the gateways' payout API
 * (protocols/payments/payouts.ts). Two rails, each a PAYMENT_GATEWAYS entry:
 *
 *   skrill: POST {skrill gateway baseUrl}/skrill/payouts   Bearer the skrill gateway's apiKey
 *   bank:   POST {bank gateway baseUrl}/bank/payouts       Bearer the bank gateway's apiKey
 *
 * body { reference (the withdrawal id), amount (minor units), currency, email, notifyUrl } → 201
 * { payoutId, status }. The provider later POSTs a signed callback to notifyUrl (`payout.paid` /
 * `payout.failed`, signed as deposit webhooks) — only the callback decides paid or failed. A
 * retried request with the same reference answers the same payout (idempotent), so the payout loop
 * may resend after a timeout without paying twice. A rail without its entry pays nothing: its
 * payouts wait (approved) until it is configured, and its callbacks are refused.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { PayoutCreated, type PayoutRail, payoutPath, payoutRails } from "../../protocols/payments/payouts.ts"
import { withRequestId } from "../security/requestId.ts"
import { jsonAnswer, unreachable } from "./answer.ts"
import { Gateways } from "./Gateways.ts"

export { type PayoutRail, payoutRails }

export interface FiatPayoutRequest {
  readonly rail: PayoutRail
  readonly reference: string
  readonly amount: bigint
  readonly currency: string
  readonly email: string
  readonly notifyUrl: string
}

/** The provider refused this payout for good (4xx): the withdrawal fails and its funds return. */
export class PayoutRefusedByProvider extends Schema.TaggedError<PayoutRefusedByProvider>()(
  "PayoutRefusedByProvider",
  { rail: Schema.String, status: Schema.Number, message: Schema.String },
) {}

/** The provider could not be asked (network, 5xx, unreadable answer): try again later. */
export class PayoutProviderUnavailable extends Schema.TaggedError<PayoutProviderUnavailable>()(
  "PayoutProviderUnavailable",
  { rail: Schema.String, message: Schema.String },
) {}

export interface FiatPayoutsShape {
  /** Asks the rail's provider; an unconfigured rail is unavailable (nothing sent). */
  readonly send: (
    request: FiatPayoutRequest,
  ) => Effect.Effect<{ readonly payoutId: string }, PayoutRefusedByProvider | PayoutProviderUnavailable>
  /** Why the rail cannot pay out, or undefined when it is configured. */
  readonly unavailable: (rail: PayoutRail) => string | undefined
  /** The secret the rail's callbacks are signed with; undefined for a rail not configured. */
  readonly webhookSecret: (rail: PayoutRail) => string | undefined
}

type SendError = PayoutRefusedByProvider | PayoutProviderUnavailable

const decodeAnswer = Schema.decodeUnknownOption(PayoutCreated)
const requestTimeoutMs = 10_000

interface Rail {
  readonly baseUrl: string
  readonly apiKey: string
  readonly webhookSecret: string
}

export class FiatPayouts extends Context.Service<FiatPayouts, FiatPayoutsShape>()(
  "casino/server/FiatPayouts",
) {
  static readonly layer = Layer.effect(
    FiatPayouts,
    Effect.gen(function* () {
      const gateways = yield* Gateways
      const rails = new Map<PayoutRail, Rail>()
      for (const code of payoutRails) {
        const g = gateways.byCode(code)
        if (g === undefined) continue
        rails.set(code, { baseUrl: g.baseUrl, apiKey: g.apiKey, webhookSecret: g.webhookSecret })
      }
      const unavailable = (rail: PayoutRail): string | undefined =>
        rails.has(rail)
          ? undefined
          : `the ${rail} payout rail is not configured (no PAYMENT_GATEWAYS entry of code "${rail}")`
      for (const rail of payoutRails) {
        const why = unavailable(rail)
        if (why !== undefined) yield* Effect.logInfo(`${why}: approved ${rail} withdrawals wait until it is`)
      }

      const send = (r: FiatPayoutRequest): Effect.Effect<{ readonly payoutId: string }, SendError> => {
        const rail = rails.get(r.rail)
        if (rail === undefined)
          return Effect.fail(
            new PayoutProviderUnavailable({ rail: r.rail, message: unavailable(r.rail) ?? "" }),
          )
        return withRequestId({ authorization: `Bearer ${rail.apiKey}`, "content-type": "application/json" })
          .pipe(
            Effect.flatMap((headers) =>
              Effect.tryPromise({
                try: async (signal) => {
                  const res = await fetch(`${rail.baseUrl}${payoutPath(r.rail)}`, {
                    method: "POST",
                    headers,
                    body: JSON.stringify({
                      reference: r.reference,
                      amount: r.amount.toString(),
                      currency: r.currency,
                      email: r.email,
                      notifyUrl: r.notifyUrl,
                    }),
                    signal: AbortSignal.any([signal, AbortSignal.timeout(requestTimeoutMs)]),
                  })
                  return jsonAnswer(res)
                },
                catch: (cause) =>
                  new PayoutProviderUnavailable({
                    rail: r.rail,
                    message: unreachable(cause),
                  }),
              }),
            ),
          )
          .pipe(
            Effect.flatMap(({ status, json }): Effect.Effect<{ readonly payoutId: string }, SendError> => {
              const message =
                typeof json === "object" &&
                json !== null &&
                "message" in json &&
                typeof json.message === "string"
                  ? json.message
                  : `HTTP ${status}`
              if (status === 201 || status === 200) {
                const answer = decodeAnswer(json)
                return answer._tag === "Some"
                  ? Effect.succeed({ payoutId: answer.value.payoutId })
                  : Effect.fail(new PayoutProviderUnavailable({ rail: r.rail, message: "unexpected answer" }))
              }
              // 4xx is the provider's definite no (bad account, conflict…); anything else may pass later.
              return status >= 400 && status < 500
                ? Effect.fail(new PayoutRefusedByProvider({ rail: r.rail, status, message }))
                : Effect.fail(new PayoutProviderUnavailable({ rail: r.rail, message }))
            }),
            Effect.tapError((e) =>
              Effect.logWarning(`payout ${r.rail} ${r.reference}: ${e._tag} ${e.message}`),
            ),
          )
      }

      return {
        send,
        unavailable,
        webhookSecret: (rail) => rails.get(rail)?.webhookSecret,
      } satisfies FiatPayoutsShape
    }),
  )
}
