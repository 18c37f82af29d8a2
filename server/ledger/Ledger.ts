/**
 * The ledger: the ONLY code that changes a balance (docs/ledger.md).
 *
 * A posting runs in one SQL transaction (the caller's when it runs one, so a webhook's bookkeeping
 * and its credit commit together; else its own):
 *   1. the entries must be non-zero and sum to 0 per currency, each in its account's currency;
 *   2. the PLAYER accounts are locked `FOR UPDATE` in ascending id order and a player's balance can
 *      never go below 0 (`InsufficientFunds`, and the table's CHECK as the last guard) — every
 *      refusal is decided before the first write, so no savepoint is needed;
 *   3. the transaction row (UNIQUE idempotency key), its entries and the players' balances are
 *      written in one statement. A key that exists already is a replay: with the same fingerprint
 *      (SHA-256 of kind + entries) it answers the first posting's id and writes nothing; with
 *      another fingerprint it is `LedgerConflict` (logged);
 *   4. the caller's `within` writes run;
 *   5. LAST, the system accounts' balances are updated in id order: a row shared by many postings
 *      (a provider's clearing account) is locked for one UPDATE and the commit only. Lock order is
 *      global (players by id, then system accounts by id): no two postings wait in a cycle.
 */
import { createHash } from "node:crypto"
import { Context, Effect, Layer, Schema } from "effect"
import type { SqlError } from "effect/sql"
import { type AccountRow, isPlayerKind, LedgerRepo, type SystemKind } from "./LedgerRepo.ts"

export interface PostingEntry {
  readonly accountId: string
  readonly currency: string
  /** Signed minor units: + raises the account's balance, - lowers it. */
  readonly amount: bigint
}

export interface Posting {
  /** What happened, e.g. "deposit". */
  readonly kind: string
  /** One per business event, e.g. `deposit:<deposit id>`. */
  readonly idempotencyKey: string
  readonly entries: ReadonlyArray<PostingEntry>
  /** Context kept with the transaction (not part of the fingerprint: replays may differ here). */
  readonly metadata?: Readonly<Record<string, string | number | boolean | null>>
}

export interface Posted {
  readonly transactionId: string
  /** True when the key had been posted before with the same content: nothing was written now. */
  readonly replayed: boolean
  /** Balances after the posting, per account id (current balances for a replay). */
  readonly balances: ReadonlyMap<string, bigint>
}

/** The same idempotency key posted with different content. */
export class LedgerConflict extends Schema.TaggedError<LedgerConflict>()("LedgerConflict", {
  idempotencyKey: Schema.String,
  message: Schema.String,
}) {}

/** The posting would take a player's balance below 0. */
export class InsufficientFunds extends Schema.TaggedError<InsufficientFunds>()("InsufficientFunds", {
  accountId: Schema.String,
  message: Schema.String,
}) {}

/** A posting that cannot be booked as given (a programming error of the caller). */
export class InvalidPosting extends Schema.TaggedError<InvalidPosting>()("InvalidPosting", {
  message: Schema.String,
}) {}

export type PostError = LedgerConflict | InsufficientFunds | InvalidPosting

/** A batch found a posting's idempotency key taken: nothing of it may commit (roll back, retry singly). */
export class LedgerBatchAborted extends Schema.TaggedError<LedgerBatchAborted>()("LedgerBatchAborted", {
  message: Schema.String,
}) {}

/** One posting's fate in a batch: booked, or refused (then nothing of it was written). */
export type BatchOutcome =
  | {
      readonly _tag: "Posted"
      readonly transactionId: string
      /** Its player accounts' balances right after it (later postings of the batch not counted). */
      readonly balances: ReadonlyMap<string, bigint>
    }
  | { readonly _tag: "Refused"; readonly error: InsufficientFunds | InvalidPosting }

export interface PostedMany {
  readonly outcomes: ReadonlyArray<BatchOutcome>
  /** Every locked player account's balance once the whole batch is booked. */
  readonly balances: ReadonlyMap<string, bigint>
}

