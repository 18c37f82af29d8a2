/**
 * The payout providers' signed callbacks (`POST ${PAYOUT_CALLBACK_PREFIX}/{skrill|bank}`): the
 * signature checked as the deposit webhooks', each event recorded once in the transaction of the
 * move it causes; a replay answers what the first delivery answered and moves nothing.
 */
import { createHash } from "node:crypto"
import { Effect, Schema } from "effect"
import { PayoutEvent } from "../../protocols/payments/events.ts"
import type { WithdrawalStatus } from "../../services/cashout-service.ts"
import { AppConfig } from "../config.ts"
import { signatureProblem } from "../payments/adapters.ts"
import { FiatPayouts, type PayoutRail, payoutRails } from "../payments/payouts.ts"
import { canMove, type WebhookAnswer } from "./model.ts"
import type { StatusMoves } from "./statusMoves.ts"
import { WithdrawalsRepo } from "./WithdrawalsRepo.ts"

/** The protocol's payout event, whose reference is one of our withdrawal ids (a uuid). */
const CallbackEvent = Schema.Struct({
  ...PayoutEvent.fields,
  reference: Schema.String.check(
    Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i),
  ),
})
type CallbackEvent = typeof CallbackEvent.Type
const decodeCallback = Schema.decodeUnknownExit(Schema.fromJsonString(CallbackEvent))

export const makeCallbacks = (moves: StatusMoves) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const repo = yield* WithdrawalsRepo
    const fiat = yield* FiatPayouts
    const { applyMove, publish } = moves

    const answer = (status: number, body: Readonly<Record<string, unknown>>): WebhookAnswer => ({
      status,
      body,
    })
    const received = answer(200, { received: true })

    const settleCallback = (provider: PayoutRail, event: CallbackEvent, hash: string) =>
      repo.transaction(
        Effect.gen(function* () {
          const row = yield* repo.findForUpdate(event.reference)
          if (row === undefined) {
            yield* Effect.logWarning(
              `payout callback ${provider}/${event.id}: unknown withdrawal ${event.reference}`,
            )
            return {
              answer: answer(404, {
                error: "UnknownWithdrawal",
                message: "No withdrawal has this reference.",
              }),
              row: undefined,
              push: [],
            }
          }
          const again = yield* repo.findEvent(provider, event.id)
          if (again !== undefined) {
            if (again.payloadHash !== hash) {
              yield* Effect.logWarning(`payout callback ${provider}/${event.id}: same id, another body (409)`)
              return {
                answer: answer(409, {
                  error: "EventConflict",
                  message: "This event id was received with a different body.",
                }),
                row: undefined,
                push: [],
              }
            }
            return {
              answer:
                again.outcome === "refused"
                  ? answer(422, { error: "Refused", message: again.detail ?? "refused" })
                  : received,
              row: undefined,
              push: [],
            }
          }
          const record = (outcome: "processed" | "ignored" | "refused", detail: string | null) =>
            repo.insertEvent({
              provider,
              eventId: event.id,
              payloadHash: hash,
              eventType: event.type,
              withdrawalId: row.id,
              outcome,
              detail,
            })
          if (row.provider !== provider || row.amount !== event.amount || row.currency !== event.currency) {
            const detail = `payout ${event.amount} ${event.currency} by ${provider} differs from withdrawal ${row.amount} ${row.currency} by ${row.provider}`
            yield* Effect.logError(`payout callback ${provider}/${event.id} refused: ${detail}`)
            yield* record("refused", detail)
            return { answer: answer(422, { error: "Refused", message: detail }), row: undefined, push: [] }
          }
          const to: WithdrawalStatus = event.type === "payout.paid" ? "paid" : "failed"
          // From "approved" the callback goes through "sent" (below).
          if (!canMove(row.status === "approved" ? "sent" : row.status, to)) {
            yield* record("ignored", `withdrawal already ${row.status}`)
            return { answer: received, row: undefined, push: [] }
          }
          const reason = event.reason?.slice(0, 500) ?? "The payout failed"
          const actor = `provider:${provider}`
          // The callback proves the provider had the payout: when it beat the casino's own "sent"
          // (the send's answer and the callback race), that step is recorded first, so a timeline
          // always reads requested → approved → sent → paid | failed.
          const sent =
            row.status === "approved"
              ? yield* applyMove(row, {
                  to: "sent",
                  actor,
                  note: `${provider} payout ${event.payoutId}`,
                  providerReference: event.payoutId,
                })
              : { row, push: [] }
          const moved = yield* applyMove(sent.row, {
            to,
            actor,
            note: to === "paid" ? `${provider} payout ${event.payoutId}` : reason,
            providerReference: event.payoutId,
            ...(to === "failed" ? { reason } : {}),
          })
          yield* record("processed", null)
          return { answer: received, row: moved.row, push: [...sent.push, ...moved.push] }
        }),
      )

    const callback = Effect.fn("Withdrawals.callback")(function* (
      provider: string,
      rawBody: string,
      signature: string | undefined,
    ) {
      const rail = payoutRails.find((r) => r === provider)
      const secret = rail === undefined ? undefined : fiat.webhookSecret(rail)
      if (rail === undefined || secret === undefined)
        return answer(404, { error: "UnknownProvider", message: "No such payout provider." })
      const problem = signatureProblem(
        secret,
        signature,
        rawBody,
        Math.floor(Date.now() / 1000),
        config.webhookToleranceSeconds,
      )
      if (problem !== undefined) {
        yield* Effect.logWarning(`payout callback ${rail}: signature ${problem} (refused 401)`)
        return answer(401, { error: "InvalidSignature", message: `The signature is ${problem}.` })
      }
      const decoded = decodeCallback(rawBody)
      if (decoded._tag === "Failure")
        return answer(400, { error: "BadRequest", message: "The event body is not a payout event." })
      const hash = createHash("sha256").update(rawBody).digest("hex")
      const settled = yield* settleCallback(rail, decoded.value, hash).pipe(
        Effect.retry({
          times: 3,
          while: (e) =>
            e._tag === "SqlError" &&
            (e.reason._tag === "UniqueViolation" ||
              e.reason._tag === "DeadlockError" ||
              e.reason._tag === "SerializationError"),
        }),
        Effect.catchTag("WithdrawalMoveRefused", Effect.die),
        Effect.orDie,
      )
      if (settled.row !== undefined) yield* publish(settled.row.userId, settled.push)
      return settled.answer
    })

    return { callback }
  })
