/**
 * The cashout rules both sides apply (spec sections 2, 5, 6, 8, 9): the four checks of the
 * cashout click IN THE SPEC'S ORDER as one function, the amount as typed in minor units (never a
 * float), and the cashout messages. Pure: the cashout machine names these as guards, the server
 * re-checks the same conditions, tests/property drives them with fast-check.
 */
import type { Currencies } from "./cdn.ts"
import { formatAmount, parseAmount } from "./money-rules.ts"

export const CashoutMessages = {
  /** Spec section 5, check 2 (verbatim). Clicking it closes the modal and opens /profile/verification. */
  notVerified: "Your identification and address has to be verified before cashout",
  /** Spec section 5, check 3 ("a translated not-enough-money message"). */
  notEnoughMoney: "You do not have enough money to cash out this amount",
  /** Spec section 5, check 4: '*' plus the translated 'required' text. */
  required: "required",
  /** Spec section 8 (verbatim). */
  requestSent: "Cash out request has been sent!",
  requestFailed: "Something went wrong, please contact support!",
  withdrawableFailed: "Get Withdrawable did not work",
  limitsFailed: "Could not get the minimum cashout amount",
  belowMinimum: (minimum: string, currency: string) => `The minimum cashout is ${minimum} ${currency}`,
  outOfRange: (minimum: string, maximum: string, currency: string) =>
    `A cashout must be between ${minimum} and ${maximum} ${currency}`,
  dailyLimit: (remaining: string, currency: string) =>
    `This is above your daily cashout limit. You may cash out up to ${remaining} ${currency} today.`,
  /** The code as players know it: the currency list's DOG is shown as DOGE (spec section 2). */
  invalidAddress: (currency: string) =>
    `This is not a valid ${currency === "DOG" ? "DOGE" : currency} address`,
  rateLimited: (seconds: number) => `Too many cashout requests, please try again in ${seconds} seconds`,
  blocked: "Payments are not available on this account",
  currencyUnavailable: "Cashout is not available in this currency",
  /**
   * Cashing out with an active bonus (docs/bonuses.md): what the player gives up, asked before the
   * request is sent. The cash is never touched.
   */
  forfeitBonus: (name: string, bonusMoney: string, currency: string) =>
    `You have an active bonus (${name}). Cashing out now forfeits it: ${bonusMoney} ${currency} of bonus money goes back to the casino. Your cash is not touched.`,
} as const

export const CashoutConstants = {
  /** Spec sections 2 and 9: the fixed text of the amount step (the real minimum is minWithdraw). */
  fixedText: "min 10.00 EUR, max 400.00 EUR",
  amountMaxLength: 12,
  addressMaxLength: 128,
  emailMaxLength: 254,
} as const

/** The four checks of the cashout click, in the order the spec lists them (section 5). */
export const cashoutChecks = ["belowMinimum", "notVerified", "notEnoughMoney", "destinationMissing"] as const
export type CashoutCheck = (typeof cashoutChecks)[number]

/** What the click is checked against. Amounts in the currency's minor units. */
export interface CashoutFacts {
  /** The typed amount (null: not a valid amount, which counts as below the minimum). */
  readonly amount: bigint | null
  readonly minWithdraw: bigint
  /** Identity AND address documents approved (spec section 6). */
  readonly verified: boolean
  readonly withdrawable: bigint
  /**
   * The crypto address (crypto) or the bank e-mail (fiat, Bank Account tab) as typed; null where the
   * step asks for none (the fiat amount step, the payment-wallet tab pays the account e-mail).
   */
  readonly destination: string | null
}

/** Whether one check fails for these facts (each check on its own, order aside). */
export const checkFails = (check: CashoutCheck, facts: CashoutFacts): boolean => {
  switch (check) {
    case "belowMinimum":
      return facts.amount === null || facts.amount <= 0n || facts.amount < facts.minWithdraw
    case "notVerified":
      return !facts.verified
    case "notEnoughMoney":
      return facts.withdrawable - (facts.amount ?? 0n) < 0n
    case "destinationMissing":
      return facts.destination !== null && facts.destination.trim() === ""
  }
}

/** The first failing check in the spec's order, or null when the click may go on. */
export const firstFailingCheck = (facts: CashoutFacts): CashoutCheck | null =>
  cashoutChecks.find((check) => checkFails(check, facts)) ?? null

/** Crypto currencies take an address on the amount step and skip the fiat form. */
export const isCryptoCurrency = (currencies: Currencies, code: string): boolean =>
  currencies.find((c) => c.code === code)?.type === "CRYPTO"

/** The minor units per whole unit of `code`, or null for a currency not in the list. */
export const subunitsFor = (currencies: Currencies, code: string): bigint | null => {
  const raw = currencies.find((c) => c.code === code)?.subunits_to_unit
  return raw !== undefined && /^[1-9]\d*$/.test(raw) ? BigInt(raw) : null
}

/** The typed cashout amount in minor units ("25", "25.5", "0,0015"), or null when it is not one. */
export const parseCashoutAmount = (typed: string, currencies: Currencies, code: string): bigint | null => {
  const subunits = subunitsFor(currencies, code)
  return subunits === null ? null : parseAmount(typed, subunits)
}

/** Minor units (as the contract sends them) for display, or the raw text if the currency is unknown. */
export const formatMinor = (minor: string, currencies: Currencies, code: string): string => {
  const subunits = subunitsFor(currencies, code)
  return subunits === null || !/^-?\d+$/.test(minor) ? minor : formatAmount(BigInt(minor), subunits)
}
