/**
 * Batched settlement of the seamless wallet's bets and wins (docs/ledger.md#batched-settlement).
 *
 * One writer per server process gathers the calls that arrive while the previous batch is being
 * written and settles them together in ONE SQL transaction of six statements, whatever their
 * number: the claim (signatures, ids, sessions, rounds, wallets), the ledger's `postMany` (player
 * locks; transactions, entries and balances; the house and pools last), the rounds and answers,
 * the commit — then one NOTIFY for all their balance pushes. N calls cost one commit instead of N
 * and a handful of statements instead of 8×N. Under light load a batch is a single call and
 * costs what the one-call path does: nothing waits for a batch to fill.
 *
 * What does not change:
 * - every call gets its own answer, decided by the same rules (walletDecisions.ts) in the order
 *   of arrival; a bet is refused when the balance is short, inside a batch too;
 * - a batch holds at most one call per player, per id, per round and per signature; a second one
 *   waits for the next batch, so a player's calls are settled in the order they arrived;
 * - idempotency (the claim's UNIQUE id), the exact-signature replay rule and the lock order
 *   (claims by id, then players by id, then system rows by id) are the one-call path's;
 * - nothing is acknowledged before its commit (synchronous commit stays on).
 * What the batch does not decide it hands back, untouched, to the one-call path (GameWallet.ts):
 * a bet on a round that is another player's, or — when the batch's transaction fails at all
 * (a deadlock, a lost connection, an id posted meanwhile) — every call of it, each in its own
 * transaction, so a batch's trouble costs time, never an answer.
 */
import { Deferred, Effect, type Scope } from "effect"
import type { SqlError } from "effect/sql"
import { makeBatcher, type Pending } from "../../lib/batcher.ts"
import type { AcceptedSignature } from "../../protocols/game-wallet/signature.ts"
import type { BetCall, WinCall } from "../../protocols/game-wallet/wallet.ts"
import type { BatchOutcome, LedgerShape, Posting, PostingEntry } from "../ledger/Ledger.ts"
import { tokenHash } from "./rules.ts"
import type { BatchClaim, BetDone, WalletBatchRepoShape, WinDone } from "./WalletBatchRepo.ts"
import {
  answer,
  decideBet,
  decideWin,
  insufficientFunds,
  replayedSignature,
  settledBody,
  type WalletAnswer,
} from "./walletDecisions.ts"

/** A bet or a win (without a jackpot) ready to settle: decoded, signature accepted. */
export type BatchJob =
  | {
      readonly op: "bet"
      readonly integration: string
      readonly call: BetCall
      readonly signature: AcceptedSignature
      readonly fingerprint: string
    }
  | {
      readonly op: "win"
      readonly integration: string
      readonly call: WinCall
      readonly signature: AcceptedSignature
      readonly fingerprint: string
    }

/** Calls a batch takes at most: its statements' parameters stay a few hundred KB. */
const MAX_BATCH = 400

/** What a settled call leaves to do after the commit. */
type Settled =
  | { readonly _tag: "Answer"; readonly answer: WalletAnswer; readonly push?: bigint }
  | { readonly _tag: "Replay" }
  | { readonly _tag: "Single" }

export interface SettlementBatchDeps {
  readonly repo: WalletBatchRepoShape
  readonly ledger: LedgerShape
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  readonly houseOf: (currency: string) => Effect.Effect<string, SqlError.SqlError>
  readonly poolOf: (jackpotId: string, currency: string) => Effect.Effect<string, SqlError.SqlError>
  /** The stored answer to an id claimed before (after its holder committed). */
  readonly replay: (job: BatchJob) => Effect.Effect<WalletAnswer, SqlError.SqlError>
  /** The one-call path, for what a batch hands back. Never fails. */
  readonly single: (job: BatchJob) => Effect.Effect<WalletAnswer>
  /** The balance pushes of a committed batch, at once. */
  readonly publish: (
    pushes: ReadonlyArray<{ readonly userId: string; readonly currency: string; readonly balance: bigint }>,
  ) => Effect.Effect<void>
}

