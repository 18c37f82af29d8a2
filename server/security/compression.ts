/**
 * Content coding by `Accept-Encoding` (RFC 9110 §12.5.3): brotli and gzip.
 *
 * - `acceptableCodings(header)` ranks what a client accepts: q-values (`q=0` refuses), `*` for
 *   codings not named, `x-gzip` as gzip, `identity` acceptable unless refused (`identity;q=0`, or
 *   `*;q=0` without an identity entry). Equal q: br, then gzip, then identity. No header: identity.
 *   When the client refuses everything we have, the answer is sent uncompressed anyway (no 406: a
 *   page that loads beats a correct refusal).
 * - The static app sends the `.br`/`.gz` files written at build time (server/static/http.ts).
 * - `compressDynamic` compresses answers the server holds in memory (API JSON, index.html, CDN JSON,
 *   /openapi.json, /docs) once, in the edge middleware: compressible type, over 1 KiB, not HEAD,
 *   not 204/304, not already encoded, not a stream (so never `text/event-stream`), and only when
 *   smaller (unless the client refused identity). An app file with no copy the client takes goes
 *   this way too, so a build without copies still travels compressed. Brotli quality 5 / gzip
 *   level 6 (costs measured in docs/server.md: about a millisecond for 20 KB of JSON; brotli 11
 *   would take ~100 times longer). Answers that are the same object every time (/docs,
 *   /openapi.json) are compressed once and remembered.
 * Every answer of a compressible type says `Vary: Accept-Encoding`, compressed or not, so a cache
 * never hands a brotli body to a client that did not ask for one (or the reverse).
 */
import { promisify } from "node:util"
import { brotliCompress, constants, gzip } from "node:zlib"
import { Effect } from "effect"
import { HttpBody, type HttpServerRequest, HttpServerResponse } from "effect/http"

export type Coding = "br" | "gzip" | "identity"

/** Preference among equal q-values: the smaller coding first. */
const preference: ReadonlyArray<Coding> = ["br", "gzip", "identity"]

/** Lower-cased coding → q, for the well-formed entries of an Accept-Encoding value. */
export const parseAcceptEncoding = (header: string): Map<string, number> => {
  const q = new Map<string, number>()
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.split(";").map((s) => s.trim())
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/i.test(name)) continue
    let weight = 1
    let valid = true
    for (const param of params) {
      const m = /^q\s*=\s*(.*)$/i.exec(param)
      if (m?.[1] === undefined) continue
      // RFC 9110 qvalue: 0 to 1 with at most three decimals; anything else voids the entry.
      if (!/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(m[1])) valid = false
      else weight = Number(m[1])
    }
    if (!valid) continue
    const coding = name.toLowerCase() === "x-gzip" ? "gzip" : name.toLowerCase()
    // A coding named twice keeps its best weight.
    q.set(coding, Math.max(q.get(coding) ?? 0, weight))
  }
  return q
}

/**
 * The codings a client accepts, best first. Always ends with `identity` when identity is acceptable;
 * empty when the client refuses every coding we have.
 */
export const acceptableCodings = (header: string | undefined): ReadonlyArray<Coding> => {
  if (header === undefined || header.trim() === "") return ["identity"]
  const q = parseAcceptEncoding(header)
  const star = q.get("*")
  const weightOf = (c: Coding): number | undefined => q.get(c) ?? star
  const ranked = (["br", "gzip"] as const)
    .map((coding) => ({ coding, weight: weightOf(coding) ?? 0 }))
    .filter((c) => c.weight > 0)
  const identityWeight = q.get("identity") ?? (star === 0 ? 0 : undefined)
  const all: Array<{ coding: Coding; weight: number }> = [...ranked]
  // An identity the client did not weigh is the fallback: below every coding it did name.
  if (identityWeight === undefined) all.push({ coding: "identity", weight: -1 })
  else if (identityWeight > 0) all.push({ coding: "identity", weight: identityWeight })
  return all
    .sort((a, b) => b.weight - a.weight || preference.indexOf(a.coding) - preference.indexOf(b.coding))
    .map((c) => c.coding)
}

/** Whether a content type is worth compressing (text, JSON, JS, SVG, XML, wasm). */
export const isCompressible = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return false
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? ""
  if (type === "text/event-stream") return false
  return (
    type.startsWith("text/") ||
    type === "application/json" ||
    type === "application/javascript" ||
    type === "application/xml" ||
    type === "application/wasm" ||
    type === "application/manifest+json" ||
    type === "image/svg+xml" ||
    type.endsWith("+json") ||
    type.endsWith("+xml")
  )
}

/** `Vary` with Accept-Encoding added once to what it already names. */
export const varyWithAcceptEncoding = (vary: string | undefined): string => {
  if (vary === undefined || vary.trim() === "") return "Accept-Encoding"
  const names = vary.split(",").map((s) => s.trim().toLowerCase())
  return names.includes("accept-encoding") || names.includes("*") ? vary : `${vary}, Accept-Encoding`
}

export const dynamicMinBytes = 1024
export const dynamicBrotliQuality = 5
export const dynamicGzipLevel = 6

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

export const compressBytes = (bytes: Uint8Array, coding: "br" | "gzip"): Promise<Uint8Array> =>
  coding === "br"
    ? brotliAsync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: dynamicBrotliQuality,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      })
    : gzipAsync(bytes, { level: dynamicGzipLevel })

/** Compressed copies of bodies that are the same object on every request (/docs, /openapi.json). */
const remembered = new WeakMap<object, Map<"br" | "gzip", Uint8Array>>()

const compressedOnce = async (key: object, bytes: Uint8Array, coding: "br" | "gzip") => {
  let entry = remembered.get(key)
  if (entry === undefined) {
    entry = new Map()
    remembered.set(key, entry)
  }
  const known = entry.get(coding)
  if (known !== undefined) return known
  const out = await compressBytes(bytes, coding)
  entry.set(coding, out)
  return out
}

const headerOf = (response: HttpServerResponse.HttpServerResponse, name: string): string | undefined =>
  response.headers[name]

/** The edge's on-the-fly compression of an answer held in memory (see the header of this file). */
export const compressDynamic = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse,
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const body = response.body
  const contentType =
    headerOf(response, "content-type") ?? ("contentType" in body ? body.contentType : undefined)
  if (!isCompressible(contentType) || response.status === 204 || response.status === 304) {
    return Effect.succeed(response)
  }
  const varied = HttpServerResponse.setHeader(
    response,
    "vary",
    varyWithAcceptEncoding(headerOf(response, "vary")),
  )
  if (request.method === "HEAD" || headerOf(response, "content-encoding") !== undefined) {
    return Effect.succeed(varied)
  }
  if (body._tag !== "Uint8Array") return Effect.succeed(varied)
  const codings = acceptableCodings(request.headers["accept-encoding"])
  const coding = codings[0]
  if (coding === undefined || coding === "identity") return Effect.succeed(varied)
  // Small bodies, and bodies that do not shrink, stay as they are unless the client refused identity.
  const identityAccepted = codings.includes("identity")
  if (body.contentLength < dynamicMinBytes && identityAccepted) return Effect.succeed(varied)
  return Effect.promise(() => compressedOnce(body, body.body, coding)).pipe(
    Effect.map((compressed) =>
      compressed.length >= body.contentLength && identityAccepted
        ? varied
        : HttpServerResponse.setBody(
            HttpServerResponse.setHeader(varied, "content-encoding", coding),
            HttpBody.uint8Array(compressed, body.contentType),
          ),
    ),
  )
}
