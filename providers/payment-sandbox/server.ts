/**
 * The payment sandbox as a service of its own (docs/payment-sandbox.md): its database (its own
 * schema, or its own PGlite folder) migrated from its own migrations, its merchant API, payer pages
 * and payout API under /sandbox-pay/, the webhook dispatcher and the expiry sweeper — on its own port.
 * `startPaymentSandbox(config)` is what main.ts (run alone) and the composition root call.
 */
import { fileURLToPath } from "node:url"
import { Context, Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { makeDbLayer } from "../../lib/db/client.ts"
import { migrate } from "../../lib/db/migrate.ts"
import { type RunningService, serveRoutes, startService } from "../../lib/serve.ts"
import { merchantPaths } from "../../protocols/payments/merchant.ts"
import { payoutPath } from "../../protocols/payments/payouts.ts"
import { type PaymentSandboxConfig, SandboxConfig } from "./config.ts"
import { DispatcherLive } from "./Dispatcher.ts"
import { json, merchantRoutes, SANDBOX_PREFIX } from "./http.ts"
import { pageRoutes } from "./pagesHttp.ts"
import { payoutRoutes } from "./payouts.ts"
import { Sandbox } from "./Sandbox.ts"
import { SandboxRepo } from "./SandboxRepo.ts"

export const migrationsDir = fileURLToPath(new URL("./migrations/", import.meta.url))

const P = SANDBOX_PREFIX
/**
 * Every (method, path) the sandbox answers: any other request is a JSON 404, or 405 with `Allow`
 * for a known path asked with another method. Keep in step with http.ts, pagesHttp.ts, payouts.ts.
 */
export const sandboxEndpoints = [
  { method: "POST", path: `${P}${merchantPaths.card(":code")}` },
  { method: "POST", path: `${P}${merchantPaths.skrill}` },
  { method: "POST", path: `${P}${merchantPaths.jeton}` },
  { method: "POST", path: `${P}${merchantPaths.mifinity}` },
  { method: "PUT", path: `${P}/control/gateways/:code` },
  { method: "GET", path: `${P}/control/payments/:id` },
  { method: "GET", path: `${P}/card/:code/pay/:id` },
  { method: "POST", path: `${P}/card/:code/pay/:id` },
  { method: "POST", path: `${P}/card/:code/pay/:id/3ds` },
  { method: "GET", path: `${P}/skrill/app/:id` },
  { method: "GET", path: `${P}/jeton/pay/:id` },
  { method: "GET", path: `${P}/mifinity/widget` },
  { method: "POST", path: `${P}/wallet/:id/sign-in` },
  { method: "POST", path: `${P}/wallet/:id/decide` },
  { method: "POST", path: `${P}${payoutPath("skrill")}` },
  { method: "POST", path: `${P}${payoutPath("bank")}` },
] as const

const patterns = sandboxEndpoints.map((e) => ({
  method: e.method,
  regex: new RegExp(`^${e.path.replace(/:[a-z]+/gi, "[^/]+")}$`),
}))

/** Whatever no route takes: 405 + Allow for a known path, else 404; JSON either way. */
const unmatched = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const path = new URL(request.url, "http://sandbox.invalid").pathname
  const allowed = [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method))]
  if (allowed.length > 0)
    return HttpServerResponse.jsonUnsafe(
      { error: "method_not_allowed", message: `Use ${allowed.join(" or ")}.` },
      { status: 405, headers: { allow: allowed.join(", "), "cache-control": "no-store" } },
    )
  return json(404, { error: "not_found", message: "No such address." })
})

// ONE Sandbox instance serves the routes and the dispatcher (its wake-up signal is in-process).
const Provider = Layer.unwrap(
  Effect.gen(function* () {
    const services = Layer.succeedContext(
      Context.make(Sandbox, yield* Sandbox).pipe(
        Context.add(SandboxRepo, yield* SandboxRepo),
        Context.add(SandboxConfig, yield* SandboxConfig),
      ),
    )
    return Layer.mergeAll(
      Layer.mergeAll(merchantRoutes, pageRoutes, payoutRoutes, HttpRouter.add("*", "/*", unmatched)).pipe(
        HttpRouter.provideRequest(services),
      ),
      DispatcherLive.pipe(Layer.provide(services)),
    )
  }),
).pipe(Layer.provide(Sandbox.layerNoDeps.pipe(Layer.provideMerge(SandboxRepo.layer))))

/** Its configuration and its database, migrated before anything listens. */
const base = (config: PaymentSandboxConfig) =>
  Layer.effectDiscard(migrate(migrationsDir)).pipe(
    Layer.provideMerge(
      makeDbLayer({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        schema: config.schema,
        applicationName: "payment-sandbox",
      }),
    ),
    Layer.provideMerge(Layer.succeed(SandboxConfig, config)),
  )

export const makePaymentSandboxLayer = (config: PaymentSandboxConfig) =>
  serveRoutes(config, Provider, base(config))

export type PaymentSandboxServer = RunningService<Layer.Success<ReturnType<typeof makePaymentSandboxLayer>>>

/** Starts the sandbox on `config.host:config.port` (0: any free port); rejects if it cannot. */
export const startPaymentSandbox = (config: PaymentSandboxConfig): Promise<PaymentSandboxServer> =>
  startService(config, makePaymentSandboxLayer(config))
