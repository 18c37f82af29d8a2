/**
 * The UTXO sandbox chains (CHAIN_SANDBOX, docs/crypto.md): one in-process chain per UTXO network
 * (BTC, LTC, DOGE) answering the Esplora subset the watcher's adapter reads, under
 * `/sandbox-chain/<network>/api`, so the production adapter runs unchanged against it. A block is
 * mined every CHAIN_SANDBOX_BLOCK_SECONDS (0 = only on demand: tests call `mine`). The faucet
 * (`SandboxFaucet`) pays deposit addresses for the Buy crypto sandbox and the tests. Mining and
 * reorgs are in-process calls only: over HTTP the sandbox is as read-only as a public explorer,
 * plus `POST /tx` to broadcast a signed transaction. Each chain is kept in
 * `${DATA_DIR}/utxo-sandbox/<network>.json` (chain.ts), so `npm start` continues the same chains.
 */
import { join } from "node:path"
import { Context, Effect, Layer, Schedule } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { networkOf } from "../../../services/crypto-rules.ts"
import type { CryptoCurrency } from "../../../services/crypto-service.ts"
import { AppConfig } from "../../config.ts"
import { ChainUnavailable, type SandboxFaucet } from "../../crypto/chain.ts"
import { sandboxChainPath } from "../../crypto/config.ts"
import { isUtxoNetwork, type UtxoNetwork, utxoNetworks } from "../../crypto/networks.ts"
import { type SandboxBlock, SandboxChain, TxRefused } from "./chain.ts"

export interface UtxoSandboxShape extends SandboxFaucet {
  readonly chain: (network: UtxoNetwork) => SandboxChain
}

export class UtxoSandbox extends Context.Service<UtxoSandbox, UtxoSandboxShape>()(
  "casino/server/UtxoSandbox",
) {}

const utxoCurrencies: ReadonlyArray<CryptoCurrency> = ["BTC", "LTC", "DOG"]

/** The state file of one chain: beside the EVM sandbox's `evm-sandbox/state.json`. */
export const utxoSandboxStateFile = (dataDir: string, network: UtxoNetwork): string =>
  join(dataDir, "utxo-sandbox", `${network}.json`)

const makeSandbox = (dataDir: string): UtxoSandboxShape => {
  const chains = new Map(
    utxoNetworks.map(
      (n) => [n, new SandboxChain(n, { stateFile: utxoSandboxStateFile(dataDir, n) })] as const,
    ),
  )
  const chain = (network: UtxoNetwork) => {
    const c = chains.get(network)
    if (c === undefined) throw new Error(`no sandbox chain ${network}`)
    return c
  }
  return {
    chain,
    currencies: utxoCurrencies,
    send: (currency, to, amount) => {
      const network = networkOf[currency]
      return isUtxoNetwork(network)
        ? Effect.try({
            try: () => chain(network).send(to, amount),
            catch: (e) =>
              new ChainUnavailable({ network, message: e instanceof Error ? e.message : String(e) }),
          })
        : Effect.fail(new ChainUnavailable({ network, message: "not a UTXO sandbox chain" }))
    },
  }
}

const P = "/sandbox-chain/:network/api"
/** Every (method, path) of the sandbox chains, for the server's endpoint index. */
export const utxoSandboxEndpoints = [
  { method: "GET", path: `${P}/blocks/tip/height` },
  { method: "GET", path: `${P}/blocks/tip/hash` },
  { method: "GET", path: `${P}/block-height/:height` },
  { method: "GET", path: `${P}/block/:hash` },
  { method: "GET", path: `${P}/block/:hash/txids` },
  { method: "GET", path: `${P}/block/:hash/txs/:start` },
  { method: "GET", path: `${P}/tx/:txid` },
  { method: "GET", path: `${P}/tx/:txid/hex` },
  { method: "GET", path: `${P}/address/:address/utxo` },
  { method: "POST", path: `${P}/tx` },
] as const

const noStore = { "cache-control": "no-store" }
const text = (body: string, status = 200) => HttpServerResponse.text(body, { status, headers: noStore })
const json = (body: unknown) => HttpServerResponse.jsonUnsafe(body, { headers: noStore })
const notFound = (what: string) => text(`${what} not found`, 404)

/** A transaction as Esplora prints it (the fields the adapter and wallets read). */
const esploraTx = (c: SandboxChain, txid: string) => {
  const found = c.transaction(txid)
  if (found === undefined) return undefined
  const block = found.height === null ? undefined : c.blockAt(found.height)
  return {
    txid,
    vin: found.tx.ins.map((i) => ({
      txid: Buffer.from(i.hash).reverse().toString("hex"),
      vout: i.index,
      is_coinbase: found.tx.isCoinbase(),
    })),
    vout: found.tx.outs.map((o) => ({
      scriptpubkey: Buffer.from(o.script).toString("hex"),
      scriptpubkey_address: c.addressOf(o.script) ?? undefined,
      value: Number(o.value),
    })),
    status:
      block === undefined
        ? { confirmed: false }
        : { confirmed: true, block_height: block.height, block_hash: block.hash, block_time: block.time },
  }
}

const esploraBlock = (b: SandboxBlock) => ({
  id: b.hash,
  height: b.height,
  previousblockhash: b.prevHash,
  timestamp: b.time,
  tx_count: b.txs.length,
})

