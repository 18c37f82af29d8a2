/**
 * Realistic data for the wallet domain's models (machines/wallet/*.model.ts) and actor tests
 * (tests/unit/wallet): wallets, minimums and deposit answers as the contract describes them.
 */
import type { Currencies } from "../../services/cdn.ts"
import type { Fund } from "../../services/profile-service.ts"
import type { DepositMinimums, DepositResponse, TotalDeposits } from "../../services/wallet-service.ts"
import { fixtureAccount, fixtureCurrencies } from "../flowFixtures.ts"

/** A fresh registration's only wallet: EUR, default, 12.50. */
export const fixtureFund: Fund = fixtureAccount.fund

/** The same player with a USD wallet beside it. */
export const twoWallets: Fund = [
  ...fixtureFund,
  { currency: "USD", default: false, balance: "0", freeSpinWallet: null },
]

export const eurMinimums: DepositMinimums = {
  currency: "EUR",
  minPromotion: "2000",
  minDeposit: "500",
  eurRate: "1",
}

export const usdMinimums: DepositMinimums = {
  currency: "USD",
  minPromotion: "2200",
  minDeposit: "550",
  eurRate: "0.92",
}

export const noDeposits: TotalDeposits = { deposits: [] }

export const redirectAnswer: DepositResponse = {
  depositId: "5d9f3c1e-0b7c-4f43-9a59-2f8f3c1d9e11",
  redirectUrl: "/sandbox-pay/card/brpay/pay/p-1",
  qr: null,
  initializationToken: null,
}

/** The fixture currency list with a third fiat currency the player has no wallet in yet. */
export const fixtureCurrenciesWithGbp: Currencies = [
  ...fixtureCurrencies,
  { code: "GBP", name: "Pound Sterling", symbol: "£", type: "FIAT", fiat: true, subunits_to_unit: "100" },
]
