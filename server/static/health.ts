/**
 * Liveness and readiness, apart (a load balancer checks the second, an orchestrator the first):
 *
 * - `GET /health`: this process is alive and answering. 200 while it runs, whatever its database
 *   does (restarting a node does not bring a database back); the body says whether the database
 *   answers and in which mode the server runs — so a load balancer, an operator and a developer see
 *   at once when a server runs on test parts ("local sandbox mode: test cards and test keys, no
 *   real money", server/security/production.ts).
 * - `GET /ready`: whether to send this node players now. 503 while its database does not answer
 *   (and 200 again as soon as it does, no restart) and from the moment a drain begins (SIGTERM).
 *
 * Not part of the player contract: no player data, nothing cached.
 */
import { Duration, Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import type { AppConfigShape } from "../config.ts"
import type { LifecycleShape } from "../lifecycle/Lifecycle.ts"
import { inSandboxMode, SANDBOX_MODE } from "../security/production.ts"

export const healthEndpoints = [
  { method: "GET", path: "/health" },
  { method: "GET", path: "/ready" },
] as const

const noStore = { "cache-control": "no-store" }

/** `SELECT 1` within 2 s: a database that hangs is as unavailable as one that refuses. */
const databaseAnswers = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql`SELECT 1`.pipe(
    Effect.timeout(Duration.seconds(2)),
    Effect.as("ok" as const),
    Effect.orElseSucceed(() => "unavailable" as const),
  )
})

export const healthRoute = (config: AppConfigShape, lifecycle: LifecycleShape) => {
  const mode = inSandboxMode(config) ? SANDBOX_MODE : "live"
  return HttpRouter.addAll([
    HttpRouter.route(
      "GET",
      "/health",
      Effect.gen(function* () {
        const database = yield* databaseAnswers
        return HttpServerResponse.jsonUnsafe(
          { status: "ok", database, mode, draining: lifecycle.isDraining() },
          { status: 200, headers: noStore },
        )
      }),
    ),
    HttpRouter.route(
      "GET",
      "/ready",
      Effect.gen(function* () {
        if (lifecycle.isDraining())
          return HttpServerResponse.jsonUnsafe({ status: "draining" }, { status: 503, headers: noStore })
        const database = yield* databaseAnswers
        return HttpServerResponse.jsonUnsafe(
          { status: database === "ok" ? "ready" : "not-ready", database },
          { status: database === "ok" ? 200 : 503, headers: noStore },
        )
      }),
    ),
  ])
}
