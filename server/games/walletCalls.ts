/**
 * The seamless wallet's calls one by one (docs/game-wallet-protocol.md): balance, bet, win and
 * rollback, each settled in its own SQL transaction. The batched path (settlementBatch.ts) settles
 * most bets and wins; this one takes rollbacks, jackpot wins, balance calls, whatever a batch hands
 * back, and everything when batching is off.
 *
 * - Every op is idempotent by (integration, transactionId): the call's row is claimed FIRST in the
 *   settlement's SQL transaction (UNIQUE), so two deliveries of one id serialise on that index and
 *   the second answers the first's stored answer; other content under the same id is 409.
 * - Lock order is the ledger's (player account, then system rows), with the call's own row before
 *   and the round row in between, in every op: no two settlements wait in a cycle.
 * - Refusals (INSUFFICIENT_FUNDS, SESSION_EXPIRED, PLAYER_BLOCKED, BET_LIMIT) book nothing and keep
 *   no row: the provider rolls such a bet back or sends a new one under a new id.
 * - A win is never refused for an expired session; a rollback for a bet never seen is acknowledged
 *   and leaves a tombstone under the bet's id, so the bet arriving later is ROLLED_BACK.
 * - An exact signature is honoured once: it is recorded (PRIMARY KEY) in the statement that claims
 *   the call, so it commits with the settlement; a second request carrying it is 401
 *   REPLAYED_SIGNATURE. Providers retry under a NEW signature and get the first answer by id.
 * - A player with an active bonus bets cash first, then bonus money, and a round played with bonus
 *   money pays its win in the same proportion (server/bonuses/play.ts, docs/bonuses.md).
 * After each settlement a `balance` PlayerEvent goes to the player's open pages. The rollback is
 * walletRollback.ts; what the operations share (replays, the settlement's transaction) walletCore.ts.
 */
import { Effect } from "effect"
import { GameWalletErrors } from "../../protocols/game-wallet/errors.ts"
import type { AcceptedSignature } from "../../protocols/game-wallet/signature.ts"
import type { BalanceCall, BetCall, WinCall } from "../../protocols/game-wallet/wallet.ts"
import { bonusPartOf } from "../bonuses/play.ts"
import type { PostingEntry } from "../ledger/Ledger.ts"
import { casinoId } from "./catalogue.ts"
import { callFingerprint, eurCentsToMinor, tokenHash } from "./rules.ts"
import { makeWalletCore, Refused } from "./walletCore.ts"
import {
  answer,
  badRequest,
  decideBet,
  decideWin,
  insufficientFunds,
  mismatch,
  rateOf,
  replayedSignature,
  sessionExpired,
  settledBody,
} from "./walletDecisions.ts"
import { makeFreeRoundWin } from "./walletFreeRound.ts"
import { makeRollback } from "./walletRollback.ts"

