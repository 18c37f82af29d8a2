/**
 * Realistic data for the wallet domain's models (machines/wallet/*.model.ts) and actor tests
 * (tests/unit/wallet): wallets, minimums and deposit answers as the contract describes them.
 */
import type { Currencies } from "../../services/cdn.ts"
import type { Fund } from "../../services/profile-service.ts"
import type {
  DepositMinimums,
  DepositResponse,
  FiatHistory,
  TotalDeposits,
} from "../../services/wallet-service.ts"
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

/** A player's deposits as GET …/profile/fiat/deposit answers them, newest first. */
export const fixtureDepositHistory: FiatHistory = [
  {
    id: "7c0e4a52-1f7d-4c2b-9d8e-0a4f3b2c1d10",
    method: "skrill",
    provider: "skrill",
    amount: "7500",
    currency: "EUR",
    status: "completed",
    reason: null,
    createdAt: "2026-11-20T18:04:00.000Z",
    updatedAt: "2026-11-20T18:05:12.000Z",
  },
  {
    id: "3b1d9f0e-6a2c-4e8b-8f7a-5c4d3e2f1a09",
    method: "card",
    provider: "payweb",
    amount: "3000",
    currency: "EUR",
    status: "failed",
    reason: "Card declined",
    createdAt: "2026-11-19T09:30:00.000Z",
    updatedAt: "2026-11-19T09:31:40.000Z",
  },
]
