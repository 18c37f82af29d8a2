/**
 * The rollback of a bet (docs/game-wallet-protocol.md): refunds the referenced bet once, whichever
 * rollback id comes first; a rollback for a bet never seen is acknowledged and leaves a tombstone
 * under the bet's id, so the bet arriving later is ROLLED_BACK. A bet placed with a bonus active is
 * undone by the bonus rules (server/bonuses/play.ts, docs/bonuses.md "Rollbacks"): its stake back
 * where it came from, its wagering taken back, and a conversion it no longer justifies undone — all
 * in the one posting of this transaction.
 */
import { Effect } from "effect"
import type { AcceptedSignature } from "../../protocols/game-wallet/signature.ts"
import type { RollbackCall } from "../../protocols/game-wallet/wallet.ts"
import type { Refund } from "../bonuses/play.ts"
import type { PostingEntry } from "../ledger/Ledger.ts"
import { callFingerprint } from "./rules.ts"
import { Refused, type WalletCore } from "./walletCore.ts"
import { answer, badRequest, mismatch, replayedSignature, unknownPlayer } from "./walletDecisions.ts"

export const makeRollback = (core: WalletCore) => {
  const { repo, ledger, play, replayOf, balanceOf, settle, claimOrReplay, houseOf, poolOf } = core
  const rollback = (integration: string, call: RollbackCall, signature: AcceptedSignature) =>
    Effect.gen(function* () {
      // Rollbacks are rare: the signature is recorded on its own, before the id's look-up.
      if (!(yield* repo.claimSignature(signature))) return replayedSignature
      const fingerprint = callFingerprint("rollback", {
        playerId: call.playerId,
        currency: call.currency,
        roundId: call.roundId,
        refTransactionId: call.refTransactionId,
      })
      const seen = yield* repo.findCall(integration, call.transactionId)
      if (seen !== undefined) return replayOf(seen, "rollback", fingerprint)
      const playerAccount = yield* repo.playerAccount(call.playerId, call.currency)
      if (playerAccount === undefined) return unknownPlayer
      const house = yield* houseOf(call.currency)
      return yield* settle(
        integration,
        "rollback",
        call.transactionId,
        call.playerId,
        call.currency,
        undefined,
        Effect.gen(function* () {
          const id = yield* claimOrReplay({
            integration,
            transactionId: call.transactionId,
            op: "rollback",
            roundId: call.roundId,
            userId: call.playerId,
            currency: call.currency,
            amount: 0n,
            jackpotId: null,
            jackpotShare: 0n,
            fingerprint,
          })
          const ack = (balance: bigint, ledgerTx: string | null, bonusTookPart = false) =>
            Effect.gen(function* () {
              // What the player can bet: cash, plus bonus money while a bonus is active.
              const bonus = yield* play.bonusBalance(call.playerId, call.currency)
              const body = {
                balance: (balance + bonus).toString(),
                currency: call.currency,
                transactionId: call.transactionId,
              }
              yield* repo.complete(id, 200, body, ledgerTx)
              return {
                answer: answer(200, body),
                balance,
                bonusBalance: bonusTookPart || bonus > 0n ? bonus : undefined,
              }
            })
          let bet = yield* repo.findCall(integration, call.refTransactionId)
          if (bet === undefined) {
            // Never seen: acknowledged, and the id kept so the bet arriving later is refused.
            const tomb = yield* repo.claim({
              integration,
              transactionId: call.refTransactionId,
              op: "tombstone",
              roundId: call.roundId,
              userId: call.playerId,
              currency: call.currency,
              amount: 0n,
              jackpotId: null,
              jackpotShare: 0n,
              fingerprint: "",
            })
            if (tomb !== undefined) {
              yield* repo.complete(tomb, 200, { tombstone: call.transactionId }, null)
              return yield* ack(yield* balanceOf(playerAccount), null)
            }
            // The bet committed meanwhile (we waited on its id): refund it below.
            bet = yield* repo.findCall(integration, call.refTransactionId)
          }
          if (bet === undefined) return yield* Effect.die(new Error("bet id taken but absent"))
          if (bet.op === "tombstone" || bet.status !== 200)
            return yield* ack(yield* balanceOf(playerAccount), null)
          if (bet.op !== "bet") return yield* new Refused({ ...badRequest("refTransactionId is not a bet") })
          if (bet.userId !== call.playerId || bet.currency !== call.currency)
            return yield* new Refused({
              ...badRequest("refTransactionId is another player's or currency's bet"),
            })
          // One refund per bet, whichever rollback id comes first (the row lock decides).
          const first = yield* repo.markRolledBack(integration, call.refTransactionId, call.transactionId)
          if (!first) return yield* ack(yield* balanceOf(playerAccount), null)
          const amount = BigInt(bet.amount)
          const share = BigInt(bet.jackpotShare)
          const bonusAmount = BigInt(bet.bonusAmount)
          // A bet placed with a bonus active is undone by the bonus rules (server/bonuses/play.ts).
          const refund: Refund =
            bet.bonusId === null
              ? { cash: amount, bonus: undefined, houseKeeps: 0n, bonusHouse: undefined, undone: undefined }
              : yield* play.refund({
                  userId: call.playerId,
                  currency: call.currency,
                  cashAccountId: playerAccount,
                  bonusId: bet.bonusId,
                  bonusPart: bonusAmount,
                  amount,
                  integration,
                  roundId: bet.roundId,
                })
          const withBonus = bet.bonusId !== null
          // Cash may lose: a conversion undone takes back what it made cash (never below 0).
          const entries: Array<PostingEntry> = []
          if (refund.cash !== 0n)
            entries.push({ accountId: playerAccount, currency: call.currency, amount: refund.cash })
          if (refund.bonus !== undefined)
            entries.push({
              accountId: refund.bonus.accountId,
              currency: call.currency,
              amount: refund.bonus.amount,
            })
          if (refund.bonusHouse !== undefined)
            entries.push({
              accountId: refund.bonusHouse.accountId,
              currency: call.currency,
              amount: refund.bonusHouse.amount,
            })
          const houseBack = amount - share - refund.houseKeeps
          if (houseBack !== 0n)
            entries.push({ accountId: house, currency: call.currency, amount: -houseBack })
          if (share > 0n && bet.jackpotId !== null)
            entries.push({
              accountId: yield* poolOf(bet.jackpotId, call.currency),
              currency: call.currency,
              amount: -share,
            })
          const offRound = repo.removeBet(integration, bet.roundId, amount, bonusAmount)
          // Every cent of it a forfeited bonus's: nothing to refund, the round still loses the bet.
          if (entries.length < 2) {
            yield* offRound
            return yield* ack(yield* balanceOf(playerAccount), null, withBonus)
          }
          const posted = yield* ledger
            .post(
              {
                kind: "game.rollback",
                idempotencyKey: `game:${integration}:${call.transactionId}`,
                entries,
                metadata: {
                  integration,
                  roundId: bet.roundId,
                  refTransactionId: call.refTransactionId,
                  ...(refund.undone === undefined
                    ? {}
                    : {
                        undoneBonus: refund.undone.bonusId,
                        undoneTaken: refund.undone.taken.toString(),
                        undoneUnrecovered: refund.undone.unrecovered.toString(),
                      }),
                },
              },
              () => offRound,
            )
            .pipe(
              Effect.catchTag("LedgerConflict", () => Effect.fail(new Refused({ ...mismatch }))),
              Effect.catchTag("InsufficientFunds", (e) => Effect.die(e)),
              Effect.catchTag("InvalidPosting", (e) => Effect.die(e)),
            )
          return yield* ack(
            posted.balances.get(playerAccount) ?? (yield* balanceOf(playerAccount)),
            posted.transactionId,
            withBonus,
          )
        }),
      )
    })

  return rollback
}
