/**
 * The back office's support inbox (docs/backoffice.md, "Support inbox"): the staff side of the live
 * chat. Conversations and their messages are `Chat`'s (server/chat/Chat.ts), which owns the body
 * rule and pushes every change to the player's stream; this service adds what staff need around it
 * — names, the player's context, the assignment — and writes exactly one `operator_audit` row per
 * change, in the same transaction as the change.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { ConversationPage, ConversationSummary, PlayerContext } from "../../services/backoffice/chat.ts"
import { BadInput, Conflict, NotFound, OperatorNotFound } from "../../services/backoffice/errors.ts"
import type { ChatMessage } from "../../services/chat-service.ts"
import { Chat } from "../chat/Chat.ts"
import { actorFields, OperatorAudit } from "../operator/Audit.ts"
import type { Actor } from "./Backoffice.ts"
import { Players } from "./Players.ts"
import { type SummaryRow, SupportRepo } from "./SupportRepo.ts"

/** How many deposits the context shows. */
const CONTEXT_DEPOSITS = 5

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString()

const labelOf = (row: SummaryRow): string => {
  if (row.userId === null) return "Visitor"
  const named = typeof row.attributes.name === "string" ? row.attributes.name : ""
  return row.playerName || named || row.playerEmail || "Player"
}

export const summaryOf = (row: SummaryRow): ConversationSummary => ({
  id: row.id,
  status: row.status,
  player:
    row.userId === null ? null : { id: row.userId, name: row.playerName ?? "", email: row.playerEmail ?? "" },
  label: labelOf(row),
  assignedOperator:
    row.assignedOperatorId === null
      ? null
      : { id: row.assignedOperatorId, name: row.assignedOperatorName ?? "" },
  unread: row.unread,
  lastBody: row.lastBody,
  lastMessageAt: row.lastMessageAt === null ? null : iso(row.lastMessageAt),
})

export interface SupportShape {
  readonly list: (status: "open" | "closed") => Effect.Effect<ReadonlyArray<ConversationSummary>>
  readonly page: (id: string) => Effect.Effect<ConversationPage, NotFound>
  readonly reply: (
    actor: Actor & { readonly operatorId: string },
    id: string,
    body: string,
  ) => Effect.Effect<ChatMessage & { readonly operatorName: string | null }, BadInput | NotFound | Conflict>
  readonly assign: (
    actor: Actor & { readonly operatorId: string },
    id: string,
    to: string | null,
  ) => Effect.Effect<ConversationSummary, NotFound | OperatorNotFound>
  readonly close: (actor: Actor, id: string) => Effect.Effect<ConversationSummary, NotFound | Conflict>
  readonly markRead: (
    actor: Actor,
    id: string,
    lastReadId: string,
  ) => Effect.Effect<ConversationSummary, NotFound>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const repo = yield* SupportRepo
  const chat = yield* Chat
  const players = yield* Players
  const audit = yield* OperatorAudit

  const notFound = () => new NotFound({ message: "No such conversation." })
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

  const found = (id: string) =>
    (uuid.test(id) ? repo.summary(id.toLowerCase()) : Effect.succeed(undefined)).pipe(
      Effect.orDie,
      Effect.flatMap((row) => (row === undefined ? Effect.fail(notFound()) : Effect.succeed(row))),
    )

