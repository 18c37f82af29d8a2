/**
 * The back office's session actor for its views, and the per-screen machines as hooks: a screen's
 * data (`useResource`), one change an operator makes (`useAction`), and the support inbox's live
 * stream (`useInboxStream`, whose changes a screen's data follows with `useInboxChanges`). A machine
 * that ends in `signedOut` (a 401) hands over to the session machine.
 */
import { useActor, useSelector } from "@xstate/react"
import type { Effect } from "effect"
import { createContext, type ReactNode, useCallback, useContext, useEffect } from "react"
import type { ActorRefFrom, SnapshotFrom } from "xstate"
import { actionMachine } from "../../machines/backoffice/backofficeAction.machine.ts"
import { resourceMachine } from "../../machines/backoffice/backofficeResource.machine.ts"
import type { sessionMachine } from "../../machines/backoffice/backofficeSession.machine.ts"
import { concerns, streamMachine } from "../../machines/backoffice/backofficeStream.machine.ts"
import { sessionClient } from "../../services/backoffice/clients/session.ts"
import { fromEffect } from "../../services/bridge.ts"

export type SessionActor = ActorRefFrom<typeof sessionMachine>
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>

const SessionContext = createContext<SessionActor | null>(null)

export const SessionProvider = ({ actor, children }: { actor: SessionActor; children: ReactNode }) => (
  <SessionContext.Provider value={actor}>{children}</SessionContext.Provider>
)

export const useSessionActor = (): SessionActor => {
  const actor = useContext(SessionContext)
  if (!actor) throw new Error("useSessionActor outside SessionProvider")
  return actor
}

export const useSession = <T,>(selector: (snapshot: SessionSnapshot) => T): T =>
  useSelector(useSessionActor(), selector)

/** Tells the session machine when a screen's call was answered 401. */
const useEndsSession = (signedOut: boolean): void => {
  const session = useSessionActor()
  useEffect(() => {
    if (signedOut) session.send({ type: "SESSION_ENDED" })
  }, [signedOut, session])
}

export interface Resource<A> {
  readonly data: A | null
  readonly error: string | null
  readonly loading: boolean
  readonly refreshing: boolean
  readonly failed: boolean
  readonly refresh: () => void
  readonly retry: () => void
  readonly reload: (load: () => Effect.Effect<A, unknown>) => void
}

export const useResource = <A,>(
  load: () => Effect.Effect<A, unknown>,
  pollMs: number | null = null,
): Resource<A> => {
  const [snapshot, send] = useActor(resourceMachine, { input: { load, pollMs } })
  useEndsSession(snapshot.matches("signedOut"))
  const refresh = useCallback(() => send({ type: "REFRESH" }), [send])
  return {
    // The machine stores what `load` answered: an `A` by construction.
    data: snapshot.context.data as A | null,
    error: snapshot.context.error,
    loading: snapshot.matches("loading"),
    refreshing: snapshot.matches({ ready: "refreshing" }),
    failed: snapshot.matches("failed"),
    refresh,
    retry: () => send({ type: "RETRY" }),
    reload: (next) => send({ type: "LOAD", load: next }),
  }
}

export interface Action {
  readonly state: "idle" | "editing" | "submitting" | "done" | "failed"
  readonly result: unknown
  readonly error: string | null
  readonly open: () => void
  readonly cancel: () => void
  readonly dismiss: () => void
  readonly submit: (run: () => Effect.Effect<unknown, unknown>, reason?: string) => void
}

/** `onChanged`: what the screen reloads once a change is made (the machine emits `changed`). */
export const useAction = (onChanged?: () => void): Action => {
  const [snapshot, send, actor] = useActor(actionMachine)
  useEndsSession(snapshot.matches("signedOut"))
  useEffect(() => {
    if (onChanged === undefined) return
    const subscription = actor.on("changed", onChanged)
    return () => subscription.unsubscribe()
  }, [actor, onChanged])
  const value = snapshot.value
  return {
    state: value === "signedOut" ? "idle" : value,
    result: snapshot.context.result,
    error: snapshot.context.error,
    open: () => send({ type: "OPEN" }),
    cancel: () => send({ type: "CANCEL" }),
    dismiss: () => send({ type: "DISMISS" }),
    submit: (run, reason) =>
      send(reason === undefined ? { type: "SUBMIT", run } : { type: "SUBMIT", run, reason }),
  }
}

export type InboxStream = ActorRefFrom<typeof streamMachine>

/** What the inbox's live indicator says. */
export type LiveState = "connecting" | "live" | "reconnecting" | "stopped" | "signedOut"

const liveStateOf = (snapshot: SnapshotFrom<typeof streamMachine>): LiveState =>
  snapshot.matches({ streaming: "connected" })
    ? "live"
    : snapshot.matches("reconnecting")
      ? "reconnecting"
      : snapshot.matches("stopped")
        ? "stopped"
        : snapshot.matches("signedOut")
          ? "signedOut"
          : "connecting"

const inboxStreamMachine = streamMachine.provide({
  actors: { session: fromEffect(() => sessionClient.me()) },
})

/** The support inbox's live stream for as long as the screen is shown. */
export const useInboxStream = (): { readonly state: LiveState; readonly stream: InboxStream } => {
  const [snapshot, , stream] = useActor(inboxStreamMachine)
  useEndsSession(snapshot.matches("signedOut"))
  return { state: liveStateOf(snapshot), stream }
}

/** Calls `refresh` when the stream says conversation `id` changed (any conversation, without `id`). */
export const useInboxChanges = (stream: InboxStream, refresh: () => void, id?: string): void => {
  useEffect(() => {
    const subscription = stream.on("changed", (changed) => {
      if (id === undefined || concerns(changed, id)) refresh()
    })
    return () => subscription.unsubscribe()
  }, [stream, refresh, id])
}
