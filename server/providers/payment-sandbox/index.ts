/**
 * The built-in sandbox payment provider (docs/payment-sandbox.md): its routes under /sandbox-pay/,
 * the webhook dispatcher and the expiry sweeper, as one layer the casino server mounts — or nothing
 * at all with SANDBOX_PAYMENTS=off. Needs AppConfig and the database (migration 0020 applied).
 */
import { Context, Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { AppConfig } from "../../config.ts"
import { DispatcherLive } from "./Dispatcher.ts"
import { merchantRoutes } from "./http.ts"
import { pageRoutes } from "./pagesHttp.ts"
import { payoutRoutes } from "./payouts.ts"
import { Sandbox } from "./Sandbox.ts"
import { SandboxRepo } from "./SandboxRepo.ts"

export { SANDBOX_PREFIX } from "./http.ts"

const P = "/sandbox-pay"
/**
 * Every (method, path) the sandbox answers, for the server's endpoint index: a request under
 * /sandbox-pay/ that no route takes is then the API's JSON 405 (+ Allow) or 404, not the player app.
 * Keep in step with `merchantRoutes` (http.ts) and `pageRoutes` (pagesHttp.ts).
 */
export const sandboxEndpoints = [
  { method: "POST", path: `${P}/card/:code/payments` },
  { method: "POST", path: `${P}/skrill/sessions` },
  { method: "POST", path: `${P}/jeton/payments` },
  { method: "POST", path: `${P}/mifinity/init-iframe` },
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
  { method: "POST", path: `${P}/skrill/payouts` },
  { method: "POST", path: `${P}/bank/payouts` },
] as const

// ONE Sandbox instance serves the routes and the dispatcher (its wake-up signal is in-process).
const Provider = Layer.unwrap(
  Effect.gen(function* () {
    const services = Layer.succeedContext(
      Context.make(Sandbox, yield* Sandbox).pipe(Context.add(SandboxRepo, yield* SandboxRepo)),
    )
    return Layer.mergeAll(
      Layer.mergeAll(merchantRoutes, pageRoutes, payoutRoutes).pipe(HttpRouter.provideRequest(services)),
      DispatcherLive.pipe(Layer.provide(services)),
    )
  }),
).pipe(Layer.provide(Sandbox.layerNoDeps.pipe(Layer.provideMerge(SandboxRepo.layer))))

export const paymentSandboxLayer = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    return config.sandboxPayments ? Provider : Layer.empty
  }),
)
