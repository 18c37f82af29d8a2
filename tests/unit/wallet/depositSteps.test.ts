/**
 * The deposit dialog and its steps as one (machines/wallet/deposit.machine.ts, the steps in
 * machines/wallet/deposit/): what the generated paths of each machine alone cannot show — the order
 * handed from step to step and back, the typed code reaching the dialog's one checker, the profile
 * saved in the completion step announced once to the host and used for the next payment, the
 * server's list of missing fields shown by the form.
 */
import { describe, expect, it } from "vitest"
import { fromPromise } from "xstate"
import {
  completeProfile,
  fixtureCountries,
  fixtureProfile,
  welcomeOffer,
} from "../../../machines/profile/fixtures.ts"
import { type LoadedForm, profileFormMachine } from "../../../machines/profile/profileForm.machine.ts"
import { fixtureFund, noDeposits, redirectAnswer } from "../../../machines/wallet/fixtures.ts"
import {
  DepositLimitExceeded,
  GatewayUnavailable,
  PaymentsBlocked,
  ProfileIncomplete,
} from "../../../services/errors.ts"
import { MoneyMessages, type PaymentConfig } from "../../../services/money-rules.ts"
import type { Profile, UpdateProfilePayload } from "../../../services/profile-service.ts"
import { settle } from "../account/doubles.ts"
import { startDeposit } from "./depositDoubles.ts"

const thirty: PaymentConfig = { tabs: {}, depositAmount: "30", currency: "EUR", promotionCoupon: "" }

describe("the order from step to step", () => {
  it("back from the method list: the amount step shows the order as left, the failed gateway kept", async () => {
    const { pay, written, amountStep, paymentStep } = startDeposit({
      saved: thirty,
      gateways: ["brpay", "ems"],
    })
    await settle()
    amountStep().send({ type: "AMOUNT", value: "40" })
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "card" })
    await settle()
    pay.last().reject(new GatewayUnavailable({ message: "down", gateway: "brpay" }))
    await settle()
    expect(pay.last().input).toMatchObject({ gateway: "ems" })
    pay.last().reject(new PaymentsBlocked({ message: "blocked" }))
    await settle()
    // Refused: said above the list; BACK returns to the amount as typed.
    expect(paymentStep().getSnapshot().context.message).toBe(MoneyMessages.blocked)
    paymentStep().send({ type: "BACK" })
    await settle()
    const amount = amountStep().getSnapshot()
    expect(amount.context.amountText).toBe("40")
    expect(amount.context.message).toBeNull()
    // The basics and the minimums are read again: "Play with" passes once they are.
    expect(amount.can({ type: "PLAY" })).toBe(true)
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "card" })
    await settle()
    // brpay stays marked 'Failed to process': the cascade starts at ems.
    expect(pay.last().input).toMatchObject({ gateway: "ems", body: { amount: "4000" } })
    expect(written.at(-1)).toEqual({
      tabs: { brpay: MoneyMessages.providerFailed },
      depositAmount: "40",
      currency: "EUR",
      promotionCoupon: "",
    })
  })

  it("the amount's own problem (the limit) is said on the amount step", async () => {
    const { pay, amountStep, paymentStep } = startDeposit({ saved: thirty, gateways: ["brpay"] })
    await settle()
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "skrill" })
    await settle()
    pay.last().reject(new DepositLimitExceeded({ message: "limit", remaining: "1000" }))
    await settle()
    expect(amountStep().getSnapshot().context.message).toBe(MoneyMessages.limitExceeded("10.00"))
    // Typing clears it.
    amountStep().send({ type: "AMOUNT", value: "10" })
    expect(amountStep().getSnapshot().context.message).toBeNull()
  })

  it("the offer read by the amount step goes with the order: taken, its code is paid with", async () => {
    const { actor, pay, amountStep, paymentStep } = startDeposit({
      saved: thirty,
      gateways: ["brpay"],
      basics: { fund: fixtureFund, totals: noDeposits, offer: welcomeOffer },
    })
    await settle()
    amountStep().send({ type: "BONUS", take: true })
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "mifinity" })
    await settle()
    expect(pay.last().input).toMatchObject({
      kind: "gateway",
      gateway: "mifinity",
      body: { promotionCoupon: "WELCOME1" },
    })
    pay.last().resolve(redirectAnswer)
    await settle()
    expect(actor.getSnapshot().output).toEqual({
      type: "frame",
      url: redirectAnswer.redirectUrl,
      depositId: redirectAnswer.depositId,
      currency: "EUR",
    })
  })
})

