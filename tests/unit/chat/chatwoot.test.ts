/**
 * The Chatwoot adapter on a fake window: the SDK script URL, `chatwootSDK.run` with the token and
 * base URL, `$chatwoot.setUser(id, { name })` once the widget is ready (also when it was ready
 * first), a script that fails to load, and a widget that never gets ready.
 */
import { describe, expect, it } from "vitest"
import { type ChatwootGlobals, makeChatwootProvider } from "../../../ui/chat/chatwoot.ts"

const config = { provider: "chatwoot", baseUrl: "https://chat.example.com", websiteToken: "tok_123" } as const
const ada = { id: "0b7c6f0e-5d0a-4f43-9a59-2f8f3c1d9e11", name: "Ada Lovelace" }

interface Fake {
  readonly globals: ChatwootGlobals
  readonly loaded: Array<string>
  readonly runs: Array<{ websiteToken: string; baseUrl: string }>
  readonly users: Array<[string, { name?: string }]>
  readonly fireReady: () => void
}

const fakeWindow = (): Fake => {
  const listeners = new Map<string, Array<() => void>>()
  const loaded: Array<string> = []
  const runs: Array<{ websiteToken: string; baseUrl: string }> = []
  const users: Array<[string, { name?: string }]> = []
  const globals: ChatwootGlobals = {
    addEventListener: (type, listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
  }
  const fireReady = () => {
    globals.$chatwoot = { setUser: (id, attributes) => users.push([id, attributes]) }
    for (const l of listeners.get("chatwoot:ready") ?? []) l()
  }
  return { globals, loaded, runs, users, fireReady }
}

const loaderFor = (fake: Fake) => async (src: string) => {
  fake.loaded.push(src)
  fake.globals.chatwootSDK = { run: (options) => fake.runs.push(options) }
}

describe("Chatwoot provider", () => {
  it("loads the SDK, runs it with the website token, and calls setUser once the widget is ready", async () => {
    const fake = fakeWindow()
    const provider = makeChatwootProvider(config, fake.globals, loaderFor(fake))
    expect(provider.kind).toBe("chatwoot")
    const applied = provider.setAttributes(ada)
    await provider.start()
    expect(fake.loaded).toEqual(["https://chat.example.com/packs/js/sdk.js"])
    expect(fake.runs).toEqual([{ websiteToken: "tok_123", baseUrl: "https://chat.example.com" }])
    expect(fake.users).toEqual([])
    fake.fireReady()
    await expect(applied).resolves.toEqual({ userId: ada.id, name: "Ada Lovelace" })
    expect(fake.users).toEqual([["0b7c6f0e-5d0a-4f43-9a59-2f8f3c1d9e11", { name: "Ada Lovelace" }]])
  })

  it("calls setUser at once when the widget was ready before, and loads the SDK only once", async () => {
    const fake = fakeWindow()
    const provider = makeChatwootProvider(config, fake.globals, loaderFor(fake))
    await provider.start()
    fake.fireReady()
    await provider.setAttributes(ada)
    await provider.setAttributes({ id: "u-2", name: "Grace Hopper" })
    expect(fake.loaded).toHaveLength(1)
    expect(fake.users.map(([id]) => id)).toEqual([ada.id, "u-2"])
  })

  it("rejects when the script cannot be loaded", async () => {
    const fake = fakeWindow()
    const provider = makeChatwootProvider(config, fake.globals, async () => {
      throw new Error("could not load https://chat.example.com/packs/js/sdk.js")
    })
    await expect(provider.setAttributes(ada)).rejects.toThrow(
      "could not load https://chat.example.com/packs/js/sdk.js",
    )
  })

  it("rejects when the widget never gets ready", async () => {
    const fake = fakeWindow()
    const provider = makeChatwootProvider(config, fake.globals, loaderFor(fake), 20)
    await expect(provider.setAttributes(ada)).rejects.toThrow("Chatwoot's widget did not get ready")
  })
})
