/**
 * ip-service handlers: `GET /ip-service/api/v1/user/currentIp` → the caller's country via `Geo`.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CasinoApi } from "../../services/api.ts"
import { Geo } from "./Geo.ts"

export const IpHandlersLive = HttpApiBuilder.group(
  CasinoApi,
  "ip",
  Effect.fn(function* (handlers) {
    const geo = yield* Geo
    return handlers.handle("currentIp", ({ request }) => geo.lookup(geo.clientIp(request)))
  }),
)
