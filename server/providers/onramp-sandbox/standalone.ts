/**
 * The sandbox on-ramp on its own HTTP server (no casino routes): migrations and reference data (the
 * rates it sells at), its routes, and the faucets it is given. Tests use it with a faucet double;
 * `config.publicUrl` must be the address the pages are reached at.
 */
import { Layer } from "effect"
import type { AppConfigShape } from "../../config.ts"
import { seed } from "../../db/seed.ts"
import { OperatorAudit } from "../../operator/Audit.ts"
import { Rates } from "../../wallet/Rates.ts"
import { type StandaloneServer, serveStandalone, standaloneBase, startStandalone } from "../standalone.ts"
import { onrampSandboxLayer } from "./index.ts"
import type { OnrampFaucets } from "./OnrampFaucets.ts"

export const makeOnrampLayer = (config: AppConfigShape, faucets: Layer.Layer<OnrampFaucets>) =>
  serveStandalone(
    config,
    onrampSandboxLayer,
    Layer.mergeAll(Rates.layer.pipe(Layer.provide(OperatorAudit.layer)), faucets).pipe(
      Layer.provideMerge(standaloneBase(config, seed)),
    ),
  )

export type OnrampServer = StandaloneServer<Layer.Success<ReturnType<typeof makeOnrampLayer>>>

export const makeOnrampServer = (
  config: AppConfigShape,
  faucets: Layer.Layer<OnrampFaucets>,
): Promise<OnrampServer> => startStandalone(config, makeOnrampLayer(config, faucets))