export interface LedgerShape {
  /**
   * Books a posting (see the header). `within`, when given, runs inside the posting's SQL
   * transaction after its transaction row, entries and player balances are written and BEFORE the
   * system accounts are locked: the caller's own writes that must commit with the posting (a
   * deposit's completion, its webhook record) then do not lengthen the hold on those hot rows.
   * Inside a caller's transaction a failure of `within` must roll that transaction back.
   * `within` also receives the PLAYER accounts' balances after the posting (already written), so a
   * caller can store an answer that names the new balance without another round trip.
   */
  readonly post: <E = never, R = never>(
    posting: Posting,
    within?: (
      transactionId: string,
      playerBalances: ReadonlyMap<string, bigint>,
    ) => Effect.Effect<void, E, R>,
  ) => Effect.Effect<Posted, PostError | SqlError.SqlError | E, R>
  /**
   * Books many postings in the caller's SQL transaction with a handful of statements, whatever
   * their number (the game wallet's batched settlement): every player account of the batch (and
   * `lock`'s) is locked in id order in one statement; the postings are then decided IN ORDER, each
   * against the balances the earlier ones left — one that would take a player below 0 is refused
   * alone —; the accepted ones are written in one statement; `within` runs; the system accounts
   * are updated last, in id order, once each with their summed change. The same rules as `post`,
   * without its replay answer: a key posted before aborts the batch (`LedgerBatchAborted`), and the
   * caller, whose transaction then rolls back, posts those calls one by one.
   */
  readonly postMany: <E = never, R = never>(
    postings: ReadonlyArray<Posting>,
    options?: {
      /** Player accounts to lock and answer the balances of, though no posting touches them. */
      readonly lock?: ReadonlyArray<string>
      /** Also given every locked player account's balance once the batch is booked. */
      readonly within?: (
        outcomes: ReadonlyArray<BatchOutcome>,
        balances: ReadonlyMap<string, bigint>,
      ) => Effect.Effect<void, E, R>
    },
  ) => Effect.Effect<PostedMany, LedgerBatchAborted | SqlError.SqlError | E, R>
  readonly playerAccount: (
    userId: string,
    currency: string,
  ) => Effect.Effect<AccountRow | undefined, SqlError.SqlError>
  /** The player's bonus account in a currency (money that is not withdrawable), opened on first use. */
  readonly bonusAccount: (userId: string, currency: string) => Effect.Effect<AccountRow, SqlError.SqlError>
  /** The player's held free-spin winnings in a currency (neither playable nor withdrawable). */
  readonly freeSpinsAccount: (
    userId: string,
    currency: string,
  ) => Effect.Effect<AccountRow, SqlError.SqlError>
  readonly systemAccount: (
    kind: SystemKind,
    code: string,
    currency: string,
  ) => Effect.Effect<AccountRow, SqlError.SqlError>
  /**
   * Locks accounts for the rest of the caller's SQL transaction in the ledger's global lock order
   * (players by id, then system accounts by id) and answers their balances. For a rule that needs
   * a balance before it posts (a jackpot pays its whole pool): the `post` that follows in the same
   * transaction finds the rows locked already. Must run inside a transaction.
   */
  readonly lockBalances: (
    ids: ReadonlyArray<string>,
  ) => Effect.Effect<ReadonlyMap<string, bigint>, SqlError.SqlError>
  /** The id of a system account, created on first use; cached per process. */
  readonly systemAccountId: (
    kind: SystemKind,
    code: string,
    currency: string,
  ) => Effect.Effect<string, SqlError.SqlError>
}

