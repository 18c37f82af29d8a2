/**
 * Live mode, player side: a tab opted in with `?statecharts=live` streams what its state machine
 * actors do to the visualizer (another tab, same origin) as `LiveMessage`s. Nothing personal leaves
 * the tab: events go by type only (never their payload), context values by kind only
 * (`maskContext`), errors not at all. Pure and tiny (its own chunk, loaded only in live mode): no
 * DOM globals, no React, no schema library. The visualizer's side is statecharts/live-model.ts.
 */
import type { InspectionEvent } from "xstate"
import type { LiveMessage, MaskedContext } from "./types.ts"

export { LIVE_QUERY_OFF, LIVE_STORAGE_KEY, liveModeRequested } from "./live-flag.ts"

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null

const isActorRef = (value: object): boolean =>
  "sessionId" in value &&
  typeof value.sessionId === "string" &&
  "send" in value &&
  typeof value.send === "function"

/** The kind of a value: `string`, `number`, `boolean`, `null`, `array`, `object`, `actor`, … */
const kindOf = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "array"
  if (isObject(value)) return isActorRef(value) ? "actor" : "object"
  return typeof value
}

/** A context with every top-level value replaced by its kind; anything but a plain object → `{}`. */
export const maskContext = (context: unknown): MaskedContext => {
  const masked: Record<string, string> = {}
  if (!isObject(context) || Array.isArray(context)) return masked
  for (const [key, value] of Object.entries(context)) masked[key] = kindOf(value)
  return masked
}

/** A "hello" from a visualizer (the only message a player tab listens to). */
export const isHelloMessage = (value: unknown): boolean =>
  isObject(value) && "type" in value && value.type === "hello"

type ActorMessage = Extract<LiveMessage, { type: "actor" }>
type SnapshotMessage = Extract<LiveMessage, { type: "snapshot" }>

interface Tracked {
  readonly ref: object
  actor: ActorMessage
  snapshot: SnapshotMessage | null
}

const idOf = (value: object): string | null =>
  "id" in value && typeof value.id === "string" ? value.id : null

const sessionIdOf = (value: object): string | null =>
  "sessionId" in value && typeof value.sessionId === "string" ? value.sessionId : null

/** The machine id when the actor runs a state machine (its logic has a `root` state node), else null. */
const machineIdOf = (ref: object): string | null => {
  const logic: unknown = "logic" in ref ? ref.logic : undefined
  if (!isObject(logic) || !("root" in logic) || !isObject(logic.root)) return null
  return idOf(logic.root)
}

const systemIdOf = (ref: object): string | null => {
  const own = "systemId" in ref && typeof ref.systemId === "string" ? ref.systemId : null
  if (own !== null) return own
  // At `@xstate.actor` time the actor has not registered its systemId yet; its options have it.
  const options: unknown = "options" in ref ? ref.options : undefined
  return isObject(options) && "systemId" in options && typeof options.systemId === "string"
    ? options.systemId
    : null
}

const parentOf = (ref: object): string | null => {
  const parent: unknown = "_parent" in ref ? ref._parent : undefined
  return isObject(parent) ? sessionIdOf(parent) : null
}

const statusOf = (snapshot: unknown): string => {
  const status: unknown = isObject(snapshot) && "status" in snapshot ? snapshot.status : undefined
  return typeof status === "string" ? status : "active"
}

/** Active state node ids (root, compound, parallel and atomic), sorted. */
const stateIdsOf = (snapshot: unknown): ReadonlyArray<string> => {
  const nodes: unknown = isObject(snapshot) && "_nodes" in snapshot ? snapshot._nodes : undefined
  if (!Array.isArray(nodes)) return []
  const ids = new Set<string>()
  for (const node of nodes) {
    const id = isObject(node) ? idOf(node) : null
    if (id !== null) ids.add(id)
  }
  return [...ids].sort()
}

const contextOf = (snapshot: unknown): unknown =>
  isObject(snapshot) && "context" in snapshot ? snapshot.context : undefined

export interface LiveInspector {
  /** Pass as `createActor(logic, { inspect })` on the root actor: it sees the whole system. */
  readonly inspect: (event: InspectionEvent) => void
  /** Re-posts the latest "actor" and "snapshot" of every live machine actor (answers a "hello"). */
  readonly replay: () => void
  /** Posts "stopped" for every live actor (the tab is going away) and forgets them. */
  readonly stopAll: () => void
}

export const createLiveInspector = (options: {
  readonly tab: string
  readonly post: (message: LiveMessage) => void
  readonly now?: () => number
}): LiveInspector => {
  const { tab, post } = options
  const now = options.now ?? Date.now
  const live = new Map<string, Tracked>()

  const track = (ref: object, sessionId: string): Tracked | null => {
    const known = live.get(sessionId)
    if (known) return known
    const machine = machineIdOf(ref)
    if (machine === null) return null
    const actor: ActorMessage = {
      type: "actor",
      tab,
      sessionId,
      machine,
      systemId: systemIdOf(ref),
      parent: parentOf(ref),
    }
    const tracked: Tracked = { ref, actor, snapshot: null }
    live.set(sessionId, tracked)
    post(actor)
    return tracked
  }

  const stop = (tracked: Tracked): void => {
    live.delete(tracked.actor.sessionId)
    post({ type: "stopped", tab, sessionId: tracked.actor.sessionId, machine: tracked.actor.machine })
  }

  const handle = (event: InspectionEvent): void => {
    const ref: object = event.actorRef
    const sessionId = event.actorRef.sessionId
    switch (event.type) {
      case "@xstate.actor":
        track(ref, sessionId)
        return
      case "@xstate.snapshot": {
        const tracked = track(ref, sessionId)
        if (tracked === null) return
        const systemId = systemIdOf(ref) ?? tracked.actor.systemId
        if (systemId !== tracked.actor.systemId) tracked.actor = { ...tracked.actor, systemId }
        const status = statusOf(event.snapshot)
        const snapshot: SnapshotMessage = {
          type: "snapshot",
          tab,
          sessionId,
          machine: tracked.actor.machine,
          systemId,
          event: event.event.type,
          status,
          stateIds: stateIdsOf(event.snapshot),
          context: maskContext(contextOf(event.snapshot)),
          at: now(),
        }
        tracked.snapshot = snapshot
        post(snapshot)
        if (status !== "active") stop(tracked)
        return
      }
      case "@xstate.event": {
        const tracked = live.get(sessionId)
        if (tracked === undefined) return
        post({
          type: "event",
          tab,
          sessionId,
          machine: tracked.actor.machine,
          event: event.event.type,
          at: now(),
        })
        return
      }
      default:
        return
    }
  }

  return {
    inspect: (event) => {
      // The inspector must never break the app it observes.
      try {
        handle(event)
      } catch {
        // ignored: a message that cannot be built or posted is dropped
      }
    },
    replay: () => {
      for (const tracked of [...live.values()]) {
        // An actor can end without a snapshot event (an exception inside a transition).
        const current: unknown = "getSnapshot" in tracked.ref ? tracked.ref.getSnapshot : undefined
        const status = typeof current === "function" ? statusOf(current.call(tracked.ref)) : "active"
        if (status !== "active") {
          stop(tracked)
          continue
        }
        post(tracked.actor)
        if (tracked.snapshot) post(tracked.snapshot)
      }
    },
    stopAll: () => {
      for (const tracked of [...live.values()]) stop(tracked)
    },
  }
}
