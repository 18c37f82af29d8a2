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
import { Sandbox } from "./Sandbox.ts"
import { SandboxRepo } from "./SandboxRepo.ts"

export { SANDBOX_PREFIX } from "./http.ts"

// ONE Sandbox instance serves the routes and the dispatcher (its wake-up signal is in-process).
const Provider = Layer.unwrap(
  Effect.gen(function* () {
    const services = Layer.succeedContext(
      Context.make(Sandbox, yield* Sandbox).pipe(Context.add(SandboxRepo, yield* SandboxRepo)),
    )
    return Layer.mergeAll(
      Layer.mergeAll(merchantRoutes, pageRoutes).pipe(HttpRouter.provideRequest(services)),
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
