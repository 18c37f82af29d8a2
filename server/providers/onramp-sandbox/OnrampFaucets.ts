/**
 * Which `SandboxFaucet` pays out each currency the sandbox on-ramp sells (docs/onramp.md): the EVM
 * sandbox (anvil) for ETH and USDT, the UTXO sandbox for BTC, LTC and DOGE. `OnrampFaucets.layer`
 * is the registry the server starts with and the ONE place they are plugged in. A currency without a faucet is
 * refused by the purchase page with a clear message, never sold.
 */
import { Context, Effect, Layer } from "effect"
import type { CryptoCurrency } from "../../../services/crypto-service.ts"
import type { SandboxFaucet } from "../../crypto/chain.ts"
import { EvmNode } from "../../crypto/evm/EvmNode.ts"
import { UtxoSandbox } from "../utxo-sandbox/index.ts"

export interface OnrampFaucetsShape {
  readonly forCurrency: (currency: CryptoCurrency) => SandboxFaucet | undefined
}

/** The registry over some faucets: the first faucet listing a currency pays it. */
export const faucetRegistry = (faucets: ReadonlyArray<SandboxFaucet>): OnrampFaucetsShape => ({
  forCurrency: (currency) => faucets.find((f) => f.currencies.includes(currency)),
})

export class OnrampFaucets extends Context.Service<OnrampFaucets, OnrampFaucetsShape>()(
  "casino/server/providers/onramp-sandbox/OnrampFaucets",
) {
  static readonly fromFaucets = (faucets: ReadonlyArray<SandboxFaucet>): Layer.Layer<OnrampFaucets> =>
    Layer.succeed(OnrampFaucets, faucetRegistry(faucets))
  /**
   * The server's registry: the EVM sandbox (anvil: ETH, USDT) when CHAIN_SANDBOX=on, and the UTXO
   * sandbox (BTC, LTC, DOGE; without chains when the sandbox is off, so it lists no currency).
   */
  static readonly layer: Layer.Layer<OnrampFaucets, never, EvmNode | UtxoSandbox> = Layer.effect(
    OnrampFaucets,
    Effect.gen(function* () {
      const { sandbox } = yield* EvmNode
      const utxo = yield* UtxoSandbox
      return faucetRegistry(sandbox === undefined ? [utxo] : [sandbox.faucet, utxo])
    }),
  )
}
