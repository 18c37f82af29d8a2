/**
 * The EVM chain adapter on a real anvil (tests/support/anvil.ts): native ETH and USDT `Transfer`
 * logs to watched addresses only, failed transactions ignored, block hashes, and a reorg (snapshot,
 * revert, different blocks at the same heights) changing both the hashes and the transfers seen.
 */
import { Effect } from "effect"
import { encodeFunctionData, parseEther } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sandboxUsdtAbi } from "../../providers/chains/evm/usdt.ts"
import { makeEvmAdapter } from "../../server/crypto/evm/index.ts"
import { anvilSpareKeys, startEvmSandbox, type TestChain } from "../support/anvil.ts"

// Players' deposit addresses in these tests (any fresh addresses do: nobody needs their keys).
const alice = "0x1111111111111111111111111111111111111111"
const bob = "0x2222222222222222222222222222222222222222"
const stranger = "0x3333333333333333333333333333333333333333"
const sender = anvilSpareKeys[0]

let chain: TestChain
beforeAll(async () => {
  chain = await startEvmSandbox()
}, 30_000)
afterAll(async () => {
  await chain?.close()
})

const adapter = () => makeEvmAdapter({ rpcUrl: chain.rpcUrl, usdtContract: chain.usdtContract })
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)
const watched = (addresses: ReadonlyArray<string>) => {
  const set = new Set(addresses.map((a) => a.toLowerCase()))
  return (address: string) => set.has(address)
}

describe("EVM adapter on anvil", () => {
  it("finds ETH and USDT sent to watched addresses only, with their blocks", async () => {
    const evm = adapter()
    const before = await run(evm.tip)
    const ethToAlice = await run(chain.send("ETH", alice, parseEther("0.25")))
    const ethToStranger = await run(chain.send("ETH", stranger, parseEther("1")))
    const usdtToBob = await run(chain.send("USDT", bob, 12_345_678n))
    const usdtToStranger = await run(chain.send("USDT", stranger, 5_000_000n))
    await run(chain.mine(1))
    const tip = await run(evm.tip)
    expect(tip.height).toBe(before.height + 1n)

    const seen = await run(evm.transfersIn(before.height + 1n, tip.height, watched([alice, bob])))
    expect(seen.map((t) => [t.currency, t.txHash, t.to, t.amount])).toEqual([
      ["ETH", ethToAlice, alice, parseEther("0.25")],
      ["USDT", usdtToBob, bob, 12_345_678n],
    ])
    const usdt = seen.find((t) => t.currency === "USDT")
    expect(usdt?.outputIndex).toBeTypeOf("number")
    expect(seen.find((t) => t.currency === "ETH")?.outputIndex).toBeNull()
    for (const t of seen) expect(t.block).toEqual(tip)
    expect(seen.some((t) => t.txHash === ethToStranger || t.txHash === usdtToStranger)).toBe(false)
    // Addresses compare lowercased, the checksummed form is display only.
    expect(seen.every((t) => t.to === t.to.toLowerCase())).toBe(true)
  })

  it("ignores failed transactions: reverted ETH and a reverted token transfer", async () => {
    const evm = adapter()
    const from = (await run(evm.tip)).height + 1n
    // Watch the token contract itself: ETH sent to it reverts (no receive function).
    const revertedEth = await chain.sendFrom(sender, { to: chain.usdtContract, value: 1n, gas: 100_000n })
    // The sender holds no USDT: its transfer to alice reverts and emits no Transfer log.
    const revertedToken = await chain.sendFrom(sender, {
      to: chain.usdtContract,
      data: encodeFunctionData({ abi: sandboxUsdtAbi, functionName: "transfer", args: [alice, 1_000_000n] }),
      gas: 100_000n,
    })
    await run(chain.mine(1))
    for (const hash of [revertedEth, revertedToken]) {
      expect((await chain.public.getTransactionReceipt({ hash })).status).toBe("reverted")
    }
    const seen = await run(
      evm.transfersIn(from, (await run(evm.tip)).height, watched([alice, chain.usdtContract])),
    )
    expect(seen).toEqual([])
  })

  it("reports block hashes and null above the tip", async () => {
    const evm = adapter()
    const tip = await run(evm.tip)
    const block = await chain.public.getBlock({ blockNumber: tip.height })
    expect(await run(evm.blockHash(tip.height))).toBe(block.hash)
    expect(await run(evm.blockHash(tip.height + 5n))).toBeNull()
    expect(await run(evm.transfersIn(tip.height + 1n, tip.height, () => true))).toEqual([])
  })

  it("a reorg replaces the block: a new hash at the same height and other transfers", async () => {
    const evm = adapter()
    const snapshot = await chain.test.snapshot()
    const height = (await run(evm.tip)).height + 1n
    const first = await run(chain.send("USDT", alice, 7_000_000n))
    const firstEth = await chain.sendFrom(sender, { to: alice, value: 3n })
    await run(chain.mine(2))
    const oldHash = await run(evm.blockHash(height))
    const before = await run(evm.transfersIn(height, height + 1n, watched([alice, bob])))
    expect(before.map((t) => t.txHash).sort()).toEqual([first, firstEth].sort())

    await chain.test.revert({ id: snapshot })
    expect(await run(evm.blockHash(height))).toBeNull()
    const replacement = await run(chain.send("USDT", bob, 9_000_000n))
    await run(chain.mine(2))
    const newHash = await run(evm.blockHash(height))
    expect(newHash).not.toBeNull()
    expect(newHash).not.toBe(oldHash)
    const after = await run(evm.transfersIn(height, height + 1n, watched([alice, bob])))
    expect(after.map((t) => [t.txHash, t.to, t.amount, t.block.hash])).toEqual([
      [replacement, bob, 9_000_000n, newHash],
    ])
  })

  it("a node that does not answer is ChainUnavailable", async () => {
    const evm = makeEvmAdapter({ rpcUrl: "http://127.0.0.1:9", usdtContract: chain.usdtContract })
    const exit = await Effect.runPromise(Effect.result(evm.tip))
    expect(exit._tag).toBe("Failure")
    if (exit._tag === "Failure") expect(exit.failure._tag).toBe("ChainUnavailable")
  })
})
