/**
 * The deposit on a real actor with controlled doubles (tests/unit/wallet/depositDoubles.ts): the
 * card cascade over the gateways the server lists, skipping those the payment_config cookie marks
 * failed, marking each GatewayUnavailable 'Failed to process' and writing the cookie each time, and
 * the message when none is left; the cookie read on start resumes with the amount. Events go to the
 * step the view shows (the dialog's children), as the view sends them.
 */
import { describe, expect, it } from "vitest"
import { welcomeOffer } from "../../../machines/profile/fixtures.ts"
import { fixtureFund, noDeposits, redirectAnswer } from "../../../machines/wallet/fixtures.ts"
import type { Promotion } from "../../../services/bonus-service.ts"
import { GatewayUnavailable } from "../../../services/errors.ts"
import { MoneyMessages, type PaymentConfig } from "../../../services/money-rules.ts"
import type { Gateways } from "../../../services/wallet-service.ts"
import { settle } from "../account/doubles.ts"
import { startDeposit } from "./depositDoubles.ts"

const start = (
  saved: PaymentConfig | null,
  gateways: Gateways = ["brpay", "paypound", "ems"],
  offer: Promotion | null = null,
) => startDeposit({ saved, gateways, basics: { fund: fixtureFund, totals: noDeposits, offer } })

const down = (gateway: string) => new GatewayUnavailable({ message: "down", gateway })

describe("the card cascade", () => {
  it("skips the gateway the cookie marks failed, marks the next one, and opens the frame with the third", async () => {
    const saved: PaymentConfig = {
      tabs: { brpay: MoneyMessages.providerFailed },
      depositAmount: "30",
      currency: "EUR",
      promotionCoupon: "",
    }
    const { actor, pay, written, amountStep, paymentStep } = start(saved)
    await settle()
    // Resumed with the remembered amount.
    expect(amountStep().getSnapshot().context.amountText).toBe("30")
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "card" })
    await settle()
    expect(pay.last().input).toMatchObject({ kind: "gateway", gateway: "paypound" })
    expect(pay.last().input.body).toMatchObject({ amount: "3000", currency: "EUR" })
    pay.last().reject(down("paypound"))
    await settle()
    expect(written.at(-1)?.tabs).toEqual({
      brpay: MoneyMessages.providerFailed,
      paypound: MoneyMessages.providerFailed,
    })
    expect(pay.last().input).toMatchObject({ gateway: "ems" })
    pay.last().resolve(redirectAnswer)
    await settle()
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({
      type: "frame",
      url: redirectAnswer.redirectUrl,
      depositId: redirectAnswer.depositId,
      currency: "EUR",
    })
  })

  it("all gateways failed: back to the methods with the message, no call left", async () => {
    const { pay, amountStep, paymentStep } = start(null)
    await settle()
    amountStep().send({ type: "QUICK", euros: 75 })
    expect(amountStep().getSnapshot().context.amountText).toBe("75.00")
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "card" })
    for (const gateway of ["brpay", "paypound", "ems"]) {
      await settle()
      expect(pay.last().input).toMatchObject({ gateway })
      pay.last().reject(down(gateway))
    }
    await settle()
    expect(pay.calls).toHaveLength(3)
    expect(paymentStep().getSnapshot().matches("methods")).toBe(true)
    expect(paymentStep().getSnapshot().context.message).toBe(MoneyMessages.allGatewaysFailed)
  })

  it("no card gateway configured (an empty list): back to the methods with the message, no call", async () => {
    const { pay, amountStep, paymentStep } = start(null, [])
    await settle()
    amountStep().send({ type: "QUICK", euros: 30 })
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "card" })
    await settle()
    expect(pay.calls).toHaveLength(0)
    expect(paymentStep().getSnapshot().matches("methods")).toBe(true)
    expect(paymentStep().getSnapshot().context.message).toBe(MoneyMessages.allGatewaysFailed)
  })

  it("an e-wallet the casino does not offer (GatewayUnavailable): back to the methods with the message", async () => {
    const { pay, amountStep, paymentStep } = start(null)
    await settle()
    amountStep().send({ type: "QUICK", euros: 30 })
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "skrill" })
    await settle()
    expect(pay.last().input).toMatchObject({ kind: "skrill" })
    pay.last().reject(down("skrill"))
    await settle()
    expect(paymentStep().getSnapshot().matches("methods")).toBe(true)
    expect(paymentStep().getSnapshot().context.message).toBe(MoneyMessages.depositFailed)
    // The player may choose another method.
    paymentStep().send({ type: "CHOOSE_METHOD", method: "card" })
    await settle()
    expect(pay.last().input).toMatchObject({ kind: "gateway", gateway: "brpay" })
  })

  it("below 10 EUR the gateway screen does not open", async () => {
    const { pay, amountStep, paymentStep } = start(null)
    await settle()
    amountStep().send({ type: "AMOUNT", value: "7.50" })
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "card" })
    await settle()
    expect(pay.calls).toHaveLength(0)
    expect(paymentStep().getSnapshot().context.message).toBe(MoneyMessages.belowGatewayGate)
  })
})

describe("the bonus of this deposit", () => {
  const thirty: PaymentConfig = { tabs: {}, depositAmount: "30", currency: "EUR", promotionCoupon: "" }
  const payCoupon = async (
    choose: (step: ReturnType<ReturnType<typeof start>["amountStep"]>) => void,
    offer: Promotion | null,
  ) => {
    const { pay, amountStep, paymentStep } = start(thirty, ["brpay"], offer)
    await settle()
    choose(amountStep())
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "card" })
    await settle()
    return pay.last().input.body.promotionCoupon
  }

  it("is not taken unless the player takes it", async () => {
    expect(await payCoupon(() => {}, welcomeOffer)).toBeNull()
  })

  it("taken, the deposit names the offer's code; declined again, it names none", async () => {
    expect(await payCoupon((a) => a.send({ type: "BONUS", take: true }), welcomeOffer)).toBe("WELCOME1")
    expect(
      await payCoupon((a) => {
        a.send({ type: "BONUS", take: true })
        a.send({ type: "BONUS", take: false })
      }, welcomeOffer),
    ).toBeNull()
  })

  it("a typed bonus code is sent instead; without an offer there is nothing to take", async () => {
    expect(
      await payCoupon((a) => {
        a.send({ type: "BONUS", take: true })
        a.send({ type: "TOGGLE_COUPON" })
        a.send({ type: "COUPON", value: " SPRING25 " })
      }, welcomeOffer),
    ).toBe("SPRING25")
    expect(await payCoupon((a) => a.send({ type: "BONUS", take: true }), null)).toBeNull()
  })
})
