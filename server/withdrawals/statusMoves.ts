/**
 * The status moves of a withdrawal, the one way any part changes a withdrawal after its request.
 * Every move runs in one SQL transaction: the row locked `FOR UPDATE`, the move checked against
 * `allowedMoves`, the posting (if any, through the ledger), the row updated, a timeline step
 * appended and the operator's audit row written; then, after the commit, the pushes.
 */
import { Effect } from "effect"
import type { WithdrawalStatus } from "../../services/cashout-service.ts"
import { WithdrawalNotFound } from "../../services/errors.ts"
import type { PlayerEvent } from "../../services/wallet-service.ts"
import { PlayerEvents } from "../events/PlayerEvents.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { type AuditActor, actorFields, actorLabel, OperatorAudit } from "../operator/Audit.ts"
import {
  canMove,
  isUuid,
  type OperatorWithdrawal,
  PENDING_CODE,
  toWithdrawal,
  WithdrawalMoveRefused,
  WithdrawMessages,
} from "./model.ts"
import { type WithdrawalRow, WithdrawalsRepo } from "./WithdrawalsRepo.ts"

export interface Move {
  readonly to: WithdrawalStatus
  /** Who moves it: a name ("system", "cli:…"), or a back-office operator (audited with its account). */
  readonly actor: AuditActor
  readonly note: string | null
  readonly reason?: string
  readonly txHash?: string
  readonly providerReference?: string
  /** The operator action to audit with the move (same transaction). */
  readonly audit?: string
}

export interface Moved {
  readonly row: WithdrawalRow
  readonly push: ReadonlyArray<PlayerEvent>
}

export const makeStatusMoves = Effect.gen(function* () {
  const repo = yield* WithdrawalsRepo
  const ledger = yield* Ledger
  const events = yield* PlayerEvents
  const audit = yield* OperatorAudit

  const publish = (userId: string, push: ReadonlyArray<PlayerEvent>) =>
    Effect.forEach(push, (e) => events.publish(userId, e), { discard: true })

  const withdrawalEvent = (row: WithdrawalRow): PlayerEvent => ({
    type: "withdrawal",
    id: row.id,
    currency: row.currency,
    amount: row.amount,
    status: row.status,
  })

  const viewOf = (row: WithdrawalRow) =>
    repo.stepsOf([row.id]).pipe(
      Effect.map((steps) => toWithdrawal(row, steps)),
      Effect.orDie,
    )

  /** The move on a row locked by the caller's transaction: posting, update, step, audit. */
  const applyMove = (row: WithdrawalRow, move: Move) =>
    Effect.gen(function* () {
      if (!canMove(row.status, move.to))
        return yield* new WithdrawalMoveRefused({
          id: row.id,
          from: row.status,
          to: move.to,
          message: `This withdrawal is ${row.status}: it cannot be ${move.to} now.`,
        })
      const amount = BigInt(row.amount)
      const push: Array<PlayerEvent> = []
      if (move.to === "rejected" || move.to === "failed" || move.to === "paid") {
        const pending = yield* ledger.systemAccountId("pending_withdrawal", PENDING_CODE, row.currency)
        const back = move.to !== "paid"
        const other = back
          ? (yield* ledger.playerAccount(row.userId, row.currency))?.id
          : yield* ledger.systemAccountId("gateway_clearing", row.provider, row.currency)
        if (other === undefined)
          return yield* Effect.die(
            new Error(`withdrawal ${row.id}: the player has no ${row.currency} account`),
          )
        const posted = yield* ledger
          .post({
            kind: back ? "withdrawal.return" : "withdrawal.paid",
            idempotencyKey: `${back ? "withdrawal-return" : "withdrawal-paid"}:${row.id}`,
            entries: [
              { accountId: pending, currency: row.currency, amount: -amount },
              { accountId: other, currency: row.currency, amount },
            ],
            metadata: { withdrawalId: row.id, status: move.to },
          })
          .pipe(
            Effect.catchTags({
              InsufficientFunds: Effect.die,
              LedgerConflict: Effect.die,
              InvalidPosting: Effect.die,
            }),
          )
        if (back)
          push.push({
            type: "balance",
            currency: row.currency,
            balance: (posted.balances.get(other) ?? 0n).toString(),
          })
      }
      const updated = yield* repo.update(row.id, {
        status: move.to,
        ...(move.reason === undefined ? {} : { reason: move.reason }),
        ...(move.txHash === undefined ? {} : { txHash: move.txHash }),
        ...(move.providerReference === undefined ? {} : { providerReference: move.providerReference }),
      })
      yield* repo.addStep(row.id, move.to, move.note, actorLabel(move.actor))
      if (move.audit !== undefined)
        yield* audit.record({
          ...actorFields(move.actor),
          action: move.audit,
          userId: row.userId,
          subject: row.id,
          details: {
            from: row.status,
            to: move.to,
            amount: row.amount,
            currency: row.currency,
            note: move.note,
          },
          before: { status: row.status },
          after: { status: updated.status, reason: updated.reason, txHash: updated.txHash },
        })
      return { row: updated, push: [withdrawalEvent(updated), ...push] } satisfies Moved
    })

  const transition = (id: string, move: Move) =>
    Effect.gen(function* () {
      const moved = yield* repo
        .transaction(
          Effect.gen(function* () {
            const row = isUuid(id) ? yield* repo.findForUpdate(id) : undefined
            if (row === undefined)
              return yield* new WithdrawalNotFound({ message: WithdrawMessages.notFound, id })
            return yield* applyMove(row, move)
          }),
        )
        .pipe(Effect.catchTag("SqlError", Effect.die))
      yield* Effect.logInfo(`withdrawal ${id}: → ${move.to} by ${actorLabel(move.actor)}`)
      yield* publish(moved.row.userId, moved.push)
      return moved.row
    })

  const latestView = (id: string) =>
    Effect.gen(function* () {
      const row = yield* repo.findForOperator(id).pipe(Effect.orDie)
      if (row === undefined) return yield* new WithdrawalNotFound({ message: WithdrawMessages.notFound, id })
      const view = yield* viewOf(row)
      return {
        ...view,
        userId: row.userId,
        email: row.email,
        provider: row.provider,
        providerReference: row.providerReference,
      } satisfies OperatorWithdrawal
    })

  /** The row, or undefined for an id that is not one (never an SQL error for a typo). */
  const findRow = (id: string) => (isUuid(id) ? repo.find(id).pipe(Effect.orDie) : Effect.succeed(undefined))

  return { publish, withdrawalEvent, viewOf, applyMove, transition, latestView, findRow }
})

export type StatusMoves = Effect.Success<typeof makeStatusMoves>
