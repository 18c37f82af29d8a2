/**
 * The SQL of the back office's support inbox (./Support.ts): the chat tables (migration 0076) read
 * with the player's and the operator's names beside them. Writes go through `Chat` (server/chat/),
 * which owns the rules and the live events; only the inbox's joins live here.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export interface SummaryRow {
  readonly id: string
  readonly status: "open" | "closed"
  readonly userId: string | null
  readonly playerName: string | null
  readonly playerEmail: string | null
  readonly attributes: Record<string, unknown>
  readonly assignedOperatorId: string | null
  readonly assignedOperatorName: string | null
  readonly staffReadId: string
  readonly unread: number
  readonly lastBody: string | null
  readonly lastMessageAt: Date | string | null
}

/** Who wrote an operator message. */
export interface MessageAuthor {
  readonly messageId: string
  readonly operatorName: string
}

export interface OperatorName {
  readonly id: string
  readonly name: string
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface SupportRepoShape {
  /** Open: up to 500 with a message, newest activity first; closed: the latest 100. */
  readonly list: (status: "open" | "closed") => Sql<ReadonlyArray<SummaryRow>>
  readonly summary: (id: string) => Sql<SummaryRow | undefined>
  /** The operator messages of a conversation with their author's name. */
  readonly messageAuthors: (conversationId: string) => Sql<ReadonlyArray<MessageAuthor>>
  /** An active operator (the assign target). */
  readonly activeOperator: (id: string) => Sql<OperatorName | undefined>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const select = sql.literal(`
    SELECT c.id::text AS id, c.status, c.user_id::text AS "userId", u.full_name AS "playerName",
           u.email AS "playerEmail", c.attributes, c.assigned_operator_id::text AS "assignedOperatorId",
           o.name AS "assignedOperatorName", c.staff_read_id::text AS "staffReadId",
           (SELECT count(*)::int FROM chat_messages m
             WHERE m.conversation_id = c.id AND m.id > c.staff_read_id
               AND m.author_kind IN ('player', 'visitor')) AS unread,
           last.body AS "lastBody", last.created_at AS "lastMessageAt"
    FROM chat_conversations c
    LEFT JOIN users u ON u.id = c.user_id
    LEFT JOIN backoffice_operators o ON o.id = c.assigned_operator_id
    LEFT JOIN LATERAL (
      SELECT m.body, m.created_at FROM chat_messages m WHERE m.conversation_id = c.id ORDER BY m.id DESC LIMIT 1
    ) last ON true
  `)

  const list = (status: "open" | "closed") =>
    status === "open"
      ? sql<SummaryRow>`${select} WHERE c.status = 'open' AND last.body IS NOT NULL
          ORDER BY c.updated_at DESC LIMIT 500`
      : sql<SummaryRow>`${select} WHERE c.status = 'closed' ORDER BY c.updated_at DESC LIMIT 100`

  const summary = (id: string) =>
    sql<SummaryRow>`${select} WHERE c.id = ${id}`.pipe(Effect.map((rows) => rows[0]))

  const messageAuthors = (conversationId: string) =>
    sql<MessageAuthor>`
      SELECT m.id::text AS "messageId", o.name AS "operatorName" FROM chat_messages m
      JOIN backoffice_operators o ON o.id = m.operator_id
      WHERE m.conversation_id = ${conversationId}
    `

  const activeOperator = (id: string) =>
    sql<OperatorName>`
      SELECT id::text AS id, name FROM backoffice_operators WHERE id = ${id} AND NOT disabled
    `.pipe(Effect.map((rows) => rows[0]))

  return SupportRepo.of({ list, summary, messageAuthors, activeOperator })
})

export class SupportRepo extends Context.Service<SupportRepo, SupportRepoShape>()(
  "casino/server/backoffice/SupportRepo",
) {
  static readonly layer = Layer.effect(SupportRepo, make)
}
