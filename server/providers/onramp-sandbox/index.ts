/**
 * The sandbox on-ramp (docs/onramp.md): its routes under /sandbox-onramp/ as one layer the casino
 * server mounts — or nothing at all with ONRAMP_SANDBOX=off. Needs AppConfig, the database
 * (migration 0042), Rates and OnrampFaucets (the chain sandboxes' faucets).
 */
import { Context, Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { AppConfig } from "../../config.ts"
import { onrampRoutes } from "./http.ts"
import { Onramp } from "./Onramp.ts"

import { OrdersRepo } from "./OrdersRepo.ts"

export { onrampSandboxEndpoints } from "./http.ts"
export { faucetRegistry, OnrampFaucets } from "./OnrampFaucets.ts"

const Provider = Layer.unwrap(
  Effect.gen(function* () {
    const services = Layer.succeedContext(
      Context.make(Onramp, yield* Onramp).pipe(Context.add(AppConfig, yield* AppConfig)),
    )
    return onrampRoutes.pipe(HttpRouter.provideRequest(services))
  }),
).pipe(Layer.provide(Onramp.layerNoDeps.pipe(Layer.provide(OrdersRepo.layer))))

export const onrampSandboxLayer = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    return config.onrampSandbox ? Provider : Layer.empty
  }),
)
