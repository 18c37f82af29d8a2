/**
 * The Esplora adapter (server/crypto/utxo/Esplora.ts) against a local explorer on loopback serving
 * hand-written JSON: output values above 2^53 minor units (possible on Dogecoin, whose supply in
 * koinu is far beyond it) are read exactly from the JSON text — a plain `JSON.parse` rounds them
 * and the adapter used to skip them, so such a deposit was never seen. Also: paging of a block's
 * transactions by 25, only watched addresses kept, non-integer values refused. No database.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseEsploraTxs } from "../../protocols/chains/esplora.ts"
import { makeEsploraAdapter } from "../../server/crypto/utxo/Esplora.ts"

const HASH = "ab".repeat(32)
// The adapter compares addresses as text (the watcher owns the set): labels are enough here.
const WATCHED = "D-watched"
const OTHER = "D-other"
const HUGE = 2n ** 53n + 1n // 90,071,992.54740993 DOGE
const HUGER = 12_345_678_901_234_567_891n // between 2^63 and 2^64

/** Transactions as Esplora prints them; `value` written verbatim (no Number on the way). */
const txJson = (txid: string, outs: ReadonlyArray<readonly [string, string]>) =>
  `{"txid":"${txid}","vin":[{"txid":"${"00".repeat(32)}","vout":0,"prevout":{"value":${HUGER}}}],` +
  `"vout":[${outs.map(([a, v]) => `{"scriptpubkey_address":"${a}","value":${v}}`).join(",")}],` +
  `"status":{"confirmed":true}}`

// 27 transactions: two pages. The huge ones on the second page.
const txs = Array.from({ length: 27 }, (_, i) => {
  const txid = i.toString(16).padStart(64, "0")
  if (i === 25) return txJson(txid, [[WATCHED, HUGE.toString()]])
  if (i === 26)
    return txJson(txid, [
      [OTHER, "5"],
      [WATCHED, HUGER.toString()],
      [WATCHED, "1.5"],
    ])
  return txJson(txid, [[i % 2 === 0 ? WATCHED : OTHER, String(1000 + i)]])
})

describe("Esplora adapter", () => {
  let server: Server
  let base = ""
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = req.url ?? ""
      const page = /^\/block\/[0-9a-f]{64}\/txs\/(\d+)$/.exec(url)
      if (url === "/blocks/tip/height") return res.end("7")
      if (url === "/block-height/7") return res.end(HASH)
      if (url === `/block/${HASH}`) return res.end(`{"id":"${HASH}","height":7,"tx_count":${txs.length}}`)
      if (page !== null) {
        const start = Number(page[1])
        return res.end(`[${txs.slice(start, start + 25).join(",")}]`)
      }
      res.statusCode = 404
      res.end("not found")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("reads values above 2^53 exactly as bigint (a plain JSON.parse rounds them)", () => {
    expect(BigInt(Number(HUGE))).not.toBe(HUGE) // a float really loses the last unit
    const [tx] = parseEsploraTxs(`[${txs[25]}]`)
    expect(tx?.vout[0]?.value).toBe(HUGE)
    expect(BigInt((JSON.parse(`[${txs[25]}]`) as [{ vout: [{ value: number }] }])[0].vout[0].value)).not.toBe(
      HUGE,
    )
  })

  it("keeps every watched output of every page, with exact amounts", async () => {
    const adapter = makeEsploraAdapter("dogecoin", base)
    expect(await Effect.runPromise(adapter.tip)).toEqual({ height: 7n, hash: HASH })
    const found = await Effect.runPromise(adapter.transfersIn(7n, 7n, (a) => a === WATCHED))
    const small = Array.from({ length: 25 }, (_, i) => i)
      .filter((i) => i % 2 === 0)
      .map((i) => ({ txHash: i.toString(16).padStart(64, "0"), outputIndex: 0, amount: BigInt(1000 + i) }))
    expect(found.map((t) => ({ txHash: t.txHash, outputIndex: t.outputIndex, amount: t.amount }))).toEqual([
      ...small,
      { txHash: (25).toString(16).padStart(64, "0"), outputIndex: 0, amount: HUGE },
      // Output 2's "1.5" is not an amount in minor units: skipped.
      { txHash: (26).toString(16).padStart(64, "0"), outputIndex: 1, amount: HUGER },
    ])
    for (const t of found) expect(t).toMatchObject({ network: "dogecoin", currency: "DOG", to: WATCHED })
  })
})
