/**
 * The Node HTTP server under `NodeHttpServer` (server/app.ts), and what it answers to requests it
 * cannot even parse.
 *
 * Why a long URL used to reset the connection: Node parses at most `maxHeaderSize` bytes of request
 * line + headers (16 KiB by default). Past that the parser fails with HPE_HEADER_OVERFLOW and,
 * with no `clientError` listener (NodeHttpServer adds none), Node writes a bare
 * `431` and destroys the socket at once. The client is usually still sending the rest of its
 * request: closing a socket with unread data makes the kernel send a TCP RST, which can discard
 * the 431 before the client reads it — the client sees "connection reset".
 *
 * Now:
 * - the parser limit is 64 KiB (`maxHeaderBytes`), so ordinary over-long requests reach the edge
 *   middleware, which answers 414 above 8 KiB of URL and 431 above 16 KiB of headers as JSON on a
 *   connection that stays usable (server/security/middleware.ts);
 * - beyond 64 KiB, or for a request that does not parse, the `clientError` listener writes a JSON
 *   answer (431, 413, 408 or 400) with `Connection: close`, half-closes, and keeps reading and
 *   discarding what the client still sends for up to 2 s before closing: a lingering close, so the
 *   answer arrives instead of a reset.
 */
import { createServer, IncomingMessage, type Server, ServerResponse, STATUS_CODES } from "node:http"
import type { Duplex } from "node:stream"

/** Node's parser limit for the request line plus headers. */
export const maxHeaderBytes = 64 * 1024
/** Longest request target (path + query) the edge accepts; longer is 414. */
export const maxUrlBytes = 8 * 1024
/** Largest header section (names + values) the edge accepts; larger is 431. */
export const maxHeaderFieldsBytes = 16 * 1024

const lingerMs = 2_000

export type ClientErrorBody = {
  readonly error: string
  readonly message: string
}

export const uriTooLong: ClientErrorBody = {
  error: "UriTooLong",
  message: `The request URL is longer than ${maxUrlBytes} bytes.`,
}

export const headersTooLarge: ClientErrorBody = {
  error: "RequestHeaderFieldsTooLarge",
  message: `The request headers are larger than ${maxHeaderFieldsBytes} bytes.`,
}

const headTooLarge: ClientErrorBody = {
  error: "RequestHeaderFieldsTooLarge",
  message: `The request line and headers are larger than ${maxHeaderBytes} bytes.`,
}

/** What to answer for a parser error. */
export const clientErrorAnswer = (
  code: string | undefined,
): { readonly status: number; readonly body: ClientErrorBody } => {
  switch (code) {
    // Past 64 KiB the URL and the headers cannot be told apart reliably (the parser reports only
    // the chunk where it stopped), so it is always 431: the head as a whole is too large.
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, body: headTooLarge }
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return {
        status: 413,
        body: { error: "PayloadTooLarge", message: "The chunk extensions are too large." },
      }
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        status: 408,
        body: { error: "RequestTimeout", message: "The request was not received in time." },
      }
    default:
      return {
        status: 400,
        body: { error: "BadRequest", message: "The request could not be parsed as HTTP." },
      }
  }
}

const rawResponse = (status: number, body: ClientErrorBody): string => {
  const json = JSON.stringify(body)
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(json)}`,
    "Cache-Control: no-store",
    "X-Content-Type-Options: nosniff",
    "Connection: close",
    "",
    json,
  ].join("\r\n")
}

interface ParserError extends Error {
  readonly code?: string
}

const answered = new WeakSet<Duplex>()

export const onClientError = (error: ParserError, socket: Duplex): void => {
  if (answered.has(socket)) return
  // Node's own rule: answer only when nothing of a response has been written on this socket.
  const inFlight: unknown = Reflect.get(socket, "_httpMessage")
  const midResponse = inFlight instanceof ServerResponse && inFlight.headersSent
  if (error.code === "ECONNRESET" || !socket.writable || midResponse) {
    socket.destroy()
    return
  }
  answered.add(socket)
  const { status, body } = clientErrorAnswer(error.code)
  socket.end(rawResponse(status, body))
  // Lingering close: drain what the client still sends so closing does not reset the connection.
  socket.on("data", () => undefined)
  socket.on("error", () => undefined)
  socket.resume()
  const timer = setTimeout(() => socket.destroy(), lingerMs)
  timer.unref()
  socket.once("close", () => clearTimeout(timer))
}

/** The most of an unread request body the edge reads and discards before answering (see below). */
export const maxDrainBytes = 8 * 1024 * 1024
/** How long the edge waits for the next piece of an unread body before it gives up on it. */
const drainIdleMs = 5_000

/**
 * Reads and discards what is left of a request body the app answered without reading (a 413 for a
 * declared length over the limit, a 403 origin refusal, a 401 before the payload…), so the answer
 * goes out on a connection that stays open.
 *
 * Why: left unread, the platform drains at most 256 KiB after the answer and otherwise ends the
 * connection and destroys it 500 ms later. A client still uploading then (a large body on a busy
 * machine) meets a TCP reset instead of the answer: the "read ECONNRESET" the contract fuzzer saw
 * under load. nginx does the same "lingering close" for the same reason. Bodies over
 * `maxDrainBytes`, and uploads that stall for `drainIdleMs`, are left to the platform's close.
 * Undefined when there is nothing to wait for (the usual case: no time is spent); otherwise a
 * promise of the body's end or of the wait abandoned, which never rejects.
 */
export const drainUnreadBody = (request: unknown): Promise<void> | undefined => {
  if (!(request instanceof IncomingMessage)) return undefined
  const source: IncomingMessage = request
  if (source.complete || source.readableEnded || source.destroyed) return undefined
  const declared = Number(source.headers["content-length"] ?? Number.NaN)
  if (Number.isFinite(declared) && declared > maxDrainBytes) return undefined
  return new Promise((resolve) => {
    let read = 0
    let timer = setTimeout(done, drainIdleMs)
    function done(): void {
      clearTimeout(timer)
      source.off("data", onData)
      source.off("end", done)
      source.off("error", done)
      source.off("close", done)
      resolve()
    }
    function onData(chunk: Buffer): void {
      read += chunk.length
      if (read > maxDrainBytes) {
        source.pause()
        done()
        return
      }
      clearTimeout(timer)
      timer = setTimeout(done, drainIdleMs)
    }
    source.on("data", onData)
    source.once("end", done)
    source.once("error", done)
    source.once("close", done)
    source.resume()
  })
}

/** `createServer` for `NodeHttpServer.layer`: the 64 KiB parser limit and the `clientError` answers. */
export const createNodeServer = (): Server => {
  const server = createServer({ maxHeaderSize: maxHeaderBytes })
  // Idle keep-alive connections outlive the proxy's (HAProxy's pool, compose/cluster/haproxy.cfg):
  // the side that closes an idle connection must be the one that would otherwise send on it, or a
  // request sent as the node closes it is lost. A drain closes idle connections at once anyway.
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  server.on("clientError", onClientError)
  return server
}
