/**
 * Realistic data for the wallet domain's models (machines/wallet/*.model.ts) and actor tests
 * (tests/unit/wallet): wallets, minimums and deposit answers as the contract describes them.
 */
import type { Currencies } from "../../services/cdn.ts"
import type { CryptoDepositAddress, CryptoHistory } from "../../services/crypto-service.ts"
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

/** The fixture currency list with the ERC-20 USDT (6 decimals) beside BTC. */
export const fixtureCryptoCurrencies: Currencies = [
  ...fixtureCurrencies,
  { code: "USDT", name: "Tether", symbol: "₮", type: "CRYPTO", fiat: false, subunits_to_unit: "1000000" },
]

/** The player's EUR wallet with a USDT wallet beside it. */
export const usdtWallets: Fund = [
  ...fixtureFund,
  { currency: "USDT", default: false, balance: "0", freeSpinWallet: null },
]

/** POST …/profile/crypto/deposit's answer for USDT on a local chain (spec section 9's two widget tiers). */
export const usdtAddress: CryptoDepositAddress = {
  currency: "USDT",
  network: "ethereum",
  address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
  chainId: 31337,
  tokenContract: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
  confirmations: 3,
  minDeposit: "10000000",
  banxaCheckoutIframe: "/sandbox-onramp/banxa?currency=USDT",
  widgets: [
    {
      id: "banxa",
      name: "Banxa",
      feeBps: 500,
      etaMinutes: 15,
      verificationAboveEur: 200,
      url: "/sandbox-onramp/banxa?currency=USDT",
    },
    {
      id: "moonpay",
      name: "MoonPay",
      feeBps: 450,
      etaMinutes: 20,
      verificationAboveEur: 100,
      url: "/sandbox-onramp/moonpay?currency=USDT",
    },
  ],
}

/** GET …/profile/crypto/deposit: one credited USDT transfer to that address, one BTC transfer. */
export const fixtureCryptoHistory: CryptoHistory = [
  {
    id: "c1",
    currency: "USDT",
    network: "ethereum",
    txHash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
    outputIndex: 0,
    address: "0x9858efFD232B4033E47d90003D41EC34EcaEda94",
    amount: "25000000",
    confirmations: 3,
    requiredConfirmations: 3,
    status: "credited",
    createdAt: "2026-11-22T10:00:00.000Z",
    updatedAt: "2026-11-22T10:01:00.000Z",
  },
  {
    id: "c2",
    currency: "BTC",
    network: "bitcoin",
    txHash: "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16",
    outputIndex: 1,
    address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
    amount: "150000",
    confirmations: 1,
    requiredConfirmations: 2,
    status: "pending",
    createdAt: "2026-11-21T08:00:00.000Z",
    updatedAt: "2026-11-21T08:10:00.000Z",
  },
]
