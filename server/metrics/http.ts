/**
 * `GET /metrics`: the Prometheus text exposition of ./registry.ts, on the casino's own port, for
 * the addresses of METRICS_ALLOW only (the client IP as TRUST_PROXY resolves it: `Geo.clientIp`,
 * what the rate limits and BACKOFFICE_ALLOW use). Anyone else gets exactly what the catch-all
 * answers an unknown path (404 JSON, or the app's page to a browser): the endpoint is not
 * advertised, so it is not in the endpoint index either (a POST is a plain 404, not a 405).
 *
 * Also the `route` label of every request (`routeLabel`): the endpoint's template, `*` for the
 * catch-all that serves the apps' files and pages, `unmatched` for what no route takes.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import proxyaddr from "proxy-addr"
import type { AppConfigShape } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import type { EndpointIndex } from "../static/endpoints.ts"
import { isApiPath, makeStaticHandler } from "../static/http.ts"
import { exposition } from "./registry.ts"

export const METRICS_PATH = "/metrics"

/** The `route` label of a request: bounded whatever the client sends. */
export const routeLabel =
  (config: Pick<AppConfigShape, "cdnBasePath">, endpoints: EndpointIndex) =>
  (method: string, path: string): string => {
    if (path === METRICS_PATH) return METRICS_PATH
    const template = endpoints.routeOf(method, path)
    if (template !== undefined) return template
    const catchAll = (method === "GET" || method === "HEAD") && !isApiPath(config, path)
    return catchAll ? "*" : "unmatched"
  }

export const metricsRoute = (config: AppConfigShape, endpoints: EndpointIndex) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const geo = yield* Geo
      // Empty list: nobody (production's default). proxy-addr matches IPv4 networks and IPv6 alike.
      const allowed =
        config.metricsAllow.length === 0 ? () => false : proxyaddr.compile([...config.metricsAllow])
      const elsewhere = makeStaticHandler(config, endpoints)
      const handler = Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (!allowed(geo.clientIp(request), 0)) return yield* elsewhere(request)
        const { body, contentType } = yield* Effect.promise(exposition)
        return HttpServerResponse.text(body, { contentType, headers: { "cache-control": "no-store" } })
      })
      return HttpRouter.add("GET", METRICS_PATH, handler)
    }),
  )
