/**
 * `GET /api/events`: the signed-in player's push stream (server-sent events). Each `PlayerEvent` is
 * an SSE event named by its `type` with the JSON as `data`; a comment line every 25 s keeps proxies
 * from closing an idle stream. 401 JSON without a session. Not compressed (the edge never
 * compresses `text/event-stream`) and never cached.
 */
import { Duration, Effect, Layer, type Scope, Stream } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Lifecycle, type LifecycleShape } from "../lifecycle/Lifecycle.ts"
import { streamOpened } from "../metrics/registry.ts"
import { requireSession } from "../users/auth.ts"
import { Sessions } from "../users/Sessions.ts"
import { PlayerEvents } from "./PlayerEvents.ts"

export const EVENTS_PATH = "/api/events"
export const HEARTBEAT = Duration.seconds(25)
/**
 * What a stream says when its server begins to drain, before it ends: reconnect in half a second
 * (EventSource's own `retry` field), which through the proxy reaches a node that stays.
 */
export const DRAIN_RECONNECT = "retry: 500\n\n"

/**
 * A server-sent event response (the player's, the chat's and the inbox's streams): each event named
 * by its `type` with its JSON as `data`, a comment every 25 s. The first chunk, `: connected`, goes
 * out once `subscribe` has subscribed, so whatever is published after a client saw it reaches that
 * client (tests and the widget's re-read rely on it). When the server begins to drain, the stream
 * sends the reconnect hint and ends: the browser's EventSource opens it again on another node.
 */
export const eventStreamResponse = <A extends { readonly type: string }>(
  lifecycle: LifecycleShape,
  subscribe: Effect.Effect<Stream.Stream<A>, never, Scope.Scope>,
  options: {
    /** Every heartbeat; 25 s when absent. */
    readonly heartbeat?: Duration.Duration
    /** Asked at each heartbeat: false ends the stream (a session that ended since it opened). */
    readonly stillOpen?: Effect.Effect<boolean>
  } = {},
) => {
  const ticks = Stream.tick(options.heartbeat ?? HEARTBEAT)
  const stillOpen = options.stillOpen
  const heartbeats = (
    stillOpen === undefined ? ticks : ticks.pipe(Stream.takeWhileEffect(() => stillOpen))
  ).pipe(Stream.map(() => ": heartbeat\n\n"))
  const body = Stream.unwrap(
    Effect.gen(function* () {
      // Counted as open (`sse_streams_open`) for as long as the stream's scope: it ends with the
      // stream, whether the client left, the session ended or the server is stopping.
      yield* Effect.acquireRelease(Effect.sync(streamOpened), (closed) => Effect.sync(closed))
      const pushes = yield* subscribe
      // The first chunk opens the stream at once (the browser's EventSource fires `open`).
      const live = Stream.merge(
        pushes.pipe(Stream.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)),
        heartbeats,
        // Heartbeats end only when `stillOpen` says so; the pushes never end on their own.
        { haltStrategy: "either" },
      )
      // The drain interrupts the live part; the hint is then appended (not raced with it), so it is
      // always the stream's last words when the server drains.
      return Stream.make(": connected\n\n").pipe(
        Stream.concat(live.pipe(Stream.interruptWhen(lifecycle.draining))),
        Stream.concat(
          Stream.suspend(() => (lifecycle.isDraining() ? Stream.make(DRAIN_RECONNECT) : Stream.empty)),
        ),
      )
    }),
  ).pipe(Stream.encodeText)
  return HttpServerResponse.stream(body, {
    contentType: "text/event-stream",
    headers: { "cache-control": "no-store", "x-accel-buffering": "no", connection: "keep-alive" },
  })
}

export const eventRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const sessions = yield* Sessions
    const events = yield* PlayerEvents
    const lifecycle = yield* Lifecycle
    const handler = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const session = yield* requireSession(sessions, request).pipe(Effect.result)
      if (session._tag === "Failure")
        return HttpServerResponse.jsonUnsafe(
          { _tag: "Unauthenticated", message: session.failure.message },
          { status: 401, headers: { "cache-control": "no-store" } },
        )
      return eventStreamResponse(lifecycle, events.subscribe(session.success.user.id))
    })
    return HttpRouter.add("GET", EVENTS_PATH, handler)
  }),
)

export const eventEndpoints = [{ method: "GET", path: EVENTS_PATH }] as const