/** SHA-256 of what a posting does: its kind and its entries in a canonical order. */
export const fingerprintOf = (posting: Posting): string => {
  const entries = [...posting.entries]
    .map((e) => [e.accountId, e.currency, e.amount.toString()] as const)
    .sort((a, b) => (a.join("|") < b.join("|") ? -1 : a.join("|") > b.join("|") ? 1 : 0))
  return createHash("sha256")
    .update(JSON.stringify({ kind: posting.kind, entries }))
    .digest("hex")
}

/** Why the posting is malformed, or undefined when its entries balance. */
export const postingProblem = (posting: Posting): string | undefined => {
  if (posting.entries.length < 2) return "a posting needs at least two entries"
  if (posting.idempotencyKey.length === 0 || posting.idempotencyKey.length > 200)
    return "the idempotency key must be 1 to 200 characters"
  const sums = new Map<string, bigint>()
  const seen = new Set<string>()
  for (const e of posting.entries) {
    if (e.amount === 0n) return "an entry of 0"
    if (seen.has(e.accountId)) return `account ${e.accountId} appears twice`
    seen.add(e.accountId)
    sums.set(e.currency, (sums.get(e.currency) ?? 0n) + e.amount)
  }
  for (const [currency, sum] of sums) if (sum !== 0n) return `entries in ${currency} sum to ${sum}, not 0`
  return undefined
}

