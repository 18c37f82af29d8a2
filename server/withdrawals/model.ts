/**
 * What every part of withdrawals shares (Withdrawals.ts composes the parts): the answers' words, the
 * moves a withdrawal may make, the refusals of operator actions and the views built from rows.
 * Pure: no service, no SQL.
 */
import { Schema } from "effect"
import type { Withdrawal, WithdrawalStatus } from "../../services/cashout-service.ts"
import { networkOf } from "../../services/crypto-rules.ts"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import type { WithdrawalNotFound } from "../../services/errors.ts"
import type { StepRow, WithdrawalRow } from "./WithdrawalsRepo.ts"

/**
 * What the server answers besides the cashout checks. The checks' own messages are the shared
 * `CashoutMessages` (services/cashout-rules.ts): the server and the cashout statechart say the same
 * thing for the same refusal.
 */
export const WithdrawMessages = {
  notCrypto: (currency: string) => `${currency} cannot be withdrawn to a crypto address.`,
  notFiat: (currency: string) => `${currency} cannot be withdrawn with this method.`,
  noWallet: (currency: string) => `You have no ${currency} wallet.`,
  unknownCurrency: (currency: string) => `${currency} is not a currency of the list.`,
  notFound: "No such withdrawal.",
} as const

/** The only moves a withdrawal may make (final states: paid, rejected, failed). */
export const allowedMoves: Readonly<Record<WithdrawalStatus, ReadonlyArray<WithdrawalStatus>>> = {
  requested: ["approved", "rejected"],
  // approved → failed: a provider refusing the payout when asked. (A callback arriving before
  // the casino recorded "sent" records that step itself: see settleCallback.)
  approved: ["sent", "failed"],
  sent: ["paid", "failed"],
  paid: [],
  rejected: [],
  failed: [],
}

export const canMove = (from: WithdrawalStatus, to: WithdrawalStatus): boolean =>
  allowedMoves[from].includes(to)

/** The status of a withdrawal waiting for an operator's decision (approve or reject). */
export const AWAITING_DECISION = "requested" satisfies WithdrawalStatus

/** The move an operator or a callback asked for is not allowed from the withdrawal's status. */
export class WithdrawalMoveRefused extends Schema.TaggedError<WithdrawalMoveRefused>()(
  "WithdrawalMoveRefused",
  {
    id: Schema.String,
    from: Schema.String,
    to: Schema.String,
    message: Schema.String,
  },
) {}

/** An operator's action refused for its input (no reason, no tx hash). */
export class WithdrawalInputRefused extends Schema.TaggedError<WithdrawalInputRefused>()(
  "WithdrawalInputRefused",
  { message: Schema.String },
) {}

export type OperatorError = WithdrawalNotFound | WithdrawalMoveRefused | WithdrawalInputRefused

/** An operator's view: the withdrawal and whose it is. */
export interface OperatorWithdrawal extends Withdrawal {
  readonly userId: string
  readonly email: string
  readonly provider: string
  readonly providerReference: string | null
}

export interface WebhookAnswer {
  readonly status: number
  readonly body: Readonly<Record<string, unknown>>
}

export const isCryptoCurrency = (c: string): c is CryptoCurrency => c in networkOf

export const isUuid = (text: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)

/** The system account code of `pending_withdrawal`: where requested amounts wait. */
export const PENDING_CODE = "withdrawals"

export const toWithdrawal = (row: WithdrawalRow, steps: ReadonlyArray<StepRow>): Withdrawal => ({
  id: row.id,
  method: row.method,
  currency: row.currency,
  amount: row.amount,
  destination: row.destination,
  status: row.status,
  txHash: row.txHash,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  timeline: steps
    .filter((s) => s.withdrawalId === row.id)
    .map((s) => ({ status: s.status, at: s.at.toISOString(), note: s.note })),
})
