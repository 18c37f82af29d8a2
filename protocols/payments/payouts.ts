/**
 * The payout API of the payments protocol (docs/payments-protocol.md, "Payouts"; docs/withdrawals.md):
 * a merchant asks a gateway to send money to the account an e-mail names — a Skrill-style "send
 * money" (`skrill`) or a bank transfer (`bank`) — and the gateway later POSTs the signed outcome
 * (`payout.paid` / `payout.failed`, events.ts) to notifyUrl. Same reference with the same data
 * answers the same payout (201); other data is 409.
 */
import { Schema } from "effect"
import { Amount, Currency, HttpUrl, Reference } from "./merchant.ts"

export const payoutRails = ["skrill", "bank"] as const
export type PayoutRail = (typeof payoutRails)[number]

/** `POST {baseUrl}/{rail}/payouts`, Bearer the gateway's API key. */
export const payoutPath = (rail: PayoutRail): string => `/${rail}/payouts`

export const PayoutRequest = Schema.Struct({
  reference: Reference,
  amount: Amount,
  currency: Currency,
  email: Schema.String.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/)),
  notifyUrl: HttpUrl,
})
export type PayoutRequest = typeof PayoutRequest.Type

/** 201: accepted; only the callback decides paid or failed. */
export const PayoutCreated = Schema.Struct({
  payoutId: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  status: Schema.Literal("pending"),
})
