/**
 * Realistic data for the cashout and withdrawals machines' models and actor tests: wallets,
 * what the amount step loads, withdrawals as the contract describes them.
 */
import type { Withdrawal, Withdrawals } from "../../services/cashout-service.ts"
import type { Fund } from "../../services/profile-service.ts"

/** A player with a EUR wallet (default) and a BTC wallet: the cashout's currency selector. */
export const cashoutFund: Fund = [
  { currency: "EUR", default: true, balance: "50000", freeSpinWallet: null },
  { currency: "BTC", default: false, balance: "5000000", freeSpinWallet: null },
]

/** What the cashout's amount step loads for EUR: min 10.00, 500.00 withdrawable, verified. */
export const eurCashoutBasics = {
  minWithdraw: "1000",
  withdrawable: "50000",
  verified: true,
  bonus: null,
} as const

/** The same for BTC: min 0.001 BTC, 0.05 BTC withdrawable. */
export const btcCashoutBasics = {
  minWithdraw: "100000",
  withdrawable: "5000000",
  verified: true,
  bonus: null,
} as const

/** An active welcome bonus on the EUR wallet: 37.50 EUR of bonus money a cashout would forfeit. */
export const eurCashoutBonus = {
  id: "5b0c7f4e-2a1d-4c3b-9e8f-0a1b2c3d4e5f",
  name: "Welcome bonus",
  balance: "3750",
} as const

/** A withdrawal just requested (bank e-mail), as every withdraw call answers it. */
export const requestedWithdrawal: Withdrawal = {
  id: "9a1f6c2e-3b4d-4e5f-8a7b-1c2d3e4f5a6b",
  method: "bank",
  currency: "EUR",
  amount: "2500",
  destination: "ada@bank.example",
  status: "requested",
  txHash: null,
  reason: null,
  createdAt: "2026-11-23T07:00:00.000Z",
  updatedAt: "2026-11-23T07:00:00.000Z",
  timeline: [{ status: "requested", at: "2026-11-23T07:00:00.000Z", note: null }],
}

/** A player's withdrawals, newest first: a crypto one paid, a bank one rejected with its reason. */
export const fixtureWithdrawals: Withdrawals = [
  {
    id: "1e2d3c4b-5a69-4788-9a0b-c1d2e3f4a5b6",
    method: "crypto",
    currency: "BTC",
    amount: "150000",
    destination: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
    status: "paid",
    txHash: "0x5f3c1e0b7c4f439a592f8f3c1d9e11aa5f3c1e0b7c4f439a592f8f3c1d9e11aa",
    reason: null,
    createdAt: "2026-11-22T10:00:00.000Z",
    updatedAt: "2026-11-22T10:20:00.000Z",
    timeline: [
      { status: "requested", at: "2026-11-22T10:00:00.000Z", note: null },
      { status: "approved", at: "2026-11-22T10:05:00.000Z", note: null },
      { status: "sent", at: "2026-11-22T10:06:00.000Z", note: "0x5f3c…11aa" },
      { status: "paid", at: "2026-11-22T10:20:00.000Z", note: null },
    ],
  },
  {
    ...requestedWithdrawal,
    id: "2f3e4d5c-6b7a-4899-8b1c-d2e3f4a5b6c7",
    status: "rejected",
    reason: "Documents expired",
    updatedAt: "2026-11-23T07:10:00.000Z",
    timeline: [
      { status: "requested", at: "2026-11-23T07:00:00.000Z", note: null },
      { status: "rejected", at: "2026-11-23T07:10:00.000Z", note: "Documents expired" },
    ],
  },
]
