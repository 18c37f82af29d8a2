/**
 * Money out (docs/withdrawals.md): what a player may withdraw, the withdraw requests with
 * every check re-done on the server, and the lifecycle every withdrawal then follows:
 *
 *   requested ─▶ approved (operator) ─▶ sent ─▶ paid
 *       │             │                  │
 *       ▼             └──▶ paid/failed   └──▶ failed (payout failed: funds returned)
 *   rejected (operator, reason: funds returned)
 *
 * Money: a request moves the amount from the player's cash to the currency's `pending_withdrawal`
 * account in ONE posting (key `withdrawal:<id>`), so it can no longer be bet. A rejection or failure
 * posts it back (`withdrawal-return:<id>`); paid moves it to the payout's clearing account
 * (`withdrawal-paid:<id>`: the provider's for fiat, the chain network's for crypto). The player
 * cannot cancel: reversing a withdrawal to gamble it is what regulators forbid.
 *
 * Every transition runs in one SQL transaction: the row locked `FOR UPDATE`, the move checked
 * against `allowedMoves` (no double approve, nothing after a final state), the row updated, a
 * timeline step appended, the posting (if any) and the operator's audit row written; then, after the
 * commit, a `withdrawal` push (and `balance` when funds return).
 *
 * Payouts: on approval the payout is attempted at once — fiat through `FiatPayouts` (the provider's
 * signed callback later decides paid/failed), ETH/USDT through `CryptoPayouts` when the server has a
 * hot wallet (sent with its tx hash, paid at WITHDRAW_CONFIRMATIONS). A payout loop (every
 * WITHDRAW_PAYOUT_POLL_SECONDS, in every process; each step idempotent) resends approved payouts
 * that could not be sent and tracks sent crypto payouts. BTC/LTC/DOGE (no hot wallet here) stay
 * `approved` as "pending manual payout" until an operator records `mark-sent` and `mark-paid`.
 *
 * This file is the service: it composes the parts, each in its own module —
 *   model.ts            shared words, allowed moves, refusals and views (pure)
 *   requestChecks.ts    what may be withdrawn and the request with its checks
 *   statusMoves.ts      every status move: lock, check, posting, step, audit, pushes
 *   payoutDispatch.ts   payouts on their rails and the payout loop's round
 *   operatorActions.ts  list, approve, reject, mark-sent, mark-paid
 *   callbacks.ts        the payout providers' signed callbacks
 *   history.ts          the player's withdrawals and history rows
 *   riskContext.ts      what an officer reads beside a player's withdrawal
 * SQL is in WithdrawalsRepo.ts; balances change only through the ledger.
 */
import { Context, Duration, Effect, Layer } from "effect"
import type { Withdrawable, Withdrawal, WithdrawalStatus } from "../../services/cashout-service.ts"
import type { CryptoTransfer } from "../../services/crypto-service.ts"
import type { CurrencyNotSupported, WithdrawalNotFound } from "../../services/errors.ts"
import type { FiatPayment } from "../../services/wallet-service.ts"
import { AppConfig } from "../config.ts"
import type { AuditActor } from "../operator/Audit.ts"
import { makeCallbacks } from "./callbacks.ts"
import { makeHistory } from "./history.ts"
import type { OperatorError, OperatorWithdrawal, WebhookAnswer } from "./model.ts"
import { makeOperatorActions } from "./operatorActions.ts"
import { makePayoutDispatch } from "./payoutDispatch.ts"
import { makeRequestChecks, type RequestError, type WithdrawRequest } from "./requestChecks.ts"
import { makeRiskContext, type RiskContext } from "./riskContext.ts"
import { makeStatusMoves } from "./statusMoves.ts"
import { WithdrawalsRepo } from "./WithdrawalsRepo.ts"

// The names importers know from this module, wherever they now live.
export {
  AWAITING_DECISION,
  allowedMoves,
  canMove,
  type OperatorError,
  type OperatorWithdrawal,
  toWithdrawal,
  type WebhookAnswer,
  WithdrawalInputRefused,
  WithdrawalMoveRefused,
  WithdrawMessages,
} from "./model.ts"
export { PAYOUT_CALLBACK_PREFIX } from "./payoutDispatch.ts"
export { maximumOf, minorOfEurCents, type RequestError, type WithdrawRequest } from "./requestChecks.ts"
export {
  type ActiveBonus,
  type CurrencyTotals,
  RISK_SESSION_DAYS,
  type RiskContext,
  type RiskContextView,
  riskContextView,
  type SessionCountry,
} from "./riskContext.ts"

