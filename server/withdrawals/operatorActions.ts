/**
 * What operators do with withdrawals (the operator routes, `npm run operator -- withdrawals …`, the
 * back office): list them, approve (the payout starts at once where it can), reject with a reason
 * (funds back), and record a manual crypto payout (mark-sent, mark-paid). Each action is audited in
 * the transaction of its move.
 */
import { Effect } from "effect"
import type { WithdrawalStatus } from "../../services/cashout-service.ts"
import { WithdrawalNotFound } from "../../services/errors.ts"
import type { AuditActor } from "../operator/Audit.ts"
import {
  AWAITING_DECISION,
  isUuid,
  type OperatorWithdrawal,
  toWithdrawal,
  WithdrawalInputRefused,
  WithdrawalMoveRefused,
  WithdrawMessages,
} from "./model.ts"
import type { StatusMoves } from "./statusMoves.ts"
import { type WithdrawalRow, WithdrawalsRepo } from "./WithdrawalsRepo.ts"

export const makeOperatorActions = (
  moves: StatusMoves,
  dispatch: (row: WithdrawalRow) => Effect.Effect<void>,
) =>
  Effect.gen(function* () {
    const repo = yield* WithdrawalsRepo
    const { transition, latestView, findRow } = moves

    const list = (status: WithdrawalStatus | undefined, limit: number) =>
      Effect.gen(function* () {
        const rows = yield* repo.list(status, limit).pipe(Effect.orDie)
        const steps = yield* repo.stepsOf(rows.map((r) => r.id)).pipe(Effect.orDie)
        return rows.map(
          (r): OperatorWithdrawal => ({
            ...toWithdrawal(r, steps),
            userId: r.userId,
            email: r.email,
            provider: r.provider,
            providerReference: r.providerReference,
          }),
        )
      })

    const approve = (id: string, actor: AuditActor) =>
      Effect.gen(function* () {
        const row = yield* transition(id, { to: "approved", actor, note: null, audit: "withdrawal.approve" })
        yield* dispatch(row)
        return yield* latestView(id)
      })

    const reject = (id: string, actor: AuditActor, reason: string) =>
      Effect.gen(function* () {
        const why = reason.trim()
        if (why === "" || why.length > 500)
          return yield* new WithdrawalInputRefused({
            message: "A rejection needs a reason (1 to 500 characters).",
          })
        const row = yield* findRow(id)
        if (row !== undefined && row.status !== "requested")
          return yield* new WithdrawalMoveRefused({
            id,
            from: row.status,
            to: "rejected",
            message: `This withdrawal is ${row.status}: it cannot be rejected now.`,
          })
        yield* transition(id, { to: "rejected", actor, note: why, reason: why, audit: "withdrawal.reject" })
        return yield* latestView(id)
      })

    const markSent = (id: string, actor: AuditActor, txHash: string) =>
      Effect.gen(function* () {
        const hash = txHash.trim()
        if (!/^(0x)?[0-9a-fA-F]{64}$/.test(hash))
          return yield* new WithdrawalInputRefused({
            message: "A transaction hash is 64 hex digits (0x optional).",
          })
        const row = yield* findRow(id)
        if (row !== undefined && row.method !== "crypto")
          return yield* new WithdrawalInputRefused({
            message: "Only crypto withdrawals are paid out by hand.",
          })
        yield* transition(id, { to: "sent", actor, note: hash, txHash: hash, audit: "withdrawal.mark-sent" })
        return yield* latestView(id)
      })

    const markPaid = (id: string, actor: AuditActor) =>
      Effect.gen(function* () {
        const row = yield* findRow(id)
        if (row !== undefined && row.method !== "crypto")
          return yield* new WithdrawalInputRefused({
            message: "A fiat payout is marked paid by its provider's callback, not by hand.",
          })
        if (row !== undefined && row.status !== "sent")
          return yield* new WithdrawalMoveRefused({
            id,
            from: row.status,
            to: "paid",
            message: `This withdrawal is ${row.status}: record its transaction with mark-sent first.`,
          })
        yield* transition(id, { to: "paid", actor, note: null, audit: "withdrawal.mark-paid" })
        return yield* latestView(id)
      })

    /**
     * The back office's queue: withdrawals waiting for a decision, oldest first. Approved manual
     * crypto payouts are not in it: they wait for a payment, not a decision (`list("approved")`).
     */
    const queue = (limit: number) => list(AWAITING_DECISION, limit)

    const pendingCount = () => repo.countByStatus(AWAITING_DECISION).pipe(Effect.orDie)

    /** One withdrawal as an operator sees it, whatever its status (an id that is not one: not found). */
    const one = (id: string) =>
      isUuid(id)
        ? latestView(id)
        : Effect.fail(new WithdrawalNotFound({ message: WithdrawMessages.notFound, id }))

    return { list, queue, pendingCount, one, approve, reject, markSent, markPaid }
  })
