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
 * After each settlement a `balance` PlayerEvent goes to the player's open pages.
 */
import { Effect, Schema } from "effect"
import type { SqlError } from "effect/sql"
import type { AcceptedSignature } from "../../protocols/game-wallet/signature.ts"
import type { BalanceCall, BetCall, RollbackCall, WinCall } from "../../protocols/game-wallet/wallet.ts"
import { PlayerEvents } from "../events/PlayerEvents.ts"
import { Ledger, type PostingEntry } from "../ledger/Ledger.ts"
import { casinoId } from "./catalogue.ts"
import { callFingerprint, eurCentsToMinor, tokenHash } from "./rules.ts"
import { type StoredCall, type WalletOp, WalletRepo } from "./WalletRepo.ts"
import {
  answer,
  badRequest,
  decideBet,
  decideWin,
  insufficientFunds,
  mismatch,
  REPLAYED_SIGNATURE,
  rateOf,
  replayedSignature,
  rolledBack,
  sessionExpired,
  settledBody,
  unknownPlayer,
  type WalletAnswer,
} from "./walletDecisions.ts"

/** A refusal decided inside the settlement's transaction: rolls it back, answered as is. */
class Refused extends Schema.TaggedError<Refused>()("Refused", {
  status: Schema.Number,
  body: Schema.Record(Schema.String, Schema.Unknown),
}) {}