import { Jobs } from "../lifecycle/Jobs.ts"

export interface WithdrawalsShape {
  /** What the player may take out now in `currency` (absent: the default wallet's, else EUR). */
  readonly withdrawable: (
    userId: string,
    currency: string | undefined,
  ) => Effect.Effect<Withdrawable, CurrencyNotSupported>
  readonly request: (input: WithdrawRequest) => Effect.Effect<Withdrawal, RequestError>
  readonly ofPlayer: (userId: string) => Effect.Effect<ReadonlyArray<Withdrawal>>
  /** Skrill and bank withdrawals as the fiat history's rows (`GET /profile/fiat/withdraw`). */
  readonly fiatHistory: (userId: string, from: Date, to: Date) => Effect.Effect<ReadonlyArray<FiatPayment>>
  /** Crypto withdrawals as the crypto history's rows (`GET /profile/crypto/withdraw`). */
  readonly cryptoHistory: (
    userId: string,
    from: Date,
    to: Date,
  ) => Effect.Effect<ReadonlyArray<CryptoTransfer>>
  readonly list: (
    status: WithdrawalStatus | undefined,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<OperatorWithdrawal>>
  readonly approve: (id: string, actor: AuditActor) => Effect.Effect<OperatorWithdrawal, OperatorError>
  readonly reject: (
    id: string,
    actor: AuditActor,
    reason: string,
  ) => Effect.Effect<OperatorWithdrawal, OperatorError>
  /** A manual payout made by the operator (UTXO chains): its transaction hash. */
  readonly markSent: (
    id: string,
    actor: AuditActor,
    txHash: string,
  ) => Effect.Effect<OperatorWithdrawal, OperatorError>
  readonly markPaid: (id: string, actor: AuditActor) => Effect.Effect<OperatorWithdrawal, OperatorError>
  /** A payout provider's signed callback. Never fails: an answer. */
  readonly callback: (
    provider: string,
    rawBody: string,
    signature: string | undefined,
  ) => Effect.Effect<WebhookAnswer>
  /** One round of the payout loop over withdrawals idle for `idleSeconds`; how many it looked at. */
  readonly runPayouts: (idleSeconds: number) => Effect.Effect<number>
  // ── the back office's withdrawals queue ──
  /** Withdrawals waiting for an operator's decision (`requested`), oldest first, at most `limit`. */
  readonly queue: (limit: number) => Effect.Effect<ReadonlyArray<OperatorWithdrawal>>
  /** How many withdrawals wait for an operator's decision. */
  readonly pendingCount: () => Effect.Effect<number>
  /** One withdrawal as an operator sees it, whatever its status. */
  readonly one: (id: string) => Effect.Effect<OperatorWithdrawal, WithdrawalNotFound>
  /** What an officer reads beside a player's withdrawal; undefined for an unknown player. */
  readonly riskContext: (userId: string) => Effect.Effect<RiskContext | undefined>
}

const make = Effect.gen(function* () {
  const config = yield* AppConfig
  const moves = yield* makeStatusMoves
  const { withdrawable, request } = yield* makeRequestChecks(moves)
  const { dispatch, runPayouts } = yield* makePayoutDispatch(moves)
  const { list, queue, pendingCount, one, approve, reject, markSent, markPaid } = yield* makeOperatorActions(
    moves,
    dispatch,
  )
  const { callback } = yield* makeCallbacks(moves)
  const { ofPlayer, fiatHistory, cryptoHistory } = yield* makeHistory
  const { riskContext } = yield* makeRiskContext

  const jobs = yield* Jobs
  // The payout loop, once for the cluster (its lease; each step is idempotent and moves under a row lock).
  yield* jobs.every(
    "withdrawals.payouts",
    runPayouts(config.withdrawPayoutPollSeconds),
    Duration.seconds(config.withdrawPayoutPollSeconds),
    { firstAfter: Duration.seconds(config.withdrawPayoutPollSeconds) },
  )

  return {
    withdrawable,
    request,
    ofPlayer,
    fiatHistory,
    cryptoHistory,
    list,
    approve,
    reject,
    markSent,
    markPaid,
    callback,
    runPayouts,
    queue,
    pendingCount,
    one,
    riskContext,
  } satisfies WithdrawalsShape
})

export class Withdrawals extends Context.Service<Withdrawals, WithdrawalsShape>()(
  "casino/server/Withdrawals",
) {
  static readonly layer = Layer.effect(Withdrawals, make).pipe(Layer.provide(WithdrawalsRepo.layer))
}
