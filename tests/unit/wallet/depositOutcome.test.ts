/**
 * The deposit dialog reopened after a payment frame closed without the money: a declined payment
 * says why in a player's words and Try again pays again with the same method and amount; an expired
 * one says so; one still open at the provider closes the dialog. And the provider reasons in words.
 */
import { describe, expect, it } from "vitest"
import { completeProfile } from "../../../machines/profile/fixtures.ts"
import type { PaymentOutcome } from "../../../machines/wallet/deposit/types.ts"
import { declineWords } from "../../../machines/wallet/depositReasons.ts"
import { eurMinimums } from "../../../machines/wallet/fixtures.ts"
import type { FiatPayment } from "../../../services/wallet-service.ts"
import { settle } from "../account/doubles.ts"
import { startDeposit } from "./depositDoubles.ts"

const payment = (status: FiatPayment["status"], reason: string | null): FiatPayment => ({
  id: "5f0c2b1a-9d8e-4c7b-a6f5-e4d3c2b1a098",
  method: "card",
  provider: "payweb",
  amount: "2500",
  currency: "EUR",
  status,
  reason,
  createdAt: "2026-11-28T04:00:00.000Z",
  updatedAt: "2026-11-28T04:01:00.000Z",
})

const reopen = (deposit: FiatPayment) =>
  startDeposit({
    gateways: ["payweb"],
    outcome: (): PaymentOutcome => ({ deposit, minimums: eurMinimums, profile: completeProfile }),
    input: { profile: null, check: { depositId: deposit.id, currency: "EUR" } },
  })

describe("the dialog reopened on a payment", () => {
  it("declined: the reason in words; Try again pays the same amount with the card again", async () => {
    const { actor, pay, asked } = reopen(payment("failed", "Insufficient funds"))
    await settle()
    expect(asked).toEqual([{ depositId: "5f0c2b1a-9d8e-4c7b-a6f5-e4d3c2b1a098", currency: "EUR" }])
    expect(actor.getSnapshot().matches("declined")).toBe(true)
    expect(actor.getSnapshot().context.declineReason).toBe(
      "Your bank declined the payment: insufficient funds.",
    )
    actor.send({ type: "PAY_AGAIN" })
    await settle()
    expect(pay.last().input).toMatchObject({ kind: "gateway", gateway: "payweb" })
    expect(pay.last().input.body).toMatchObject({ amount: "2500", currency: "EUR" })
  })

  it("declined: Choose another method shows the method list", async () => {
    const { actor, paymentStep, pay } = reopen(payment("failed", "Card declined"))
    await settle()
    actor.send({ type: "OTHER_METHOD" })
    expect(paymentStep().getSnapshot().matches("methods")).toBe(true)
    expect(pay.calls).toHaveLength(0)
  })

  it("expired: says so, with the same two ways on", async () => {
    const { actor } = reopen(payment("expired", null))
    await settle()
    expect(actor.getSnapshot().matches("expired")).toBe(true)
    expect(actor.getSnapshot().can({ type: "PAY_AGAIN" })).toBe(true)
    expect(actor.getSnapshot().can({ type: "OTHER_METHOD" })).toBe(true)
  })

  it("still open at the provider: the dialog closes", async () => {
    const { actor } = reopen(payment("initiated", null))
    await settle()
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({ type: "closed", credited: false })
  })
})

describe("a provider's decline reason in a player's words", () => {
  it.each([
    ["Insufficient funds", "Your bank declined the payment: insufficient funds."],
    ["insufficient_funds", "Your bank declined the payment: insufficient funds."],
    [
      "Do not honour",
      "Your bank declined the payment (do not honour). Please contact your bank or use another card.",
    ],
    ["Expired card", "Your card has expired. Please use another card."],
    [
      "3-D Secure authentication failed",
      "The 3-D Secure check of your card failed, so the payment was declined.",
    ],
    ["Card declined", "Your bank declined the payment."],
    [
      "Processing error",
      "The payment provider could not process the payment. Please try again or use another method.",
    ],
    ["Expired by the provider", "The payment was not finished in time and has expired."],
    ["Velocity limit reached", "The payment was declined: Velocity limit reached."],
  ])("%s", (reason, words) => {
    expect(declineWords(reason)).toBe(words)
  })

  it("no reason at all", () => {
    expect(declineWords(null)).toBe("The payment was declined.")
  })
})
