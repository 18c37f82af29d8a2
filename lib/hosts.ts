/**
 * Which hostnames are "this machine or its local network", for pages that follow the address a
 * player typed in local sandbox mode (http://localhost, http://127.0.0.1, a LAN address): the
 * casino's frames and the sandboxes' frame-ancestors. A Host header is whatever the client sent, so
 * only these hostnames (and ones a configuration names) are ever taken from it — never a name.
 */
import { isIP } from "node:net"

/** A hostname without IPv6 brackets, lower-case. */
export const bareHostname = (hostname: string): string => hostname.toLowerCase().replace(/^\[|\]$/g, "")

const ipv4 = (host: string): ReadonlyArray<number> | undefined => {
  if (isIP(host) !== 4) return undefined
  return host.split(".").map(Number)
}

/** localhost (and *.localhost), 127.0.0.0/8, ::1. */
export const isLoopbackHostname = (hostname: string): boolean => {
  const host = bareHostname(hostname)
  if (host === "localhost" || host.endsWith(".localhost")) return true
  if (host === "::1") return true
  return ipv4(host)?.[0] === 127
}

/** A wildcard listen address (0.0.0.0, ::): a party published "on every interface of this machine". */
export const isWildcardHostname = (hostname: string): boolean => {
  const host = bareHostname(hostname)
  return host === "0.0.0.0" || host === "::"
}

/** A private network address: 10/8, 172.16/12, 192.168/16, IPv6 unique local fc00::/7. IPs only. */
export const isPrivateLanAddress = (hostname: string): boolean => {
  const host = bareHostname(hostname)
  const v4 = ipv4(host)
  if (v4 !== undefined) {
    const [a = -1, b = -1] = v4
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)
  }
  return isIP(host) === 6 && /^f[cd][0-9a-f]{0,2}:/.test(host)
}

/** This machine or its local network: loopback or a private LAN address. */
export const isLocalHostname = (hostname: string): boolean =>
  isLoopbackHostname(hostname) || isPrivateLanAddress(hostname)

/** A configured address that names this machine or its network (plain-http sandbox addresses follow the player). */
export const isOnThisMachine = (hostname: string): boolean =>
  isLocalHostname(hostname) || isWildcardHostname(hostname)

/**
 * Whether a CSP source may name this host: CSP's host-source grammar has no IPv6 literal (Chromium
 * ignores `http://[fd00::2]:8083` as invalid), so pages are never followed to an IPv6 address.
 */
export const isCspNameable = (hostname: string): boolean => isIP(bareHostname(hostname)) !== 6

/** The hostname of a Host header value ("127.0.0.1:8080", "[::1]:8080", "localhost"), or undefined. */
export const hostnameOfHost = (host: string | undefined): string | undefined => {
  if (host === undefined || host === "" || host.length > 255) return undefined
  try {
    const url = new URL(`http://${host}`)
    // A Host with a path, credentials or anything else URL parsing tolerates is not a Host.
    if (url.host !== host.toLowerCase() || url.username !== "" || url.pathname !== "/") return undefined
    return url.hostname
  } catch {
    return undefined
  }
}

/** `origin` with its hostname replaced (keeps scheme and port); IPv6 gets its brackets. */
export const withHostname = (origin: string, hostname: string): string => {
  const url = new URL(origin)
  const bare = bareHostname(hostname)
  url.hostname = isIP(bare) === 6 ? `[${bare}]` : bare
  return url.origin
}

/**
 * The frame-ancestors a sandbox party's page allows for one request, in local sandbox mode: the
 * configured origins, and each configured plain-http origin on this machine (loopback, wildcard or a
 * private LAN address) again on
 * the hostname the page was asked for, when that hostname is loopback or a private LAN address —
 * the casino then runs on that same host (the casino's frames follow the host the player typed).
 * Anything else in the Host header changes nothing.
 */
export const followingAncestors = (
  configured: ReadonlyArray<string>,
  requestHost: string | undefined,
): ReadonlyArray<string> => {
  const hostname = hostnameOfHost(requestHost)
  const out = new Set<string>()
  for (const origin of configured) {
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      continue
    }
    out.add(url.origin)
    if (
      hostname !== undefined &&
      isLocalHostname(hostname) &&
      isCspNameable(hostname) &&
      url.protocol === "http:" &&
      isOnThisMachine(url.hostname)
    )
      out.add(withHostname(url.origin, hostname))
  }
  return [...out]
}
