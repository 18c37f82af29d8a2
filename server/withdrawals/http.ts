/**
 * Handlers of the cashout group (services/api/cashout-service.ts) and the payout providers' callback
 * route. The player comes from the session, never from the request; the service re-checks
 * everything the cashout modal checked, in the spec's order, then the server's own limits — the
 * per-player rate limit (`RateLimited` with Retry-After) among them (server/withdrawals/Withdrawals.ts).
 *
 * `POST /api/payments/payouts/:provider`: a provider's signed payout callback (raw body under HMAC,
 * so a plain route, not a contract endpoint), as the deposit webhooks.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CasinoApi } from "../../services/api.ts"
import type { WithdrawalMethod } from "../../services/cashout-service.ts"
import { SIGNATURE_HEADER } from "../payments/adapters.ts"
import { requireSession } from "../users/auth.ts"
import { Sessions } from "../users/Sessions.ts"
import { PAYOUT_CALLBACK_PREFIX, Withdrawals } from "./Withdrawals.ts"

export const CashoutHandlers = HttpApiBuilder.group(
  CasinoApi,
  "cashout",
  Effect.fn(function* (handlers) {
    const sessions = yield* Sessions
    const withdrawals = yield* Withdrawals

    const withdraw = (
      request: HttpServerRequest.HttpServerRequest,
      method: WithdrawalMethod,
      input: {
        readonly amount: string
        readonly currency: string
        readonly forfeitBonus?: boolean | undefined
      },
      destination: (accountEmail: string) => string,
    ) =>
      Effect.gen(function* () {
        const session = yield* requireSession(sessions, request)
        return yield* withdrawals.request({
          userId: session.user.id,
          method,
          currency: input.currency,
          amount: BigInt(input.amount),
          destination: destination(session.user.email),
          forfeitBonus: input.forfeitBonus === true,
        })
      })

    return (
      handlers
        .handle("withdrawable", ({ request, query }) =>
          Effect.gen(function* () {
            const session = yield* requireSession(sessions, request)
            return yield* withdrawals.withdrawable(session.user.id, query.currency)
          }),
        )
        .handle("cryptoWithdraw", ({ request, payload }) =>
          withdraw(request, "crypto", payload, () => payload.address),
        )
        // The payment-wallet tab has no input: the payout goes to the player's own account e-mail.
        .handle("skrillWithdraw", ({ request, payload }) =>
          withdraw(request, "skrill", payload, (email) => email).pipe(
            // A fiat withdrawal has no address to refuse.
            Effect.catchTag("InvalidAddress", Effect.die),
          ),
        )
        .handle("bankWithdraw", ({ request, payload }) =>
          withdraw(request, "bank", payload, () => payload.email).pipe(
            Effect.catchTag("InvalidAddress", Effect.die),
          ),
        )
        .handle("withdrawals", ({ request }) =>
          Effect.gen(function* () {
            const session = yield* requireSession(sessions, request)
            return yield* withdrawals.ofPlayer(session.user.id)
          }),
        )
    )
  }),
)

export const PAYOUT_CALLBACK_PATH = `${PAYOUT_CALLBACK_PREFIX}/:provider`

export const payoutCallbackRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const withdrawals = yield* Withdrawals
    const callback = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const provider = (yield* HttpRouter.params).provider ?? ""
      const raw = yield* request.text
      const answer = yield* withdrawals.callback(provider, raw, request.headers[SIGNATURE_HEADER])
      return HttpServerResponse.jsonUnsafe(answer.body, {
        status: answer.status,
        headers: { "cache-control": "no-store" },
      })
    })
    return HttpRouter.add("POST", PAYOUT_CALLBACK_PATH, callback)
  }),
)

export const payoutCallbackEndpoints = [{ method: "POST", path: PAYOUT_CALLBACK_PATH }] as const
