/**
 * The Chatwoot adapter on a fake window: the SDK script URL, `chatwootSDK.run` with the token and
 * base URL, `$chatwoot.setUser(id, { name, identifier_hash })` with the server's hash once the widget
 * is ready (also when it was ready first; without the hash when the server has no token), a failed
 * or foreign identity call, a script that fails to load, a widget that never gets ready, and
 * `$chatwoot.reset()`. Then the widget's identity statechart driving it on the simulated clock:
 * setUser gets the hash 3 s after load, a sign-out resets Chatwoot, a failed identity call leaves
 * Chatwoot running without the player.
 */

import { describe, expect, it } from "vitest"
import { createActor, SimulatedClock, waitFor } from "xstate"
import { chatIdentityFor } from "../../../machines/chat/chatIdentity.machine.ts"
import type { ChatIdentity } from "../../../services/chat-service.ts"
import {
  type ChatwootGlobals,
  type ChatwootUserAttributes,
  makeChatwootProvider,
} from "../../../ui/chat/chatwoot.ts"

const config = { provider: "chatwoot", baseUrl: "https://chat.example.com", websiteToken: "tok_123" } as const
const ada = { id: "0b7c6f0e-5d0a-4f43-9a59-2f8f3c1d9e11", name: "Ada Lovelace" }
const ADA_HASH = "5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592"

interface Fake {
  readonly globals: ChatwootGlobals
  readonly loaded: Array<string>
  readonly runs: Array<{ websiteToken: string; baseUrl: string }>
  readonly users: Array<[string, ChatwootUserAttributes]>
  readonly resets: Array<"reset">
  readonly fireReady: () => void
}

