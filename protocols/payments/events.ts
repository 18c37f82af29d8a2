/**
 * What a payment gateway POSTs to the merchant's notifyUrl (docs/payments-protocol.md, "Webhooks"):
 * the outcome of a payment and of a payout, signed (signature.ts). The body is built here in its wire
 * key order, so a provider's stored body and a merchant's test body are the same bytes.
 */
import { Schema } from "effect"

const EventId = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))
const EventAmount = Schema.String.check(Schema.isPattern(/^[1-9]\d{0,37}$/))
const EventCurrency = Schema.String.check(Schema.isPattern(/^[A-Z0-9]{2,10}$/))
const Reason = Schema.NullOr(Schema.String.check(Schema.isMaxLength(500)))
const EventReference = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100))

export const paymentEventTypes = ["payment.completed", "payment.failed", "payment.pending"] as const
export type PaymentEventType = (typeof paymentEventTypes)[number]

/** A payment's outcome. `reference` is the merchant's (the casino's deposit id). */
export const PaymentEvent = Schema.Struct({
  id: EventId,
  type: Schema.Literals(paymentEventTypes),
  paymentId: Schema.String.check(Schema.isMaxLength(200)),
  reference: EventReference,
  amount: EventAmount,
  currency: EventCurrency,
  reason: Reason,
  createdAt: Schema.String,
})
export type PaymentEvent = typeof PaymentEvent.Type

export const payoutEventTypes = ["payout.paid", "payout.failed"] as const
export type PayoutEventType = (typeof payoutEventTypes)[number]

/** A payout's outcome. `reference` is the merchant's (the casino's withdrawal id). */
export const PayoutEvent = Schema.Struct({
  id: EventId,
  type: Schema.Literals(payoutEventTypes),
  payoutId: Schema.String.check(Schema.isMaxLength(200)),
  reference: EventReference,
  amount: EventAmount,
  currency: EventCurrency,
  reason: Reason,
  createdAt: Schema.String,
})
export type PayoutEvent = typeof PayoutEvent.Type

/** The body of a payment event, keys in wire order. */
export const paymentEventBody = (e: PaymentEvent): string =>
  JSON.stringify({
    id: e.id,
    type: e.type,
    paymentId: e.paymentId,
    reference: e.reference,
    amount: e.amount,
    currency: e.currency,
    reason: e.reason,
    createdAt: e.createdAt,
  })

/** The body of a payout event, keys in wire order. */
export const payoutEventBody = (e: PayoutEvent): string =>
  JSON.stringify({
    id: e.id,
    type: e.type,
    payoutId: e.payoutId,
    reference: e.reference,
    amount: e.amount,
    currency: e.currency,
    reason: e.reason,
    createdAt: e.createdAt,
  })
