/**
 * The SQL of the support chat (migrations 0076, 0083). Only `Chat` (Chat.ts) calls it; every function
 * fails only with `SqlError`. Message ids (bigserial) cross the boundary as decimal strings.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { ChatAuthor } from "../../services/chat-service.ts"

export interface ConversationRow {
  readonly id: string
  readonly userId: string | null
  readonly visitorTokenHash: string | null
  /** The address (./address.ts) a visitor opened it from; null for a player's. */
  readonly openedFrom: string | null
  readonly status: "open" | "closed"
  readonly assignedOperatorId: string | null
  readonly attributes: Record<string, unknown>
  readonly playerReadId: string
  readonly staffReadId: string
  readonly createdAt: Date | string
  readonly updatedAt: Date | string
}

export interface MessageRow {
  readonly id: string
  readonly conversationId: string
  readonly author: ChatAuthor
  readonly operatorId: string | null
  readonly body: string
  readonly createdAt: Date | string
}

export interface InboxRow {
  readonly id: string
  readonly userId: string | null
  readonly assignedOperatorId: string | null
  readonly attributes: Record<string, unknown>
  readonly updatedAt: Date | string
  /** Player or visitor messages after the staff's read marker. */
  readonly unread: number
  readonly lastBody: string | null
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface ChatRepoShape {
  readonly openForUser: (userId: string) => Sql<ConversationRow | undefined>
  readonly openForVisitor: (tokenHash: string) => Sql<ConversationRow | undefined>
  /** The open conversation of the player, created when there is none (one per player, any race). */
  readonly ensureForUser: (userId: string) => Sql<ConversationRow>
  /** Likewise for a visitor; a new one records the address it is opened from. */
  readonly ensureForVisitor: (tokenHash: string, openedFrom: string) => Sql<ConversationRow>
  /** A visitor's open conversation becomes the player's (false when the player already has one). */
  readonly attachVisitor: (tokenHash: string, userId: string) => Sql<boolean>
  readonly byId: (id: string) => Sql<ConversationRow | undefined>
  readonly messages: (conversationId: string) => Sql<ReadonlyArray<MessageRow>>
  readonly insertMessage: (
    conversationId: string,
    author: ChatAuthor,
    operatorId: string | null,
    body: string,
  ) => Sql<MessageRow>
  /** Moves a read marker forward only (never back), up to the newest message. */
  readonly markPlayerRead: (conversationId: string, lastReadId: string) => Sql<void>
  readonly markStaffRead: (conversationId: string, lastReadId: string) => Sql<void>
  /** Staff messages after the player's read marker. */
  readonly unreadForPlayer: (conversationId: string) => Sql<number>
  readonly setAttributes: (conversationId: string, attributes: Record<string, string>) => Sql<void>
  readonly inbox: () => Sql<ReadonlyArray<InboxRow>>
  readonly assign: (conversationId: string, operatorId: string | null) => Sql<boolean>
  readonly close: (conversationId: string) => Sql<boolean>
  /** The open conversation of the player with this e-mail (the operator endpoint's look-up). */
  readonly openForEmail: (email: string) => Sql<ConversationRow | undefined>
  readonly operatorIdByEmail: (email: string) => Sql<string | undefined>
  /** One message of a conversation (a notification names it by id: its body may not fit). */
  readonly messageById: (conversationId: string, messageId: string) => Sql<MessageRow | undefined>
  /** `pg_notify` on `channel`: inside a transaction PostgreSQL sends it at the commit, else at once. */
  readonly notify: (channel: string, payload: string) => Sql<void>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const conversationCols = sql.literal(`
    id::text AS id, user_id::text AS "userId", visitor_token_hash AS "visitorTokenHash",
    opened_from AS "openedFrom", status,
    assigned_operator_id::text AS "assignedOperatorId", attributes,
    player_read_id::text AS "playerReadId", staff_read_id::text AS "staffReadId",
    created_at AS "createdAt", updated_at AS "updatedAt"
  `)
  const messageCols = sql.literal(`
    id::text AS id, conversation_id::text AS "conversationId", author_kind AS author,
    operator_id::text AS "operatorId", body, created_at AS "createdAt"
  `)

  const first = <A>(rows: ReadonlyArray<A>): A | undefined => rows[0]
  const one =
    <A>(what: string) =>
    (rows: ReadonlyArray<A>) =>
      rows[0] === undefined ? Effect.die(new Error(`chat: ${what} returned no row`)) : Effect.succeed(rows[0])

  const openForUser = (userId: string) =>
    sql<ConversationRow>`
      SELECT ${conversationCols} FROM chat_conversations WHERE user_id = ${userId} AND status = 'open'
    `.pipe(Effect.map(first))

  const openForVisitor = (tokenHash: string) =>
    sql<ConversationRow>`
      SELECT ${conversationCols} FROM chat_conversations
      WHERE visitor_token_hash = ${tokenHash} AND user_id IS NULL AND status = 'open'
    `.pipe(Effect.map(first))

  // Two devices sending at once: the partial unique index lets one insert win, the other reads it.
  const ensureForUser = (userId: string) =>
    sql`
      INSERT INTO chat_conversations (user_id) VALUES (${userId})
      ON CONFLICT (user_id) WHERE status = 'open' AND user_id IS NOT NULL DO NOTHING
    `.pipe(
      Effect.andThen(openForUser(userId)),
      Effect.flatMap((row) => one<ConversationRow>("ensureForUser")(row === undefined ? [] : [row])),
    )

  const ensureForVisitor = (tokenHash: string, openedFrom: string) =>
    sql`
      INSERT INTO chat_conversations (visitor_token_hash, opened_from) VALUES (${tokenHash}, ${openedFrom})
      ON CONFLICT (visitor_token_hash) WHERE status = 'open' AND visitor_token_hash IS NOT NULL DO NOTHING
    `.pipe(
      Effect.andThen(openForVisitor(tokenHash)),
      Effect.flatMap((row) => one<ConversationRow>("ensureForVisitor")(row === undefined ? [] : [row])),
    )

  const attachVisitor = (tokenHash: string, userId: string) =>
    sql<{ readonly id: string }>`
      UPDATE chat_conversations SET user_id = ${userId}, updated_at = now()
      WHERE visitor_token_hash = ${tokenHash} AND user_id IS NULL AND status = 'open'
        AND NOT EXISTS (
          SELECT 1 FROM chat_conversations o WHERE o.user_id = ${userId} AND o.status = 'open'
        )
      RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows.length > 0))

  const byId = (id: string) =>
    sql<ConversationRow>`SELECT ${conversationCols} FROM chat_conversations WHERE id = ${id}`.pipe(
      Effect.map(first),
    )

  const messages = (conversationId: string) =>
    sql<MessageRow>`
      SELECT ${messageCols} FROM chat_messages WHERE conversation_id = ${conversationId} ORDER BY id
    `

  const insertMessage = (
    conversationId: string,
    author: ChatAuthor,
    operatorId: string | null,
    body: string,
  ) =>
    sql.withTransaction(
      Effect.gen(function* () {
        const rows = yield* sql<MessageRow>`
          INSERT INTO chat_messages (conversation_id, author_kind, operator_id, body)
          VALUES (${conversationId}, ${author}, ${operatorId}, ${body})
          RETURNING ${messageCols}
        `
        yield* sql`UPDATE chat_conversations SET updated_at = now() WHERE id = ${conversationId}`
        return yield* one<MessageRow>("insertMessage")(rows)
      }),
    )

  const markPlayerRead = (conversationId: string, lastReadId: string) =>
    sql`
      UPDATE chat_conversations SET player_read_id = GREATEST(player_read_id, LEAST(${lastReadId}::bigint,
        (SELECT coalesce(max(id), 0) FROM chat_messages WHERE conversation_id = ${conversationId})))
      WHERE id = ${conversationId}
    `.pipe(Effect.asVoid)

  const markStaffRead = (conversationId: string, lastReadId: string) =>
    sql`
      UPDATE chat_conversations SET staff_read_id = GREATEST(staff_read_id, LEAST(${lastReadId}::bigint,
        (SELECT coalesce(max(id), 0) FROM chat_messages WHERE conversation_id = ${conversationId})))
      WHERE id = ${conversationId}
    `.pipe(Effect.asVoid)

  const unreadForPlayer = (conversationId: string) =>
    sql<{ readonly unread: number }>`
      SELECT count(*)::int AS unread FROM chat_messages m
      JOIN chat_conversations c ON c.id = m.conversation_id
      WHERE c.id = ${conversationId} AND m.id > c.player_read_id
        AND m.author_kind IN ('operator', 'system')
    `.pipe(Effect.map((rows) => rows[0]?.unread ?? 0))

  const setAttributes = (conversationId: string, attributes: Record<string, string>) =>
    sql`
      UPDATE chat_conversations SET attributes = ${JSON.stringify(attributes)}::jsonb, updated_at = now()
      WHERE id = ${conversationId}
    `.pipe(Effect.asVoid)

  const inbox = () =>
    sql<InboxRow>`
      SELECT c.id::text AS id, c.user_id::text AS "userId", c.assigned_operator_id::text AS "assignedOperatorId",
             c.attributes, c.updated_at AS "updatedAt",
             (SELECT count(*)::int FROM chat_messages m
               WHERE m.conversation_id = c.id AND m.id > c.staff_read_id
                 AND m.author_kind IN ('player', 'visitor')) AS unread,
             (SELECT m.body FROM chat_messages m WHERE m.conversation_id = c.id
               ORDER BY m.id DESC LIMIT 1) AS "lastBody"
      FROM chat_conversations c
      WHERE c.status = 'open'
        AND EXISTS (SELECT 1 FROM chat_messages m WHERE m.conversation_id = c.id)
      ORDER BY c.updated_at DESC
      LIMIT 500
    `

  const assign = (conversationId: string, operatorId: string | null) =>
    sql<{ readonly id: string }>`
      UPDATE chat_conversations SET assigned_operator_id = ${operatorId}, updated_at = now()
      WHERE id = ${conversationId} RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows.length > 0))

  const close = (conversationId: string) =>
    sql<{ readonly id: string }>`
      UPDATE chat_conversations SET status = 'closed', updated_at = now()
      WHERE id = ${conversationId} AND status = 'open' RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows.length > 0))

  const openForEmail = (email: string) =>
    sql<ConversationRow>`
      SELECT ${conversationCols} FROM chat_conversations
      WHERE status = 'open' AND user_id = (SELECT id FROM users WHERE lower(email) = lower(${email}))
    `.pipe(Effect.map(first))

  const operatorIdByEmail = (email: string) =>
    sql<{ readonly id: string }>`
      SELECT id::text AS id FROM backoffice_operators WHERE lower(email) = lower(${email}) AND NOT disabled
    `.pipe(Effect.map((rows) => rows[0]?.id))

  const messageById = (conversationId: string, messageId: string) =>
    sql<MessageRow>`
      SELECT ${messageCols} FROM chat_messages WHERE id = ${messageId} AND conversation_id = ${conversationId}
    `.pipe(Effect.map(first))

  const notify = (channel: string, payload: string) =>
    sql`SELECT pg_notify(${channel}, ${payload})`.pipe(Effect.asVoid)

  return ChatRepo.of({
    messageById,
    notify,
    openForEmail,
    operatorIdByEmail,
    openForUser,
    openForVisitor,
    ensureForUser,
    ensureForVisitor,
    attachVisitor,
    byId,
    messages,
    insertMessage,
    markPlayerRead,
    markStaffRead,
    unreadForPlayer,
    setAttributes,
    inbox,
    assign,
    close,
  })
})

export class ChatRepo extends Context.Service<ChatRepo, ChatRepoShape>()("casino/server/ChatRepo") {
  static readonly layer = Layer.effect(ChatRepo, make)
}