/** The one-call path's operations, built from the wallet's repository, the ledger and the pushes. */
export const makeWalletCalls = Effect.gen(function* () {
  const repo = yield* WalletRepo
  const ledger = yield* Ledger
  const events = yield* PlayerEvents

  /** The answer to an id seen before: the first answer, or why not. */
  const replayOf = (existing: StoredCall, op: WalletOp, fingerprint: string): WalletAnswer => {
    if (existing.op === "tombstone") return op === "bet" ? rolledBack : mismatch
    if (existing.op !== op || existing.fingerprint !== fingerprint) return mismatch
    // status 0 cannot be seen: a claim commits only together with its completion.
    return answer(existing.status, (existing.response ?? {}) as Record<string, unknown>)
  }

  const balanceOf = (accountId: string) =>
    ledger.lockBalances([accountId]).pipe(Effect.map((m) => m.get(accountId) ?? 0n))

  const currentBalance = (userId: string, currency: string) =>
    ledger.playerAccount(userId, currency).pipe(Effect.map((a) => (a === undefined ? 0n : BigInt(a.balance))))

  const publish = (userId: string, currency: string, balance: bigint) =>
    events.publish(userId, { type: "balance", currency, balance: balance.toString() })

  /**
   * A refusal or a replayed id rolled the settlement back, its signature with it: recorded on its
   * own so the same bytes cannot be sent again to be decided anew (say, after a deposit). Rare paths
   * only; a failure here costs the replay protection of that one call, not its answer.
   */
  const remember = (signature: AcceptedSignature | undefined, a: WalletAnswer) =>
    signature === undefined || a.body.error === REPLAYED_SIGNATURE
      ? Effect.succeed(a)
      : repo.claimSignature(signature).pipe(
          Effect.catch((e) => Effect.logWarning("games: recording a wallet call's signature failed", e)),
          Effect.as(a),
        )

  /** Runs a settlement: replays and refusals answered, the commit's balance published. */
  const settle = (
    integration: string,
    op: WalletOp,
    transactionId: string,
    userId: string,
    currency: string,
    /** Undefined when the caller recorded it already. */
    signature: AcceptedSignature | undefined,
    body: Effect.Effect<
      { readonly answer: WalletAnswer; readonly balance: bigint | undefined },
      Refused | SqlError.SqlError | { readonly _tag: "Replay"; readonly answer: WalletAnswer }
    >,
  ): Effect.Effect<WalletAnswer, SqlError.SqlError> =>
    repo.transaction(body).pipe(
      Effect.tap((done) =>
        done.balance === undefined ? Effect.void : publish(userId, currency, done.balance),
      ),
      Effect.map((done) => done.answer),
      Effect.catchTag("Refused", (r) => remember(signature, answer(r.status, r.body))),
      Effect.catchTag("Replay", (r) => remember(signature, r.answer)),
      Effect.withSpan(`GameWallet.${op}`, { attributes: { integration, transactionId } }),
    )

  /** Claims the id in the transaction; when taken, the stored answer (after the holder commits). */
  const claimOrReplay = (call: Parameters<typeof repo.claim>[0] & { readonly op: WalletOp }) =>
    Effect.gen(function* () {
      const id = yield* repo.claim(call)
      if (id !== undefined) return id
      const existing = yield* repo.findCall(call.integration, call.transactionId)
      if (existing === undefined) return yield* Effect.die(new Error("game call id taken but absent"))
      return yield* Effect.fail({
        _tag: "Replay" as const,
        answer: replayOf(existing, call.op, call.fingerprint),
      })
    })

  const houseOf = (currency: string) => ledger.systemAccountId("house", "games", currency)
  const poolOf = (jackpotId: string, currency: string) =>
    ledger.systemAccountId("jackpot_pool", jackpotId, currency)

  const balance = (call: BalanceCall, signature: AcceptedSignature) =>
    Effect.gen(function* () {
      const { freshSignature, session } = yield* repo.sessionOf(tokenHash(call.sessionToken), signature)
      if (!freshSignature) return replayedSignature
      if (session === undefined || !session.live || session.userId !== call.playerId) return sessionExpired
      if (session.currency !== call.currency) return badRequest("currency is not the session's")
      return answer(200, {
        balance: (yield* currentBalance(call.playerId, call.currency)).toString(),
        currency: call.currency,
      })
    })

  /** A refusal inside the settlement's transaction: rolls it back (its claim too), answered as is. */
  const refuse = (a: WalletAnswer) => Effect.fail(new Refused({ status: a.status, body: { ...a.body } }))

  /** The claim found the id taken (after its holder finished): the stored answer, or why not. */
  const replayed = (integration: string, transactionId: string, op: WalletOp, fingerprint: string) =>
    Effect.gen(function* () {
      const existing = yield* repo.findCall(integration, transactionId)
      if (existing === undefined) return yield* Effect.die(new Error("game call id taken but absent"))
      return yield* Effect.fail({ _tag: "Replay" as const, answer: replayOf(existing, op, fingerprint) })
    })

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
        const house = yield* houseOf(call.currency)
        const pool =
          gameJackpot === null || share === 0n ? undefined : yield* poolOf(gameJackpot, call.currency)
        const entries: Array<PostingEntry> = [
          { accountId: playerAccount, currency: call.currency, amount: -amount },
        ]
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
                  { id: claimId, status: 200, response: bodyOf(balances.get(playerAccount) ?? 0n), ledgerTx },
                )
                .pipe(
                  Effect.flatMap((ok) =>
                    ok
                      ? Effect.void
                      : Effect.fail(new Refused({ ...badRequest("the round is another player's") })),
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
        return { answer: answer(200, bodyOf(after)), balance: after }
      }),
    )
  }

  // A win is 7 statements as a bet (claim + round + the player's account in one); a win of 0 books
  // nothing: BEGIN, the claim, the player's row (locked, for the balance it answers), the round +
  // the stored answer, COMMIT.
  const win = (integration: string, call: WinCall, signature: AcceptedSignature) => {
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
        if (round.status === "rolled-back")
          yield* Effect.logWarning(
            `games: win ${call.transactionId} on rolled-back round ${call.roundId} (paid)`,
          )
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
            balance: balance.toString(),
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
        // Player +win +pool; house −win −seed (the pool topped up to its seed); pool seed − pool.
        const entries: Array<PostingEntry> = [
          { accountId: playerAccount, currency: call.currency, amount: amount + jackpot },
        ]
        const houseDelta = -amount - (jackpot > 0n ? seed : 0n)
        if (houseDelta !== 0n) entries.push({ accountId: house, currency: call.currency, amount: houseDelta })
        if (pool !== undefined && jackpot > 0n && seed - jackpot !== 0n)
          entries.push({ accountId: pool, currency: call.currency, amount: seed - jackpot })
        const posted = yield* ledger
          .post(
            {
              kind: jackpot > 0n ? "game.jackpot" : "game.win",
              idempotencyKey: `game:${integration}:${call.transactionId}`,
              entries,
              metadata: { integration, roundId: call.roundId, jackpot: jackpot.toString() },
            },
            (ledgerTx, balances) => finish(balances.get(playerAccount) ?? 0n, ledgerTx),
          )
          .pipe(
            Effect.catchTag("LedgerConflict", () => Effect.fail(new Refused({ ...mismatch }))),
            Effect.catchTag("InsufficientFunds", (e) => Effect.die(e)),
            Effect.catchTag("InvalidPosting", (e) => Effect.die(e)),
          )
        const after = posted.balances.get(playerAccount) ?? 0n
        return { answer: answer(200, bodyOf(after)), balance: after }
      }),
    )
  }

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
          const ack = (balance: bigint, ledgerTx: string | null) =>
            Effect.gen(function* () {
              const body = {
                balance: balance.toString(),
                currency: call.currency,
                transactionId: call.transactionId,
              }
              yield* repo.complete(id, 200, body, ledgerTx)
              return { answer: answer(200, body), balance }
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
          const entries: Array<PostingEntry> = [{ accountId: playerAccount, currency: call.currency, amount }]
          if (amount - share > 0n)
            entries.push({ accountId: house, currency: call.currency, amount: -(amount - share) })
          if (share > 0n && bet.jackpotId !== null)
            entries.push({
              accountId: yield* poolOf(bet.jackpotId, call.currency),
              currency: call.currency,
              amount: -share,
            })
          const posted = yield* ledger
            .post(
              {
                kind: "game.rollback",
                idempotencyKey: `game:${integration}:${call.transactionId}`,
                entries,
                metadata: { integration, roundId: bet.roundId, refTransactionId: call.refTransactionId },
              },
              () => repo.removeBet(integration, bet.roundId, amount),
            )
            .pipe(
              Effect.catchTag("LedgerConflict", () => Effect.fail(new Refused({ ...mismatch }))),
              Effect.catchTag("InsufficientFunds", (e) => Effect.die(e)),
              Effect.catchTag("InvalidPosting", (e) => Effect.die(e)),
            )
          return yield* ack(posted.balances.get(playerAccount) ?? 0n, posted.transactionId)
        }),
      )
    })

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
  })
