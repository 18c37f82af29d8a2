/**
 * The sandbox's HTTP face, under /sandbox-pay/ (docs/payments-protocol.md; the wire shapes are
 * protocols/payments/):
 *
 * - merchant API (server to server, JSON, `Authorization: Bearer <apiKey of the gateway>`):
 *     POST /sandbox-pay/card/{code}/payments   POST /sandbox-pay/skrill/sessions
 *     POST /sandbox-pay/jeton/payments         POST /sandbox-pay/mifinity/init-iframe
 *   201 on creation (or the same answer for a retried reference), 400 bad body, 401 bad key,
 *   409 a reference reused with other data, 503/422 refused by the gateway's rules.
 * - control (tests, operators; Bearer the sandbox's own secret):
 *     PUT /sandbox-pay/control/gateways/{code} { rule }   GET /sandbox-pay/control/payments/{id}
 * - the payer's pages: pages.ts / pagesHttp.ts.
 * Every refusal is JSON `{ error, message }`; nothing here answers 500 for a client's mistake.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { SqlError } from "effect/sql"
import {
  type CardPaymentCreated,
  CardPaymentRequest,
  type JetonPaymentCreated,
  JetonPaymentRequest,
  type MifinityInitCreated,
  MifinityInitRequest,
  merchantPaths,
  type SkrillSessionCreated,
  SkrillSessionRequest,
} from "../../protocols/payments/merchant.ts"
import { formatRules, isGatewayCode } from "./rules.ts"
import { type Initiation, Sandbox } from "./Sandbox.ts"
import type { Family, PaymentRow } from "./SandboxRepo.ts"

export const RuleRequest = Schema.Struct({ rule: Schema.String.check(Schema.isMaxLength(500)) })

export const SANDBOX_PREFIX = "/sandbox-pay"

export const json = (status: number, body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })

class Refused extends Schema.TaggedError<Refused>()("SandboxRefused", {
  status: Schema.Int,
  error: Schema.String,
  message: Schema.String,
}) {}

const refused = (status: number, error: string, message: string) => new Refused({ status, error, message })

/** The JSON body, decoded: 400 for anything else. */
const body = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const raw = yield* request.text.pipe(
      Effect.mapError(() => refused(400, "bad_request", "Could not read the body.")),
    )
    let parsed: unknown
    try {
      parsed = JSON.parse(raw)
    } catch {
      return yield* refused(400, "bad_request", "The body is not JSON.")
    }
    return yield* Schema.decodeUnknownEffect(schema)(parsed).pipe(
      Effect.mapError((e) => refused(400, "bad_request", e.message.slice(0, 2_000))),
    )
  })

const answer = <R>(
  effect: Effect.Effect<HttpServerResponse.HttpServerResponse, Refused | SqlError.SqlError, R>,
) =>
  effect.pipe(
    Effect.catchTag("SandboxRefused", (e) =>
      Effect.succeed(json(e.status, { error: e.error, message: e.message })),
    ),
  )

const merchant = (gateway: string) =>
  Effect.gen(function* () {
    const sandbox = yield* Sandbox
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!sandbox.isMerchant(gateway, request.headers.authorization)) {
      yield* Effect.logWarning(`sandbox-pay: ${request.method} ${request.url}: wrong or missing API key`)
      return yield* refused(401, "unauthorized", "The API key is missing or wrong.")
    }
  })

type Body = Omit<Initiation, "family" | "gateway" | "method" | "amount" | "language"> & {
  readonly amount: string
  readonly language?: string | null | undefined
}

const initiate = (family: Family, gateway: string, input: Body, method: string | null) =>
  Effect.gen(function* () {
    const sandbox = yield* Sandbox
    const result = yield* sandbox.initiate({
      family,
      gateway,
      method,
      reference: input.reference,
      amount: BigInt(input.amount),
      currency: input.currency,
      customer: { ...input.customer, country: input.customer.country?.toUpperCase() ?? null },
      returnUrl: input.returnUrl,
      notifyUrl: input.notifyUrl,
      language: input.language ?? null,
    })
    switch (result._tag) {
      case "Refused":
        return yield* refused(result.refusal.status, result.refusal.error, result.refusal.message)
      case "Conflict":
        return yield* refused(
          409,
          "conflict",
          `The reference ${input.reference} is already used by payment ${result.payment.id} with other data.`,
        )
      case "Created":
        return result.payment
    }
  })

const pageUrls = (publicUrl: string, p: PaymentRow) => ({
  card: `${publicUrl}${SANDBOX_PREFIX}/card/${p.gateway}/pay/${p.id}`,
  skrill: `${publicUrl}${SANDBOX_PREFIX}/skrill/app/${p.id}`,
  jeton: `${publicUrl}${SANDBOX_PREFIX}/jeton/pay/${p.id}`,
  mifinity: `${publicUrl}${SANDBOX_PREFIX}/mifinity/widget?token=${encodeURIComponent(p.token ?? "")}`,
})

