/**
 * Where a request comes from, offline: `geoip-lite` (GeoLite2 country data shipped in the package).
 *
 * - Client IP: the connected peer, or behind trusted proxies the address the trusted proxy saw
 *   (TRUST_PROXY, see server/security/proxy.ts): never the client-written left end of
 *   `X-Forwarded-For`. It feeds the country lookup and the per-IP rate limits.
 * - Loopback, private, link-local, CGNAT and unspecified addresses (IPv4, IPv6, IPv4-mapped IPv6)
 *   and addresses the database does not know all resolve to DEFAULT_COUNTRY.
 * - The restricted list is the CDN file `${cdnDir}/restricted-countries.json`; it is re-read when
 *   its modification time or size changes, so an operator's edit applies without a restart. A file
 *   that fails to parse keeps the last good list (and logs an error); a missing file means no
 *   country is restricted.
 */
import { readFile, stat } from "node:fs/promises"
import { BlockList, isIP } from "node:net"
import { join } from "node:path"
import { Context, Effect, Layer, Schema } from "effect"
import type { HttpServerRequest } from "effect/http"
import geoip from "geoip-lite"
import { CdnFiles, RestrictedCountries } from "../../services/cdn.ts"
import type { ClientIp } from "../../services/ip-service.ts"
import { AppConfig } from "../config.ts"
import { makeClientIpResolver, normalizeIp } from "../security/proxy.ts"

export interface GeoShape {
  /** The client's IP address as text (never empty: "0.0.0.0" when the peer is unknown). */
  clientIp(req: HttpServerRequest.HttpServerRequest): string
  lookup(ip: string): Effect.Effect<ClientIp>
  /** Whether an ISO 3166-1 alpha-2 code is on the restricted list (case-insensitive). */
  isRestricted(isoCode: string): Effect.Effect<boolean>
}

const nonPublic = new BlockList()
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
] as const) {
  nonPublic.addSubnet(net, prefix, "ipv4")
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
] as const) {
  nonPublic.addSubnet(net, prefix, "ipv6")
}

export const isNonPublicIp = (ip: string): boolean => {
  const family = isIP(ip)
  if (family === 4) return nonPublic.check(ip, "ipv4")
  if (family === 6) return nonPublic.check(ip, "ipv6")
  return true
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" })

/** English name of an ISO 3166-1 alpha-2 code ("MT" → "Malta"). */
export const countryName = (isoCode: string): string => regionNames.of(isoCode.toUpperCase()) ?? isoCode

const decodeRestricted = Schema.decodeUnknownSync(RestrictedCountries)

export class Geo extends Context.Service<Geo, GeoShape>()("casino/server/Geo") {
  static readonly layer: Layer.Layer<Geo, never, AppConfig> = Layer.effect(
    Geo,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const file = join(config.cdnDir, CdnFiles.restrictedCountries)
      let cached: { readonly stamp: string; readonly codes: ReadonlySet<string> } = {
        stamp: "",
        codes: new Set(),
      }

      const restrictedCodes: Effect.Effect<ReadonlySet<string>> = Effect.promise(async () => {
        let stamp: string
        try {
          const s = await stat(file)
          stamp = `${s.mtimeMs}:${s.size}:${s.ino}`
        } catch {
          stamp = "missing"
        }
        if (stamp === cached.stamp) return { codes: cached.codes, problem: undefined }
        if (stamp === "missing") {
          cached = { stamp, codes: new Set() }
          return { codes: cached.codes, problem: `${file} is missing: no country is restricted` }
        }
        try {
          const list = decodeRestricted(JSON.parse(await readFile(file, "utf8")))
          cached = { stamp, codes: new Set(list.map((c) => c.code.trim().toUpperCase())) }
          return { codes: cached.codes, problem: undefined }
        } catch (error) {
          // Keep the last good list; remember the stamp so the error is logged once per edit.
          cached = { stamp, codes: cached.codes }
          return {
            codes: cached.codes,
            problem: `${file} is invalid, keeping the previous list: ${String(error)}`,
          }
        }
      }).pipe(
        Effect.tap(({ problem }) => (problem === undefined ? Effect.void : Effect.logError(problem))),
        Effect.map(({ codes }) => codes),
      )

      const resolveClientIp = makeClientIpResolver(config.trustProxy)
      const clientIp = (req: HttpServerRequest.HttpServerRequest): string => {
        const peer = req.peerAddress._tag === "Some" ? req.peerAddress.value : ""
        const ip = resolveClientIp(peer, req.headers["x-forwarded-for"])
        return ip === "" ? "0.0.0.0" : ip
      }

      const lookup = (ip: string): Effect.Effect<ClientIp> =>
        Effect.sync(() => {
          const normalized = normalizeIp(ip)
          let isoCode = config.defaultCountry
          if (normalized !== "" && !isNonPublicIp(normalized)) {
            const found = geoip.lookup(normalized)
            if (found !== null && /^[A-Z]{2}$/.test(found.country)) isoCode = found.country
          }
          return { country: countryName(isoCode), isoCode }
        })

      const isRestricted = (isoCode: string): Effect.Effect<boolean> =>
        Effect.map(restrictedCodes, (codes) => codes.has(isoCode.trim().toUpperCase()))

      return Geo.of({ clientIp, lookup, isRestricted })
    }),
  )
}
