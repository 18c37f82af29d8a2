/**
 * Payouts of approved withdrawals: on approval the payout is attempted at once — fiat through
 * `FiatPayouts` (the provider's signed callback later decides paid/failed), ETH/USDT through
 * `CryptoPayouts` when the server has a hot wallet (sent with its tx hash, paid at
 * WITHDRAW_CONFIRMATIONS). The payout loop (`runPayouts`) resends approved payouts that could not be
 * sent and tracks sent crypto payouts; each step is idempotent. BTC/LTC/DOGE (no hot wallet here)
 * stay `approved` until an operator records the manual payout.
 */
import { Effect, Option } from "effect"
import { AppConfig } from "../config.ts"
import { CryptoPayouts } from "../crypto/payouts.ts"
import { FiatPayouts, payoutRails } from "../payments/payouts.ts"
import { isCryptoCurrency } from "./model.ts"
import type { Move, StatusMoves } from "./statusMoves.ts"
import { type WithdrawalRow, WithdrawalsRepo } from "./WithdrawalsRepo.ts"

/** Where payout providers POST their signed callbacks: `${PAYOUT_CALLBACK_PREFIX}/{skrill|bank}`. */
export const PAYOUT_CALLBACK_PREFIX = "/api/payments/payouts"

const SYSTEM = "system:payouts"

export const makePayoutDispatch = (moves: StatusMoves) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const repo = yield* WithdrawalsRepo
    const fiat = yield* FiatPayouts
    // Provided by the server when it has a hot wallet (crypto-evm); without it crypto payouts are manual.
    const crypto = yield* Effect.serviceOption(CryptoPayouts)
    const { transition } = moves

    /** Moves a withdrawal the payout machinery decided about; a move made meanwhile by another is fine. */
    const settle = (id: string, move: Move) =>
      transition(id, move).pipe(
        Effect.asVoid,
        Effect.catchTag("WithdrawalMoveRefused", (e) =>
          Effect.logInfo(`withdrawal ${id}: ${e.to} not recorded, it is ${e.from} already`),
        ),
        Effect.catchTag("WithdrawalNotFound", Effect.die),
      )

    /** Attempts the payout of an approved withdrawal on its automatic rail (none: manual payout). */
    const dispatch = (row: WithdrawalRow): Effect.Effect<void> =>
      Effect.gen(function* () {
        if (row.status !== "approved") return
        if (row.method === "crypto") {
          if (
            Option.isNone(crypto) ||
            !isCryptoCurrency(row.currency) ||
            !crypto.value.supports(row.currency)
          )
            return
          const sent = yield* crypto.value
            .send({
              key: `withdrawal:${row.id}`,
              currency: row.currency,
              to: row.destination,
              amount: BigInt(row.amount),
            })
            .pipe(Effect.result)
          if (sent._tag === "Success")
            return yield* settle(row.id, {
              to: "sent",
              actor: SYSTEM,
              note: sent.success.txHash,
              txHash: sent.success.txHash,
            })
          if (sent.failure._tag === "PayoutRejected")
            return yield* settle(row.id, {
              to: "failed",
              actor: SYSTEM,
              note: sent.failure.message,
              reason: sent.failure.message.slice(0, 500),
            })
          return yield* Effect.logWarning(`withdrawal ${row.id}: chain unavailable, payout retried later`)
        }
        const rail = payoutRails.find((r) => r === row.method)
        if (rail === undefined) return
        const sent = yield* fiat
          .send({
            rail,
            reference: row.id,
            amount: BigInt(row.amount),
            currency: row.currency,
            email: row.destination,
            notifyUrl: `${config.internalUrl}${PAYOUT_CALLBACK_PREFIX}/${rail}`,
          })
          .pipe(Effect.result)
        if (sent._tag === "Success")
          return yield* settle(row.id, {
            to: "sent",
            actor: SYSTEM,
            note: `${rail} payout ${sent.success.payoutId}`,
            providerReference: sent.success.payoutId,
          })
        if (sent.failure._tag === "PayoutRefusedByProvider")
          return yield* settle(row.id, {
            to: "failed",
            actor: SYSTEM,
            note: sent.failure.message,
            reason: sent.failure.message.slice(0, 500),
          })
      })

    /** A sent crypto payout: paid at the required confirmations; rebroadcast if the chain lost it. */
    const track = (row: WithdrawalRow): Effect.Effect<void> =>
      Effect.gen(function* () {
        if (row.status !== "sent" || row.method !== "crypto" || row.txHash === null) return
        if (Option.isNone(crypto) || !isCryptoCurrency(row.currency) || !crypto.value.supports(row.currency))
          return
        const seen = yield* crypto.value.confirmations(row.currency, row.txHash).pipe(Effect.option)
        if (seen._tag === "None") return
        if (seen.value === null) {
          yield* Effect.logWarning(`withdrawal ${row.id}: ${row.txHash} unknown to the chain, rebroadcast`)
          yield* crypto.value
            .send({
              key: `withdrawal:${row.id}`,
              currency: row.currency,
              to: row.destination,
              amount: BigInt(row.amount),
            })
            .pipe(Effect.ignore)
          return
        }
        if (seen.value >= config.withdrawConfirmations)
          yield* settle(row.id, { to: "paid", actor: SYSTEM, note: `${seen.value} confirmations` })
      })

    const runPayouts = (idleSeconds: number) =>
      Effect.gen(function* () {
        const rows = yield* repo.open(idleSeconds, 100).pipe(Effect.orDie)
        yield* Effect.forEach(rows, (row) => (row.status === "approved" ? dispatch(row) : track(row)), {
          discard: true,
        })
        return rows.length
      })
    return { dispatch, runPayouts }
  })
