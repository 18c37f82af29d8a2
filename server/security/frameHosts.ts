/**
 * Frames that follow the host the player typed, in local sandbox mode.
 *
 * `npm start` publishes each sandbox party on the casino's hostname with its own port (PUBLIC_URL
 * http://localhost:8080 → the studio at http://localhost:8083), and FRAME_ORIGINS lists them. A
 * player who opened http://127.0.0.1:8080 or http://192.168.1.20:8080 must get frames on that same
 * host: the party's pages on "localhost" mean nothing to a phone on the LAN, and a browser treats
 * localhost and 127.0.0.1 as different sites.
 *
 * So, per request, when all of these hold:
 * - NODE_ENV is not production;
 * - a FRAME_ORIGINS entry is plain http on this machine: loopback, a wildcard, a private LAN
 *   address, or the casino's own public hostname (where the composition root published it);
 * - the request's Host names loopback, a private LAN address, or a hostname the configuration
 *   names (PUBLIC_URL, ALLOWED_ORIGINS) — never any other name the client made up — and is not an
 *   IPv6 literal (a CSP source cannot name one: use an IPv4 address or a name on such a network);
 * the origin is "followed": the same scheme and port on the request's hostname. The CSP's frame-src
 * and img-src then list exactly the configured origins plus the followed ones (never `*`), and the
 * edge rewrites the configured origin into the followed one in the JSON answers (a launch URL, a
 * payment page, an on-ramp widget, the games' art). Under an https PUBLIC_URL with https providers
 * nothing is followed and nothing changes.
 */

import {
  bareHostname,
  hostnameOfHost,
  isCspNameable,
  isLocalHostname,
  isLoopbackHostname,
  isOnThisMachine,
  withHostname,
} from "../../lib/hosts.ts"
import type { AppConfigShape } from "../config.ts"

export type FrameHostsConfig = Pick<
  AppConfigShape,
  "nodeEnv" | "publicUrl" | "allowedOrigins" | "frameOrigins"
>

/** What one request's host makes of the frame origins. */
export interface RequestFrames {
  /** The origins the player app may frame for this request: configured ones and followed ones. */
  readonly origins: ReadonlyArray<string>
  /** Configured origin → the followed origin, for the ones that differ on this host. */
  readonly rewrites: ReadonlyArray<readonly [string, string]>
}

export interface FrameHosts {
  readonly forHost: (host: string | undefined) => RequestFrames
}

const loopbackTwins: Readonly<Record<string, string>> = { localhost: "127.0.0.1", "127.0.0.1": "localhost" }

export const makeFrameHosts = (config: FrameHostsConfig): FrameHosts => {
  const configured: RequestFrames = { origins: config.frameOrigins, rewrites: [] }
  const publicHostname = bareHostname(new URL(config.publicUrl).hostname)
  const named = new Set(
    [config.publicUrl, ...config.allowedOrigins].map((o) => bareHostname(new URL(o).hostname)),
  )
  const followable =
    config.nodeEnv === "production"
      ? []
      : config.frameOrigins.filter((origin) => {
          const url = new URL(origin)
          return (
            url.protocol === "http:" &&
            (isOnThisMachine(url.hostname) || bareHostname(url.hostname) === publicHostname)
          )
        })
  // A few hostnames in practice; bounded all the same (a client may send any private address).
  const cache = new Map<string, RequestFrames>()
  return {
    forHost: (host) => {
      if (followable.length === 0) return configured
      const raw = hostnameOfHost(host)
      if (raw === undefined) return configured
      const hostname = bareHostname(raw)
      if (!isCspNameable(hostname)) return configured
      if (!isLocalHostname(hostname) && !named.has(hostname)) return configured
      const known = cache.get(hostname)
      if (known !== undefined) return known
      const rewrites = followable
        .map((origin) => [origin, withHostname(origin, hostname)] as const)
        .filter(([from, to]) => from !== to)
      const result: RequestFrames = {
        origins: [...new Set([...config.frameOrigins, ...rewrites.map(([, to]) => to)])],
        rewrites,
      }
      if (cache.size >= 64) cache.clear()
      cache.set(hostname, result)
      return result
    },
  }
}

/**
 * Who may frame the casino's own pages: itself, and in local sandbox mode its loopback twin (the
 * payment page sends the frame back to PUBLIC_URL's return page, http://localhost:8080/…, while the
 * player's page may be http://127.0.0.1:8080 — the same casino under its other loopback name).
 */
export const casinoFrameAncestors = (
  config: Pick<AppConfigShape, "nodeEnv" | "publicUrl" | "allowedOrigins">,
) => {
  if (config.nodeEnv === "production") return ["'self'"]
  const out = new Set<string>()
  for (const origin of [config.publicUrl, ...config.allowedOrigins]) {
    const url = new URL(origin)
    if (url.protocol !== "http:" || !isLoopbackHostname(url.hostname)) continue
    out.add(url.origin)
    const twin = loopbackTwins[bareHostname(url.hostname)]
    if (twin !== undefined) out.add(withHostname(url.origin, twin))
  }
  return ["'self'", ...out]
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * A JSON text with each configured origin replaced by its followed one, where it starts a URL
 * inside a string (followed by `/`, `?`, `#` or the closing quote: never a longer host or port).
 */
export const rewriteOrigins = (text: string, rewrites: RequestFrames["rewrites"]): string => {
  let out = text
  for (const [from, to] of rewrites)
    out = out.replace(new RegExp(`"${escapeRegExp(from)}(?=[/?#"])`, "g"), `"${to}`)
  return out
}
