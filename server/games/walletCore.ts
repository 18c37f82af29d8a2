/**
 * What every one-call wallet operation shares (walletCalls.ts, walletRollback.ts): the stored answer
 * of an id seen before, balances, the push after a commit, the signature of a refused call kept,
 * the settlement's transaction with its replays and refusals, and the house and pool accounts.
 */
import { Effect, Schema } from "effect"
import type { SqlError } from "effect/sql"
import type { AcceptedSignature } from "../../protocols/game-wallet/signature.ts"
import { Bonuses } from "../bonuses/Bonuses.ts"
import { PlayerEvents } from "../events/PlayerEvents.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { type StoredCall, type WalletOp, WalletRepo } from "./WalletRepo.ts"
import { answer, mismatch, REPLAYED_SIGNATURE, rolledBack, type WalletAnswer } from "./walletDecisions.ts"

/** A refusal decided inside the settlement's transaction: rolls it back, answered as is. */
export class Refused extends Schema.TaggedError<Refused>()("Refused", {
  status: Schema.Number,
  body: Schema.Record(Schema.String, Schema.Unknown),
}) {}

export const makeWalletCore = Effect.gen(function* () {
  const repo = yield* WalletRepo
  const ledger = yield* Ledger
  const events = yield* PlayerEvents
  const play = (yield* Bonuses).play

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

  const publish = (userId: string, currency: string, balance: bigint, bonusBalance: bigint | undefined) =>
    events.publish(
      userId,
      bonusBalance === undefined
        ? { type: "balance", currency, balance: balance.toString() }
        : { type: "balance", currency, balance: balance.toString(), bonusBalance: bonusBalance.toString() },
    )

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
      {
        readonly answer: WalletAnswer
        readonly balance: bigint | undefined
        /** The bonus money after the call, when a bonus took part. */
        readonly bonusBalance?: bigint | undefined
      },
      Refused | SqlError.SqlError | { readonly _tag: "Replay"; readonly answer: WalletAnswer }
    >,
  ): Effect.Effect<WalletAnswer, SqlError.SqlError> =>
    repo.transaction(body).pipe(
      Effect.tap((done) =>
        done.balance === undefined ? Effect.void : publish(userId, currency, done.balance, done.bonusBalance),
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

  const refuse = (a: WalletAnswer) => Effect.fail(new Refused({ status: a.status, body: { ...a.body } }))

  /** The claim found the id taken (after its holder finished): the stored answer, or why not. */
  const replayed = (integration: string, transactionId: string, op: WalletOp, fingerprint: string) =>
    Effect.gen(function* () {
      const existing = yield* repo.findCall(integration, transactionId)
      if (existing === undefined) return yield* Effect.die(new Error("game call id taken but absent"))
      return yield* Effect.fail({ _tag: "Replay" as const, answer: replayOf(existing, op, fingerprint) })
    })

  return {
    repo,
    ledger,
    play,
    replayOf,
    balanceOf,
    currentBalance,
    settle,
    claimOrReplay,
    houseOf,
    poolOf,
    refuse,
    replayed,
  }
})

export type WalletCore = Effect.Success<typeof makeWalletCore>
