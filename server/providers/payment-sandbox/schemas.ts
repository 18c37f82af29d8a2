/**
 * Wire shapes of the sandbox's merchant API (docs/payments-protocol.md, "Families and merchant
 * APIs"). Amounts are integer minor units as decimal strings; unknown keys are ignored, as a
 * provider's API would.
 */
import { Schema } from "effect"

const text = (max: number) => Schema.String.check(Schema.isMaxLength(max))
const nullableText = (max: number) => Schema.optional(Schema.NullOr(text(max)))

/** "3000" = 30.00 EUR: 1 to 15 digits, no leading zero (fits a bigint column with room). */
export const Amount = Schema.String.check(Schema.isPattern(/^[1-9]\d{0,14}$/))
export const Currency = Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/))
const HttpUrl = Schema.String.check(Schema.isMaxLength(2_000), Schema.isPattern(/^https?:\/\/[^\s]+$/))

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

const base = {
  reference: Schema.String.check(
    Schema.isMinLength(1),
    Schema.isMaxLength(100),
    Schema.isPattern(/^[\x21-\x7e]+$/),
  ),
  amount: Amount,
  currency: Currency,
  customer: Customer,
  returnUrl: HttpUrl,
  notifyUrl: HttpUrl,
  language: nullableText(10),
}

export const CardPaymentRequest = Schema.Struct(base)
export const SkrillSessionRequest = Schema.Struct({
  ...base,
  paymentMethods: Schema.optional(Schema.NullOr(Schema.Union([text(200), Schema.Array(text(20))]))),
})
export const JetonPaymentRequest = Schema.Struct({
  ...base,
  method: Schema.Literals(["CHECKOUT", "QR", "JETON_CASH"]),
})
export const MifinityInitRequest = Schema.Struct(base)

export const RuleRequest = Schema.Struct({ rule: text(500) })