const make = Effect.gen(function* () {
  const repo = yield* LedgerRepo

  /** Current balances (players locked — the posting holds them already —, system rows unlocked). */
  const currentBalances = (ids: ReadonlyArray<string>) =>
    repo
      .lockPlayersReadSystem(ids)
      .pipe(Effect.map((rows) => new Map(rows.map((r) => [r.id, BigInt(r.balance)] as const))))

  /** The answer to a key posted before: the first posting, or a conflict. */
  const replay = (posting: Posting, fingerprint: string, existing: { id: string; fingerprint: string }) =>
    Effect.gen(function* () {
      if (existing.fingerprint !== fingerprint) {
        yield* Effect.logWarning(
          `ledger: idempotency key ${posting.idempotencyKey} replayed with different content (refused)`,
        )
        return yield* new LedgerConflict({
          idempotencyKey: posting.idempotencyKey,
          message: "This idempotency key was posted before with different entries.",
        })
      }
      return {
        transactionId: existing.id,
        replayed: true,
        balances: yield* currentBalances(posting.entries.map((e) => e.accountId)),
      } satisfies Posted
    })

  const post = <E = never, R = never>(
    posting: Posting,
    within?: (
      transactionId: string,
      playerBalances: ReadonlyMap<string, bigint>,
    ) => Effect.Effect<void, E, R>,
  ): Effect.Effect<Posted, PostError | SqlError.SqlError | E, R> =>
    Effect.gen(function* () {
      const problem = postingProblem(posting)
      if (problem !== undefined) return yield* new InvalidPosting({ message: problem })
      const fingerprint = fingerprintOf(posting)
      const ids = [...new Set(posting.entries.map((e) => e.accountId))].sort()
      const deltaOf = (id: string) =>
        posting.entries.filter((e) => e.accountId === id).reduce((s, e) => s + e.amount, 0n)
      const body = Effect.gen(function* () {
        // Every typed failure below is decided BEFORE the first write, so no savepoint is needed
        // inside a caller's transaction: a refused posting has written nothing.
        const accounts = yield* repo.lockPlayersReadSystem(ids)
        const byId = new Map(accounts.map((a) => [a.id, a] as const))
        for (const e of posting.entries) {
          const account = byId.get(e.accountId)
          if (account === undefined)
            return yield* new InvalidPosting({ message: `no ledger account ${e.accountId}` })
          if (account.currency !== e.currency)
            return yield* new InvalidPosting({
              message: `account ${e.accountId} holds ${account.currency}, not ${e.currency}`,
            })
          if (isPlayerKind(account.kind) && BigInt(account.balance) + deltaOf(e.accountId) < 0n)
            return yield* new InsufficientFunds({
              accountId: e.accountId,
              message: "The balance is too low for this posting.",
            })
        }
        const isPlayer = (id: string) => {
          const kind = byId.get(id)?.kind
          return kind !== undefined && isPlayerKind(kind)
        }
        const inserted = yield* repo.insertPosting({
          kind: posting.kind,
          idempotencyKey: posting.idempotencyKey,
          fingerprint,
          metadata: posting.metadata ?? {},
          entries: posting.entries,
          playerDeltas: ids.filter(isPlayer).map((id) => [id, deltaOf(id)] as const),
        })
        // The key exists: posted before, or by another process between our look-up and our insert
        // (the insert waited for it to commit). Nothing was written.
        if (inserted === undefined) {
          const winner = yield* repo.findTransaction(posting.idempotencyKey)
          if (winner === undefined)
            return yield* Effect.die(
              new Error(`ledger: key ${posting.idempotencyKey} conflicted but is absent`),
            )
          return yield* replay(posting, fingerprint, winner)
        }
        const balances = new Map(inserted.balances.map(([id, balance]) => [id, BigInt(balance)] as const))
        if (within !== undefined) yield* within(inserted.id, new Map(balances))
        // The contended rows LAST: a system account (one clearing row per provider and currency,
        // touched by every deposit) is locked by this UPDATE and held only until the commit. Lock
        // order stays global — player accounts by id, then system accounts by id —, so two
        // postings never wait on each other in a cycle.
        for (const id of ids)
          if (!isPlayer(id)) balances.set(id, BigInt(yield* repo.addToBalance(id, deltaOf(id))))
        return { transactionId: inserted.id, replayed: false, balances } satisfies Posted
      })
      return yield* (yield* repo.inTransaction) ? body : repo.transaction(body)
    }).pipe(Effect.withSpan("Ledger.post"))

  const postMany = <E = never, R = never>(
    postings: ReadonlyArray<Posting>,
    options: {
      readonly lock?: ReadonlyArray<string>
      readonly within?: (
        outcomes: ReadonlyArray<BatchOutcome>,
        balances: ReadonlyMap<string, bigint>,
      ) => Effect.Effect<void, E, R>
    } = {},
  ): Effect.Effect<PostedMany, LedgerBatchAborted | SqlError.SqlError | E, R> => {
    const body = Effect.gen(function* () {
      const ids = [
        ...new Set([...postings.flatMap((p) => p.entries.map((e) => e.accountId)), ...(options.lock ?? [])]),
      ].sort()
      const accounts = ids.length === 0 ? [] : yield* repo.lockPlayersReadSystem(ids)
      const byId = new Map(accounts.map((a) => [a.id, a] as const))
      const running = new Map<string, bigint>()
      for (const a of accounts) if (isPlayerKind(a.kind)) running.set(a.id, BigInt(a.balance))
      const systemDeltas = new Map<string, bigint>()
      const playerDeltas = new Map<string, bigint>()
      const decided: Array<
        | { readonly posting: Posting; readonly fingerprint: string; readonly balances: Map<string, bigint> }
        | InsufficientFunds
        | InvalidPosting
      > = []
      for (const posting of postings) {
        const problem = postingProblem(posting)
        if (problem !== undefined) {
          decided.push(new InvalidPosting({ message: problem }))
          continue
        }
        let refusal: InsufficientFunds | InvalidPosting | undefined
        for (const e of posting.entries) {
          const account = byId.get(e.accountId)
          if (account === undefined)
            refusal ??= new InvalidPosting({ message: `no ledger account ${e.accountId}` })
          else if (account.currency !== e.currency)
            refusal ??= new InvalidPosting({
              message: `account ${e.accountId} holds ${account.currency}, not ${e.currency}`,
            })
          else if (isPlayerKind(account.kind) && (running.get(e.accountId) ?? 0n) + e.amount < 0n)
            refusal ??= new InsufficientFunds({
              accountId: e.accountId,
              message: "The balance is too low for this posting.",
            })
        }
        if (refusal !== undefined) {
          decided.push(refusal)
          continue
        }
        const balances = new Map<string, bigint>()
        for (const e of posting.entries) {
          const kind = byId.get(e.accountId)?.kind
          if (kind !== undefined && isPlayerKind(kind)) {
            const after = (running.get(e.accountId) ?? 0n) + e.amount
            running.set(e.accountId, after)
            balances.set(e.accountId, after)
            playerDeltas.set(e.accountId, (playerDeltas.get(e.accountId) ?? 0n) + e.amount)
          } else systemDeltas.set(e.accountId, (systemDeltas.get(e.accountId) ?? 0n) + e.amount)
        }
        decided.push({ posting, fingerprint: fingerprintOf(posting), balances })
      }
      const accepted = decided.flatMap((d) => ("posting" in d ? [d] : []))
      const inserted =
        accepted.length === 0
          ? new Map<string, string>()
          : yield* repo.insertPostings({
              postings: accepted.map((d) => ({
                kind: d.posting.kind,
                idempotencyKey: d.posting.idempotencyKey,
                fingerprint: d.fingerprint,
                metadata: d.posting.metadata ?? {},
                entries: d.posting.entries,
              })),
              playerDeltas: [...playerDeltas].filter(([, delta]) => delta !== 0n),
            })
      const outcomes: Array<BatchOutcome> = []
      for (const d of decided) {
        if (!("posting" in d)) {
          outcomes.push({ _tag: "Refused", error: d })
          continue
        }
        const transactionId = inserted.get(d.posting.idempotencyKey)
        if (transactionId === undefined)
          return yield* new LedgerBatchAborted({
            message: `idempotency key ${d.posting.idempotencyKey} was posted before`,
          })
        outcomes.push({ _tag: "Posted", transactionId, balances: d.balances })
      }
      if (options.within !== undefined) yield* options.within(outcomes, new Map(running))
      // The shared rows last, in id order, once each: held for one UPDATE apiece and the commit.
      for (const id of [...systemDeltas.keys()].sort()) {
        const delta = systemDeltas.get(id) ?? 0n
        if (delta !== 0n) yield* repo.addToBalance(id, delta)
      }
      return { outcomes, balances: running } satisfies PostedMany
    })
    return Effect.gen(function* () {
      return yield* (yield* repo.inTransaction) ? body : repo.transaction(body)
    }).pipe(Effect.withSpan("Ledger.postMany", { attributes: { postings: postings.length } }))
  }

  // System accounts are never deleted and their kind, code and currency never change: their ids
  // are cached per process once committed (saves two statements per deposit).
  const systemIds = new Map<string, string>()
  const systemAccountId = (kind: SystemKind, code: string, currency: string) => {
    const key = `${kind}|${code}|${currency}`
    const known = systemIds.get(key)
    return known !== undefined
      ? Effect.succeed(known)
      : repo.ensureSystemAccount(kind, code, currency).pipe(
          Effect.map(({ id, created }) => {
            // Created by this call: its transaction may still roll back. Cached once seen committed.
            if (!created) systemIds.set(key, id)
            return id
          }),
        )
  }

  const lockBalances = (ids: ReadonlyArray<string>) =>
    repo
      .lockInOrder(ids)
      .pipe(Effect.map((rows) => new Map(rows.map((r) => [r.id, BigInt(r.balance)] as const))))

  return {
    post,
    postMany,
    lockBalances,
    playerAccount: repo.playerAccount,
    bonusAccount: repo.bonusAccount,
    freeSpinsAccount: repo.freeSpinsAccount,
    systemAccount: repo.systemAccount,
    systemAccountId,
  } satisfies LedgerShape
})

export class Ledger extends Context.Service<Ledger, LedgerShape>()("casino/server/Ledger") {
  static readonly layer = Layer.effect(Ledger, make).pipe(Layer.provide(LedgerRepo.layer))
}