describe("the bonus code checker", () => {
  it("is the dialog's: each typed code reaches it, and it is the same one when the amount step comes back", async () => {
    const { actor, amountStep, paymentStep } = startDeposit({ saved: thirty })
    await settle()
    const checker = actor.getSnapshot().children.coupon
    amountStep().send({ type: "TOGGLE_COUPON" })
    amountStep().send({ type: "COUPON", value: " SPRING25 " })
    expect(checker?.getSnapshot().context.code).toBe("SPRING25")
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "BACK" })
    await settle()
    expect(actor.getSnapshot().children.coupon).toBe(checker)
    expect(amountStep().getSnapshot().context.coupon).toBe(" SPRING25 ")
    expect(checker?.getSnapshot().context.code).toBe("SPRING25")
    actor.stop()
  })
})

describe("the profile completion step", () => {
  const form = (saved: Array<UpdateProfilePayload>) =>
    profileFormMachine.provide({
      actors: {
        load: fromPromise<LoadedForm>(async () => ({ profile: fixtureProfile, countries: fixtureCountries })),
        save: fromPromise<Profile, UpdateProfilePayload>(async ({ input }) => {
          saved.push(input)
          return completeProfile
        }),
      },
      actions: { toast: () => {} },
    })

  it("asks what the card needs; the save is announced once and the next payment asks nothing", async () => {
    const saved: Array<UpdateProfilePayload> = []
    const { pay, amountStep, paymentStep, announced } = startDeposit({
      saved: thirty,
      gateways: ["brpay"],
      input: { profile: fixtureProfile },
      profileForm: form(saved),
    })
    await settle()
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "card" })
    await settle()
    const step = paymentStep().getSnapshot().children.profile
    expect(step?.getSnapshot().context.missing).toEqual([
      "address",
      "zipCode",
      "country",
      "city",
      "state",
      "phone",
    ])
    const formActor = step?.getSnapshot().children.completeProfile
    if (formActor === undefined) throw new Error("the form did not start")
    for (const [input, value] of [
      ["address", "12 Republic Street"],
      ["zipCode", "VLT1117"],
      ["country", "MT"],
      ["city", "Valletta"],
      ["state", "Valletta"],
      ["phoneNumber", "21234567"],
      ["dialingCode", "356"],
    ] as const) {
      formActor.send({ type: "CHANGE", input, value })
    }
    formActor.send({ type: "SAVE" })
    await settle()
    await settle()
    expect(saved).toHaveLength(1)
    expect(announced()).toBe(1)
    expect(pay.calls).toHaveLength(1)
    pay.last().reject(new PaymentsBlocked({ message: "blocked" }))
    await settle()
    paymentStep().send({ type: "CHOOSE_METHOD", method: "skrill" })
    await settle()
    // The saved profile has what Skrill needs: no completion step, the call at once.
    expect(paymentStep().getSnapshot().matches("skrill")).toBe(true)
    expect(pay.calls).toHaveLength(2)
  })

  it("the server's ProfileIncomplete: the form shows the fields it named", async () => {
    const { pay, amountStep, paymentStep } = startDeposit({
      saved: thirty,
      gateways: ["brpay"],
      profileForm: form([]),
    })
    await settle()
    amountStep().send({ type: "PLAY" })
    paymentStep().send({ type: "CHOOSE_METHOD", method: "card" })
    await settle()
    pay
      .last()
      .reject(new ProfileIncomplete({ message: "Missing: city", fields: ["city", "favouriteColour"] }))
    await settle()
    expect(paymentStep().getSnapshot().matches("profile")).toBe(true)
    expect(paymentStep().getSnapshot().children.profile?.getSnapshot().context.missing).toEqual(["city"])
    // BACK (the view's "Other payment methods") leaves the step for the list.
    paymentStep().send({ type: "BACK" })
    expect(paymentStep().getSnapshot().matches("methods")).toBe(true)
  })
})
