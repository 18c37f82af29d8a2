/**
 * The EVM chain adapter (docs/chains-evm.md): reads Ethereum (or a local sandbox chain) over
 * JSON-RPC for the chain watcher. It sees two kinds of deposit:
 *
 * - native ETH: transactions of each block whose `to` is a watched address with a value > 0 and a
 *   successful receipt (a reverted transaction moves no ether). ETH sent by a contract's internal
 *   call is not seen (that needs a tracing node; documented as a limit);
 * - ERC-20 USDT: `Transfer(from, to, value)` logs of the configured token contract whose `to` is
 *   watched, read with one `eth_getLogs` over the range; the log index is the `outputIndex`.
 *
 * Every transfer carries the hash of the block the adapter read; a log whose block hash differs
 * from the block read at its height means the chain moved during the scan, and the scan fails
 * (`ChainUnavailable`, the watcher retries) rather than mix two forks.
 */
import { Effect } from "effect"
import { type Address, BlockNotFoundError, getAddress, parseAbiItem } from "viem"
import type { BlockRef, ChainAdapter, ObservedTransfer } from "../chain.ts"
import { ChainUnavailable, normalizeAddress } from "../chain.ts"
import { evmPublicClient, rpc } from "./rpc.ts"

export { evmPublicClient } from "./rpc.ts"

export const erc20TransferEvent = parseAbiItem(
  "event Transfer(address indexed from, address indexed to, uint256 value)",
)

export interface EvmAdapterOptions {
  /** JSON-RPC endpoint of an Ethereum node or provider (EVM_RPC_URL). */
  readonly rpcUrl: string
  /** The USDT (ERC-20) contract whose Transfer logs are deposits. */
  readonly usdtContract: string
  /** How many blocks are read at once (default 4). */
  readonly concurrency?: number
}

const network = "ethereum" as const

export const makeEvmAdapter = (options: EvmAdapterOptions): ChainAdapter => {
  const client = evmPublicClient(options.rpcUrl)
  const usdt: Address = getAddress(options.usdtContract)
  const concurrency = options.concurrency ?? 4

  const tip: ChainAdapter["tip"] = rpc("eth_getBlockByNumber(latest)", () =>
    client.getBlock({ blockTag: "latest" }),
  ).pipe(
    Effect.flatMap((block) =>
      block.hash === null
        ? Effect.fail(new ChainUnavailable({ network, message: "the latest block has no hash" }))
        : Effect.succeed<BlockRef>({ height: block.number, hash: block.hash }),
    ),
  )

  const blockHash: ChainAdapter["blockHash"] = (height) =>
    height < 0n
      ? Effect.succeed(null)
      : Effect.tryPromise({
          try: () => client.getBlock({ blockNumber: height }),
          catch: (error) => error,
        }).pipe(
          Effect.map((block) => block.hash),
          Effect.catch((error) =>
            error instanceof BlockNotFoundError
              ? Effect.succeed(null)
              : rpc(`eth_getBlockByNumber(${height})`, () => Promise.reject(error)),
          ),
        )

  const nativeIn = (height: bigint, isWatched: (address: string) => boolean) =>
    rpc(`eth_getBlockByNumber(${height}, full)`, () =>
      client.getBlock({ blockNumber: height, includeTransactions: true }),
    ).pipe(
      Effect.flatMap((block) => {
        if (block.hash === null)
          return Effect.fail(new ChainUnavailable({ network, message: `block ${height} has no hash` }))
        const ref: BlockRef = { height: block.number, hash: block.hash }
        const candidates = block.transactions.filter(
          (tx) => tx.to !== null && tx.value > 0n && isWatched(normalizeAddress(network, tx.to)),
        )
        return Effect.forEach(candidates, (tx) =>
          rpc(`eth_getTransactionReceipt(${tx.hash})`, () =>
            client.getTransactionReceipt({ hash: tx.hash }),
          ).pipe(
            Effect.map((receipt): ObservedTransfer | undefined =>
              receipt.status === "success" && receipt.blockHash === ref.hash && tx.to !== null
                ? {
                    network,
                    currency: "ETH",
                    txHash: tx.hash,
                    outputIndex: null,
                    block: ref,
                    to: normalizeAddress(network, tx.to),
                    amount: tx.value,
                  }
                : undefined,
            ),
          ),
        ).pipe(
          Effect.map((found) => ({
            ref,
            transfers: found.filter((t): t is ObservedTransfer => t !== undefined),
          })),
        )
      }),
    )

  const transfersIn: ChainAdapter["transfersIn"] = (from, to, isWatched) => {
    if (from > to) return Effect.succeed([])
    const heights: Array<bigint> = []
    for (let h = from; h <= to; h++) heights.push(h)
    return Effect.gen(function* () {
      const blocks = yield* Effect.forEach(heights, (h) => nativeIn(h, isWatched), { concurrency })
      const hashAt = new Map(blocks.map((b) => [b.ref.height, b.ref.hash]))
      const logs = yield* rpc(`eth_getLogs(${from}..${to})`, () =>
        client.getLogs({
          address: usdt,
          event: erc20TransferEvent,
          fromBlock: from,
          toBlock: to,
          strict: true,
        }),
      )
      const tokens: Array<ObservedTransfer> = []
      for (const log of logs) {
        if (log.removed) continue
        const receiver = normalizeAddress(network, log.args.to)
        if (!isWatched(receiver) || log.args.value <= 0n) continue
        const hash = hashAt.get(log.blockNumber)
        if (hash !== log.blockHash) {
          return yield* new ChainUnavailable({
            network,
            message: `block ${log.blockNumber} changed during the scan (reorg): retry`,
          })
        }
        tokens.push({
          network,
          currency: "USDT",
          txHash: log.transactionHash,
          outputIndex: log.logIndex,
          block: { height: log.blockNumber, hash: log.blockHash },
          to: receiver,
          amount: log.args.value,
        })
      }
      const all = [...blocks.flatMap((b) => b.transfers), ...tokens]
      return all.sort((a, b) =>
        a.block.height === b.block.height
          ? (a.outputIndex ?? -1) - (b.outputIndex ?? -1)
          : a.block.height < b.block.height
            ? -1
            : 1,
      )
    })
  }

  return { network, tip, blockHash, transfersIn }
}
