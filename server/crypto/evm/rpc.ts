/**
 * The JSON-RPC client the EVM adapter, the hot wallet and the sandbox share: viem's public client
 * over HTTP with its response cache OFF (`cacheTime: 0`: a watcher asking "what is the tip now"
 * must not get a 4-second-old answer), and one way to turn a failed call into `ChainUnavailable`.
 */
import { Effect } from "effect"
import { createPublicClient, http, type PublicClient } from "viem"
import { ChainUnavailable } from "../chain.ts"

/** The mainnet Tether USD (ERC-20) contract; the sandbox installs its token at the same address. */
export const mainnetUsdtContract = "0xdAC17F958D2ee523a2206206994597C13D831ec7" as const

export const evmPublicClient = (rpcUrl: string): PublicClient =>
  createPublicClient({
    transport: http(rpcUrl, { retryCount: 1, timeout: 15_000 }),
    cacheTime: 0,
  })

const describe = (error: unknown): string => {
  if (error instanceof Error) {
    // viem's errors carry a short message and a long multi-line details block: keep the short one.
    const short =
      "shortMessage" in error && typeof error.shortMessage === "string" ? error.shortMessage : error.message
    return short.split("\n")[0] ?? short
  }
  return String(error)
}

/** Runs one RPC round trip; any failure (refused, timeout, RPC error) is `ChainUnavailable`. */
export const rpc = <A>(label: string, call: () => Promise<A>): Effect.Effect<A, ChainUnavailable> =>
  Effect.tryPromise({
    try: call,
    catch: (error) => new ChainUnavailable({ network: "ethereum", message: `${label}: ${describe(error)}` }),
  })

export const errorText = describe