const routes = (sandbox: UtxoSandboxShape) => {
  const withChain = (
    f: (
      c: SandboxChain,
      params: Readonly<Record<string, string | undefined>>,
    ) =>
      | HttpServerResponse.HttpServerResponse
      | Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>,
  ) =>
    Effect.gen(function* () {
      const params = yield* HttpRouter.params
      const network = params.network ?? ""
      if (!isUtxoNetwork(network)) return notFound("network")
      const answer = f(sandbox.chain(network), params)
      return Effect.isEffect(answer) ? yield* answer : answer
    })
  const blockOf = (c: SandboxChain, hash: string | undefined) =>
    hash === undefined ? undefined : c.blockByHash(hash)
  return Layer.mergeAll(
    HttpRouter.add(
      "GET",
      `${P}/blocks/tip/height`,
      withChain((c) => text(String(c.tip.height))),
    ),
    HttpRouter.add(
      "GET",
      `${P}/blocks/tip/hash`,
      withChain((c) => text(c.tip.hash)),
    ),
    HttpRouter.add(
      "GET",
      `${P}/block-height/:height`,
      withChain((c, p) => {
        const h = /^\d{1,10}$/.test(p.height ?? "") ? c.blockAt(Number(p.height)) : undefined
        return h === undefined ? notFound("Block") : text(h.hash)
      }),
    ),
    HttpRouter.add(
      "GET",
      `${P}/block/:hash`,
      withChain((c, p) => {
        const b = blockOf(c, p.hash)
        return b === undefined ? notFound("Block") : json(esploraBlock(b))
      }),
    ),
    HttpRouter.add(
      "GET",
      `${P}/block/:hash/txids`,
      withChain((c, p) => {
        const b = blockOf(c, p.hash)
        return b === undefined ? notFound("Block") : json(b.txs.map((t) => t.getId()))
      }),
    ),
    HttpRouter.add(
      "GET",
      `${P}/block/:hash/txs/:start`,
      withChain((c, p) => {
        const b = blockOf(c, p.hash)
        const start = Number(p.start)
        if (b === undefined || !Number.isInteger(start) || start < 0 || start % 25 !== 0)
          return notFound("Block")
        return json(b.txs.slice(start, start + 25).map((t) => esploraTx(c, t.getId())))
      }),
    ),
    HttpRouter.add(
      "GET",
      `${P}/tx/:txid`,
      withChain((c, p) => {
        const tx = esploraTx(c, p.txid ?? "")
        return tx === undefined ? notFound("Transaction") : json(tx)
      }),
    ),
    HttpRouter.add(
      "GET",
      `${P}/tx/:txid/hex`,
      withChain((c, p) => {
        const tx = c.transaction(p.txid ?? "")
        return tx === undefined ? notFound("Transaction") : text(tx.tx.toHex())
      }),
    ),
    HttpRouter.add(
      "GET",
      `${P}/address/:address/utxo`,
      withChain((c, p) =>
        json(
          c.utxosOf(p.address ?? "").map((u) => ({
            txid: u.txid,
            vout: u.vout,
            value: Number(u.value),
            status: { confirmed: u.confirmed },
          })),
        ),
      ),
    ),
    HttpRouter.add(
      "POST",
      `${P}/tx`,
      withChain((c) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const body = (yield* request.text.pipe(Effect.orElseSucceed(() => ""))).trim()
          try {
            return text(c.submit(body))
          } catch (e) {
            // Esplora answers a refused broadcast with 400 and the node's reason.
            return text(
              e instanceof TxRefused ? `sendrawtransaction RPC error: ${e.message}` : "bad request",
              400,
            )
          }
        }),
      ),
    ),
  )
}

const off: UtxoSandboxShape = {
  chain: () => {
    throw new Error("CHAIN_SANDBOX=off: there are no sandbox chains")
  },
  currencies: [],
  send: (currency) =>
    Effect.fail(new ChainUnavailable({ network: networkOf[currency], message: "CHAIN_SANDBOX=off" })),
}

/**
 * The sandbox service (always present: with CHAIN_SANDBOX=off it has no chains and its faucet
 * refuses) and its block timer.
 */
export const UtxoSandboxLive = Layer.effect(
  UtxoSandbox,
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (!config.crypto.chainSandbox) return off
    // A state file that does not verify stops the start with its reason (chain.ts), never a silent new chain.
    const sandbox = makeSandbox(config.dataDir)
    if (config.crypto.sandboxBlockSeconds > 0)
      yield* Effect.forkScoped(
        Effect.sync(() => {
          for (const n of utxoNetworks) sandbox.chain(n).mine(1)
        }).pipe(
          Effect.repeat(Schedule.spaced(`${config.crypto.sandboxBlockSeconds} seconds`)),
          Effect.delay("1 second"),
        ),
      )
    return sandbox
  }),
)

/** The sandbox chains' Esplora routes — or none at all with CHAIN_SANDBOX=off (then /sandbox-chain/* is 404). */
export const utxoSandboxRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    return config.crypto.chainSandbox ? routes(yield* UtxoSandbox) : Layer.empty
  }),
)

export { sandboxChainPath }
