/**
 * The support chat's live events (docs/chat.md), for the player's stream and the back office's inbox,
 * whichever server process wrote the change.
 *
 * On PostgreSQL every process LISTENs on `chat_events` and `publish` is a NOTIFY sent once the
 * writer's transaction has committed; each process fans what it hears out to its own streams through
 * an in-process PubSub. The publishing process hears its own NOTIFY like the others and does not
 * publish locally as well, so each stream gets every event once. A message's body (2,000 characters,
 * up to six bytes each once JSON-escaped) may not fit NOTIFY's 8,000-byte payload, so a notification
 * names the message by id and each listening process reads it back.
 *
 * On the embedded PGlite there is one process (one per data folder) and a single pooled connection,
 * which a LISTEN would hold forever: `publish` goes to the in-process PubSub, after the commit too.
 * Events are hints either way: the widget and the inbox re-read when their stream (re)opens.
 */
import { Effect, PubSub, Schema, type Scope, Stream } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { listenForever } from "../../lib/db/listen.ts"
import { type ChatEvent, type ChatMessage, MessageId } from "../../services/chat-service.ts"
import { AppConfig } from "../config.ts"
import { ChatRepo } from "./ChatRepo.ts"

export const CHAT_CHANNEL = "chat_events"

/** An event and the owner key (`user:<id>` / `visitor:<hash>`) whose stream it belongs to. */
export interface ChatEnvelope {
  readonly owner: string
  readonly event: ChatEvent
}

/** What crosses NOTIFY: ids only (a few hundred bytes at most). */
const Notice = Schema.Union([
  Schema.Struct({
    owner: Schema.String,
    type: Schema.Literal("message"),
    conversationId: Schema.String,
    messageId: MessageId,
  }),
  Schema.Struct({ owner: Schema.String, type: Schema.Literal("closed"), conversationId: Schema.String }),
])
type Notice = typeof Notice.Type
const decodeNotice = Schema.decodeUnknownOption(Schema.fromJsonString(Notice))

const noticeOf = ({ owner, event }: ChatEnvelope): Notice =>
  event.type === "message"
    ? { owner, type: "message", conversationId: event.conversationId, messageId: event.message.id }
    : { owner, type: "closed", conversationId: event.conversationId }

export interface ChatEventsShape {
  /** Delivers the event once the caller's transaction commits (at once outside one); never fails. */
  readonly publish: (envelope: ChatEnvelope) => Effect.Effect<void>
  /** Every conversation's events from now (subscribed in the caller's scope), as a stream. */
  readonly subscribe: Effect.Effect<Stream.Stream<ChatEnvelope>, never, Scope.Scope>
  /** Whether delivery crosses processes (PostgreSQL LISTEN/NOTIFY) or stays in this one (PGlite). */
  readonly mode: "notify" | "in-process"
}

/**
 * Built by `Chat` (its layer's scope holds the listener). `loadMessage` reads a notified message
 * back as the stream sends it; undefined when it is gone.
 */
export const makeChatEvents = (
  loadMessage: (
    conversationId: string,
    messageId: string,
  ) => Effect.Effect<ChatMessage | undefined, SqlError.SqlError>,
) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ChatRepo
    const hub = yield* PubSub.unbounded<ChatEnvelope>()
    const crossProcess = config.databaseUrl !== undefined

    const eventOf = (notice: Notice): Effect.Effect<ChatEvent | undefined, SqlError.SqlError> =>
      notice.type === "closed"
        ? Effect.succeed({ type: "closed", conversationId: notice.conversationId })
        : loadMessage(notice.conversationId, notice.messageId).pipe(
            Effect.map((message) =>
              message === undefined
                ? undefined
                : { type: "message", conversationId: notice.conversationId, message },
            ),
          )

    if (crossProcess)
      yield* listenForever(CHAT_CHANNEL, (payload) => {
        const notice = decodeNotice(payload)
        if (notice._tag === "None") return Effect.void
        return eventOf(notice.value).pipe(
          Effect.flatMap((event) =>
            event === undefined ? Effect.void : PubSub.publish(hub, { owner: notice.value.owner, event }),
          ),
          Effect.asVoid,
          // One unreadable message must not stop the listener: the stream's re-read covers it.
          Effect.catchCause((cause) => Effect.logWarning("chat event not delivered", cause)),
        )
      })

    const deliver = (envelope: ChatEnvelope) =>
      crossProcess
        ? repo
            .notify(CHAT_CHANNEL, JSON.stringify(noticeOf(envelope)))
            .pipe(Effect.catchCause((cause) => Effect.logWarning("chat event NOTIFY failed", cause)))
        : PubSub.publish(hub, envelope).pipe(Effect.asVoid)

    return {
      // After the commit: a listener reading the message back must find it, and a rolled-back
      // change pushes nothing.
      publish: (envelope) => sql.afterCommit(deliver(envelope)),
      subscribe: Effect.map(PubSub.subscribe(hub), Stream.fromSubscription),
      mode: crossProcess ? "notify" : "in-process",
    } satisfies ChatEventsShape
  })
