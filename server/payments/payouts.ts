/**
 * Fiat payouts (issue 12, docs/withdrawals.md): the casino's side of a provider's "send money" API.
 * Two rails, both answered by the payment sandbox here (docs/withdrawals.md, "The sandbox's payout API"):
 *
 *   skrill: POST {skrill gateway baseUrl}/skrill/payouts   Bearer the skrill gateway's apiKey
 *   bank:   POST {INTERNAL_URL}/sandbox-pay/bank/payouts   Bearer the sandbox's key for code "bank"
 *
 * body { reference (the withdrawal id), amount (minor units), currency, email, notifyUrl } → 201
 * { payoutId, status }. The provider later POSTs a signed callback to notifyUrl (`payout.paid` /
 * `payout.failed`, `X-Sandbox-Signature` as deposit webhooks) — only the callback decides paid or
 * failed. A retried request with the same reference answers the same payout (idempotent), so the
 * payout loop may resend after a timeout without paying twice.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { AppConfig } from "../config.ts"
import { Gateways } from "./Gateways.ts"
import { sandboxCredentials, sandboxSecret } from "./sandboxCredentials.ts"

export const payoutRails = ["skrill", "bank"] as const
export type PayoutRail = (typeof payoutRails)[number]

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
  readonly send: (
    request: FiatPayoutRequest,
  ) => Effect.Effect<{ readonly payoutId: string }, PayoutRefusedByProvider | PayoutProviderUnavailable>
  /** The secret the rail's callbacks are signed with. */
  readonly webhookSecret: (rail: PayoutRail) => string
}

type SendError = PayoutRefusedByProvider | PayoutProviderUnavailable

const Answer = Schema.Struct({ payoutId: Schema.String.check(Schema.isMaxLength(200)) })
const decodeAnswer = Schema.decodeUnknownOption(Answer)
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
      const config = yield* AppConfig
      const gateways = yield* Gateways
      const skrill = gateways.byCode("skrill")
      if (skrill === undefined) return yield* Effect.die(new Error("the skrill gateway is not configured"))
      const secret = yield* sandboxSecret(config.sandboxSecret).pipe(Effect.orDie)
      const rails: Readonly<Record<PayoutRail, Rail>> = {
        skrill: { baseUrl: skrill.baseUrl, apiKey: skrill.apiKey, webhookSecret: skrill.webhookSecret },
        // No bank provider is configurable yet: bank transfers go to the sandbox's bank rail.
        bank: { baseUrl: `${config.internalUrl}/sandbox-pay`, ...sandboxCredentials(secret, "bank") },
      }

      const send = (r: FiatPayoutRequest): Effect.Effect<{ readonly payoutId: string }, SendError> =>
        Effect.tryPromise({
          try: async (signal) => {
            const rail = rails[r.rail]
            const res = await fetch(`${rail.baseUrl}/${r.rail}/payouts`, {
              method: "POST",
              headers: { authorization: `Bearer ${rail.apiKey}`, "content-type": "application/json" },
              body: JSON.stringify({
                reference: r.reference,
                amount: r.amount.toString(),
                currency: r.currency,
                email: r.email,
                notifyUrl: r.notifyUrl,
              }),
              signal: AbortSignal.any([signal, AbortSignal.timeout(requestTimeoutMs)]),
            })
            const text = await res.text()
            let json: unknown = null
            try {
              json = text === "" ? null : JSON.parse(text)
            } catch {
              json = null
            }
            return { status: res.status, json }
          },
          catch: (cause) =>
            new PayoutProviderUnavailable({
              rail: r.rail,
              message: `unreachable: ${cause instanceof Error ? cause.message : String(cause)}`,
            }),
        }).pipe(
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

      return { send, webhookSecret: (rail) => rails[rail].webhookSecret } satisfies FiatPayoutsShape
    }),
  )
}
