/**
 * The deposit dialog (machines/wallet/deposit.machine.ts) on a real actor, its steps real too, with
 * every call replaced: the cookie, the basics and minimums, the gateways and the outcome answer at
 * once; each deposit call waits for the test (`pay`). The cookie writes and the notes to the host are
 * recorded. `amountStep` and `paymentStep` are the step actors the view reads and sends to.
 */
import { createActor, fromPromise } from "xstate"
import { couponCheckMachine } from "../../../machines/couponCheck.machine.ts"
import { fixtureCurrencies, fixtureSiteConfig } from "../../../machines/flowFixtures.ts"
import { completeProfile } from "../../../machines/profile/fixtures.ts"
import { profileFormMachine } from "../../../machines/profile/profileForm.machine.ts"
import { depositAmountMachine } from "../../../machines/wallet/deposit/depositAmount.machine.ts"
import { depositPaymentMachine } from "../../../machines/wallet/deposit/depositPayment.machine.ts"
import { depositProfileMachine } from "../../../machines/wallet/deposit/depositProfile.machine.ts"
import type {
  DepositBasics,
  DepositCheck,
  DepositInput,
  PaymentOutcome,
  PayRequest,
} from "../../../machines/wallet/deposit/types.ts"
import { depositMachine } from "../../../machines/wallet/deposit.machine.ts"
import { eurMinimums, fixtureFund, noDeposits } from "../../../machines/wallet/fixtures.ts"
import type { CouponCheck } from "../../../services/bonus-service.ts"
import type { PaymentConfig } from "../../../services/money-rules.ts"
import type { DepositMinimums, DepositResponse, Gateways } from "../../../services/wallet-service.ts"
import { controlled } from "../account/doubles.ts"

export interface DepositDoubles {
  readonly saved?: PaymentConfig | null
  readonly basics?: DepositBasics
  readonly gateways?: Gateways
  readonly outcome?: (check: DepositCheck) => PaymentOutcome
  readonly input?: Partial<DepositInput>
  /** The completion step's profile form, its calls replaced (default: never asked, the profile is complete). */
  readonly profileForm?: typeof profileFormMachine
}

export const startDeposit = (doubles: DepositDoubles = {}) => {
  const pay = controlled<DepositResponse, PayRequest>()
  const written: Array<PaymentConfig> = []
  const asked: Array<DepositCheck> = []
  let announced = 0
  const record = ({ context }: { context: { readonly config: PaymentConfig } }) => {
    written.push(context.config)
  }
  const actor = createActor(
    depositMachine.provide({
      actors: {
        readConfig: fromPromise(async () => doubles.saved ?? null),
        loadOutcome: fromPromise(async ({ input }: { input: DepositCheck }) => {
          asked.push(input)
          if (doubles.outcome === undefined) throw new Error("no payment to look up")
          return doubles.outcome(input)
        }),
        depositAmount: depositAmountMachine.provide({
          actors: {
            loadBasics: fromPromise(
              async (): Promise<DepositBasics> =>
                doubles.basics ?? { fund: fixtureFund, totals: noDeposits, offer: null },
            ),
            loadMinimums: fromPromise(async (): Promise<DepositMinimums> => eurMinimums),
          },
          actions: { saveConfig: record },
        }),
        // The code checker records the codes it is given; its call never answers.
        couponCheck: couponCheckMachine.provide({
          actors: { check: fromPromise<CouponCheck, string>(() => new Promise<CouponCheck>(() => {})) },
        }),
        depositPayment: depositPaymentMachine.provide({
          actors: {
            depositProfile: depositProfileMachine.provide({
              actors: { completeProfile: doubles.profileForm ?? profileFormMachine },
            }),
            loadGateways: fromPromise(
              async (): Promise<Gateways> => doubles.gateways ?? ["brpay", "paypound", "ems"],
            ),
            pay: pay.logic,
          },
          actions: { saveConfig: record, trackMethod: () => {} },
        }),
      },
      actions: {
        announceChange: () => {
          announced += 1
        },
      },
    }),
    {
      input: {
        currencies: fixtureCurrencies,
        siteConfig: fixtureSiteConfig,
        profile: completeProfile,
        fund: fixtureFund,
        ...doubles.input,
      },
    },
  )
  actor.start()
  /** The amount step the view shows now (the dialog's child). */
  const amountStep = () => {
    const step = actor.getSnapshot().children.amount
    if (step === undefined) throw new Error(`no amount step in ${JSON.stringify(actor.getSnapshot().value)}`)
    return step
  }
  /** The payment step the view shows now (the method list, the profile, the payment). */
  const paymentStep = () => {
    const step = actor.getSnapshot().children.payment
    if (step === undefined) throw new Error(`no payment step in ${JSON.stringify(actor.getSnapshot().value)}`)
    return step
  }
  return { actor, pay, written, asked, amountStep, paymentStep, announced: () => announced }
}
