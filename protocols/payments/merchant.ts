/**
 * The merchant API of the payments protocol (docs/payments-protocol.md, "Families and merchant
 * APIs"): what a merchant (the casino) POSTs to a provider to start a payment, per protocol family,
 * and the provider's 201 answer. Server to server, JSON, `Authorization: Bearer <apiKey>`; paths are
 * relative to the gateway's base URL. Amounts are integer minor units as decimal strings; unknown
 * keys are ignored, as a provider's API would. Every refusal is `{ error, message }`.
 */
import { Schema } from "effect"

/** The protocol families: how a gateway is spoken to (a configured gateway names its family). */
export const families = ["hosted-card", "skrill", "jeton", "mifinity"] as const
export type Family = (typeof families)[number]

/** Where each family starts a payment, under the gateway's base URL. */
export const merchantPaths = {
  card: (code: string) => `/card/${code}/payments`,
  skrill: "/skrill/sessions",
  jeton: "/jeton/payments",
  mifinity: "/mifinity/init-iframe",
} as const

const text = (max: number) => Schema.String.check(Schema.isMaxLength(max))
const nullableText = (max: number) => Schema.optional(Schema.NullOr(text(max)))

/** "3000" = 30.00 EUR: 1 to 15 digits, no leading zero (fits a bigint column with room). */
export const Amount = Schema.String.check(Schema.isPattern(/^[1-9]\d{0,14}$/))
export const Currency = Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/))
export const HttpUrl = Schema.String.check(Schema.isMaxLength(2_000), Schema.isPattern(/^https?:\/\/[^\s]+$/))
/** The merchant's reference (the casino's deposit or withdrawal id): printable ASCII, no spaces. */
export const Reference = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(100),
  Schema.isPattern(/^[\x21-\x7e]+$/),
)

export const Customer = Schema.Struct({
  id: nullableText(100),
  email: nullableText(254),
  firstName: nullableText(100),
  lastName: nullableText(100),
  country: Schema.optional(Schema.NullOr(Schema.String.check(Schema.isPattern(/^[A-Za-z]{2}$/)))),
  city: nullableText(100),
  address: nullableText(300),
  zipCode: nullableText(20),
  phone: nullableText(40),
})
export type Customer = typeof Customer.Type

const base = {
  reference: Reference,
  amount: Amount,
  currency: Currency,
  customer: Customer,
  returnUrl: HttpUrl,
  notifyUrl: HttpUrl,
  language: nullableText(10),
}

/** `POST /card/{code}/payments`. */
export const CardPaymentRequest = Schema.Struct(base)
/** `POST /skrill/sessions`: paymentMethods narrows the payment page. */
export const SkrillSessionRequest = Schema.Struct({
  ...base,
  paymentMethods: Schema.optional(Schema.NullOr(Schema.Union([text(200), Schema.Array(text(20))]))),
})
export const jetonMethods = ["CHECKOUT", "QR", "JETON_CASH"] as const
export type JetonMethod = (typeof jetonMethods)[number]
/** `POST /jeton/payments`. */
export const JetonPaymentRequest = Schema.Struct({ ...base, method: Schema.Literals(jetonMethods) })
/** `POST /mifinity/init-iframe`. */
export const MifinityInitRequest = Schema.Struct(base)

/** The 201 answers: where the payer is sent (the casino frames it). */
export const CardPaymentCreated = Schema.Struct({ paymentId: Schema.String, redirectUrl: Schema.String })
export const SkrillSessionCreated = Schema.Struct({ sessionId: Schema.String, redirectUrl: Schema.String })
export const JetonPaymentCreated = Schema.Struct({
  paymentId: Schema.String,
  checkoutUrl: Schema.String,
  /** Method QR: the text to show as a QR code; else null. */
  qr: Schema.NullOr(Schema.String),
})
/** MiFinity: the merchant frames the gateway's widget page with `?token=<initializationToken>`. */
export const MifinityInitCreated = Schema.Struct({ initializationToken: Schema.String })

/** Every refusal: 400 bad_request, 401 unauthorized, 404 not_found, 409 conflict, 422 refused, 503 unavailable. */
export const ProviderError = Schema.Struct({ error: Schema.String, message: Schema.String })
