/**
 * Batched settlement of deposit completions (docs/ledger.md#batched-settlement-game-wallet, the
 * same design as the game wallet's): `payment.completed` webhooks that arrive while the previous
 * batch is being written settle together in ONE transaction — BEGIN; lock the deposits and read
 * their events and wallets (one statement); the ledger's `postMany` (players, then the postings in
 * one statement); the deposits' completions and event records (one statement); the providers'
 * clearing rows last; COMMIT — then one NOTIFY for every push.
 *
 * The batch settles only the plain case: the deposit exists, its event is new, provider, amount and
 * currency match, and it is initiated or pending. Anything else (a replay, a mismatch, a late or
 * repeated completion) is handed, untouched, to the one-event path (Deposits.ts) after the commit;
 * and if the batch's transaction fails at all (a deadlock, an event recorded meanwhile) every event
 * of it goes that way, each in its own transaction. Nothing is acknowledged before its commit.
 */
import { Deferred, Effect, type Scope } from "effect"
import type { SqlError } from "effect/sql"
import { makeBatcher, type Pending } from "../../lib/batcher.ts"
import type { PlayerEvent } from "../../services/wallet-service.ts"
import type { LedgerShape, Posting } from "../ledger/Ledger.ts"
import type { DepositRow, DepositsRepoShape } from "./DepositsRepo.ts"

/** What the batch reads of a payment event (the protocol's, whose reference is a deposit id). */
export interface CompletionEvent {
  readonly id: string
  readonly type: string
  readonly reference: string
  readonly amount: string
  readonly currency: string
  readonly paymentId: string
}

export interface CompletionJob<E extends CompletionEvent> {
  readonly provider: string
  readonly event: E
  /** SHA-256 of the raw body, kept with the event record (a replay with other bytes is 409). */
  readonly hash: string
}

export interface DepositAnswer {
  readonly status: number
  readonly body: Readonly<Record<string, unknown>>
}

/** Webhooks a batch takes at most. */
const MAX_BATCH = 400

export const makeDepositBatcher = <E extends CompletionEvent>(deps: {
  readonly repo: DepositsRepoShape
  readonly ledger: LedgerShape
  readonly clearingOf: (provider: string, currency: string) => Effect.Effect<string, SqlError.SqlError>
  /** The answer to a settled webhook. */
  readonly received: DepositAnswer
  /** The pushes of a completed deposit whose player now has `balance`. */
  readonly pushesOf: (
    deposit: DepositRow,
    balance: bigint,
  ) => ReadonlyArray<{ readonly userId: string; readonly event: PlayerEvent }>
  /** The one-event path, its pushes included. Never fails. */
  readonly single: (job: CompletionJob<E>) => Effect.Effect<DepositAnswer>
  readonly publish: (
    pushes: ReadonlyArray<{ readonly userId: string; readonly event: PlayerEvent }>,
  ) => Effect.Effect<void>
}): Effect.Effect<
  { readonly submit: (job: CompletionJob<E>) => Effect.Effect<DepositAnswer> },
  never,
  Scope.Scope
> =>
  Effect.gen(function* () {
    /** Settles the plain cases; answers, per job, its pushes, or undefined: the one-event path's. */
    const settle = (jobs: ReadonlyArray<CompletionJob<E>>) =>
      deps.repo.transaction(
        Effect.gen(function* () {
          const rows = yield* deps.repo.lockMany(
            jobs.map((j) => ({ depositId: j.event.reference, provider: j.provider, eventId: j.event.id })),
          )
          const plain: Array<{
            readonly index: number
            readonly deposit: DepositRow
            readonly accountId: string
            readonly posting: Posting
          }> = []
          for (const [index, job] of jobs.entries()) {
            const row = rows[index]
            const deposit = row?.deposit
            if (
              row === undefined ||
              deposit === undefined ||
              row.eventSeen ||
              row.bonusCandidate ||
              row.accountId === undefined ||
              deposit.provider !== job.provider ||
              deposit.amount !== job.event.amount ||
              deposit.currency !== job.event.currency ||
              (deposit.status !== "initiated" && deposit.status !== "pending")
            )
              continue
            const amount = BigInt(deposit.amount)
            plain.push({
              index,
              deposit,
              accountId: row.accountId,
              posting: {
                kind: "deposit",
                idempotencyKey: `deposit:${deposit.id}`,
                entries: [
                  {
                    accountId: yield* deps.clearingOf(job.provider, deposit.currency),
                    currency: deposit.currency,
                    amount: -amount,
                  },
                  { accountId: row.accountId, currency: deposit.currency, amount },
                ],
                metadata: {
                  depositId: deposit.id,
                  provider: job.provider,
                  eventId: job.event.id,
                  paymentId: job.event.paymentId,
                },
              },
            })
          }
          const pushes: Array<
            ReadonlyArray<{ readonly userId: string; readonly event: PlayerEvent }> | undefined
          > = jobs.map(() => undefined)
          if (plain.length === 0) return pushes
          yield* deps.ledger.postMany(
            plain.map((p) => p.posting),
            {
              within: (outcomes) =>
                Effect.gen(function* () {
                  const done = []
                  for (const [k, outcome] of outcomes.entries()) {
                    const p = plain[k]
                    const job = jobs[p?.index ?? -1]
                    // A credit is never refused; if one were, the one-event path reports it.
                    if (p === undefined || job === undefined || outcome._tag !== "Posted") continue
                    done.push({
                      depositId: p.deposit.id,
                      ledgerTransactionId: outcome.transactionId,
                      provider: job.provider,
                      eventId: job.event.id,
                      payloadHash: job.hash,
                      eventType: job.event.type,
                    })
                    pushes[p.index] = deps.pushesOf(p.deposit, outcome.balances.get(p.accountId) ?? 0n)
                  }
                  const recorded = yield* deps.repo.completeMany(done)
                  if (recorded !== done.length)
                    return yield* Effect.fail({
                      _tag: "EventRecorded" as const,
                      message: "an event of the batch was recorded meanwhile",
                    })
                }),
            },
          )
          return pushes
        }),
      )

    const run = (batch: ReadonlyArray<Pending<CompletionJob<E>, DepositAnswer>>) =>
      settle(batch.map((p) => p.job)).pipe(
        Effect.catchCause((cause) =>
          Effect.logWarning(
            `payments: a batch of ${batch.length} webhooks failed; settling them one by one`,
            cause,
          ).pipe(Effect.as(batch.map(() => undefined))),
        ),
        Effect.flatMap((pushes) =>
          Effect.gen(function* () {
            const all: Array<{ readonly userId: string; readonly event: PlayerEvent }> = []
            const later: Array<Effect.Effect<unknown>> = []
            for (const [index, { job, done }] of batch.entries()) {
              const settled = pushes[index]
              if (settled === undefined)
                later.push(deps.single(job).pipe(Effect.flatMap((a) => Deferred.succeed(done, a))))
              else {
                all.push(...settled)
                yield* Deferred.succeed(done, deps.received)
              }
            }
            if (all.length > 0) yield* deps.publish(all)
            if (later.length > 0) yield* Effect.all(later, { concurrency: 8, discard: true })
          }),
        ),
        Effect.withSpan("Deposits.batch", { attributes: { webhooks: batch.length } }),
      )

    return yield* makeBatcher<CompletionJob<E>, DepositAnswer>({
      maxBatch: MAX_BATCH,
      // One event per deposit and per event id in a batch.
      keys: (job) => [`d:${job.event.reference}`, `e:${job.provider}|${job.event.id}`],
      run,
    })
  })