const cardPayments = answer(
  Effect.gen(function* () {
    const sandbox = yield* Sandbox
    const code = (yield* HttpRouter.params).code ?? ""
    if (!isGatewayCode(code)) return yield* refused(404, "not_found", `No gateway ${code}.`)
    yield* merchant(code)
    const input = yield* body(CardPaymentRequest)
    const p = yield* initiate("hosted-card", code, input, null)
    const created: typeof CardPaymentCreated.Type = {
      paymentId: p.id,
      redirectUrl: pageUrls(sandbox.publicUrl, p).card,
    }
    return json(201, created)
  }),
)

const skrillSessions = answer(
  Effect.gen(function* () {
    const sandbox = yield* Sandbox
    yield* merchant("skrill")
    const input = yield* body(SkrillSessionRequest)
    const methods = input.paymentMethods
    const method =
      methods === undefined || methods === null
        ? null
        : typeof methods === "string"
          ? methods
          : methods.join(",")
    const p = yield* initiate("skrill", "skrill", input, method)
    const created: typeof SkrillSessionCreated.Type = {
      sessionId: p.id,
      redirectUrl: pageUrls(sandbox.publicUrl, p).skrill,
    }
    return json(201, created)
  }),
)

const jetonPayments = answer(
  Effect.gen(function* () {
    const sandbox = yield* Sandbox
    yield* merchant("jeton")
    const input = yield* body(JetonPaymentRequest)
    const p = yield* initiate("jeton", "jeton", input, input.method)
    const created: typeof JetonPaymentCreated.Type = {
      paymentId: p.id,
      checkoutUrl: pageUrls(sandbox.publicUrl, p).jeton,
      qr: p.qr,
    }
    return json(201, created)
  }),
)

const mifinityInit = answer(
  Effect.gen(function* () {
    yield* merchant("mifinity")
    const input = yield* body(MifinityInitRequest)
    const p = yield* initiate("mifinity", "mifinity", input, null)
    if (p.token === null) return yield* Effect.die(new Error(`mifinity payment ${p.id} has no token`))
    const created: typeof MifinityInitCreated.Type = { initializationToken: p.token }
    return json(201, created)
  }),
)

const controller = Effect.gen(function* () {
  const sandbox = yield* Sandbox
  const request = yield* HttpServerRequest.HttpServerRequest
  if (!sandbox.isController(request.headers.authorization)) {
    yield* Effect.logWarning(`sandbox-pay: ${request.method} ${request.url}: wrong or missing control secret`)
    return yield* refused(401, "unauthorized", "The sandbox secret is missing or wrong.")
  }
})

const setGatewayRule = answer(
  Effect.gen(function* () {
    yield* controller
    const sandbox = yield* Sandbox
    const code = ((yield* HttpRouter.params).code ?? "").toLowerCase()
    if (!isGatewayCode(code))
      return yield* refused(400, "bad_request", "A gateway code is 1–32 of a-z, 0-9 and -.")
    const input = yield* body(RuleRequest)
    const set = yield* sandbox.setRule(code, input.rule)
    if (!set.ok) return yield* refused(400, "bad_request", set.error)
    yield* Effect.logInfo(`sandbox-pay: gateway ${code} rule set to "${input.rule}"`)
    return json(200, { gateway: code, rule: formatRules(yield* sandbox.rulesFor(code)) })
  }),
)

const paymentStatus = answer(
  Effect.gen(function* () {
    yield* controller
    const sandbox = yield* Sandbox
    const id = (yield* HttpRouter.params).id ?? ""
    const p = yield* sandbox.payment(id)
    if (p === undefined) return yield* refused(404, "not_found", `No payment ${id}.`)
    const deliveries = yield* sandbox.deliveries(p.id)
    return json(200, {
      paymentId: p.id,
      gateway: p.gateway,
      family: p.family,
      method: p.method,
      reference: p.reference,
      amount: p.amount,
      currency: p.currency,
      status: p.status,
      reason: p.reason,
      createdAt: p.createdAt.toISOString(),
      decidedAt: p.decidedAt?.toISOString() ?? null,
      webhooks: deliveries.map((d) => ({
        id: d.id,
        attempts: d.attempts,
        delivered: d.deliveredAt !== null,
        deliveredAt: d.deliveredAt?.toISOString() ?? null,
        nextAttemptAt: d.deliveredAt === null ? d.nextAttemptAt.toISOString() : null,
        lastStatus: d.lastStatus,
        lastError: d.lastError,
        body: d.body,
      })),
    })
  }),
)

export const merchantRoutes = Layer.mergeAll(
  HttpRouter.add("POST", `${SANDBOX_PREFIX}${merchantPaths.card(":code")}`, cardPayments),
  HttpRouter.add("POST", `${SANDBOX_PREFIX}${merchantPaths.skrill}`, skrillSessions),
  HttpRouter.add("POST", `${SANDBOX_PREFIX}${merchantPaths.jeton}`, jetonPayments),
  HttpRouter.add("POST", `${SANDBOX_PREFIX}${merchantPaths.mifinity}`, mifinityInit),
  HttpRouter.add("PUT", `${SANDBOX_PREFIX}/control/gateways/:code`, setGatewayRule),
  HttpRouter.add("GET", `${SANDBOX_PREFIX}/control/payments/:id`, paymentStatus),
)
