/**
 * The server's edge, applied to every request (a global `HttpRouter` middleware):
 *
 * 1. Size of the request head: a URL over 8 KiB is 414 `UriTooLong`, headers over 16 KiB are 431
 *    `RequestHeaderFieldsTooLarge` (larger heads never parse: server/security/nodeServer.ts).
 * 2. Host routing (server/static/hosts.ts): with BACKOFFICE_URL, the back office's host serves
 *    only the back office and the other hosts everything else (404 JSON, its root a 308 to
 *    `/backoffice/`). Then the Origin check on writes (POST, PUT, PATCH, DELETE): a present
 *    `Origin` must be one of ALLOWED_ORIGINS or the request's own host (same origin) — for the
 *    back-office API with BACKOFFICE_URL, that origin alone — otherwise 403
 *    `{ "error": "ForbiddenOrigin" }`; without `Origin`, a request the browser marks
 *    `Sec-Fetch-Site: cross-site` is refused the same way. Clients that send neither (curl,
 *    server-to-server) pass: the session cookie is SameSite=Lax anyway.
 * 3. Body size: a declared `Content-Length` above the route's limit is answered 413 JSON before
 *    the body is read (64 KiB for the error logger, 1 MiB elsewhere, and the `bodyLimits` a module
 *    declares for its paths — the verification-document uploads); `MaxBodySize` caps bodies sent
 *    without a length. A path with its own limit may also give its 413 (and the 415 for a body
 *    of the wrong type) in its contract's words.
 * 4. Client mistakes are never 500: the contract's schema failures (malformed JSON, wrong shapes,
 *    bad path/query parameters) become 400 `{ "error": "BadRequest", "kind", "message" }`; a
 *    request no route takes is 405 + `Allow` on a known path, else 404 (server/static/endpoints.ts);
 *    other 4xx the framework answers get a JSON body too.
 * 5. Every 500 is logged with its cause and answered `{ "error": "InternalError", "message" }`,
 *    which names nothing of the cause.
 * 6. Compression of answers held in memory by Accept-Encoding, `Vary: Accept-Encoding`
 *    (server/security/compression.ts).
 * 7. Security headers on every response (CSP, nosniff, Referrer-Policy, frame-ancestors), one
 *    log line per request (method, path, status, milliseconds), counted in the metrics too
 *    (`http_requests_total`, `http_request_duration_seconds` by route template: server/metrics/).
 *    The back office (its paths, and anything on its own host) has a strict CSP of its own:
 *    nothing from another origin, never framed. In local sandbox mode the CSP's
 *    frames, and the parties' addresses in JSON answers, follow the host the player typed
 *    (server/security/frameHosts.ts).
 */
import { STATUS_CODES } from "node:http"
import { ByteSize, Cause, Effect } from "effect"
import {
  HttpBody,
  HttpEffect,
  HttpIncomingMessage,
  HttpRouter,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse,
  Multipart,
} from "effect/http"
import { HttpApiError } from "effect/http-api"
import { chatOrigins } from "../chat/config.ts"
import type { AppConfigShape } from "../config.ts"
import { errorReportMaxBytes } from "../errorlog/http.ts"
import type { LifecycleShape } from "../lifecycle/Lifecycle.ts"
import { observeRequest } from "../metrics/registry.ts"
import { apiFallback, type EndpointIndex } from "../static/endpoints.ts"
import { isBackofficeApiPath, makeHostRouting } from "../static/hosts.ts"
import { compressDynamic } from "./compression.ts"
import { casinoFrameAncestors, makeFrameHosts, type RequestFrames, rewriteOrigins } from "./frameHosts.ts"
import {
  drainUnreadBody,
  headersTooLarge,
  maxHeaderFieldsBytes,
  maxUrlBytes,
  uriTooLong,
} from "./nodeServer.ts"
import { REQUEST_ID_HEADER, requestIdFrom } from "./requestId.ts"

export const defaultMaxBodyBytes = 1024 * 1024

/** A route family with its own body limit (e.g. file uploads) and its own 413/415 answers. */
export interface BodyLimit {
  readonly paths: ReadonlyArray<string>
  readonly maxBytes: number
  /** The 413 answer, e.g. the contract's error; the generic PayloadTooLarge otherwise. */
  readonly tooLarge?: () => HttpServerResponse.HttpServerResponse
  /** What to send instead, for the generic 415 (e.g. "multipart/form-data with a part named file"). */
  readonly expectedMediaType?: string
}

const writeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** `/unsubscribe/abc` → `/unsubscribe/…`; `/` and one-segment paths as they are (at most 64 chars). */
export const firstSegment = (path: string): string => {
  const end = path.indexOf("/", 1)
  return end === -1 ? path.slice(0, 64) : `${path.slice(0, Math.min(end, 64))}/…`
}

