/**
 * Live statecharts, in the player app: when the tab asked for it (`?statecharts=live`, remembered
 * for the tab), stream the shell's actor system to the visualizer over a same-origin
 * BroadcastChannel. Returns the `inspect` option for the root actor, or undefined (no channel,
 * nothing sent) in every other case.
 */
import type { InspectionEvent } from "xstate"
import { createLiveInspector, isHelloMessage, liveModeRequested } from "../../statecharts/live.ts"
import { LIVE_CHANNEL } from "../../statecharts/types.ts"

const tabStorage = (): Storage | null => {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

/** A random id for this page load (randomUUID needs a secure context; plain http falls back). */
const randomTabId = (): string => {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID()
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  )
}

export const startLiveInspection = (): ((event: InspectionEvent) => void) | undefined => {
  if (typeof window === "undefined" || typeof BroadcastChannel === "undefined") return undefined
  if (!liveModeRequested(window.location.search, tabStorage())) return undefined
  const channel = new BroadcastChannel(LIVE_CHANNEL)
  const inspector = createLiveInspector({
    tab: randomTabId(),
    post: (message) => channel.postMessage(message),
  })
  channel.addEventListener("message", (event) => {
    if (isHelloMessage(event.data)) inspector.replay()
  })
  // Leaving the page ends this tab's actors for the visualizer; back/forward cache restores them.
  window.addEventListener("pagehide", () => inspector.stopAll())
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) inspector.replay()
  })
  return inspector.inspect
}
