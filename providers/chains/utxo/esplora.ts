/**
 * The UTXO chains' Esplora API (protocols/chains/esplora.ts) under `/sandbox-chain/<network>/api`:
 * the subset a watcher reads, so the casino's production adapter runs unchanged against the sandbox.
 * Read-only like a public explorer, plus `POST /tx` to broadcast a signed transaction; mining and
 * payments are the control API's (http.ts).
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { EsploraBlock, EsploraTx, EsploraUtxo } from "../../../protocols/chains/esplora.ts"
import { ESPLORA_PAGE } from "../../../protocols/chains/esplora.ts"
import { isUtxoNetwork, type UtxoNetwork } from "../../../protocols/chains/networks.ts"
import { type SandboxBlock, type SandboxChain, TxRefused } from "./chain.ts"

/** Where a network's Esplora API is served, relative to the chains' base URL. */
export const sandboxChainPath = (network: UtxoNetwork): string => `/sandbox-chain/${network}/api`

const P = "/sandbox-chain/:network/api"
/** Every (method, path) of the Esplora API served here. */
export const esploraEndpoints = [
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
const esploraTx = (c: SandboxChain, txid: string): EsploraTx | undefined => {
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

const esploraBlock = (b: SandboxBlock): EsploraBlock => ({
  id: b.hash,
  height: b.height,
  previousblockhash: b.prevHash,
  timestamp: b.time,
  tx_count: b.txs.length,
})

/** The routes over these chains. */
export const esploraRoutes = (chainOf: (network: UtxoNetwork) => SandboxChain) => {
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
      const answer = f(chainOf(network), params)
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
        if (b === undefined || !Number.isInteger(start) || start < 0 || start % ESPLORA_PAGE !== 0)
          return notFound("Block")
        return json(b.txs.slice(start, start + ESPLORA_PAGE).map((t) => esploraTx(c, t.getId())))
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
          c.utxosOf(p.address ?? "").map(
            (u): EsploraUtxo => ({
              txid: u.txid,
              vout: u.vout,
              value: Number(u.value),
              status: { confirmed: u.confirmed },
            }),
          ),
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
