/**
 * Pushes to a player's open pages (`GET /api/events`, server-sent events of `PlayerEvent`).
 *
 * Several server processes serve the same players, so an event raised in one process (a webhook
 * credited there) must reach a page streaming from another: on PostgreSQL every process LISTENs on
 * the channel `player_events` and `publish` is a NOTIFY (payload `{ userId, event }`); each process
 * fans notifications out to its own streams through an in-process PubSub.
 *
 * On the embedded PGlite there is one process by construction (one per data folder) and a single
 * pooled connection, which a LISTEN would hold forever: there `publish` goes straight to the
 * in-process PubSub. Pushes are hints — the client also polls the fund (spec: every 15 s) — so an
 * event lost in a crash between the commit and the NOTIFY costs at most one poll interval.
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, PubSub, Schema, type Scope, Stream } from "effect"
import { listenForever } from "../../lib/db/listen.ts"
import { PlayerEvent } from "../../services/wallet-service.ts"
import { AppConfig } from "../config.ts"

export const CHANNEL = "player_events"

const Envelope = Schema.Struct({ userId: Schema.String, event: PlayerEvent })
type Envelope = typeof Envelope.Type
const decodeEnvelope = Schema.decodeUnknownOption(Schema.fromJsonString(Envelope))

export interface PlayerEventsShape {
  readonly publish: (userId: string, event: PlayerEvent) => Effect.Effect<void>
  /** Many events at once: on PostgreSQL one statement for all their NOTIFYs. */
  readonly publishMany: (
    events: ReadonlyArray<{ readonly userId: string; readonly event: PlayerEvent }>,
  ) => Effect.Effect<void>
  /** The events of one player, from the moment the stream starts. */
  readonly stream: (userId: string) => Stream.Stream<PlayerEvent>
  /** The events of one player from now (subscribed in the caller's scope), as a stream. */
  readonly subscribe: (userId: string) => Effect.Effect<Stream.Stream<PlayerEvent>, never, Scope.Scope>
  /** Whether delivery crosses processes (PostgreSQL LISTEN/NOTIFY) or stays in this one (PGlite). */
  readonly mode: "notify" | "in-process"
}

export class PlayerEvents extends Context.Service<PlayerEvents, PlayerEventsShape>()(
  "casino/server/PlayerEvents",
) {
  static readonly layer = Layer.effect(
    PlayerEvents,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const pg = yield* PgClient.PgClient
      const hub = yield* PubSub.unbounded<Envelope>()
      const crossProcess = config.databaseUrl !== undefined

      if (crossProcess)
        // One listener per process, for the server's lifetime (a lost connection is retried).
        yield* listenForever(CHANNEL, (payload) => {
          const decoded = decodeEnvelope(payload)
          return decoded._tag === "Some"
            ? PubSub.publish(hub, decoded.value).pipe(Effect.asVoid)
            : Effect.void
        })

      const publish = (userId: string, event: PlayerEvent) => {
        const envelope: Envelope = { userId, event }
        return crossProcess
          ? pg
              .notify(CHANNEL, JSON.stringify(envelope))
              .pipe(Effect.catchCause((cause) => Effect.logWarning("player event NOTIFY failed", cause)))
          : PubSub.publish(hub, envelope).pipe(Effect.asVoid)
      }

      const publishMany: PlayerEventsShape["publishMany"] = (events) => {
        if (events.length === 1 && events[0] !== undefined) return publish(events[0].userId, events[0].event)
        const envelopes: ReadonlyArray<Envelope> = events
        return crossProcess
          ? pg`SELECT pg_notify(${CHANNEL}, value) FROM jsonb_array_elements_text(${JSON.stringify(
              envelopes.map((e) => JSON.stringify(e)),
            )}::jsonb)`.pipe(
              Effect.asVoid,
              Effect.catchCause((cause) => Effect.logWarning("player events NOTIFY failed", cause)),
            )
          : PubSub.publishAll(hub, envelopes).pipe(Effect.asVoid)
      }

      const ofPlayer = (userId: string) => (envelopes: Stream.Stream<Envelope>) =>
        envelopes.pipe(
          Stream.filter((e) => e.userId === userId),
          Stream.map((e) => e.event),
        )
      const stream = (userId: string) => ofPlayer(userId)(Stream.fromPubSub(hub))
      const subscribe = (userId: string) =>
        Effect.map(PubSub.subscribe(hub), (s) => ofPlayer(userId)(Stream.fromSubscription(s)))

      return {
        publish,
        publishMany,
        stream,
        subscribe,
        mode: crossProcess ? "notify" : "in-process",
      } satisfies PlayerEventsShape
    }),
  )
}