  /** The change and its one audit row commit together (a database failure is a logged 500). */
  const audited = <A, E>(
    actor: Actor,
    action: string,
    row: SummaryRow,
    change: Effect.Effect<A, E>,
    after: (result: A) => Effect.Effect<unknown, E>,
    before: unknown,
  ) =>
    sql
      .withTransaction(
        Effect.gen(function* () {
          const result = yield* change
          yield* audit.record({
            ...actorFields(actor),
            action,
            userId: row.userId,
            subject: row.id,
            details: {},
            before,
            after: yield* after(result),
          })
          return result
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))

  const context = (userId: string) =>
    players.page(userId).pipe(
      Effect.map(
        (p): PlayerContext => ({
          id: p.profile.id,
          name: p.profile.fullName,
          email: p.profile.email,
          country: p.profile.country,
          registeredAt: p.profile.registeredAt,
          locked: p.profile.locked !== null,
          kyc: p.profile.kyc,
          wallets: p.wallets,
          deposits: p.deposits.slice(0, CONTEXT_DEPOSITS).map((d) => ({
            id: d.id,
            method: d.method,
            amount: String(d.amount),
            currency: d.currency,
            status: d.status,
            createdAt: String(d.createdAt),
          })),
          bonuses: p.bonuses.bonuses
            .filter((b) => b.status === "active")
            .map((b) => ({
              id: b.id,
              name: b.name,
              currency: b.currency,
              balance: String(b.balance),
              wagered: String(b.wagered),
              wageringRequired: String(b.wageringRequired),
              expiresAt: b.expiresAt,
            })),
        }),
      ),
      Effect.catchTag("PlayerNotFound", () => Effect.succeed(null)),
    )

  const list = Effect.fn("Support.list")(function* (status: "open" | "closed") {
    return (yield* repo.list(status).pipe(Effect.orDie)).map(summaryOf)
  })

  const page = Effect.fn("Support.page")(function* (id: string) {
    const row = yield* found(id)
    const read = yield* chat
      .read(row.id)
      .pipe(Effect.catchTag("ChatConversationNotFound", () => Effect.fail(notFound())))
    const authors = yield* repo.messageAuthors(row.id).pipe(Effect.orDie)
    const byMessage = new Map(authors.map((a) => [a.messageId, a.operatorName]))
    return {
      conversation: summaryOf(row),
      messages: read.messages.map((m) => ({ ...m, operatorName: byMessage.get(m.id) ?? null })),
      context: row.userId === null ? null : yield* context(row.userId),
    } satisfies ConversationPage
  })

  const reply = Effect.fn("Support.reply")(function* (
    actor: Actor & { readonly operatorId: string },
    id: string,
    body: string,
  ) {
    const row = yield* found(id)
    if (row.status !== "open")
      return yield* new Conflict({ message: "This conversation is closed.", reason: "closed" })
    const message = yield* audited(
      actor,
      "chat.reply",
      row,
      chat.reply(row.id, actor.operatorId, body).pipe(
        Effect.catchTags({
          ValidationFailed: (e) => Effect.fail(new BadInput({ message: e.message })),
          ChatConversationNotFound: () => Effect.fail(notFound()),
        }),
      ),
      (m) => Effect.succeed({ messageId: m.id, length: m.body.length }),
      null,
    )
    const name = yield* repo.activeOperator(actor.operatorId).pipe(Effect.orDie)
    return { ...message, operatorName: name?.name ?? null }
  })

  const assign = Effect.fn("Support.assign")(function* (
    actor: Actor & { readonly operatorId: string },
    id: string,
    to: string | null,
  ) {
    const row = yield* found(id)
    const target = to === null ? null : yield* repo.activeOperator(to.toLowerCase()).pipe(Effect.orDie)
    if (to !== null && target === undefined)
      return yield* new OperatorNotFound({ message: "No active operator has this id." })
    const operatorId = target?.id ?? null
    yield* audited(
      actor,
      "chat.assign",
      row,
      chat
        .assign(row.id, operatorId)
        .pipe(Effect.catchTag("ChatConversationNotFound", () => Effect.fail(notFound()))),
      () => Effect.succeed({ assignedOperatorId: operatorId }),
      { assignedOperatorId: row.assignedOperatorId },
    )
    return summaryOf(yield* found(row.id))
  })

  const close = Effect.fn("Support.close")(function* (actor: Actor, id: string) {
    const row = yield* found(id)
    if (row.status !== "open")
      return yield* new Conflict({ message: "This conversation is already closed.", reason: "closed" })
    yield* audited(
      actor,
      "chat.close",
      row,
      chat.close(row.id).pipe(Effect.catchTag("ChatConversationNotFound", () => Effect.fail(notFound()))),
      () => Effect.succeed({ status: "closed" }),
      { status: row.status },
    )
    return summaryOf(yield* found(row.id))
  })

  const markRead = Effect.fn("Support.markRead")(function* (actor: Actor, id: string, lastReadId: string) {
    const row = yield* found(id)
    yield* audited(
      actor,
      "chat.read",
      row,
      chat
        .markStaffRead(row.id, lastReadId)
        .pipe(Effect.catchTag("ChatConversationNotFound", () => Effect.fail(notFound()))),
      () => found(row.id).pipe(Effect.map((r) => ({ staffReadId: r.staffReadId }))),
      { staffReadId: row.staffReadId },
    )
    return summaryOf(yield* found(row.id))
  })

  return Support.of({ list, page, reply, assign, close, markRead })
})

export class Support extends Context.Service<Support, SupportShape>()("casino/server/backoffice/Support") {
  static readonly layer = Layer.effect(Support, make).pipe(Layer.provide(SupportRepo.layer))
}
