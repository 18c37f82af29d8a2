/**
 * Which address a request comes from, behind reverse proxies (TRUST_PROXY, docs/server.md).
 *
 * `X-Forwarded-For` is a list each proxy appends to: `client, proxy1, proxy2`, and the socket peer
 * is the last proxy. Only the entries written by proxies we trust mean anything — everything to the
 * left of them is whatever the client sent. So the walk starts at the socket peer and goes LEFT
 * while the hop that wrote the next entry is trusted:
 *
 * - `None` (TRUST_PROXY=false, the default): the socket peer, the header is ignored;
 * - `Hops` n (TRUST_PROXY=true is 1, or a number): the first n hops counted from the peer are
 *   trusted, so the client is the n-th entry from the right (fewer entries: the left-most);
 * - `Networks` (TRUST_PROXY=10.0.0.0/8,127.0.0.1,…): a hop is trusted while its address is in one
 *   of the networks (matching by `proxy-addr`, what Express uses); the first untrusted one is the
 *   client.
 *
 * Entries may carry a port (`1.2.3.4:5678`, `[2001:db8::1]:443`), brackets, quotes, a zone id or
 * the IPv4-mapped form; empty entries (`a,,b`, or an empty header among several, which Node joins
 * with ", ") are skipped. A malformed entry (`unknown`, garbage) stops the walk: the client is then
 * the trusted hop that passed it on, the last address we can vouch for.
 */
import { isIP } from "node:net"
import proxyaddr from "proxy-addr"

export type TrustProxy =
  | { readonly _tag: "None" }
  | { readonly _tag: "Hops"; readonly hops: number }
  | { readonly _tag: "Networks"; readonly networks: ReadonlyArray<string> }

export const trustNone: TrustProxy = { _tag: "None" }

/** The largest hop count accepted: more proxies in a row than this is a configuration mistake. */
export const maxTrustedHops = 32

/**
 * Parses TRUST_PROXY. `false`/`no`/`off`/`0`/unset: none; `true`/`yes`/`on`: 1 hop; an integer:
 * that many hops; otherwise a comma-separated list of addresses, CIDR networks (`10.0.0.0/8`,
 * `fd00::/8`) or the names `loopback`, `linklocal`, `uniquelocal`. Returns an error message for a
 * value that is none of these.
 */
export const parseTrustProxy = (raw: string | undefined): TrustProxy | { readonly error: string } => {
  const value = raw?.trim() ?? ""
  const lower = value.toLowerCase()
  if (value === "" || ["false", "no", "off", "0"].includes(lower)) return trustNone
  if (["true", "yes", "on"].includes(lower)) return { _tag: "Hops", hops: 1 }
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    return hops <= maxTrustedHops
      ? { _tag: "Hops", hops }
      : { error: `a hop count between 0 and ${maxTrustedHops}` }
  }
  const networks = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
  try {
    proxyaddr.compile(networks)
  } catch (error) {
    return {
      error: `true, false, a hop count, or comma-separated IP addresses / CIDR networks (${error instanceof Error ? error.message : String(error)})`,
    }
  }
  return { _tag: "Networks", networks }
}

/**
 * One address as text, normalised: brackets, surrounding quotes, a port, a zone id and the
 * IPv4-mapped prefix are removed, IPv6 is lower-case. "" for text that is not an IP address.
 */
export const normalizeIp = (raw: string): string => {
  let ip = raw.trim()
  if (ip.length >= 2 && ip.startsWith('"') && ip.endsWith('"')) ip = ip.slice(1, -1).trim()
  if (ip.startsWith("[")) {
    const end = ip.indexOf("]")
    if (end === -1) return ""
    const rest = ip.slice(end + 1)
    // After the bracket only a port may follow.
    if (rest !== "" && !/^:\d{1,5}$/.test(rest)) return ""
    ip = ip.slice(1, end)
  }
  const zone = ip.indexOf("%")
  if (zone !== -1) ip = ip.slice(0, zone)
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)
  if (mapped?.[1] !== undefined) ip = mapped[1]
  // "1.2.3.4:5678": an IPv4 address with a port (an IPv6 address with a port must be bracketed).
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(ip)
  if (withPort?.[1] !== undefined) ip = withPort[1]
  return isIP(ip) === 0 ? "" : ip.toLowerCase()
}

/** The non-empty entries of an X-Forwarded-For value, left to right, as sent. */
export const forwardedEntries = (header: string | undefined): Array<string> =>
  header === undefined
    ? []
    : header
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "")

/** Compiles the trust setting once; the result answers `clientIp(peer, xForwardedFor)`. */
export const makeClientIpResolver = (trust: TrustProxy) => {
  const inTrustedNetwork =
    trust._tag === "Networks"
      ? proxyaddr.compile([...trust.networks])
      : (_address: string, _hop: number) => false
  /** Whether the hop at `address` (`hop` counted from the socket peer, 0-based) is one of our proxies. */
  const trusts = (address: string, hop: number): boolean => {
    if (trust._tag === "Hops") return hop < trust.hops
    return address !== "" && inTrustedNetwork(address, hop)
  }
  /**
   * The client's address ("" when unknown): `peer` is the socket's remote address (may be "" when
   * the request did not come from a socket), `forwardedFor` the X-Forwarded-For header as Node
   * gives it (several headers joined with ", ").
   */
  return (peer: string, forwardedFor: string | undefined): string => {
    let client = normalizeIp(peer)
    if (trust._tag === "None") return client
    const chain = forwardedEntries(forwardedFor).reverse()
    for (let hop = 0; hop < chain.length; hop++) {
      // `client` is the hop that wrote chain[hop]: believe the entry only if we trust that hop.
      if (!trusts(client, hop)) break
      const next = normalizeIp(chain[hop] ?? "")
      if (next === "") break
      client = next
    }
    return client
  }
}
