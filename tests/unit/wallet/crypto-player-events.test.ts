/**
 * The chain watcher's pushes reach the page (services/player-events.ts): the server names
 * each SSE event by its `type` (server/events/http.ts), so a `cryptoDeposit` event must be listened
 * to by that name and decode to the contract's PlayerEvent. A stand-in EventSource records the
 * listeners and dispatches what a server would send. Each time the stream (re)opens, the subscribers
 * that asked are told, and only while subscribed.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { parsePlayerEvent, subscribePlayerEvents } from "../../../services/player-events.ts"
import type { PlayerEvent } from "../../../services/wallet-service.ts"

const push = {
  type: "cryptoDeposit",
  id: "7f1c1b7e-2b1a-4c59-a6b1-1f0c7f0b9a11",
  currency: "USDT",
  txHash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
  amount: "25000000",
  confirmations: 1,
  requiredConfirmations: 3,
  status: "pending",
}

class FakeEventSource {
  static last: FakeEventSource | undefined
  readonly listeners = new Map<string, (message: MessageEvent) => void>()
  readonly url: string
  constructor(url: string) {
    this.url = url
    FakeEventSource.last = this
  }
  addEventListener(name: string, listener: (message: MessageEvent) => void): void {
    this.listeners.set(name, listener)
  }
  close(): void {}
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe("cryptoDeposit push events", () => {
  it("decode to the contract's event", async () => {
    expect(await parsePlayerEvent(JSON.stringify(push))).toEqual(push)
    expect(await parsePlayerEvent(JSON.stringify({ ...push, amount: "25.5" }))).toBeNull()
  })

  it("are delivered when the server names the event `cryptoDeposit`", async () => {
    vi.stubGlobal("EventSource", FakeEventSource)
    const received: Array<PlayerEvent> = []
    const stop = subscribePlayerEvents((event) => received.push(event))
    const listener = FakeEventSource.last?.listeners.get("cryptoDeposit")
    expect(listener).toBeDefined()
    listener?.(new MessageEvent("cryptoDeposit", { data: JSON.stringify(push) }))
    await vi.waitFor(() => expect(received).toEqual([push]))
    stop()
  })

  it("tell each (re)opening of the stream to the subscribers that asked, until they leave", () => {
    vi.stubGlobal("EventSource", FakeEventSource)
    let opens = 0
    const stopEvents = subscribePlayerEvents(() => {})
    const stopOpens = subscribePlayerEvents(
      () => {},
      () => opens++,
    )
    const open = FakeEventSource.last?.listeners.get("open")
    expect(open).toBeDefined()
    open?.(new MessageEvent("open"))
    open?.(new MessageEvent("open"))
    expect(opens).toBe(2)
    stopOpens()
    open?.(new MessageEvent("open"))
    expect(opens).toBe(2)
    stopEvents()
  })
})
