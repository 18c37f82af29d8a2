/**
 * The server's edge, applied to every request (a global `HttpRouter` middleware):
 *
 * 1. Origin check on writes (POST, PUT, PATCH, DELETE): a present `Origin` must be one of
 *    ALLOWED_ORIGINS or the request's own host (same origin), otherwise 403
 *    `{ "error": "ForbiddenOrigin" }`; without `Origin`, a request the browser marks
 *    `Sec-Fetch-Site: cross-site` is refused the same way. Clients that send neither (curl,
 *    server-to-server) pass: the session cookie is SameSite=Lax anyway.
 * 2. Body size: a declared `Content-Length` above the route's limit is answered 413 JSON before
 *    the body is read (64 KiB for the error logger, 1 MiB elsewhere); `MaxBodySize` caps bodies
 *    sent without a length.
 * 3. Client mistakes are never 500: the contract's schema failures (malformed JSON, wrong shapes,
 *    bad path/query parameters) become 400 `{ "error": "BadRequest", "kind", "message" }`.
 * 4. Security headers on every response (CSP, nosniff, Referrer-Policy, frame-ancestors) and one
 *    log line per request: method, path, status, milliseconds.
 */
import { ByteSize, Cause, Effect } from "effect"
import {
  HttpEffect,
  HttpIncomingMessage,
  HttpRouter,
  HttpServerRequest,
  HttpServerResponse,
} from "effect/http"
import { HttpApiError } from "effect/http-api"
import type { AppConfigShape } from "../config.ts"
import { errorReportMaxBytes } from "../errorlog/http.ts"

export const defaultMaxBodyBytes = 1024 * 1024

const writeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"])

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

/** The app's Content-Security-Policy. The ALTCHA widget solves in web workers (blob:) and may use WebAssembly. */
export const appCsp = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self'",
  "frame-src 'self' https:",
  "frame-ancestors 'self'",
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

export const edgeMiddleware = (config: AppConfigShape) =>
  HttpRouter.middleware(
    (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const started = performance.now()
        const path = pathOf(request.url)
        const csp = path === "/docs" || path.startsWith("/docs/") ? docsCsp : appCsp

        yield* HttpEffect.appendPreResponseHandler((_req, response) =>
          Effect.gen(function* () {
            const ms = Math.round((performance.now() - started) * 10) / 10
            yield* Effect.logInfo(`${request.method} ${path} ${response.status} ${ms}ms`)
            let res = HttpServerResponse.setHeaders(response, {
              "content-security-policy": csp,
              "x-content-type-options": "nosniff",
              "referrer-policy": "strict-origin-when-cross-origin",
              "x-frame-options": "SAMEORIGIN",
              "cross-origin-resource-policy": "same-origin",
            })
            if (config.nodeEnv === "production" && config.publicUrl.startsWith("https://")) {
              res = HttpServerResponse.setHeader(res, "strict-transport-security", "max-age=15552000")
            }
            return res
          }),
        )

        if (writeMethods.has(request.method)) {
          if (!isOriginAllowed(config, request.headers)) {
            return jsonError(403, {
              error: "ForbiddenOrigin",
              message: "This request does not come from an allowed origin.",
            })
          }
          const limit = path === "/api/error-logger" ? errorReportMaxBytes : defaultMaxBodyBytes
          const declared = request.headers["content-length"]
          if (declared !== undefined && Number(declared) > limit) {
            return jsonError(413, {
              error: "PayloadTooLarge",
              message: `The request body is larger than ${limit} bytes.`,
              limit,
            })
          }
          const response = yield* httpEffect.pipe(
            Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(limit)),
            Effect.catchDefect((defect) => mapDefect(defect)),
          )
          if (response.status === 415) {
            return jsonError(415, {
              error: "UnsupportedMediaType",
              message: "Send the request body as application/json.",
            })
          }
          return response
        }
        return yield* httpEffect.pipe(Effect.catchDefect((defect) => mapDefect(defect)))
      }),
    { global: true },
  )

const mapDefect = (defect: unknown) => {
  if (HttpApiError.HttpApiSchemaError.is(defect) && clientSchemaKinds.has(defect.kind)) {
    return Effect.succeed(
      jsonError(400, {
        error: "BadRequest",
        kind: defect.kind,
        message: schemaMessage(defect),
      }),
    )
  }
  return Effect.failCause(Cause.die(defect))
}
