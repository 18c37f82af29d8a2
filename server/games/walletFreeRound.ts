/**
 * A free round's win (docs/game-wallet-protocol.md, "Free rounds"): the provider played one round of
 * a grant with no bet, and reports its win naming the grant. The round is opened and settled by this
 * call; the grant counts one more round played. Its money: the house pays it to the bonus money of
 * the grant's bonus while that bonus is active (its wagering then covers it), to cash once the bonus
 * converted, and keeps it when the bonus was forfeited or expired (the spins went with it). A grant
 * made without a deposit holds its wins in the player's free-spin wallet until a deposit unlocks
 * them (then its grant names that bonus); the house keeps them once the wallet expired. A grant
 * with neither pays cash.
 *
 * Refused: a grant that is not this player's, currency's, game's and integration's (404
 * UNKNOWN_GRANT), one whose every round was played (409 FREE_ROUNDS_USED_UP), a round id already
 * taken (409 DUPLICATE_MISMATCH). Idempotent by transactionId like every call.
 *
 * Locks: the player's bonus lock first, then the grant row, then the accounts (the ledger's order) —
 * whatever touches a player's grants or bonus takes that bonus lock first.
 */
import { Effect } from "effect"
import { GameWalletErrors as E } from "../../protocols/game-wallet/errors.ts"
import type { AcceptedSignature } from "../../protocols/game-wallet/signature.ts"
import type { WinCall } from "../../protocols/game-wallet/wallet.ts"
import { Bonuses } from "../bonuses/Bonuses.ts"
import { FreeRoundsRepo } from "../bonuses/FreeRoundsRepo.ts"
import type { PostingEntry } from "../ledger/Ledger.ts"
import { Refused, type WalletCore } from "./walletCore.ts"
import { answer, mismatch, replayedSignature } from "./walletDecisions.ts"

export const makeFreeRoundWin = (core: WalletCore) =>
  Effect.gen(function* () {
    const bonuses = yield* Bonuses
    const grants = yield* FreeRoundsRepo
    const { repo, ledger, settle, claimOrReplay, refuse, houseOf, currentBalance } = core

    return (
      integration: string,
      call: WinCall,
      grantId: string,
      fingerprint: string,
      signature: AcceptedSignature,
    ) => {
      const amount = BigInt(call.amount)
      return settle(
        integration,
        "win",
        call.transactionId,
        call.playerId,
        call.currency,
        undefined,
        Effect.gen(function* () {
          if (!(yield* repo.claimSignature(signature))) return yield* refuse(replayedSignature)
          const id = yield* claimOrReplay({
            integration,
            op: "win",
            transactionId: call.transactionId,
            roundId: call.roundId,
            userId: call.playerId,
            currency: call.currency,
            amount,
            jackpotId: null,
            jackpotShare: 0n,
            fingerprint,
          })
          yield* bonuses.lockPlayer(call.playerId)
          const grant = yield* grants.lock(grantId)
          if (
            grant === undefined ||
            grant.userId !== call.playerId ||
            grant.currency !== call.currency ||
            grant.launchId !== call.gameId ||
            grant.integration !== integration
          )
            return yield* refuse(answer(404, { error: E.unknownGrant }))
          if (grant.played >= grant.rounds) return yield* refuse(answer(409, { error: E.freeRoundsUsedUp }))
          const opened = yield* grants.openRound({
            integration,
            roundId: call.roundId,
            userId: call.playerId,
            gameId: grant.gameId,
            currency: call.currency,
            win: amount,
            grantId,
          })
          if (!opened) return yield* refuse(mismatch)
          const status = grant.bonusId === null ? null : yield* grants.bonusStatus(grant.bonusId)
          // Spins granted without a deposit, not unlocked yet: their wins are held in the free-spin
          // wallet while it waits, and stay with the house once it expired.
          const wallet =
            grant.bonusId === null && grant.freeSpinWalletId !== null
              ? yield* grants.walletStatus(grant.freeSpinWalletId)
              : undefined
          // Where the win goes: the bonus money while its bonus is active, cash once converted or
          // without a bonus, nowhere (the house keeps it) once the bonus was forfeited or expired.
          const to =
            wallet !== undefined
              ? wallet === "locked"
                ? (yield* ledger.freeSpinsAccount(call.playerId, call.currency)).id
                : null
              : status === "active"
                ? (yield* ledger.bonusAccount(call.playerId, call.currency)).id
                : status === null || status === "completed"
                  ? ((yield* ledger.playerAccount(call.playerId, call.currency))?.id ?? null)
                  : null
          const cashBefore = yield* currentBalance(call.playerId, call.currency)
          const bonusBefore = yield* core.play.bonusBalance(call.playerId, call.currency)
          const paidToBonus = wallet === undefined && status === "active"
          const paidToCash = wallet === undefined && !paidToBonus
          const body = (cash: bigint, bonus: bigint) => ({
            balance: (cash + bonus).toString(),
            currency: call.currency,
            transactionId: call.transactionId,
          })
          if (amount === 0n || to === null) {
            yield* grants.played(grantId, 0n)
            yield* repo.complete(id, 200, body(cashBefore, bonusBefore), null)
            return { answer: answer(200, body(cashBefore, bonusBefore)), balance: cashBefore }
          }
          const house = yield* houseOf(call.currency)
          const entries: Array<PostingEntry> = [
            { accountId: to, currency: call.currency, amount },
            { accountId: house, currency: call.currency, amount: -amount },
          ]
          // The answer's balance from the posting's own view of the accounts it locked.
          const afterOf = (balances: ReadonlyMap<string, bigint>) => ({
            cash: paidToCash ? (balances.get(to) ?? cashBefore + amount) : cashBefore,
            bonus: paidToBonus ? (balances.get(to) ?? bonusBefore + amount) : bonusBefore,
          })
          const posted = yield* ledger
            .post(
              {
                kind: "game.win",
                idempotencyKey: `game:${integration}:${call.transactionId}`,
                entries,
                metadata: { integration, roundId: call.roundId, grantId },
              },
              (ledgerTx, balances) =>
                Effect.gen(function* () {
                  const after = afterOf(balances)
                  yield* grants.played(grantId, amount)
                  yield* repo.complete(id, 200, body(after.cash, after.bonus), ledgerTx)
                }),
            )
            .pipe(
              Effect.catchTag("LedgerConflict", () => Effect.fail(new Refused({ ...mismatch }))),
              Effect.catchTag(["InsufficientFunds", "InvalidPosting"], (e) => Effect.die(e)),
            )
          const after = afterOf(posted.balances)
          return {
            answer: answer(200, body(after.cash, after.bonus)),
            balance: after.cash,
            bonusBalance: paidToBonus || after.bonus > 0n ? after.bonus : undefined,
          }
        }),
      )
    }
  })
