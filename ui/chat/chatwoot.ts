/**
 * The Chatwoot side of `ChatProvider` (CHAT_PROVIDER=chatwoot, docs/chat.md): loads Chatwoot's own
 * SDK from the installation (`${baseUrl}/packs/js/sdk.js`), starts it with the website token
 * (`window.chatwootSDK.run({ websiteToken, baseUrl })`), and gives it the player with Chatwoot's
 * documented `window.$chatwoot.setUser(identifier, { name, identifier_hash })` once its widget said
 * `chatwoot:ready`; the hash comes from the server (`identify`: GET /chat/identity), which holds the
 * inbox's secret. On sign-out, `window.$chatwoot.reset()` (also documented) drops the player's
 * contact and conversation from the device. The page's globals, the identity call and the script
 * loader are parameters, so a test runs it on a fake window.
 */

import type { ChatProvider, ChatProviderConfig, ChatUser } from "../../services/chat-provider.ts"
import type { ChatAttributes, ChatIdentity } from "../../services/chat-service.ts"

/** The `setUser` attributes used here, by Chatwoot's names. */
export interface ChatwootUserAttributes {
  readonly name?: string
  /** HMAC-SHA256 of the identifier with the inbox's token (its identity validation). */
  readonly identifier_hash?: string
}

/** What Chatwoot's SDK puts on `window` (only the parts used here). */
export interface ChatwootGlobals {
  chatwootSDK?: { readonly run: (options: { websiteToken: string; baseUrl: string }) => void }
  $chatwoot?: {
    readonly setUser: (identifier: string, attributes: ChatwootUserAttributes) => void
    readonly reset: () => void
  }
  readonly addEventListener: (type: string, listener: () => void, options?: { once?: boolean }) => void
}

export interface ChatwootOptions {
  /** The signed-in player's id and identity hash, from the server. */
  readonly identify: () => Promise<ChatIdentity>
  readonly load?: (src: string) => Promise<void>
  readonly readyTimeoutMs?: number
}

export type ChatwootConfig = Extract<ChatProviderConfig, { provider: "chatwoot" }>

export interface ChatwootProvider extends ChatProvider {
  /** Loads and runs the SDK (once); rejects when the script cannot be loaded. */
  readonly start: () => Promise<void>
}

export const chatwootSdkUrl = (baseUrl: string): string => `${baseUrl.replace(/\/+$/, "")}/packs/js/sdk.js`

/** A `<script async>` in the page; resolves when it ran. */
export const loadScript = (src: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const script = document.createElement("script")
    script.src = src
    script.async = true
    script.defer = true
    script.addEventListener("load", () => resolve())
    script.addEventListener("error", () => reject(new Error(`could not load ${src}`)))
    document.head.appendChild(script)
  })

export const makeChatwootProvider = (
  config: ChatwootConfig,
  globals: ChatwootGlobals,
  { identify, load = loadScript, readyTimeoutMs = 20_000 }: ChatwootOptions,
): ChatwootProvider => {
  let started: Promise<void> | undefined
  // `chatwoot:ready` may fire before anyone asks: listen from the start.
  const ready = new Promise<void>((resolve) => {
    globals.addEventListener("chatwoot:ready", () => resolve(), { once: true })
  })
  const start = () => {
    started ??= load(chatwootSdkUrl(config.baseUrl)).then(() => {
      const sdk = globals.chatwootSDK
      if (sdk === undefined) throw new Error("Chatwoot's SDK did not define window.chatwootSDK")
      sdk.run({ websiteToken: config.websiteToken, baseUrl: config.baseUrl })
    })
    return started
  }
  const widget = async () => {
    await start()
    if (globals.$chatwoot !== undefined) return globals.$chatwoot
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("Chatwoot's widget did not get ready")), readyTimeoutMs)
    })
    try {
      await Promise.race([ready, timeout])
    } finally {
      clearTimeout(timer)
    }
    if (globals.$chatwoot === undefined) throw new Error("Chatwoot is ready but window.$chatwoot is missing")
    return globals.$chatwoot
  }
  return {
    kind: "chatwoot",
    start,
    // A failed identity call rejects like a failed widget: Chatwoot then runs without the player.
    setAttributes: async (user: ChatUser): Promise<ChatAttributes> => {
      const [chatwoot, identity] = await Promise.all([widget(), identify()])
      // The session changed under the page: its next USER_CHANGED brings the right player.
      if (identity.userId !== user.id) throw new Error("the session's player is not the page's player")
      chatwoot.setUser(
        user.id,
        identity.identifierHash === null
          ? { name: user.name }
          : { name: user.name, identifier_hash: identity.identifierHash },
      )
      return { userId: user.id, name: user.name }
    },
    // Once the widget is there (it may still be loading): Chatwoot keeps the contact in a cookie.
    reset: () => {
      widget().then(
        (chatwoot) => chatwoot.reset(),
        () => undefined,
      )
    },
  }
}
