/**
 * `GET /health`: whether this process can serve (its database answers), and in which mode — so a
 * load balancer, an operator and a developer see at once when a server runs on test parts
 * ("local sandbox mode: test cards and test keys, no real money", server/security/production.ts).
 * Not part of the player contract: no player data, nothing cached.
 */
import { Duration, Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import type { AppConfigShape } from "../config.ts"
import { inSandboxMode, SANDBOX_MODE } from "../security/production.ts"

export const healthEndpoints = [{ method: "GET", path: "/health" }] as const

export const healthRoute = (config: AppConfigShape) => {
  const mode = inSandboxMode(config) ? SANDBOX_MODE : "live"
  return HttpRouter.add(
    "GET",
    "/health",
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const database = yield* sql`SELECT 1`.pipe(
        Effect.timeout(Duration.seconds(2)),
        Effect.as("ok" as const),
        Effect.orElseSucceed(() => "unavailable" as const),
      )
      return HttpServerResponse.jsonUnsafe(
        { status: database === "ok" ? "ok" : "unavailable", database, mode },
        { status: database === "ok" ? 200 : 503, headers: { "cache-control": "no-store" } },
      )
    }),
  )
}