/** The one-call path's operations, built from the wallet's repository, the ledger and the pushes. */
export const makeWalletCalls = Effect.gen(function* () {
  const core = yield* makeWalletCore
  const {
    repo,
    ledger,
    play,
    replayOf,
    balanceOf,
    currentBalance,
    settle,
    houseOf,
    poolOf,
    refuse,
    replayed,
  } = core
  const balance = (call: BalanceCall, signature: AcceptedSignature) =>
    Effect.gen(function* () {
      const { freshSignature, session } = yield* repo.sessionOf(tokenHash(call.sessionToken), signature)
      if (!freshSignature) return replayedSignature
      if (session === undefined || !session.live || session.userId !== call.playerId) return sessionExpired
      if (session.currency !== call.currency) return badRequest("currency is not the session's")
      // What the player can bet: cash, plus bonus money while a bonus is active.
      const cash = yield* currentBalance(call.playerId, call.currency)
      const bonus = yield* play.bonusBalance(call.playerId, call.currency)
      return answer(200, { balance: (cash + bonus).toString(), currency: call.currency })
    })

  /** A refusal inside the settlement's transaction: rolls it back (its claim too), answered as is. */
  // A bet is 7 statements: BEGIN; claim + context (one statement); the ledger's lock and its
  // posting; the round + the stored answer (one statement, inside the posting, before the house row
  // is taken); the house balance; COMMIT — then the balance NOTIFY. A replay: BEGIN, the claim,
  // the stored call, ROLLBACK (the look-up before the transaction is gone: replays are rare).
  const bet = (integration: string, call: BetCall, signature: AcceptedSignature) => {
    const amount = BigInt(call.amount)
    const share = BigInt(call.jackpotContribution ?? "0")
    const fingerprint = betFingerprint(call)
    return settle(
      integration,
      "bet",
      call.transactionId,
      call.playerId,
      call.currency,
      signature,
      Effect.gen(function* () {
        const {
          freshSignature,
          claimId,
          context: ctx,
        } = yield* repo.claimBet(
          {
            integration,
            transactionId: call.transactionId,
            roundId: call.roundId,
            userId: call.playerId,
            currency: call.currency,
            amount,
            jackpotShare: share,
            fingerprint,
          },
          tokenHash(call.sessionToken),
          call.gameId,
          signature,
        )
        if (!freshSignature) return yield* refuse(replayedSignature)
        if (claimId === undefined) return yield* replayed(integration, call.transactionId, "bet", fingerprint)
        const decided = decideBet(call, amount, share, ctx)
        if ("refused" in decided) return yield* refuse(decided.refused)
        const { accountId: playerAccount, gameId, jackpotId: gameJackpot } = decided.accepted
        // With an active bonus the bet takes cash first, then bonus money (server/bonuses/play.ts).
        const stake = ctx?.bonusActive
          ? yield* play.stake({
              userId: call.playerId,
              currency: call.currency,
              cashAccountId: playerAccount,
              amount,
            })
          : undefined
        if (stake?._tag === "OverMaxBet")
          return yield* refuse(
            answer(422, { error: GameWalletErrors.bonusMaxBet, max: stake.maxBet.toString() }),
          )
        if (stake?._tag === "Short") return yield* refuse(insufficientFunds(stake.balance))
        const split = stake?._tag === "Split" ? stake : undefined
        const house = yield* houseOf(call.currency)
        const pool =
          gameJackpot === null || share === 0n ? undefined : yield* poolOf(gameJackpot, call.currency)
        const entries: Array<PostingEntry> =
          split === undefined
            ? [{ accountId: playerAccount, currency: call.currency, amount: -amount }]
            : [
                ...(split.cash > 0n
                  ? [{ accountId: playerAccount, currency: call.currency, amount: -split.cash }]
                  : []),
                ...(split.bonus > 0n
                  ? [{ accountId: split.bonusAccountId, currency: call.currency, amount: -split.bonus }]
                  : []),
              ]
        /** What a conversion the bet completed moved from bonus to cash (set inside the posting). */
        let converted = 0n
        /** The answer's balance: cash, plus what the bonus account holds after this bet. */
        const betBalance = (balances: ReadonlyMap<string, bigint>) =>
          (balances.get(playerAccount) ?? 0n) + (split === undefined ? 0n : split.bonusMoney - split.bonus)
        if (amount - share > 0n)
          entries.push({ accountId: house, currency: call.currency, amount: amount - share })
        if (pool !== undefined) entries.push({ accountId: pool, currency: call.currency, amount: share })
        const bodyOf = (balance: bigint) => settledBody(balance, call.currency, call.transactionId)
        const posted = yield* ledger
          .post(
            {
              kind: "game.bet",
              idempotencyKey: `game:${integration}:${call.transactionId}`,
              entries,
              metadata: { integration, roundId: call.roundId, gameId },
            },
            (ledgerTx, balances) =>
              repo
                .addBetAndComplete(
                  {
                    integration,
                    roundId: call.roundId,
                    userId: call.playerId,
                    gameId,
                    currency: call.currency,
                    amount,
                  },
                  { id: claimId, status: 200, response: bodyOf(betBalance(balances)), ledgerTx },
                )
                .pipe(
                  Effect.flatMap((ok) =>
                    ok
                      ? Effect.void
                      : Effect.fail(new Refused({ ...badRequest("the round is another player's") })),
                  ),
                  // The stake on the round, the wagering counted (and the bonus converted once met).
                  Effect.andThen(
                    split === undefined
                      ? Effect.void
                      : play
                          .afterBet({
                            userId: call.playerId,
                            currency: call.currency,
                            cashAccountId: playerAccount,
                            integration,
                            roundId: call.roundId,
                            transactionId: call.transactionId,
                            bonusId: split.bonusId,
                            bonusAccountId: split.bonusAccountId,
                            bonusPart: split.bonus,
                            amount,
                            gameKind: ctx?.gameKind ?? "",
                          })
                          .pipe(
                            Effect.tap((moved) =>
                              Effect.sync(() => {
                                converted = moved
                              }),
                            ),
                          ),
                  ),
                ),
          )
          .pipe(
            Effect.catchTag("InsufficientFunds", () =>
              Effect.gen(function* () {
                const now = yield* currentBalance(call.playerId, call.currency)
                return yield* refuse(insufficientFunds(now))
              }),
            ),
            Effect.catchTag("LedgerConflict", () => Effect.fail(new Refused({ ...mismatch }))),
            Effect.catchTag("InvalidPosting", (e) => Effect.die(e)),
          )
        const after = posted.balances.get(playerAccount) ?? 0n
        return {
          answer: answer(200, bodyOf(betBalance(posted.balances))),
          // Pushed as they are after the commit: a conversion moved the bonus money to cash.
          balance: after + converted,
          bonusBalance:
            split === undefined ? undefined : converted > 0n ? 0n : split.bonusMoney - split.bonus,
        }
      }),
    )
  }

  // A win is 7 statements as a bet (claim + round + the player's account in one); a win of 0 books
  // nothing: BEGIN, the claim, the player's row (locked, for the balance it answers), the round +
  // the stored answer, COMMIT.
  const freeRoundWin = yield* makeFreeRoundWin(core)

  const win = (integration: string, call: WinCall, signature: AcceptedSignature) => {
    // A free round: no bet before it, paid by the grant's rules (walletFreeRound.ts).
    if (call.freeRoundGrantId !== undefined)
      return freeRoundWin(
        integration,
        call,
        call.freeRoundGrantId,
        winFingerprint(integration, call),
        signature,
      )
    const amount = BigInt(call.amount)
    // The provider names its own jackpot; the casino keeps that provider's pool under its own id.
    const jackpotId = winJackpot(integration, call)
    const fingerprint = winFingerprint(integration, call)
    return settle(
      integration,
      "win",
      call.transactionId,
      call.playerId,
      call.currency,
      signature,
      Effect.gen(function* () {
        const claimed = yield* repo.claimWin(
          {
            integration,
            transactionId: call.transactionId,
            roundId: call.roundId,
            userId: call.playerId,
            currency: call.currency,
            amount,
            jackpotId,
            fingerprint,
          },
          signature,
        )
        if (!claimed.freshSignature) return yield* refuse(replayedSignature)
        if (claimed.claimId === undefined)
          return yield* replayed(integration, call.transactionId, "win", fingerprint)
        const id = claimed.claimId
        const decided = decideWin(call, claimed.accountId, claimed.round)
        if ("refused" in decided) return yield* refuse(decided.refused)
        const playerAccount = decided.accountId
        const round = claimed.round
        if (round === undefined) return yield* Effect.die(new Error("a decided win has no round"))
        if (decided.voided) {
          // Every bet of its round was rolled back: acknowledged as it is, nothing paid (walletDecisions.ts).
          yield* Effect.logWarning(
            `games: win ${call.transactionId} on rolled-back round ${call.roundId} (void: nothing paid)`,
          )
          const cash = yield* balanceOf(playerAccount)
          const body: Record<string, unknown> = {
            balance: (cash + (yield* play.bonusBalance(call.playerId, call.currency))).toString(),
            currency: call.currency,
            transactionId: call.transactionId,
          }
          if (jackpotId !== null) body.jackpotAmount = "0"
          yield* repo.addWinAndComplete(
            { integration, roundId: call.roundId, amount: 0n, jackpot: 0n, closed: false, voided: true },
            { id, status: 200, response: body, ledgerTx: null },
          )
          return { answer: answer(200, body), balance: undefined }
        }
        // The jackpot named must be the one the round's game feeds; anything else pays the plain win.
        const validJackpot = jackpotId !== null && jackpotId === round.jackpotId ? jackpotId : null
        if (jackpotId !== null && validJackpot === null)
          yield* Effect.logWarning(
            `games: win ${call.transactionId} names jackpot ${jackpotId}, not its game's (not paid)`,
          )
        const house = yield* houseOf(call.currency)
        const pool = validJackpot === null ? undefined : yield* poolOf(validJackpot, call.currency)
        const seedEur = validJackpot === null ? 0n : yield* jackpotSeedEur(validJackpot)
        const seed =
          round.eurRate === null || round.subunits === null
            ? 0n
            : eurCentsToMinor(seedEur, rateOf(round.eurRate), BigInt(round.subunits))
        // Before any account is locked (the bonus lock comes first): a round played partly with bonus
        // money pays in the same proportion (server/bonuses/play.ts); the answer's balance counts the
        // bonus money the player can still bet.
        const shares = yield* play.shares({
          userId: call.playerId,
          currency: call.currency,
          cashAccountId: playerAccount,
          bonusId: round.bonusId,
          bonusPart: bonusPartOf(amount, BigInt(round.bonusBet), BigInt(round.betTotal)),
          amount,
        })
        const bonusAfter =
          (yield* play.bonusBalance(call.playerId, call.currency)) + (shares.bonus?.amount ?? 0n)
        let jackpot = 0n
        if (pool !== undefined) {
          // The pool's whole balance is paid: locked first (in the ledger's order) so two wins of
          // one pool cannot both pay it.
          const locked = yield* ledger.lockBalances([playerAccount, pool])
          const poolNow = locked.get(pool) ?? 0n
          jackpot = poolNow > 0n ? poolNow : 0n
        }
        const bodyOf = (balance: bigint): Record<string, unknown> => {
          const body: Record<string, unknown> = {
            balance: (balance + bonusAfter).toString(),
            currency: call.currency,
            transactionId: call.transactionId,
          }
          if (jackpotId !== null) body.jackpotAmount = jackpot.toString()
          return body
        }
        const finish = (balance: bigint, ledgerTx: string | null) =>
          Effect.gen(function* () {
            if (jackpot > 0n && validJackpot !== null) yield* repo.jackpotWon(validJackpot)
            yield* repo.addWinAndComplete(
              { integration, roundId: call.roundId, amount, jackpot, closed: call.roundClosed },
              { id, status: 200, response: bodyOf(balance), ledgerTx },
            )
          })
        if (amount + jackpot === 0n) {
          const after = yield* balanceOf(playerAccount)
          yield* finish(after, null)
          return { answer: answer(200, bodyOf(after)), balance: after }
        }
        // Player +win +pool (its bonus share to the bonus account); house −win −seed (the pool topped
        // up to its seed), less a forfeited bonus's share it keeps; pool seed − pool.
        const entries: Array<PostingEntry> = []
        if (shares.cash + jackpot > 0n)
          entries.push({ accountId: playerAccount, currency: call.currency, amount: shares.cash + jackpot })
        if (shares.bonus !== undefined && shares.bonus.amount > 0n)
          entries.push({
            accountId: shares.bonus.accountId,
            currency: call.currency,
            amount: shares.bonus.amount,
          })
        const houseDelta = -(amount - shares.houseKeeps) - (jackpot > 0n ? seed : 0n)
        if (houseDelta !== 0n) entries.push({ accountId: house, currency: call.currency, amount: houseDelta })
        if (pool !== undefined && jackpot > 0n && seed - jackpot !== 0n)
          entries.push({ accountId: pool, currency: call.currency, amount: seed - jackpot })
        /** Pushed when a bonus took part (its money changed, or the player holds some). */
        const bonusPushed = shares.bonus !== undefined || bonusAfter > 0n ? bonusAfter : undefined
        // A win whose every cent is a forfeited bonus's share books nothing.
        if (entries.length < 2) {
          const after = yield* balanceOf(playerAccount)
          yield* finish(after, null)
          return { answer: answer(200, bodyOf(after)), balance: after, bonusBalance: bonusPushed }
        }
        // The cash balance when the win pays none of it (all of it a bonus share).
        const cashUntouched = shares.cash + jackpot > 0n ? undefined : yield* balanceOf(playerAccount)
        const cashAfter = (balances: ReadonlyMap<string, bigint>) =>
          balances.get(playerAccount) ?? cashUntouched ?? 0n
        const posted = yield* ledger
          .post(
            {
              kind: jackpot > 0n ? "game.jackpot" : "game.win",
              idempotencyKey: `game:${integration}:${call.transactionId}`,
              entries,
              metadata: { integration, roundId: call.roundId, jackpot: jackpot.toString() },
            },
            (ledgerTx, balances) => finish(cashAfter(balances), ledgerTx),
          )
          .pipe(
            Effect.catchTag("LedgerConflict", () => Effect.fail(new Refused({ ...mismatch }))),
            Effect.catchTag("InsufficientFunds", (e) => Effect.die(e)),
            Effect.catchTag("InvalidPosting", (e) => Effect.die(e)),
          )
        const after = cashAfter(posted.balances)
        return { answer: answer(200, bodyOf(after)), balance: after, bonusBalance: bonusPushed }
      }),
    )
  }

  const rollback = makeRollback(core)

  const seeds = new Map<string, bigint>()
  const jackpotSeedEur = (jackpotId: string) =>
    Effect.gen(function* () {
      const known = seeds.get(jackpotId)
      if (known !== undefined) return known
      const value = yield* repo.jackpotSeed(jackpotId)
      seeds.set(jackpotId, value)
      return value
    })

  return { replayOf, balance, bet, win, rollback, houseOf, poolOf }
})

export const betFingerprint = (call: BetCall) =>
  callFingerprint("bet", {
    playerId: call.playerId,
    currency: call.currency,
    roundId: call.roundId,
    gameId: call.gameId,
    amount: call.amount,
    jackpotContribution: BigInt(call.jackpotContribution ?? "0").toString(),
  })

/** The provider names its own jackpot; the casino keeps that provider's pool under its own id. */
export const winJackpot = (integration: string, call: WinCall) =>
  call.jackpotId === undefined || call.jackpotId === null ? null : casinoId(integration, call.jackpotId)

export const winFingerprint = (integration: string, call: WinCall) =>
  callFingerprint("win", {
    playerId: call.playerId,
    currency: call.currency,
    roundId: call.roundId,
    gameId: call.gameId,
    amount: call.amount,
    roundClosed: call.roundClosed,
    jackpotId: winJackpot(integration, call),
    // Only on free-round wins, so every other win keeps the fingerprint it always had.
    ...(call.freeRoundGrantId === undefined ? {} : { freeRoundGrantId: call.freeRoundGrantId }),
  })
