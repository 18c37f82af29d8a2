/**
 * The deposit dialog's calls, as actor logic the machines name in `setup({ actors })` (their tests
 * and models replace them): the cookie, the amount step's basics and minimums, a new wallet, the
 * card gateways, the deposit call by method, and the outcome of a payment whose frame closed.
 */
import { Effect } from "effect"
import { fromPromise } from "xstate"
import { fromEffect } from "../../../services/bridge.ts"
import { bonusesClient } from "../../../services/clients/bonuses.ts"
import { paymentsClient } from "../../../services/clients/payments.ts"
import { profileClient } from "../../../services/clients/profile.ts"
import { walletClient } from "../../../services/clients/wallet.ts"
import { readPaymentConfig } from "../../../services/payment-cookie.ts"
import { depositOffer } from "./rules.ts"
import {
  BasicsFailed,
  type DepositBasics,
  type DepositCheck,
  type PaymentOutcome,
  type PayRequest,
} from "./types.ts"

/** The payment_config cookie (null: none, or not readable as one). */
export const readConfig = fromPromise(async () => readPaymentConfig())

/** The wallets, the completed deposits and this deposit's offer, together. */
export const loadBasics = fromEffect(() =>
  Effect.gen(function* () {
    const [fund, totals, offers] = yield* Effect.all(
      [
        profileClient.getFund().pipe(Effect.mapError((e) => new BasicsFailed("fund", e))),
        walletClient.totalDeposits().pipe(Effect.mapError((e) => new BasicsFailed("totals", e))),
        // Without the offers the deposit goes ahead, only without a bonus to choose.
        bonusesClient.eligible().pipe(Effect.orElseSucceed(() => null)),
      ],
      { concurrency: "unbounded" },
    )
    const basics: DepositBasics = {
      fund,
      totals,
      offer: offers === null ? null : depositOffer(offers, totals.deposits.length),
    }
    return basics
  }),
)

export const loadMinimums = fromEffect((currency: string) =>
  Effect.gen(function* () {
    return yield* walletClient.depositMinimums({ params: { currency } })
  }),
)

export const addWallet = fromEffect((currency: string) =>
  Effect.gen(function* () {
    return yield* walletClient.addCurrency({ payload: { currency } })
  }),
)

/** The enabled card gateways, in cascade order. */
export const loadGateways = fromEffect(() =>
  Effect.gen(function* () {
    return yield* walletClient.gateways()
  }),
)

const payCall = (request: PayRequest) => {
  switch (request.kind) {
    case "gateway":
      return paymentsClient.gatewayDeposit({ params: { gateway: request.gateway }, payload: request.body })
    case "skrill":
      return paymentsClient.skrillDeposit({ payload: { ...request.body, paymentMethods: null } })
    case "jeton":
      return request.tab === "Cash"
        ? paymentsClient.jetonCashDeposit({ payload: request.body })
        : paymentsClient.jetonDeposit({
            params: { type: request.tab },
            payload: { ...request.body, email: request.email },
          })
  }
}

/** One deposit call, by method. */
export const pay = fromEffect((request: PayRequest) =>
  Effect.gen(function* () {
    return yield* payCall(request)
  }),
)

/** The reopened dialog's payment (today's deposits, UTC), its currency's minimums, the profile now. */
export const loadOutcome = fromEffect((check: DepositCheck) =>
  Effect.gen(function* () {
    const today = new Date().toISOString().slice(0, 10)
    const [history, minimums, profile] = yield* Effect.all(
      [
        walletClient.fiatHistory({ params: { type: "deposit" }, query: { from: today, to: today } }),
        walletClient
          .depositMinimums({ params: { currency: check.currency } })
          .pipe(Effect.orElseSucceed(() => null)),
        profileClient.getProfile().pipe(Effect.orElseSucceed(() => null)),
      ],
      { concurrency: "unbounded" },
    )
    const outcome: PaymentOutcome = {
      deposit: history.find((d) => d.id === check.depositId) ?? null,
      minimums,
      profile,
    }
    return outcome
  }),
)
