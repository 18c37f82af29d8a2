/**
 * The casino's side of the payment providers (docs/payments-protocol.md): ONE adapter interface,
 * one implementation per protocol family (hosted-card, skrill, jeton, mifinity), each calling the
 * provider's merchant API over HTTP (`Authorization: Bearer <apiKey>`, JSON, amounts in minor units
 * as decimal strings; the wire shapes are protocols/payments/), and the webhook signature check the
 * families share (protocols/payments/signature.ts).
 */
import { Effect, Schema } from "effect"
import {
  CardPaymentCreated,
  JetonPaymentCreated,
  MifinityInitCreated,
  merchantPaths,
  SkrillSessionCreated,
} from "../../protocols/payments/merchant.ts"
import {
  eventSignatureProblem,
  SIGNATURE_HEADER,
  type SignatureProblem,
  signEvent,
} from "../../protocols/payments/signature.ts"
import { withRequestId } from "../security/requestId.ts"
import { jsonAnswer, unreachable } from "./answer.ts"
import type { Gateway, PaymentFamily } from "./Gateways.ts"

export interface Customer {
  readonly id: string
  readonly email: string
  readonly firstName: string | null
  readonly lastName: string | null
  readonly country: string | null
  readonly city: string | null
  readonly address: string | null
  readonly zipCode: string | null
  readonly phone: string | null
}

export interface InitiateRequest {
  /** The casino's deposit id. */
  readonly reference: string
  readonly amount: bigint
  readonly currency: string
  readonly customer: Customer
  readonly returnUrl: string
  readonly notifyUrl: string
  readonly language: string
  /** Jeton: CHECKOUT | QR | JETON_CASH. */
  readonly jetonMethod?: "CHECKOUT" | "QR" | "JETON_CASH"
  /** Skrill: narrows the payment page. */
  readonly paymentMethods?: string | null
}

export interface Initiated {
  readonly providerReference: string
  readonly redirectUrl: string | null
  readonly qr: string | null
  readonly initializationToken: string | null
}

/** The provider would not start this payment (down, amount or country rules, bad answer…). */
export class ProviderRefused extends Schema.TaggedError<ProviderRefused>()("ProviderRefused", {
  gateway: Schema.String,
  status: Schema.Number,
  message: Schema.String,
}) {}

export interface PaymentProvider {
  readonly family: PaymentFamily
  readonly initiate: (gateway: Gateway, request: InitiateRequest) => Effect.Effect<Initiated, ProviderRefused>
}

const requestTimeoutMs = 10_000

/** POSTs JSON to the provider; a 201 body, or ProviderRefused for anything else (logged). */
const callProvider = (gateway: Gateway, path: string, body: unknown) =>
  withRequestId({ authorization: `Bearer ${gateway.apiKey}`, "content-type": "application/json" })
    .pipe(
      Effect.flatMap((headers) =>
        Effect.tryPromise({
          try: async (signal) => {
            const res = await fetch(`${gateway.baseUrl}${path}`, {
              method: "POST",
              headers,
              body: JSON.stringify(body),
              signal: AbortSignal.any([signal, AbortSignal.timeout(requestTimeoutMs)]),
            })
            return jsonAnswer(res)
          },
          catch: (cause) =>
            new ProviderRefused({
              gateway: gateway.code,
              status: 0,
              message: unreachable(cause),
            }),
        }),
      ),
    )
    .pipe(
      Effect.flatMap(({ status, json }) => {
        if (status === 201 && typeof json === "object" && json !== null) return Effect.succeed(json)
        const message =
          typeof json === "object" && json !== null && "message" in json && typeof json.message === "string"
            ? json.message
            : `HTTP ${status}`
        return Effect.fail(new ProviderRefused({ gateway: gateway.code, status, message }))
      }),
      Effect.tapError((e) =>
        Effect.logWarning(`payment provider ${e.gateway} refused ${path}: ${e.status} ${e.message}`),
      ),
    )

const decodeWith =
  <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, gateway: Gateway) =>
  (json: unknown) =>
    Schema.decodeUnknownEffect(schema)(json).pipe(
      Effect.mapError(
        (e) =>
          new ProviderRefused({
            gateway: gateway.code,
            status: 201,
            message: `unexpected answer: ${e.message}`,
          }),
      ),
    )

const common = (r: InitiateRequest) => ({
  reference: r.reference,
  amount: r.amount.toString(),
  currency: r.currency,
  customer: r.customer,
  returnUrl: r.returnUrl,
  notifyUrl: r.notifyUrl,
  language: r.language,
})

export const hostedCard: PaymentProvider = {
  family: "hosted-card",
  initiate: (gateway, r) =>
    callProvider(gateway, merchantPaths.card(gateway.code), common(r)).pipe(
      Effect.flatMap(decodeWith(CardPaymentCreated, gateway)),
      Effect.map((a) => ({
        providerReference: a.paymentId,
        redirectUrl: a.redirectUrl,
        qr: null,
        initializationToken: null,
      })),
    ),
}

export const skrill: PaymentProvider = {
  family: "skrill",
  initiate: (gateway, r) =>
    callProvider(gateway, merchantPaths.skrill, {
      ...common(r),
      paymentMethods: r.paymentMethods ?? null,
    }).pipe(
      Effect.flatMap(decodeWith(SkrillSessionCreated, gateway)),
      Effect.map((a) => ({
        providerReference: a.sessionId,
        redirectUrl: a.redirectUrl,
        qr: null,
        initializationToken: null,
      })),
    ),
}

export const jeton: PaymentProvider = {
  family: "jeton",
  initiate: (gateway, r) =>
    callProvider(gateway, merchantPaths.jeton, { ...common(r), method: r.jetonMethod ?? "CHECKOUT" }).pipe(
      Effect.flatMap(decodeWith(JetonPaymentCreated, gateway)),
      Effect.map((a) => ({
        providerReference: a.paymentId,
        redirectUrl: a.checkoutUrl,
        qr: a.qr,
        initializationToken: null,
      })),
    ),
}

/** MiFinity's widget is framed at the gateway's `widgetUrl` with `?token=<initializationToken>`. */
export const mifinity: PaymentProvider = {
  family: "mifinity",
  initiate: (gateway, r) =>
    callProvider(gateway, merchantPaths.mifinity, common(r)).pipe(
      Effect.flatMap(decodeWith(MifinityInitCreated, gateway)),
      Effect.map((a) => {
        const widget = new URL(gateway.widgetUrl ?? `${gateway.baseUrl}/mifinity/widget`)
        widget.searchParams.set("token", a.initializationToken)
        return {
          providerReference: a.initializationToken,
          redirectUrl: widget.toString(),
          qr: null,
          initializationToken: a.initializationToken,
        }
      }),
    ),
}

export const providerFor = (family: PaymentFamily): PaymentProvider => {
  switch (family) {
    case "hosted-card":
      return hostedCard
    case "skrill":
      return skrill
    case "jeton":
      return jeton
    case "mifinity":
      return mifinity
  }
}

// ── webhook signatures ──────────────────────────────────────────────────────────────────────────

export { SIGNATURE_HEADER }

export const signWebhook = signEvent

export type { SignatureProblem }

/** Why a signature header is not acceptable for `rawBody` at `nowSeconds`, or undefined when it is. */
export const signatureProblem = eventSignatureProblem
