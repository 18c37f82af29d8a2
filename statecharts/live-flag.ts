/**
 * Whether a player tab is in live statecharts mode — the one piece of live mode the player's first
 * download needs (the inspector itself, statecharts/live.ts, is loaded only when this says yes).
 */
import { LIVE_QUERY_FLAG, LIVE_QUERY_VALUE } from "./types.ts"

/** The sessionStorage key that keeps a tab in live mode across in-app navigation. */
export const LIVE_STORAGE_KEY = "casino.statecharts.live"
/** `?statecharts=off` forgets the tab's live mode. */
export const LIVE_QUERY_OFF = "off"

type LiveStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">

/**
 * Whether this tab streams to the visualizer: `?statecharts=live` turns it on and remembers it in
 * the tab's storage, `?statecharts=off` turns it off and forgets it, otherwise the remembered
 * choice holds. A storage that throws (disabled, full) counts as absent.
 */
export const liveModeRequested = (search: string, storage: LiveStorage | null): boolean => {
  const flag = new URLSearchParams(search).get(LIVE_QUERY_FLAG)
  try {
    if (flag === LIVE_QUERY_VALUE) {
      storage?.setItem(LIVE_STORAGE_KEY, LIVE_QUERY_VALUE)
      return true
    }
    if (flag === LIVE_QUERY_OFF) {
      storage?.removeItem(LIVE_STORAGE_KEY)
      return false
    }
    return storage?.getItem(LIVE_STORAGE_KEY) === LIVE_QUERY_VALUE
  } catch {
    return flag === LIVE_QUERY_VALUE
  }
}
