/** The sandbox on-ramp's configuration as a service (config.ts reads it). */
import { Context, Layer } from "effect"
import type { OnrampSandboxConfig } from "./config.ts"

export class OnrampConfig extends Context.Service<OnrampConfig, OnrampSandboxConfig>()(
  "onramp-sandbox/Config",
) {
  static readonly layerFrom = (config: OnrampSandboxConfig) => Layer.succeed(OnrampConfig, config)
}