export const pathOf = (url: string): string => {
  const q = url.search(/[?#]/)
  return q === -1 ? url : url.slice(0, q)
}

/** The host (with port) an Origin header names, lower-case; undefined for "null" or garbage. */
const originHost = (origin: string): string | undefined => {
  try {
    const url = new URL(origin)
    return url.protocol === "http:" || url.protocol === "https:" ? url.host.toLowerCase() : undefined
  } catch {
    return undefined
  }
}

/**
 * A write is allowed when its Origin is in ALLOWED_ORIGINS, or names the very host the request was
 * sent to (Origin host = Host header: a same-origin request, whatever address the site is reached
 * by). Without Origin, only a browser-declared cross-site request is refused.
 */
export const isOriginAllowed = (
  config: Pick<AppConfigShape, "allowedOrigins">,
  headers: Readonly<Record<string, string | undefined>>,
): boolean => {
  const origin = headers.origin
  if (origin === undefined) return headers["sec-fetch-site"] !== "cross-site"
  if (config.allowedOrigins.includes(origin.replace(/\/+$/, ""))) return true
  const host = headers.host?.toLowerCase()
  return host !== undefined && originHost(origin) === host
}

/**
 * A write to the back-office API when it has a host of its own: its Origin must be BACKOFFICE_URL's
 * (ALLOWED_ORIGINS are the player app's); without Origin, as above.
 */
export const isBackofficeOriginAllowed = (
  backofficeUrl: string,
  headers: Readonly<Record<string, string | undefined>>,
): boolean => {
  const origin = headers.origin
  if (origin === undefined) return headers["sec-fetch-site"] !== "cross-site"
  return origin.replace(/\/+$/, "").toLowerCase() === backofficeUrl
}

/**
 * The back office's Content-Security-Policy: its own scripts, styles and API only (the QR code of
 * the enrolment may be a data: image), no third-party origin at all, never framed. A script
 * injected into a player page, or the chat vendor's, cannot run here.
 */
export const backofficeCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ")

/**
 * The app's Content-Security-Policy. The ALTCHA widget solves in web workers (blob:) and may use
 * WebAssembly. Frames and images: this origin, any https source (payment pages, games and their
 * art, on-ramp widgets), and the plain-http origins of this request's frames (FRAME_ORIGINS: a
 * provider's test environment on this machine, followed to the host the player typed:
 * server/security/frameHosts.ts). Framed only by itself (and in local sandbox mode by its loopback
 * twin: the payment page's return).
 */
export const appCsp = (
  frameOrigins: ReadonlyArray<string> = [],
  frameAncestors: ReadonlyArray<string> = ["'self'"],
  // CHAT_PROVIDER=chatwoot: its SDK script and its API/websocket (server/chat/config.ts).
  chatOrigins: ReadonlyArray<string> = [],
): string =>
  [
    "default-src 'self'",
    ["script-src 'self' 'wasm-unsafe-eval'", ...chatOrigins.filter((o) => o.startsWith("http"))].join(" "),
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob: https:", ...frameOrigins].join(" "),
    "font-src 'self' data:",
    ["connect-src 'self'", ...chatOrigins].join(" "),
    "media-src 'self'",
    ["frame-src 'self' https:", ...frameOrigins].join(" "),
    ["frame-ancestors", ...frameAncestors].join(" "),
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ")

/** /docs (Scalar) inlines its script and styles. */
export const docsCsp = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ")

const jsonError = (status: number, body: Record<string, unknown>) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })

const schemaMessage = (error: HttpApiError.HttpApiSchemaError): string => {
  const text = error.cause.message
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text
}

const clientSchemaKinds = new Set(["Params", "Headers", "Query", "Payload"])

/** Bytes of the header section as sent (names, values, ": " and CRLF), near enough. */
const headerBytes = (headers: Readonly<Record<string, string | undefined>>): number => {
  let total = 0
  for (const name in headers) total += name.length + (headers[name]?.length ?? 0) + 4
  return total
}

const notFound = { error: "NotFound", message: "There is nothing at this address." } as const

export const internalErrorBody = {
  error: "InternalError",
  message: "Something went wrong on our side. It has been logged; please try again later.",
} as const

const internalError = () => jsonError(500, internalErrorBody)

/** Names for the JSON body of a 4xx the framework answers without one (RequestParseError …). */
const clientErrorNames: Readonly<Record<number, string>> = {
  400: "BadRequest",
  404: "NotFound",
  405: "MethodNotAllowed",
  408: "RequestTimeout",
  413: "PayloadTooLarge",
  415: "UnsupportedMediaType",
}

const withJsonBody = (response: HttpServerResponse.HttpServerResponse) => {
  if (response.body._tag !== "Empty") return response
  const text = STATUS_CODES[response.status] ?? "Error"
  const error = clientErrorNames[response.status] ?? text.replace(/[^A-Za-z]/g, "")
  return HttpServerResponse.jsonUnsafe(
    { error, message: `${text}.` },
    { status: response.status, headers: { ...response.headers, "cache-control": "no-store" } },
  )
}

/** A multipart form refused for its shape (too many parts, a text field too long), not its size. */
const isFormShapeTooLarge = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some(
    (r) =>
      r._tag === "Die" &&
      Multipart.isMultipartError(r.defect) &&
      (r.defect.reason._tag === "TooManyParts" || r.defect.reason._tag === "FieldTooLarge"),
  )

const isRouteNotFound = (error: unknown): boolean =>
  HttpServerError.isHttpServerError(error) && error.reason._tag === "RouteNotFound"

/** Whether the answer is a JSON body (a contract error keeps its own 415 body). */
const isJsonAnswer = (response: HttpServerResponse.HttpServerResponse): boolean =>
  response.body._tag !== "Empty" && (response.body.contentType ?? "").startsWith("application/json")

export const edgeMiddleware = (
  config: AppConfigShape,
  endpoints: EndpointIndex,
  bodyLimits: ReadonlyArray<BodyLimit> = [],
  /** The metrics' `route` label: a template, never the raw path (server/metrics/http.ts). */
  routeOf: (method: string, path: string) => string = (method, path) =>
    endpoints.routeOf(method, path) ?? "unmatched",
  /** While it drains, every answer closes its connection: the client's next request goes elsewhere. */
  lifecycle?: LifecycleShape,
) => {
  const frames = makeFrameHosts(config)
  const hosts = makeHostRouting(config)
  const ancestors = casinoFrameAncestors(config)
  const cspOf = new Map<ReadonlyArray<string>, string>()
  /** The player CSP for this request's frames (one string per distinct origin list, kept). */
  const playerCsp = (origins: ReadonlyArray<string>): string => {
    let csp = cspOf.get(origins)
    if (csp === undefined) {
      csp = appCsp(origins, ancestors, chatOrigins(config.chat))
      if (cspOf.size >= 64) cspOf.clear()
      cspOf.set(origins, csp)
    }
    return csp
  }
  return HttpRouter.middleware(
    (httpEffect) =>
      Effect.gen(function* () {
        const incoming = yield* HttpServerRequest.HttpServerRequest
        const requestId = requestIdFrom(incoming.headers[REQUEST_ID_HEADER])
        return yield* answerRequest(httpEffect, requestId).pipe(Effect.annotateLogs({ requestId }))
      }),
    { global: true },
  )

  function answerRequest<E, R>(
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
    requestId: string,
  ) {
    return Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const started = performance.now()
      const path = pathOf(request.url)
      const requestFrames = frames.forHost(request.headers.host)
      const backoffice = hosts.isBackofficeHost(request.headers.host) || hosts.isBackoffice(path)
      const csp = backoffice
        ? backofficeCsp
        : path === "/docs" || path.startsWith("/docs/")
          ? docsCsp
          : playerCsp(requestFrames.origins)
      const special = bodyLimits.find((b) => b.paths.includes(path))

      yield* HttpEffect.appendPreResponseHandler((_req, response) =>
        Effect.gen(function* () {
          const elapsed = performance.now() - started
          const ms = Math.round(elapsed * 10) / 10
          // The route's template, never an id or a token a path may carry; a path no route has as is.
          const route = routeOf(request.method, path)
          // A page or a path no route has keeps only its first segment: a page's address may carry a
          // token (`/unsubscribe/<token>`), a path typed by anyone anything.
          const logged = route === "*" || route === "unmatched" ? firstSegment(path) : route
          // The answer's hook runs outside the request's annotations: the id is given again.
          yield* Effect.logInfo(`${request.method} ${logged} ${response.status} ${ms}ms`).pipe(
            Effect.annotateLogs({ requestId }),
          )
          observeRequest(request.method, route, response.status, elapsed / 1000)
          let res = HttpServerResponse.setHeaders(response, {
            [REQUEST_ID_HEADER]: requestId,
            // A response with a policy of its own keeps it (a user-uploaded file's `sandbox`).
            "content-security-policy": response.headers["content-security-policy"] ?? csp,
            "x-content-type-options": "nosniff",
            "referrer-policy": "strict-origin-when-cross-origin",
            "x-frame-options": backoffice ? "DENY" : "SAMEORIGIN",
            "cross-origin-resource-policy": "same-origin",
          })
          if (config.nodeEnv === "production" && config.publicUrl.startsWith("https://")) {
            res = HttpServerResponse.setHeader(res, "strict-transport-security", "max-age=15552000")
          }
          if (lifecycle?.isDraining() === true) res = HttpServerResponse.setHeader(res, "connection", "close")
          return res
        }),
      )

      /** Whatever the app failed with, as an answer: 4xx for the client's mistakes, logged 500 otherwise. */
      const recover = (cause: Cause.Cause<unknown>) =>
        Effect.gen(function* () {
          // The client went away or the server is stopping: nothing to answer, nothing to log.
          if (Cause.hasInterruptsOnly(cause)) return yield* Effect.failCause(cause)
          for (const reason of cause.reasons) {
            if (reason._tag === "Fail" && isRouteNotFound(reason.error)) {
              return apiFallback(endpoints, request.method, path)
            }
            if (reason._tag === "Die") {
              const badRequest = clientSchemaDefect(reason.defect)
              if (badRequest !== undefined) return badRequest
            }
          }
          const [response] = yield* HttpServerError.causeResponse(cause)
          // A body cut while reading (no or a false length, a multipart part over its limit) — not
          // a form with too many parts or an oversized text field, which the generic 413 names.
          if (response.status === 413 && special?.tooLarge !== undefined && !isFormShapeTooLarge(cause)) {
            return special.tooLarge()
          }
          if (response.status < 500) return withJsonBody(response)
          yield* Effect.logError(`${request.method} ${path} failed (answered 500): ${Cause.pretty(cause)}`)
          return internalError()
        })

      const answer = yield* Effect.gen(function* () {
        if (request.url.length > maxUrlBytes) return jsonError(414, uriTooLong)
        if (headerBytes(request.headers) > maxHeaderFieldsBytes) return jsonError(431, headersTooLarge)
        const route = hosts.route(request.headers.host, path)
        if (route === "notFound") return jsonError(404, notFound)
        if (route === "toBackoffice")
          return HttpServerResponse.redirect("/backoffice/", {
            status: 308,
            headers: { "cache-control": "no-store" },
          })
        if (!writeMethods.has(request.method)) return yield* Effect.catchCause(httpEffect, recover)
        const originAllowed =
          config.backofficeUrl !== undefined && isBackofficeApiPath(path)
            ? isBackofficeOriginAllowed(config.backofficeUrl, request.headers)
            : isOriginAllowed(config, request.headers)
        if (!originAllowed) {
          return jsonError(403, {
            error: "ForbiddenOrigin",
            message: "This request does not come from an allowed origin.",
          })
        }
        const limit =
          special?.maxBytes ?? (path === "/api/error-logger" ? errorReportMaxBytes : defaultMaxBodyBytes)
        const tooLarge = () =>
          special?.tooLarge?.() ??
          jsonError(413, {
            error: "PayloadTooLarge",
            message: `The request body is larger than ${limit} bytes.`,
            limit,
          })
        const declared = request.headers["content-length"]
        if (declared !== undefined && Number(declared) > limit) return tooLarge()
        const response = yield* httpEffect.pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(limit)),
          Effect.catchCause(recover),
        )
        if (response.status === 415 && !isJsonAnswer(response)) {
          return jsonError(415, {
            error: "UnsupportedMediaType",
            message: `Send the request body as ${special?.expectedMediaType ?? "application/json"}.`,
          })
        }
        return response
      })
      // A body the answer did not need is read to its end first, so the answer is not lost to a reset.
      const draining = drainUnreadBody(request.source)
      if (draining !== undefined) yield* Effect.promise(() => draining)
      // A 500 a handler returned instead of failing: answered and logged the same way.
      if (answer.status === 500 && answer.body._tag === "Empty") {
        yield* Effect.logError(`${request.method} ${path} answered 500 without a body`)
        return yield* compressDynamic(request, internalError())
      }
      return yield* compressDynamic(request, followFrames(answer, requestFrames.rewrites))
    })
  }
}

/** A JSON answer with the parties' configured origins on the host this request came to (frameHosts.ts). */
const followFrames = (
  response: HttpServerResponse.HttpServerResponse,
  rewrites: RequestFrames["rewrites"],
): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  if (rewrites.length === 0 || body._tag !== "Uint8Array") return response
  if (!(body.contentType ?? "").startsWith("application/json")) return response
  const text = new TextDecoder().decode(body.body)
  const rewritten = rewriteOrigins(text, rewrites)
  if (rewritten === text) return response
  return HttpServerResponse.setBody(response, HttpBody.text(rewritten, body.contentType))
}

/** 400 for the contract's schema failures of the request (path, query, headers, payload). */
const clientSchemaDefect = (defect: unknown) => {
  if (HttpApiError.HttpApiSchemaError.is(defect) && clientSchemaKinds.has(defect.kind)) {
    return jsonError(400, {
      error: "BadRequest",
      kind: defect.kind,
      message: schemaMessage(defect),
    })
  }
  return undefined
}
