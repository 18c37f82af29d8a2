/**
 * The studio's outbox (docs/game-studio.md, "A round"): the win and rollback calls that must reach
 * the casino, written in the transaction that decides them (`queue`), sent at once (`deliver`), and
 * retried by the outbox loop (`deliverDue`, server.ts) with backoff 1, 2, 4 … 60 s until the casino
 * acknowledges them: always the same body under the same transaction id, each attempt signed anew
 * (wallet.ts). A win acknowledged settles its round.
 */
import { Effect } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { WalletAnswer } from "./wallet.ts"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>
type Op = "win" | "rollback"

export interface Outbox {
  /** Writes a call to send (inside the caller's transaction); a second write of one id is a no-op. */
  readonly queue: (roundId: string, transactionId: string, op: Op, body: string) => Sql<unknown>
  /** One delivery attempt of a row already written (the `attempts`-th: its backoff if not acknowledged). */
  readonly deliver: (
    transactionId: string,
    op: Op,
    body: string,
    attempts: number,
  ) => Effect.Effect<WalletAnswer, SqlError.SqlError>
  /** Claims the due rows (a 60 s lease, SKIP LOCKED: instances share the work) and sends them; how many were acknowledged. */
  readonly deliverDue: () => Sql<number>
}

export const makeOutbox = (
  sql: SqlClient.SqlClient,
  send: (op: Op, body: string) => Effect.Effect<WalletAnswer>,
): Outbox => {
  const markDelivered = (transactionId: string, answer: Readonly<Record<string, unknown>>) =>
    Effect.gen(function* () {
      const rows = yield* sql<{ op: string; roundId: string }>`
        UPDATE studio_outbox SET delivered_at = now(), answer = ${JSON.stringify(answer)}
        WHERE transaction_id = ${transactionId} AND delivered_at IS NULL
        RETURNING op, round_id::text AS "roundId"`
      const row = rows[0]
      if (row?.op === "win") {
        const jackpot = typeof answer.jackpotAmount === "string" ? answer.jackpotAmount : null
        yield* sql`UPDATE studio_rounds SET status = 'settled', settled_at = now(), jackpot_amount = ${jackpot}::bigint
                   WHERE id = ${row.roundId}::uuid AND status = 'open'`
      }
    })

  const backoffSeconds = (attempts: number) => Math.min(2 ** Math.max(0, attempts - 1), 60)

  const deliver = (transactionId: string, op: Op, body: string, attempts: number) =>
    Effect.gen(function* () {
      const answer = yield* send(op, body)
      if (answer._tag === "Ok") {
        yield* markDelivered(transactionId, answer.body)
        return answer
      }
      const error = answer._tag === "Refused" ? `${answer.status} ${answer.error}` : answer.error
      yield* Effect.logWarning(`game-studio: ${op} ${transactionId} not acknowledged: ${error}`)
      yield* sql`UPDATE studio_outbox SET last_error = ${error},
                   next_attempt_at = now() + make_interval(secs => ${backoffSeconds(attempts)})
                 WHERE transaction_id = ${transactionId} AND delivered_at IS NULL`
      return answer
    })

  const queue = (roundId: string, transactionId: string, op: Op, body: string) =>
    sql`INSERT INTO studio_outbox (transaction_id, round_id, op, body, attempts, next_attempt_at)
        VALUES (${transactionId}, ${roundId}::uuid, ${op}, ${body}, 1, now() + interval '30 seconds')
        ON CONFLICT (transaction_id) DO NOTHING`

  const deliverDue = () =>
    Effect.gen(function* () {
      const due = yield* sql<{
        transactionId: string
        op: Op
        body: string
        attempts: number
      }>`
        UPDATE studio_outbox o SET attempts = o.attempts + 1, next_attempt_at = now() + interval '60 seconds'
        WHERE o.transaction_id IN (
          SELECT transaction_id FROM studio_outbox
          WHERE delivered_at IS NULL AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT 20 FOR UPDATE SKIP LOCKED)
        RETURNING o.transaction_id AS "transactionId", o.op, o.body, o.attempts`
      let acknowledged = 0
      for (const row of due) {
        const a = yield* deliver(row.transactionId, row.op, row.body, row.attempts)
        if (a._tag === "Ok") acknowledged++
      }
      return acknowledged
    })

  return { queue, deliver, deliverDue }
}