const fakeWindow = (): Fake => {
  const listeners = new Map<string, Array<() => void>>()
  const loaded: Array<string> = []
  const runs: Array<{ websiteToken: string; baseUrl: string }> = []
  const users: Array<[string, ChatwootUserAttributes]> = []
  const resets: Array<"reset"> = []
  const globals: ChatwootGlobals = {
    addEventListener: (type, listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
  }
  const fireReady = () => {
    globals.$chatwoot = {
      setUser: (id, attributes) => users.push([id, attributes]),
      reset: () => resets.push("reset"),
    }
    for (const l of listeners.get("chatwoot:ready") ?? []) l()
  }
  return { globals, loaded, runs, users, resets, fireReady }
}

const loaderFor = (fake: Fake) => async (src: string) => {
  fake.loaded.push(src)
  fake.globals.chatwootSDK = { run: (options) => fake.runs.push(options) }
}

/** The server's answer for Ada, with the hash it made. */
const adaIdentity = async (): Promise<ChatIdentity> => ({ userId: ada.id, identifierHash: ADA_HASH })

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("Chatwoot provider", () => {
  it("loads the SDK, runs it with the website token, and calls setUser with the hash once the widget is ready", async () => {
    const fake = fakeWindow()
    const provider = makeChatwootProvider(config, fake.globals, {
      identify: adaIdentity,
      load: loaderFor(fake),
    })
    expect(provider.kind).toBe("chatwoot")
    const applied = provider.setAttributes(ada)
    await provider.start()
    expect(fake.loaded).toEqual(["https://chat.example.com/packs/js/sdk.js"])
    expect(fake.runs).toEqual([{ websiteToken: "tok_123", baseUrl: "https://chat.example.com" }])
    expect(fake.users).toEqual([])
    fake.fireReady()
    await expect(applied).resolves.toEqual({ userId: ada.id, name: "Ada Lovelace" })
    expect(fake.users).toEqual([
      ["0b7c6f0e-5d0a-4f43-9a59-2f8f3c1d9e11", { name: "Ada Lovelace", identifier_hash: ADA_HASH }],
    ])
  })

  it("calls setUser at once when the widget was ready before, and loads the SDK only once", async () => {
    const fake = fakeWindow()
    const identities: Record<string, ChatIdentity> = {
      [ada.id]: { userId: ada.id, identifierHash: ADA_HASH },
      "u-2": { userId: "u-2", identifierHash: null },
    }
    let asking = ada.id
    const provider = makeChatwootProvider(config, fake.globals, {
      identify: async () => identities[asking] ?? { userId: "", identifierHash: null },
      load: loaderFor(fake),
    })
    await provider.start()
    fake.fireReady()
    await provider.setAttributes(ada)
    asking = "u-2"
    await provider.setAttributes({ id: "u-2", name: "Grace Hopper" })
    expect(fake.loaded).toHaveLength(1)
    // No token on the server: no identifier_hash at all (not an empty one).
    expect(fake.users).toEqual([
      [ada.id, { name: "Ada Lovelace", identifier_hash: ADA_HASH }],
      ["u-2", { name: "Grace Hopper" }],
    ])
  })

  it("rejects without calling setUser when the identity call fails or names another player", async () => {
    const fake = fakeWindow()
    const failing = makeChatwootProvider(config, fake.globals, {
      identify: async () => {
        throw new Error("HTTP 503")
      },
      load: loaderFor(fake),
    })
    await failing.start()
    fake.fireReady()
    await expect(failing.setAttributes(ada)).rejects.toThrow("HTTP 503")
    const foreign = makeChatwootProvider(config, fake.globals, {
      identify: async () => ({ userId: "someone-else", identifierHash: ADA_HASH }),
      load: loaderFor(fake),
    })
    await expect(foreign.setAttributes(ada)).rejects.toThrow("the session's player is not the page's player")
    expect(fake.users).toEqual([])
  })

  it("rejects when the script cannot be loaded", async () => {
    const fake = fakeWindow()
    const provider = makeChatwootProvider(config, fake.globals, {
      identify: adaIdentity,
      load: async () => {
        throw new Error("could not load https://chat.example.com/packs/js/sdk.js")
      },
    })
    await expect(provider.setAttributes(ada)).rejects.toThrow(
      "could not load https://chat.example.com/packs/js/sdk.js",
    )
  })

  it("rejects when the widget never gets ready", async () => {
    const fake = fakeWindow()
    const provider = makeChatwootProvider(config, fake.globals, {
      identify: adaIdentity,
      load: loaderFor(fake),
      readyTimeoutMs: 20,
    })
    await expect(provider.setAttributes(ada)).rejects.toThrow("Chatwoot's widget did not get ready")
  })

  it("resets Chatwoot once its widget is ready (a reset asked while it loads waits for it)", async () => {
    const fake = fakeWindow()
    const provider = makeChatwootProvider(config, fake.globals, {
      identify: adaIdentity,
      load: loaderFor(fake),
    })
    provider.reset()
    await provider.start()
    await settle()
    expect(fake.resets).toEqual([])
    fake.fireReady()
    await settle()
    expect(fake.resets).toEqual(["reset"])
  })
})

describe("the identity statechart with Chatwoot (simulated clock)", () => {
  const start = (identify: () => Promise<ChatIdentity>) => {
    const fake = fakeWindow()
    const provider = makeChatwootProvider(config, fake.globals, { identify, load: loaderFor(fake) })
    const clock = new SimulatedClock()
    const actor = createActor(chatIdentityFor(provider), { input: { user: ada }, clock }).start()
    return { fake, provider, clock, actor }
  }

  it("hands Chatwoot the player with the server's hash 3 s after load, and resets it on sign-out", async () => {
    const { fake, provider, clock, actor } = start(adaIdentity)
    await provider.start()
    fake.fireReady()
    clock.increment(2_999)
    expect(actor.getSnapshot().value).toBe("waiting")
    clock.increment(1)
    await waitFor(actor, (s) => s.matches("applied"))
    expect(fake.users).toEqual([[ada.id, { name: "Ada Lovelace", identifier_hash: ADA_HASH }]])
    expect(fake.resets).toEqual([])

    actor.send({ type: "USER_CHANGED", user: null })
    await settle()
    expect(fake.resets).toEqual(["reset"])
    clock.increment(3_000)
    expect(actor.getSnapshot().value).toBe("anonymous")
    // Signing in again is not a player leaving: nothing more to forget.
    actor.send({ type: "USER_CHANGED", user: ada })
    await settle()
    expect(fake.resets).toEqual(["reset"])
    actor.stop()
  })

  it("resets Chatwoot when another player signs in on the same page", async () => {
    const { fake, provider, actor } = start(adaIdentity)
    await provider.start()
    fake.fireReady()
    actor.send({ type: "USER_CHANGED", user: { id: "u-2", name: "Grace Hopper" } })
    await settle()
    expect(fake.resets).toEqual(["reset"])
    actor.stop()
  })

  it("leaves Chatwoot running without the player when the identity call fails", async () => {
    const { fake, provider, clock, actor } = start(async () => {
      throw new Error("HTTP 503")
    })
    await provider.start()
    fake.fireReady()
    clock.increment(3_000)
    await waitFor(actor, (s) => s.matches("unapplied"))
    expect(fake.runs).toHaveLength(1)
    expect(fake.users).toEqual([])
    actor.stop()
  })
})
