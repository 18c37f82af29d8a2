/**
 * Live mode, visualizer side: what the /statecharts route makes of the `LiveMessage`s player tabs
 * post on the BroadcastChannel. Pure: `applyLiveMessage` folds messages into a `LiveState` (every
 * actor's current states, status, last event and masked context, plus a capped log);
 * `isLiveMessage` checks untrusted channel input against an Effect Schema first. Lives apart from
 * statecharts/live.ts so the schema never reaches the player's initial chunk.
 */
import { Schema } from "effect"
import type { LiveMessage, MaskedContext } from "./types.ts"

export type { LiveMessage } from "./types.ts"

/** How many log entries a `LiveState` keeps (newest last). */
export const LIVE_LOG_LIMIT = 200
/** How many stopped actors a `LiveState` keeps (oldest dropped first); live ones are all kept. */
export const STOPPED_ACTOR_LIMIT = 50

export interface LiveActor {
  /** `liveActorKey(tab, sessionId)`: session ids restart at `x:0` in every tab. */
  readonly key: string
  readonly tab: string
  readonly sessionId: string
  readonly machine: string
  readonly systemId: string | null
  /** The parent's key (same tab), or null for a root actor or when unknown. */
  readonly parent: string | null
  /** Active state node ids, sorted; empty until the first snapshot. */
  readonly stateIds: ReadonlyArray<string>
  /** `active`, `done`, `error` or `stopped`; `active` until the first snapshot says otherwise. */
  readonly status: string
  /** The event type that led to the current snapshot. */
  readonly lastEvent: string | null
  readonly context: MaskedContext
  /** The sender's clock (ms) at the last snapshot or event; 0 before either. */
  readonly updatedAt: number
  /** A "stopped" arrived: the actor is gone (kept for a while so the view can show how it ended). */
  readonly stopped: boolean
}

export interface LiveLogEntry {
  /** Increasing per state (a stable React key). */
  readonly seq: number
  readonly kind: "actor" | "snapshot" | "event" | "stopped"
  readonly actor: string
  readonly tab: string
  readonly sessionId: string
  readonly machine: string
  /** The event type (event and snapshot entries), else null. */
  readonly event: string | null
  /** The states reached (snapshot entries), else null. */
  readonly stateIds: ReadonlyArray<string> | null
  readonly at: number | null
}

export interface LiveState {
  /** By `liveActorKey(tab, sessionId)`, in order of first appearance. */
  readonly actors: ReadonlyMap<string, LiveActor>
  readonly log: ReadonlyArray<LiveLogEntry>
}

export const emptyLiveState: LiveState = { actors: new Map(), log: [] }

/** Session ids are only unique within a tab (each tab's actor system counts from `x:0`). */
export const liveActorKey = (tab: string, sessionId: string): string => `${tab}/${sessionId}`

const fresh = (tab: string, sessionId: string, machine: string): LiveActor => ({
  key: liveActorKey(tab, sessionId),
  tab,
  sessionId,
  machine,
  systemId: null,
  parent: null,
  stateIds: [],
  status: "active",
  lastEvent: null,
  context: {},
  updatedAt: 0,
  stopped: false,
})

const pruneStopped = (actors: Map<string, LiveActor>): void => {
  let stopped = 0
  for (const actor of actors.values()) if (actor.stopped) stopped++
  for (const [key, actor] of actors) {
    if (stopped <= STOPPED_ACTOR_LIMIT) return
    if (actor.stopped) {
      actors.delete(key)
      stopped--
    }
  }
}

/** Folds one message into the state; returns a new state (the input is never changed). */
export const applyLiveMessage = (state: LiveState, message: LiveMessage): LiveState => {
  if (message.type === "hello") return state
  const key = liveActorKey(message.tab, message.sessionId)
  const previous = state.actors.get(key) ?? fresh(message.tab, message.sessionId, message.machine)
  let next: LiveActor
  let entry: Omit<LiveLogEntry, "seq">
  const base = { actor: key, tab: message.tab, sessionId: message.sessionId, machine: message.machine }
  switch (message.type) {
    case "actor":
      next = {
        ...previous,
        machine: message.machine,
        systemId: message.systemId,
        parent: message.parent === null ? null : liveActorKey(message.tab, message.parent),
        stopped: false,
      }
      entry = { ...base, kind: "actor", event: null, stateIds: null, at: null }
      break
    case "snapshot":
      next = {
        ...previous,
        machine: message.machine,
        systemId: message.systemId,
        stateIds: message.stateIds,
        status: message.status,
        lastEvent: message.event,
        context: message.context,
        updatedAt: message.at,
        stopped: message.status === "active" ? false : previous.stopped,
      }
      entry = { ...base, kind: "snapshot", event: message.event, stateIds: message.stateIds, at: message.at }
      break
    case "event":
      next = { ...previous, updatedAt: message.at }
      entry = { ...base, kind: "event", event: message.event, stateIds: null, at: message.at }
      break
    case "stopped":
      next = {
        ...previous,
        status: previous.status === "active" ? "stopped" : previous.status,
        stopped: true,
      }
      entry = { ...base, kind: "stopped", event: null, stateIds: null, at: null }
      break
  }
  const actors = new Map(state.actors)
  actors.set(key, next)
  if (next.stopped) pruneStopped(actors)
  const seq = (state.log.at(-1)?.seq ?? 0) + 1
  const log = [...state.log.slice(-(LIVE_LOG_LIMIT - 1)), { ...entry, seq }]
  return { actors, log }
}

// ── Untrusted input ────────────────────────────────────────────────────────────────────────────
const Id = Schema.String
const At = Schema.Finite

/**
 * The wire shape of `LiveMessage`. Its type equals `LiveMessage` (checked both ways by
 * tests/unit/live-inspection.test.ts with `expectTypeOf`), so the guard below is sound.
 */
export const LiveMessageSchema = Schema.Union([
  Schema.Struct({
    type: Schema.Literal("actor"),
    tab: Id,
    sessionId: Id,
    machine: Id,
    systemId: Schema.NullOr(Id),
    parent: Schema.NullOr(Id),
  }),
  Schema.Struct({
    type: Schema.Literal("snapshot"),
    tab: Id,
    sessionId: Id,
    machine: Id,
    systemId: Schema.NullOr(Id),
    event: Schema.String,
    status: Schema.String,
    stateIds: Schema.Array(Schema.String),
    context: Schema.Record(Schema.String, Schema.String),
    at: At,
  }),
  Schema.Struct({
    type: Schema.Literal("event"),
    tab: Id,
    sessionId: Id,
    machine: Id,
    event: Schema.String,
    at: At,
  }),
  Schema.Struct({ type: Schema.Literal("stopped"), tab: Id, sessionId: Id, machine: Id }),
  Schema.Struct({ type: Schema.Literal("hello") }),
])

const matchesSchema = Schema.is(LiveMessageSchema)

/** Whether a value (e.g. a BroadcastChannel message's `data`) is a well-formed `LiveMessage`. */
export const isLiveMessage = (value: unknown): value is LiveMessage => matchesSchema(value)
