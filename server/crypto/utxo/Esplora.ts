/**
 * The UTXO chain adapter (BTC, LTC, DOGE) over the Esplora REST API that public explorers expose
 * (docs/crypto.md: blockstream.info/api, litecoinspace.org/api, a self-hosted electrs for DOGE) and
 * the sandbox chains speak; the subset read is protocols/chains/esplora.ts. Reads only: the tip, the hash at a height, and each block's
 * transactions page by page (25 per page), keeping the outputs paying a watched address.
 */
import { Effect } from "effect"
import { ESPLORA_PAGE as PAGE, parseEsploraTxs } from "../../../protocols/chains/esplora.ts"
import type { UtxoNetwork } from "../../../protocols/chains/networks.ts"
import type { CryptoCurrency } from "../../../services/crypto-service.ts"
import { type ChainAdapter, ChainUnavailable, normalizeAddress, type ObservedTransfer } from "../chain.ts"

const currencyOf: Readonly<Record<UtxoNetwork, CryptoCurrency>> = {
  bitcoin: "BTC",
  litecoin: "LTC",
  dogecoin: "DOG",
}

export const makeEsploraAdapter = (
  network: UtxoNetwork,
  baseUrl: string,
  options: { readonly timeoutMs?: number } = {},
): ChainAdapter => {
  const unavailable = (message: string) => new ChainUnavailable({ network, message })
  const get = (path: string): Effect.Effect<Response | null, ChainUnavailable> =>
    Effect.tryPromise({
      try: async (signal) => {
        const response = await fetch(`${baseUrl}${path}`, {
          signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs ?? 15_000)]),
        })
        if (response.status === 404) return null
        if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`)
        return response
      },
      catch: (e) => unavailable(e instanceof Error ? e.message : String(e)),
    })
  const textOf = (path: string) =>
    get(path).pipe(
      Effect.flatMap((r) =>
        r === null
          ? Effect.succeed(null)
          : Effect.tryPromise({ try: () => r.text(), catch: () => unavailable(`${path}: unreadable`) }),
      ),
    )
  const jsonOf = <A>(path: string) =>
    get(path).pipe(
      Effect.flatMap((r) =>
        r === null
          ? Effect.fail(unavailable(`${path}: not found`))
          : Effect.tryPromise({
              try: () => r.json() as Promise<A>,
              catch: () => unavailable(`${path}: not JSON`),
            }),
      ),
    )

  const blockHash = (height: bigint) =>
    textOf(`/block-height/${height}`).pipe(
      Effect.flatMap((hash) =>
        hash === null
          ? Effect.succeed(null)
          : /^[0-9a-f]{64}$/.test(hash.trim())
            ? Effect.succeed(hash.trim())
            : Effect.fail(unavailable(`block-height/${height}: not a hash`)),
      ),
    )

  const tip = Effect.gen(function* () {
    const raw = yield* textOf("/blocks/tip/height")
    if (raw === null || !/^\d+$/.test(raw.trim()))
      return yield* unavailable("blocks/tip/height: not a height")
    const height = BigInt(raw.trim())
    const hash = yield* blockHash(height)
    if (hash === null) return yield* unavailable(`no block at the tip height ${height}`)
    return { height, hash }
  })

  const transfersIn = (from: bigint, to: bigint, isWatched: (address: string) => boolean) =>
    Effect.gen(function* () {
      const found: ObservedTransfer[] = []
      for (let height = from; height <= to; height++) {
        const hash = yield* blockHash(height)
        if (hash === null) return yield* unavailable(`no block at ${height} (the chain shrank)`)
        const block = yield* jsonOf<{ readonly tx_count: number }>(`/block/${hash}`)
        for (let start = 0; start < block.tx_count; start += PAGE) {
          const path = `/block/${hash}/txs/${start}`
          const raw = yield* textOf(path)
          if (raw === null) return yield* unavailable(`${path}: not found`)
          const txs = yield* Effect.try({
            try: () => parseEsploraTxs(raw),
            catch: () => unavailable(`${path}: not JSON`),
          })
          for (const tx of txs)
            tx.vout.forEach((out, index) => {
              const address = out.scriptpubkey_address
              // Values are bigints (parseEsploraTxs); anything else is not an amount.
              if (address === undefined || typeof out.value !== "bigint" || out.value <= 0n) return
              const normalized = normalizeAddress(network, address)
              if (!isWatched(normalized)) return
              found.push({
                network,
                currency: currencyOf[network],
                txHash: tx.txid,
                outputIndex: index,
                block: { height, hash },
                to: normalized,
                amount: out.value,
              })
            })
        }
      }
      return found
    })

  return { network, tip, blockHash, transfersIn }
}
