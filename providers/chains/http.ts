/**
 * The sandbox chains' HTTP API: the UTXO chains' Esplora API (utxo/esplora.ts) and the control API
 * a testnet offers (protocols/chains/faucet.ts): `POST /faucet`, `POST /mine`, and `GET /`, what
 * runs here (the EVM chain's RPC address and id, the Esplora roots).
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  FAUCET_PATH,
  FaucetRequest,
  type FaucetResponse,
  MINE_PATH,
  MineRequest,
  type MineResponse,
} from "../../protocols/chains/faucet.ts"
import { utxoNetworks } from "../../protocols/chains/networks.ts"
import { Chains, type ChainsShape } from "./Chains.ts"
import type { ChainDown, ChainRefused } from "./errors.ts"
import { esploraRoutes, sandboxChainPath } from "./utxo/esplora.ts"

const noStore = { "cache-control": "no-store" }
const json = (status: number, body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: noStore })

/** The request's JSON body decoded with `schema`, or a 400 answer naming what is wrong. */
const bodyOf = <S extends Schema.Codec<unknown, unknown>>(schema: S) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const text = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
    let parsed: unknown
    try {
      parsed = JSON.parse(text === "" ? "{}" : text)
    } catch {
      return { ok: false as const, response: json(400, { error: "the body is not JSON" }) }
    }
    return yield* Schema.decodeUnknownEffect(schema)(parsed).pipe(
      Effect.map((value) => ({ ok: true as const, value: value as S["Type"] })),
      Effect.catch((error) =>
        Effect.succeed({ ok: false as const, response: json(400, { error: String(error.message) }) }),
      ),
    )
  })

const refusal = (error: ChainRefused | ChainDown) =>
  error._tag === "ChainDown" ? json(503, { error: error.message }) : json(422, { error: error.message })

const routes = (chains: ChainsShape) =>
  Layer.mergeAll(
    esploraRoutes(chains.utxo),
    HttpRouter.add(
      "POST",
      FAUCET_PATH,
      Effect.gen(function* () {
        const body = yield* bodyOf(FaucetRequest)
        if (!body.ok) return body.response
        const { currency, to, amount } = body.value
        return yield* chains.faucet(currency, to, BigInt(amount)).pipe(
          Effect.map((txHash) => json(200, { txHash } satisfies FaucetResponse)),
          Effect.catch((error) => Effect.succeed(refusal(error))),
        )
      }),
    ),
    HttpRouter.add(
      "POST",
      MINE_PATH,
      Effect.gen(function* () {
        const body = yield* bodyOf(MineRequest)
        if (!body.ok) return body.response
        return yield* chains.mine(body.value.network, body.value.blocks ?? 1).pipe(
          Effect.map((tips) => json(200, { tips } satisfies MineResponse)),
          Effect.catch((error) => Effect.succeed(refusal(error))),
        )
      }),
    ),
    HttpRouter.add(
      "GET",
      "/",
      Effect.succeed(
        json(200, {
          sandbox: true,
          evm: {
            rpcUrl: chains.evm.rpcUrl,
            chainId: chains.evm.chainId,
            usdtContract: chains.evm.usdtContract,
          },
          esplora: Object.fromEntries(utxoNetworks.map((n) => [n, sandboxChainPath(n)])),
          faucet: FAUCET_PATH,
          mine: MINE_PATH,
        }),
      ),
    ),
  )

export const chainsRoutes = Layer.unwrap(Effect.map(Effect.service(Chains), routes))
