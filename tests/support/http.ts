/**
 * A raw HTTP/1.1 client on `node:http` with keep-alive, for the fuzzer, the crash test and the load
 * bench. Unlike `fetch` it sends what it is told: any method token, a body on GET, raw bytes, no
 * content type at all, odd paths (only characters Node refuses in a request line are escaped).
 */
import { Agent, request } from "node:http"

export interface RawRequest {
  readonly method: string
  /** Path and query, e.g. `/user-service/api/v1/signin?x=1`. */
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array | undefined
  /** Send the body chunked (no Content-Length): the server learns its size only by reading it. */
  readonly chunked?: boolean | undefined
}

export interface RawResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly body: Buffer
}

export const keepAliveAgent = (maxSockets: number): Agent =>
  new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets })

/**
 * Node refuses request targets with characters outside 0x21–0x7E ("Request path contains unescaped
 * characters"): escape exactly those, leaving everything else (including broken `%` escapes) as is.
 */
export const toRequestTarget = (path: string): string =>
  path.replace(/[^\x21-\x7e]/gu, (c) => {
    try {
      return encodeURIComponent(c)
    } catch {
      return "%EF%BF%BD" // a lone surrogate has no UTF-8 form: send U+FFFD in its place
    }
  })

/** Sends one request; rejects only on a transport error (refused, reset, timeout). */
export const send = (
  baseUrl: string,
  agent: Agent,
  req: RawRequest,
  timeoutMs = 30_000,
): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const url = new URL(baseUrl)
    const body =
      req.body === undefined ? undefined : typeof req.body === "string" ? Buffer.from(req.body) : req.body
    const headers: Record<string, string | number> = { ...req.headers }
    if (body !== undefined && req.chunked === true) {
      // Explicit: for GET, HEAD, DELETE… Node would otherwise send the bytes unframed.
      headers["transfer-encoding"] = "chunked"
    } else if (
      body !== undefined &&
      !Object.keys(headers).some((h) => h.toLowerCase() === "content-length")
    ) {
      headers["content-length"] = body.byteLength
    }
    const r = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: toRequestTarget(req.path),
        headers,
        // A chunked body gets a connection of its own. When the server answers without reading the
        // body (403, 413, 415…), @effect/platform-node drains up to 256 KiB of it and then closes the
        // connection — for a chunked body it cannot know that when it writes `Connection: keep-alive`
        // (HTTP allows closing at any time). A request queued behind it would see "socket hang up".
        agent: req.chunked === true ? false : agent,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (chunk: Buffer) => chunks.push(chunk))
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        )
        res.on("error", reject)
      },
    )
    r.on("timeout", () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    r.on("error", reject)
    if (body === undefined) r.end()
    else if (req.chunked === true) {
      const piece = 64 * 1024
      for (let at = 0; at < body.byteLength; at += piece) r.write(body.subarray(at, at + piece))
      r.end()
    } else r.end(body)
  })

/** The `name=value` part of a Set-Cookie for `name`, or undefined. */
export const cookieFrom = (res: RawResponse, name: string): string | undefined => {
  const setCookie = res.headers["set-cookie"]
  const all = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]
  for (const line of all) {
    const pair = line.split(";")[0] ?? ""
    if (pair.startsWith(`${name}=`) && pair.length > name.length + 1) return pair
  }
  return undefined
}

/** JSON of a response body, or undefined when it is not JSON. */
export const jsonOf = (res: RawResponse): unknown => {
  try {
    return JSON.parse(res.body.toString("utf8"))
  } catch {
    return undefined
  }
}
