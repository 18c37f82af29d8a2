/**
 * How the sandbox on-ramp pays a purchase: the sandbox chains' faucet over HTTP
 * (protocols/chains/faucet.ts, `POST <ONRAMP_SANDBOX_CHAINS_URL>/faucet`), as a real on-ramp pays
 * from its own wallets on the real chains. No chain configured or none answering: the purchase
 * fails, nothing is charged.
 */
import { Context, Effect, Layer, Schema } from "effect"
import {
  ChainsError,
  FAUCET_PATH,
  type FaucetRequest,
  FaucetResponse,
} from "../../protocols/chains/faucet.ts"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import { OnrampConfig } from "./OnrampConfig.ts"

/** The chains did not pay: `unreachable` (no answer, not configured) or `refused` (their reason). */
export class FaucetFailed extends Schema.TaggedError<FaucetFailed>()("FaucetFailed", {
  reason: Schema.Literals(["unreachable", "refused"]),
  message: Schema.String,
}) {}

export interface FaucetShape {
  /** Pays `amount` minor units to `to`; answers the transaction hash. */
  readonly send: (currency: CryptoCurrency, to: string, amount: bigint) => Effect.Effect<string, FaucetFailed>
}

const decodeOk = Schema.decodeUnknownEffect(FaucetResponse)
const decodeError = Schema.decodeUnknownEffect(ChainsError)

export const httpFaucet = (chainsUrl: string | undefined, timeoutMs = 15_000): FaucetShape => ({
  send: (currency, to, amount) =>
    Effect.gen(function* () {
      if (chainsUrl === undefined)
        return yield* new FaucetFailed({ reason: "unreachable", message: "no chain is configured" })
      const request: FaucetRequest = { currency, to, amount: amount.toString() }
      const response = yield* Effect.tryPromise({
        try: (signal) =>
          fetch(`${chainsUrl}${FAUCET_PATH}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(request),
            signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
          }),
        catch: (e) =>
          new FaucetFailed({ reason: "unreachable", message: e instanceof Error ? e.message : String(e) }),
      })
      const body: unknown = yield* Effect.tryPromise({
        try: () => response.json(),
        catch: () =>
          new FaucetFailed({ reason: "unreachable", message: `HTTP ${response.status}, not JSON` }),
      })
      if (response.ok)
        return (yield* decodeOk(body).pipe(
          Effect.mapError(
            () => new FaucetFailed({ reason: "unreachable", message: "an answer without txHash" }),
          ),
        )).txHash
      const error = yield* decodeError(body).pipe(
        Effect.map((e) => e.error),
        Effect.orElseSucceed(() => `HTTP ${response.status}`),
      )
      // 422: the chain refused this transfer; anything else: it could not do it now.
      return yield* new FaucetFailed({
        reason: response.status === 422 ? "refused" : "unreachable",
        message: error,
      })
    }),
})

export class Faucet extends Context.Service<Faucet, FaucetShape>()("onramp-sandbox/Faucet") {
  static readonly layer = Layer.effect(
    Faucet,
    Effect.map(Effect.service(OnrampConfig), (config) => httpFaucet(config.chainsUrl)),
  )
}
