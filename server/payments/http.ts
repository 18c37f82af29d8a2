/**
 * The deposit calls of the payments group, and the plain routes of payments:
 * - `POST /api/payments/webhooks/:provider`: the providers' signed webhooks (raw body under HMAC,
 *   so not a contract endpoint: the body must be read as the exact bytes that were signed);
 * - `GET /api/payments/return`: the provider's returnUrl, a tiny HTML page inside the payment frame
 *   ("Payment received — you can close this window"). It never changes anything: only a valid
 *   webhook credits.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CasinoApi } from "../../services/api.ts"
import type { DepositMethod } from "../../services/wallet-service.ts"
import { AppConfig } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { requireSession } from "../users/auth.ts"
import { Sessions } from "../users/Sessions.ts"
import { SIGNATURE_HEADER } from "./adapters.ts"
import { Deposits, type StartDeposit } from "./Deposits.ts"

export const WEBHOOK_PATH = "/api/payments/webhooks/:provider"
export const RETURN_PATH = "/api/payments/return"

export const PaymentsHandlers = HttpApiBuilder.group(
  CasinoApi,
  "payments",
  Effect.fn(function* (handlers) {
    const sessions = yield* Sessions
    const deposits = yield* Deposits
    const geo = yield* Geo
    const limiter = yield* RateLimiter
    const config = yield* AppConfig

    const startFor = (
      request: HttpServerRequest.HttpServerRequest,
      method: DepositMethod,
      provider: string,
      fields: Omit<StartDeposit, "userId" | "country" | "method" | "provider" | "amount">,
      amount: string,
    ) =>
      Effect.gen(function* () {
        const session = yield* requireSession(sessions, request)
        yield* limiter.consume(`deposit-start:${session.user.id}`, config.depositStartLimit)
        const where = yield* geo.lookup(geo.clientIp(request))
        return yield* deposits.start({
          ...fields,
          userId: session.user.id,
          country: where.isoCode,
          method,
          provider,
          amount: BigInt(amount),
        })
      })

    return handlers
      .handle("gatewayDeposit", ({ request, params, payload }) =>
        startFor(
          request,
          params.gateway === "mifinity" ? "mifinity" : "card",
          params.gateway,
          {
            currency: payload.currency,
            promotionCoupon: payload.promotionCoupon ?? null,
            language: payload.language ?? "en",
          },
          payload.amount,
        ),
      )
      .handle("skrillDeposit", ({ request, payload }) =>
        startFor(
          request,
          "skrill",
          "skrill",
          {
            currency: payload.currency,
            promotionCoupon: payload.promotionCoupon ?? null,
            language: payload.language,
            paymentMethods: payload.paymentMethods ?? null,
          },
          payload.amount,
        ),
      )
      .handle("jetonDeposit", ({ request, params, payload }) =>
        startFor(
          request,
          "jeton",
          "jeton",
          {
            currency: payload.currency,
            promotionCoupon: payload.promotionCoupon ?? null,
            language: payload.language,
            jetonMethod: params.type === "QR" ? "QR" : "CHECKOUT",
          },
          payload.amount,
        ),
      )
      .handle("jetonCashDeposit", ({ request, payload }) =>
        startFor(
          request,
          "jeton-cash",
          "jeton",
          {
            currency: payload.currency,
            promotionCoupon: payload.promotionCoupon ?? null,
            language: payload.language,
            jetonMethod: "JETON_CASH",
          },
          payload.amount,
        ),
      )
  }),
)

const noStore = { "cache-control": "no-store" }

const returnPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Payment received</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#111;color:#eee}main{text-align:center;padding:2rem}</style>
</head><body><main><h1>Payment received</h1><p>You can close this window.</p></main></body></html>
`

export const paymentRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const deposits = yield* Deposits
    const webhook = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const params = yield* HttpRouter.params
      const provider = params.provider ?? ""
      const raw = yield* request.text
      const answer = yield* deposits.webhook(provider, raw, request.headers[SIGNATURE_HEADER])
      return HttpServerResponse.jsonUnsafe(answer.body, { status: answer.status, headers: noStore })
    })
    const returned = Effect.succeed(
      HttpServerResponse.text(returnPage, {
        contentType: "text/html; charset=utf-8",
        headers: noStore,
      }),
    )
    return Layer.mergeAll(
      HttpRouter.add("POST", WEBHOOK_PATH, webhook),
      HttpRouter.add("GET", RETURN_PATH, returned),
    )
  }),
)

export const paymentEndpoints = [
  { method: "POST", path: WEBHOOK_PATH },
  { method: "GET", path: RETURN_PATH },
] as const
