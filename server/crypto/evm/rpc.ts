/**
 * The JSON-RPC client the EVM adapter and the hot wallet share: viem's public client
 * over HTTP with its response cache OFF (`cacheTime: 0`: a watcher asking "what is the tip now"
 * must not get a 4-second-old answer), and one way to turn a failed call into `ChainUnavailable`.
 */
import { Effect } from "effect"
import { createPublicClient, http, type PublicClient } from "viem"
import { ChainUnavailable } from "../chain.ts"

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
