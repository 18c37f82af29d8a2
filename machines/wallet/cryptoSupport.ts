/**
 * What the crypto deposit form and the crypto history share: the messages, the pure
 * projections of a transfer (its confirmations, its status label, the list kept live by push events)
 * and the minimum warning. Pure: no fetch, no DOM, no clock.
 */
import type { Currencies } from "../../services/cdn.ts"
import type { CryptoDepositAddress, CryptoTransfer } from "../../services/crypto-service.ts"
import { formatAmount } from "../../services/money-rules.ts"
import { currencyDisplayName } from "../../services/rules.ts"
import type { PlayerEvent } from "../../services/wallet-service.ts"
import { subunitsOf } from "./support.ts"

export const CryptoMessages = {
  addressFailed: "Your deposit address could not be loaded.",
  copied: "Copied",
  copyFailed: "Could not copy: select the address and copy it by hand.",
  historyFailed: "Your crypto deposits could not be loaded.",
  noTransfers: "No transfers to this address yet. They appear here as soon as the network sees them.",
  /** Spec section 5: the crypto minimum warning uses minDeposit. */
  minimum: (amount: string, currency: string) =>
    `Minimum deposit: ${amount} ${currencyDisplayName(currency)}`,
  /** docs/crypto.md (crypto-core) decides what happens to a smaller transfer; the warning says it. */
  belowMinimumRule: "A smaller transfer is recorded but not credited to your balance.",
} as const

/** The chains as the player reads them. */
export const networkLabels: Readonly<Record<CryptoDepositAddress["network"], string>> = {
  bitcoin: "Bitcoin",
  litecoin: "Litecoin",
  dogecoin: "Dogecoin",
  ethereum: "Ethereum",
}

/** The statuses of the contract as the player reads them; an unknown one is shown as sent. */
export const transferStatusLabel = (status: string): string => {
  switch (status) {
    case "pending":
      return "Pending"
    case "credited":
      return "Credited"
    case "below_minimum":
      return "Below minimum"
    case "orphaned":
      return "Dropped by the network"
    default:
      return status
  }
}

/** One transfer as the Deposit tab lists it (from the history or from a push event). */
export interface LiveTransfer {
  readonly id: string
  readonly txHash: string
  readonly amount: string
  readonly confirmations: number
  readonly requiredConfirmations: number
  readonly status: string
}

/** "2 of 12 confirmations" — never more than required (a deep block keeps counting on chain). */
export const confirmationsText = (t: {
  readonly confirmations: number
  readonly requiredConfirmations: number
}): string =>
  `${Math.min(t.confirmations, t.requiredConfirmations)} of ${t.requiredConfirmations} confirmations`

/** The minimum warning of the Deposit tab: minDeposit in the currency's major unit, never a float. */
export const minimumWarning = (currencies: Currencies, address: CryptoDepositAddress): string | null => {
  const subunits = subunitsOf(currencies, address.currency)
  if (subunits === null || !/^\d+$/.test(address.minDeposit)) return null
  return CryptoMessages.minimum(formatAmount(BigInt(address.minDeposit), subunits), address.currency)
}

/** A transfer's amount in its currency's major unit ("12.50"), or the raw minor units if unknown. */
export const transferAmountText = (currencies: Currencies, currency: string, amount: string): string => {
  const subunits = subunitsOf(currencies, currency)
  return subunits === null || !/^\d+$/.test(amount) ? amount : formatAmount(BigInt(amount), subunits)
}

/** The history's transfers to this address, as the Deposit tab lists them (newest first). */
export const transfersTo = (
  history: ReadonlyArray<CryptoTransfer>,
  address: CryptoDepositAddress,
): ReadonlyArray<LiveTransfer> =>
  history
    .filter(
      (t) => t.currency === address.currency && t.address.toLowerCase() === address.address.toLowerCase(),
    )
    .map(({ id, txHash, amount, confirmations, requiredConfirmations, status }) => ({
      id,
      txHash,
      amount,
      confirmations,
      requiredConfirmations,
      status,
    }))

export type CryptoDepositPush = Extract<PlayerEvent, { readonly type: "cryptoDeposit" }>

/** Whether a push event is about a deposit in `currency` (the only ones the form shows). */
export const isCryptoPushFor = (event: PlayerEvent, currency: string): event is CryptoDepositPush =>
  event.type === "cryptoDeposit" && event.currency === currency

/**
 * Whether `next` is a later state of the transfer than `current`: a settled transfer never goes back
 * to pending, and the same status never counts its confirmations down. The stream and the history's
 * answer may report one transfer out of order.
 */
export const supersedes = (current: LiveTransfer, next: LiveTransfer): boolean =>
  !(current.status !== "pending" && next.status === "pending") &&
  !(next.status === current.status && next.confirmations < current.confirmations)

/**
 * The list after a push: the transfer's newer state replaces its row, a new one goes first. A push
 * older than what is shown (`supersedes`) is ignored.
 */
export const applyPush = (
  transfers: ReadonlyArray<LiveTransfer>,
  push: CryptoDepositPush,
): ReadonlyArray<LiveTransfer> => {
  const next: LiveTransfer = {
    id: push.id,
    txHash: push.txHash,
    amount: push.amount,
    confirmations: push.confirmations,
    requiredConfirmations: push.requiredConfirmations,
    status: push.status,
  }
  const index = transfers.findIndex((t) => t.id === push.id)
  if (index === -1) return [next, ...transfers]
  const current = transfers[index]
  if (current !== undefined && !supersedes(current, next)) return transfers
  return transfers.map((t, i) => (i === index ? next : t))
}

/** A fee in basis points as a percentage without floats: 500 → "5 %", 450 → "4.5 %". */
export const feeText = (bps: number): string => {
  const whole = Math.trunc(bps / 100)
  const rest = (bps % 100).toString().padStart(2, "0").replace(/0+$/, "")
  return rest === "" ? `${whole} %` : `${whole}.${rest} %`
}
