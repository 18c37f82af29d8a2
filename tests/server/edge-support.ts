/**
 * Helpers for the edge tests (tests/server/edge.*.test.ts): a raw HTTP request through node:http
 * that keeps the body exactly as sent (fetch would decompress it and hide Content-Length) and may
 * send a header several times; a raw TCP exchange for requests no HTTP client would send.
 */
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http"
import { connect } from "node:net"

export interface RawReply {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  /** The bytes as received, still content-coded. */
  readonly body: Buffer
}

export const raw = (
  base: string,
  path: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string } = {},
): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? "GET",
        headers: options.headers ?? {},
        agent: false,
      },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        )
        res.on("error", reject)
      },
    )
    req.on("error", reject)
    // Framed: Node sends a DELETE's body with neither a length nor chunking (the next request's bytes).
    if (options.body !== undefined && req.getHeader("content-length") === undefined)
      req.setHeader("content-length", Buffer.byteLength(options.body))
    if (options.body !== undefined) req.write(options.body)
    req.end()
  })

export const jsonOf = (reply: RawReply): unknown => JSON.parse(reply.body.toString("utf8"))

/**
 * Writes `payload` on a fresh TCP connection and collects everything the server sends until it
 * closes. Resolves with the text, or rejects with the socket error (e.g. ECONNRESET).
 */
export const tcpExchange = (base: string, payload: string | Buffer): Promise<string> =>
  new Promise((resolve, reject) => {
    const url = new URL(base)
    const socket = connect(Number(url.port), url.hostname)
    const chunks: Array<Buffer> = []
    socket.on("data", (c: Buffer) => chunks.push(c))
    socket.on("error", reject)
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")))
    socket.write(payload)
  })

/** Status code and JSON body of a raw HTTP/1.1 response text. */
export const parseRawResponse = (text: string): { status: number; head: string; body: string } => {
  const end = text.indexOf("\r\n\r\n")
  const head = end === -1 ? text : text.slice(0, end)
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)
  return { status, head, body: end === -1 ? "" : text.slice(end + 4) }
}