export const makeSettlementBatcher = (
  deps: SettlementBatchDeps,
): Effect.Effect<{ readonly submit: (job: BatchJob) => Effect.Effect<WalletAnswer> }, never, Scope.Scope> =>
  Effect.gen(function* () {
    /** The decisions and writes of one batch, inside its transaction. */
    const settle = (jobs: ReadonlyArray<BatchJob>) =>
      Effect.gen(function* () {
        const claims: Array<BatchClaim> = jobs.map((job) => ({
          op: job.op,
          integration: job.integration,
          transactionId: job.call.transactionId,
          roundId: job.call.roundId,
          userId: job.call.playerId,
          currency: job.call.currency,
          amount: BigInt(job.call.amount),
          jackpotShare: job.op === "bet" ? BigInt(job.call.jackpotContribution ?? "0") : 0n,
          fingerprint: job.fingerprint,
          tokenHash: job.op === "bet" ? tokenHash(job.call.sessionToken) : null,
          launchId: job.op === "bet" ? job.call.gameId : null,
          signature: job.signature.v1,
          signedAt: job.signature.t,
        }))
        const rows = yield* deps.repo.claimMany(claims)
        const settled: Array<Settled | undefined> = jobs.map(() => undefined)
        const dropClaims: Array<string> = []
        const dropSignatures: Array<string> = []
        /** The calls that post, by their index in the batch. */
        const posting: Array<{
          readonly index: number
          readonly posting: Posting
          readonly accountId: string
          readonly gameId: string
        }> = []
        /** Wins that book nothing: of 0, or void (their round rolled back). */
        const zeroWins: Array<{
          readonly index: number
          readonly accountId: string
          readonly voided: boolean
        }> = []

        for (const [index, job] of jobs.entries()) {
          const row = rows[index]
          if (row === undefined) return yield* Effect.die(new Error("a batch's claim lost a row"))
          if (!row.freshSignature) {
            settled[index] = { _tag: "Answer", answer: replayedSignature }
            if (row.claimId !== undefined) dropClaims.push(row.claimId)
            continue
          }
          if (row.claimId === undefined) {
            settled[index] = { _tag: "Replay" }
            continue
          }
          const claimId = row.claimId
          if (row.bonus) {
            // A bonus is in play: the one-call path pays it by the bonus rules (server/bonuses/play.ts).
            settled[index] = { _tag: "Single" }
            dropClaims.push(claimId)
            dropSignatures.push(job.signature.v1)
            continue
          }
          const refuse = (a: WalletAnswer) => {
            settled[index] = { _tag: "Answer", answer: a }
            dropClaims.push(claimId)
          }
          const currency = job.call.currency
          const amount = BigInt(job.call.amount)
          if (job.op === "bet") {
            const share = BigInt(job.call.jackpotContribution ?? "0")
            const decided = decideBet(job.call, amount, share, row.context)
            if ("refused" in decided) {
              refuse(decided.refused)
              continue
            }
            const round = row.round
            if (round !== undefined && (round.userId !== job.call.playerId || round.currency !== currency)) {
              // Rare and odd: the one-call path answers it, with its own order of refusals.
              settled[index] = { _tag: "Single" }
              dropClaims.push(claimId)
              dropSignatures.push(job.signature.v1)
              continue
            }
            const { accountId, gameId, jackpotId } = decided.accepted
            const entries: Array<PostingEntry> = [{ accountId, currency, amount: -amount }]
            if (amount - share > 0n)
              entries.push({ accountId: yield* deps.houseOf(currency), currency, amount: amount - share })
            if (jackpotId !== null && share > 0n)
              entries.push({ accountId: yield* deps.poolOf(jackpotId, currency), currency, amount: share })
            posting.push({
              index,
              accountId,
              gameId,
              posting: {
                kind: "game.bet",
                idempotencyKey: `game:${job.integration}:${job.call.transactionId}`,
                entries,
                metadata: { integration: job.integration, roundId: job.call.roundId, gameId },
              },
            })
          } else {
            const decided = decideWin(job.call, row.accountId, row.round)
            if ("refused" in decided) {
              refuse(decided.refused)
              continue
            }
            if (decided.voided)
              // Every bet of its round was rolled back: acknowledged as it is, nothing paid (walletDecisions.ts).
              yield* Effect.logWarning(
                `games: win ${job.call.transactionId} on rolled-back round ${job.call.roundId} (void: nothing paid)`,
              )
            if (amount === 0n || decided.voided) {
              zeroWins.push({ index, accountId: decided.accountId, voided: decided.voided })
              continue
            }
            posting.push({
              index,
              accountId: decided.accountId,
              gameId: job.call.gameId,
              posting: {
                kind: "game.win",
                idempotencyKey: `game:${job.integration}:${job.call.transactionId}`,
                entries: [
                  { accountId: decided.accountId, currency, amount },
                  { accountId: yield* deps.houseOf(currency), currency, amount: -amount },
                ],
                metadata: { integration: job.integration, roundId: job.call.roundId, jackpot: "0" },
              },
            })
          }
        }

        const claimIdOf = (index: number) => rows[index]?.claimId ?? ""
        const posted = yield* deps.ledger.postMany(
          posting.map((p) => p.posting),
          {
            lock: zeroWins.map((z) => z.accountId),
            within: (outcomes: ReadonlyArray<BatchOutcome>, balances: ReadonlyMap<string, bigint>) =>
              Effect.gen(function* () {
                const bets: Array<BetDone> = []
                const wins: Array<WinDone> = []
                for (const [k, outcome] of outcomes.entries()) {
                  const p = posting[k]
                  if (p === undefined) continue
                  const job = jobs[p.index] as BatchJob
                  if (outcome._tag === "Refused") {
                    dropClaims.push(claimIdOf(p.index))
                    if (outcome.error._tag === "InvalidPosting") {
                      // A programming error: the one-call path reports it as it always has.
                      settled[p.index] = { _tag: "Single" }
                      dropSignatures.push(job.signature.v1)
                    }
                    continue
                  }
                  const balance = outcome.balances.get(p.accountId) ?? 0n
                  const body = settledBody(balance, job.call.currency, job.call.transactionId)
                  settled[p.index] = { _tag: "Answer", answer: answer(200, body), push: balance }
                  if (job.op === "bet")
                    bets.push({
                      claimId: claimIdOf(p.index),
                      integration: job.integration,
                      roundId: job.call.roundId,
                      userId: job.call.playerId,
                      gameId: p.gameId,
                      currency: job.call.currency,
                      amount: BigInt(job.call.amount),
                      response: body,
                      ledgerTx: outcome.transactionId,
                    })
                  else
                    wins.push({
                      claimId: claimIdOf(p.index),
                      integration: job.integration,
                      roundId: job.call.roundId,
                      amount: BigInt(job.call.amount),
                      closed: job.call.roundClosed,
                      voided: false,
                      response: body,
                      ledgerTx: outcome.transactionId,
                    })
                }
                for (const z of zeroWins) {
                  const job = jobs[z.index] as BatchJob
                  if (job.op !== "win") continue
                  const balance = balances.get(z.accountId) ?? 0n
                  const body = settledBody(balance, job.call.currency, job.call.transactionId)
                  settled[z.index] = { _tag: "Answer", answer: answer(200, body), push: balance }
                  wins.push({
                    claimId: claimIdOf(z.index),
                    integration: job.integration,
                    roundId: job.call.roundId,
                    amount: 0n,
                    closed: job.call.roundClosed,
                    voided: z.voided,
                    response: body,
                    ledgerTx: null,
                  })
                }
                const added = yield* deps.repo.finishMany({ bets, wins, dropClaims, dropSignatures })
                if (added !== bets.length)
                  return yield* Effect.fail({
                    _tag: "RoundTaken" as const,
                    message: "a round is another player's",
                  })
              }),
          },
        )
        // The refused bets answer the balance they found (the batch holds one call per player).
        for (const [k, outcome] of posted.outcomes.entries()) {
          const p = posting[k]
          if (p === undefined || outcome._tag !== "Refused" || outcome.error._tag !== "InsufficientFunds")
            continue
          settled[p.index] = {
            _tag: "Answer",
            answer: insufficientFunds(posted.balances.get(p.accountId) ?? 0n),
          }
        }
        return settled
      })

    const finish = (
      batch: ReadonlyArray<Pending<BatchJob, WalletAnswer>>,
      settled: ReadonlyArray<Settled | undefined>,
    ) =>
      Effect.gen(function* () {
        const pushes: Array<{ userId: string; currency: string; balance: bigint }> = []
        const later: Array<Effect.Effect<void>> = []
        for (const [index, pending] of batch.entries()) {
          const s = settled[index]
          const { job, done } = pending
          if (s === undefined || s._tag === "Single") {
            later.push(deps.single(job).pipe(Effect.flatMap((a) => Deferred.succeed(done, a))))
          } else if (s._tag === "Replay") {
            later.push(
              deps.replay(job).pipe(
                Effect.catch(() => deps.single(job)),
                Effect.flatMap((a) => Deferred.succeed(done, a)),
              ),
            )
          } else {
            yield* Deferred.succeed(done, s.answer)
            if (s.push !== undefined)
              pushes.push({ userId: job.call.playerId, currency: job.call.currency, balance: s.push })
          }
        }
        if (pushes.length > 0) yield* deps.publish(pushes)
        if (later.length > 0) yield* Effect.all(later, { concurrency: 8, discard: true })
      })

    const run = (batch: ReadonlyArray<Pending<BatchJob, WalletAnswer>>) =>
      deps.transaction(settle(batch.map((p) => p.job))).pipe(
        Effect.flatMap((settled) => finish(batch, settled)),
        Effect.catchCause((cause) =>
          Effect.logWarning(
            `games: a batch of ${batch.length} wallet calls failed; settling them one by one`,
            cause,
          ).pipe(
            Effect.andThen(
              finish(
                batch,
                batch.map(() => undefined),
              ),
            ),
          ),
        ),
        Effect.withSpan("GameWallet.batch", { attributes: { calls: batch.length } }),
      )

    return yield* makeBatcher<BatchJob, WalletAnswer>({
      maxBatch: MAX_BATCH,
      // One call per player, id, round and signature in a batch.
      keys: (job) => [
        `p:${job.call.playerId}`,
        `t:${job.integration}|${job.call.transactionId}`,
        `r:${job.integration}|${job.call.roundId}`,
        `s:${job.signature.v1}`,
      ],
      run,
    })
  })
