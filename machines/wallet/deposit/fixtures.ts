/**
 * Orders for the deposit dialog's step models (machines/wallet/deposit/*.model.ts) and actor tests
 * (tests/unit/wallet): the order a new dialog starts with, and one ready to pay.
 */
import { fixtureCurrencies } from "../../flowFixtures.ts"
import { eurMinimums } from "../fixtures.ts"
import type { DepositOrder } from "./types.ts"

/** A new dialog's order: EUR, nothing typed, nothing loaded, no bonus, an empty cookie. */
export const freshOrder: DepositOrder = {
  currencies: fixtureCurrencies,
  currency: "EUR",
  amountText: "",
  minimums: null,
  depositCount: null,
  offer: null,
  couponOpen: false,
  coupon: "",
  takeBonus: false,
  config: { tabs: {}, depositAmount: "", currency: "EUR", promotionCoupon: "" },
}

/** 30 EUR after "Play with": the EUR minimums loaded, a first deposit, no bonus taken. */
export const thirtyEuros: DepositOrder = {
  ...freshOrder,
  amountText: "30",
  minimums: eurMinimums,
  depositCount: 0,
  config: { tabs: {}, depositAmount: "30", currency: "EUR", promotionCoupon: "" },
}
