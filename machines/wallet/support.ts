/**
 * What the wallet domain's machines (currency, deposit, iframe) and their views share: how each flow
 * ends (its output, routed by the modal host), and the pure projections of the deposit's amount step
 * (the amount as minor units, the quick amounts, the minimum and promotion messages). Pure: no fetch,
 * no DOM, no clock.
 */
import { bandFor, bandsOf, promotionMessage, unlockHint } from "../../services/bonus-rules.ts"
import type { Promotion } from "../../services/bonus-service.ts"
import type { Currencies } from "../../services/cdn.ts"
import {
  type DepositQuote,
  formatAmount,
  fromEuros,
  MoneyConstants,
  MoneyMessages,
  meetsMinimum,
  parseAmount,
  parseDecimal,
  toEurCents,
} from "../../services/money-rules.ts"
import type { Fund } from "../../services/profile-service.ts"
import type { DepositMinimums } from "../../services/wallet-service.ts"

/**
 * How a wallet-domain flow ends. `fundChanged`: a wallet was added or made the default (the session
 * reads its fund again). `frame`: a deposit was started; its page opens in the iframe modal.
 * `sessionEnded`: a call answered 401 (the host asks the shell to re-check the session).
 * `closed`: the payment frame closed; `credited` when the deposit's money arrived.
 */
export type WalletOutput =
  | { readonly type: "fundChanged" }
  | { readonly type: "sessionEnded" }
  | {
      readonly type: "frame"
      readonly url: string
      readonly depositId: string
      readonly currency: string
    }
  | { readonly type: "closed"; readonly credited: boolean }

/**
 * The currencies a fiat deposit (and a new wallet, this issue) may use. Decision
 * (docs/decisions.md, "Deposit currencies"): crypto entries are HIDDEN from the fiat flows rather
 * than shown disabled — crypto deposits are the next issue, and a disabled entry would promise a
 * flow that does not exist yet.
 */
export const fiatCurrencies = (currencies: Currencies): Currencies =>
  currencies.filter((c) => c.type === "FIAT")

/** The crypto currencies of the list: choosing one opens the crypto form. */
export const cryptoCurrencies = (currencies: Currencies): Currencies =>
  currencies.filter((c) => c.type === "CRYPTO")

/** The minor units per whole unit of `code` (100 for EUR), or null for a currency not in the list. */
export const subunitsOf = (currencies: Currencies, code: string): bigint | null => {
  const entry = currencies.find((c) => c.code === code)
  if (entry === undefined || !/^[1-9]\d*$/.test(entry.subunits_to_unit)) return null
  return BigInt(entry.subunits_to_unit)
}

export const hasWallet = (fund: Fund | null, currency: string): boolean =>
  fund?.some((entry) => entry.currency === currency) ?? false

/** The wallet the header shows: the default one, else EUR, else the first (spec section 3). */
export const defaultWallet = (fund: Fund | null): string | null =>
  (fund?.find((f) => f.default) ?? fund?.find((f) => f.currency === "EUR") ?? fund?.[0])?.currency ?? null

/** What the amount step knows: the currency list, the chosen currency, the typed amount, the minimums. */
export interface AmountState {
  readonly currencies: Currencies
  readonly currency: string
  readonly amountText: string
  /** The minimums of `currency` once loaded (null while loading or after a failure). */
  readonly minimums: DepositMinimums | null
  /** Completed deposits so far (null until loaded). */
  readonly depositCount: number | null
  /** The bonus offer for this deposit, as the server sent it (null: none to take). */
  readonly offer: Promotion | null
}

/** The typed amount with the loaded minimums, or null while anything needed is missing or invalid. */
export const quoteOf = (s: AmountState): DepositQuote | null => {
  const subunits = subunitsOf(s.currencies, s.currency)
  if (subunits === null || s.minimums === null || s.minimums.currency !== s.currency) return null
  const amount = parseAmount(s.amountText, subunits)
  const eurRate = parseDecimal(s.minimums.eurRate)
  if (amount === null || eurRate === null) return null
  return { amount, subunitsToUnit: subunits, minDeposit: BigInt(s.minimums.minDeposit), eurRate }
}

/** The quick amount `euros` as the amount field shows it, in the chosen currency (rounded up). */
export const quickAmountText = (s: AmountState, euros: number): string | null => {
  const subunits = subunitsOf(s.currencies, s.currency)
  if (subunits === null) return null
  if (s.currency === "EUR") return formatAmount(BigInt(euros) * subunits, subunits)
  const eurRate = s.minimums?.currency === s.currency ? parseDecimal(s.minimums.eurRate) : null
  if (eurRate === null) return null
  const minor = fromEuros(BigInt(euros), eurRate, subunits)
  return minor === null ? null : formatAmount(minor, subunits)
}

export const quickAmounts = MoneyConstants.quickAmountsEur

/** The minimum message under the amount: shown while the typed amount is below minDeposit. */
export const minimumMessage = (s: AmountState): string | null => {
  const subunits = subunitsOf(s.currencies, s.currency)
  if (subunits === null || s.minimums === null || s.minimums.currency !== s.currency) return null
  const quote = quoteOf(s)
  if (quote !== null && meetsMinimum(quote)) return null
  return MoneyMessages.belowMinimum(formatAmount(BigInt(s.minimums.minDeposit), subunits), s.currency)
}

/**
 * The promotion message (spec sections 2 and 9) for the typed amount: the band of this deposit's
 * offer (the promotion of its number, as the server holds it), so the words match what is paid.
 */
export const promotionOf = (s: AmountState): string | null => {
  const subunits = subunitsOf(s.currencies, s.currency)
  if (subunits === null || s.minimums === null || s.offer === null) return null
  if (s.minimums.currency !== s.currency) return null
  const quote = quoteOf(s)
  const minPromotion = BigInt(s.minimums.minPromotion)
  const amount = quote?.amount ?? 0n
  const amountEurCents = quote === null ? 0n : toEurCents(quote.amount, quote.eurRate, quote.subunitsToUnit)
  return promotionMessage({
    band: bandFor(bandsOf(s.offer.bands), amountEurCents),
    maxBonusEurCents: BigInt(s.offer.maxBonusEurCents),
    reachesMinPromotion: amount > 0n && amount >= minPromotion,
    minPromotionText: `${formatAmount(minPromotion, subunits)} ${s.currency}`,
  })
}

/** The free-spin winnings this deposit would unlock, said under "Take the bonus" (null: none wait). */
export const unlockHintOf = (s: AmountState & { readonly fund: Fund | null }): string | null => {
  const subunits = subunitsOf(s.currencies, s.currency)
  if (subunits === null || s.offer === null) return null
  const wallet = s.fund?.find((f) => f.currency === s.currency)?.freeSpinWallet ?? null
  return unlockHint(
    wallet,
    quoteOf(s)?.amount ?? null,
    (minor) => `${formatAmount(BigInt(minor), subunits)} ${s.currency}`,
  )
}
