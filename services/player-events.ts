/**
 * The server's push events for a signed-in player (`GET /api/events`, server-sent events carrying
 * `PlayerEvent`): a wallet's new balance, a deposit's new status, a reality check answered, a
 * loyalty level reached. One EventSource per page, shared by every subscriber (the session's fund
 * refresh, the payment frame) and closed when the last one leaves. The browser's EventSource
 * reconnects by itself after a drop; an event that does not decode is ignored (the 15 s fund poll
 * remains the fallback).
 *
 * The stream carries no history: what happened before it (re)opened is not sent. So each `open` is
 * told to the subscribers that asked (`onOpen`): a view of server state reads it again then, and a
 * change made while the page was connecting or reconnecting is never missed.
 */
import { Effect, Exit, Schema } from "effect"
import { PlayerEvent } from "./wallet-service.ts"

export const PLAYER_EVENTS_PATH = "/api/events"

type Listener = (event: PlayerEvent) => void

const listeners = new Set<Listener>()
const openListeners = new Set<() => void>()
let source: EventSource | null = null

// Decoded with the Effect and Schema functions the first screen already carries (services/client.ts):
// every Effect module any chunk uses is part of the first download (vite.config.ts, the core group).
const decode = Schema.decodeUnknownEffect(PlayerEvent)

/** The event a message's `data` carries, or null when it is not one of the contract's. */
export const parsePlayerEvent = async (data: unknown): Promise<PlayerEvent | null> => {
  if (typeof data !== "string") return null
  let json: unknown
  try {
    json = JSON.parse(data)
  } catch {
    return null
  }
  const exit = await Effect.runPromiseExit(decode(json))
  return Exit.isSuccess(exit) ? exit.value : null
}

const deliver = (message: MessageEvent): void => {
  void parsePlayerEvent(message.data).then((event) => {
    if (event === null) return
    for (const listener of listeners) listener(event)
  })
}

const opened = (): void => {
  for (const listener of openListeners) listener()
}

/**
 * Listens to the player's events until the returned function is called; `onOpen` runs each time
 * the stream opens or reopens after a drop (events sent while it was closed are lost).
 */
export const subscribePlayerEvents = (listener: Listener, onOpen?: () => void): (() => void) => {
  listeners.add(listener)
  if (onOpen !== undefined) openListeners.add(onOpen)
  if (source === null && typeof EventSource !== "undefined") {
    source = new EventSource(PLAYER_EVENTS_PATH, { withCredentials: true })
    // The server names each event by its `type` (`event: balance`, …); unnamed ones are accepted too.
    for (const name of [
      "balance",
      "deposit",
      "cryptoDeposit",
      "withdrawal",
      "realityCheck",
      "loyalty",
      "message",
    ])
      source.addEventListener(name, deliver)
    source.addEventListener("open", opened)
  }
  return () => {
    listeners.delete(listener)
    if (onOpen !== undefined) openListeners.delete(onOpen)
    if (listeners.size === 0 && source !== null) {
      source.close()
      source = null
    }
  }
}
