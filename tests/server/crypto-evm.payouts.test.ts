/**
 * The EVM hot wallet (server/crypto/evm/HotWallet.ts) on a real anvil and on both databases:
 * ETH and USDT payouts, one transaction per key (repeats, concurrent calls, a restart), nonces under
 * concurrency, confirmations counting up, a payout dropped by a reorg broadcast again, and the
 * refusals (funds, reserved funds, addresses, a key reused for another payout).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type Hex, parseEther } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, expect, it } from "vitest"
import { sandboxUsdtAbi } from "../../providers/chains/evm/usdt.ts"
import { anvilTestAccounts } from "../../providers/chains/testKeys.ts"
import { makeHotWallet } from "../../server/crypto/evm/HotWallet.ts"
import type { CryptoPayoutsShape, PayoutRequest } from "../../server/crypto/payouts.ts"
import { startEvmSandbox, type TestChain } from "../support/anvil.ts"
import { openTestDb, type TestDb } from "./crypto-evm-support.ts"
import { describeBackends } from "./harness.ts"

const hot = anvilTestAccounts.hotWallet
const usdtFunding = 1_000_000_000n // 1,000 USDT

describeBackends("EVM hot wallet payouts", ({ backend }) => {
  let chain: TestChain
  let db: TestDb
  beforeAll(async () => {
    chain = await startEvmSandbox({ fund: [{ address: hot.address, eth: 0n, usdt: usdtFunding }] })
    db = await openTestDb(backend)
  }, 60_000)
  afterAll(async () => {
    await db?.close()
    await chain?.close()
  })

  const wallet = (privateKey: Hex = hot.privateKey): Promise<CryptoPayoutsShape> =>
    db.run(
      makeHotWallet({
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        usdtContract: chain.usdtContract,
        privateKey,
      }),
    )
  const send = (w: CryptoPayoutsShape, request: PayoutRequest) => db.run(w.send(request))
  const failure = async (w: CryptoPayoutsShape, request: PayoutRequest) => {
    const result = await db.run(Effect.result(w.send(request)))
    if (result._tag === "Success") throw new Error(`expected a refusal, got ${result.success.txHash}`)
    return result.failure
  }
  const usdtOf = (address: Hex) =>
    chain.public.readContract({
      address: chain.usdtContract,
      abi: sandboxUsdtAbi,
      functionName: "balanceOf",
      args: [address],
    })
  const nonceOf = (address: Hex) => chain.public.getTransactionCount({ address, blockTag: "pending" })
  const fresh = () => privateKeyToAccount(generatePrivateKey()).address

  it("pays ETH, and its confirmations count up as blocks come", async () => {
    const w = await wallet()
    const to = fresh()
    const { txHash } = await send(w, {
      key: "withdrawal:eth-1",
      currency: "ETH",
      to,
      amount: parseEther("0.5"),
    })
    expect(await db.run(w.confirmations("ETH", txHash))).toBe(0)
    await chain.run(chain.mine(1))
    expect(await db.run(w.confirmations("ETH", txHash))).toBe(1)
    await chain.run(chain.mine(2))
    expect(await db.run(w.confirmations("ETH", txHash))).toBe(3)
    expect(await chain.public.getBalance({ address: to })).toBe(parseEther("0.5"))
    expect(await db.run(w.confirmations("ETH", `0x${"ab".repeat(32)}`))).toBeNull()
  })

  it("pays USDT with the token's transfer", async () => {
    const w = await wallet()
    const to = fresh()
    const { txHash } = await send(w, { key: "withdrawal:usdt-1", currency: "USDT", to, amount: 25_500_000n })
    await chain.run(chain.mine(1))
    expect(await usdtOf(to)).toBe(25_500_000n)
    const receipt = await chain.public.getTransactionReceipt({ hash: txHash as Hex })
    expect(receipt.to?.toLowerCase()).toBe(chain.usdtContract.toLowerCase())
    expect(await db.run(w.confirmations("USDT", txHash))).toBe(1)
  })

  it("the same key twice, at once or later, and after a restart, is one transaction", async () => {
    const to = fresh()
    const request: PayoutRequest = { key: "withdrawal:once", currency: "USDT", to, amount: 3_000_000n }
    const nonceBefore = await nonceOf(hot.address)
    const w = await wallet()
    const [a, b] = await Promise.all([send(w, request), send(w, request)])
    const c = await send(w, request)
    // A new HotWallet on the same database: a restarted server, or a second one.
    const restarted = await wallet()
    const d = await send(restarted, request)
    expect(new Set([a.txHash, b.txHash, c.txHash, d.txHash]).size).toBe(1)
    expect(await nonceOf(hot.address)).toBe(nonceBefore + 1)
    await chain.run(chain.mine(1))
    expect(await send(restarted, request)).toEqual(a)
    expect(await usdtOf(to)).toBe(3_000_000n)
    const rows = await db.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ readonly n: number }>`
          SELECT count(*)::int AS n FROM crypto_payout_transactions WHERE request_key = 'withdrawal:once'
        `
      }),
    )
    expect(rows[0]?.n).toBe(1)
  })

  it("concurrent payouts with different keys take distinct nonces and all land", async () => {
    const w1 = await wallet()
    const w2 = await wallet()
    const receivers = [fresh(), fresh(), fresh(), fresh()]
    const hashes = await Promise.all(
      receivers.map((to, i) =>
        send(i % 2 === 0 ? w1 : w2, {
          key: `withdrawal:many-${i}`,
          currency: "ETH",
          to,
          amount: BigInt(i + 1),
        }),
      ),
    )
    await chain.run(chain.mine(1))
    for (const [i, to] of receivers.entries())
      expect(await chain.public.getBalance({ address: to })).toBe(BigInt(i + 1))
    const nonces = await Promise.all(
      hashes.map(async (h) => (await chain.public.getTransaction({ hash: h.txHash as Hex })).nonce),
    )
    expect(new Set(nonces).size).toBe(receivers.length)
  })

  it("a payout whose block was reorged away is broadcast again, the same transaction", async () => {
    const w = await wallet()
    const to = fresh()
    const snapshot = await chain.test.snapshot()
    const { txHash } = await send(w, { key: "withdrawal:reorged", currency: "ETH", to, amount: 77n })
    await chain.run(chain.mine(1))
    expect(await db.run(w.confirmations("ETH", txHash))).toBe(1)
    await chain.test.revert({ id: snapshot })
    // Gone from the chain: `confirmations` finds it unknown, rebroadcasts the stored bytes.
    expect(await db.run(w.confirmations("ETH", txHash))).toBe(0)
    await chain.run(chain.mine(1))
    expect(await db.run(w.confirmations("ETH", txHash))).toBe(1)
    expect(await chain.public.getBalance({ address: to })).toBe(77n)
  })

  it("refuses what the hot wallet cannot pay, counting payouts signed but not mined yet", async () => {
    const key = generatePrivateKey()
    const poor = privateKeyToAccount(key).address
    await chain.run(chain.send("ETH", poor, parseEther("0.01")))
    await chain.run(chain.send("USDT", poor, 5_000_000n))
    await chain.run(chain.mine(1))
    const w = await wallet(key)
    const to = fresh()
    const tooMuchEth = await failure(w, { key: "poor:eth", currency: "ETH", to, amount: parseEther("1") })
    expect(tooMuchEth).toMatchObject({ _tag: "PayoutRejected", currency: "ETH" })
    await send(w, { key: "poor:usdt-1", currency: "USDT", to, amount: 4_000_000n })
    // 1 USDT left on chain once the first one is mined: 2 more cannot be signed now.
    const reserved = await failure(w, { key: "poor:usdt-2", currency: "USDT", to, amount: 2_000_000n })
    expect(reserved).toMatchObject({ _tag: "PayoutRejected", currency: "USDT" })
    await chain.run(chain.mine(1))
    expect(await usdtOf(to)).toBe(4_000_000n)
    await send(w, { key: "poor:usdt-3", currency: "USDT", to, amount: 1_000_000n })
    // Nothing was stored for the refused keys: the same key may be tried again later.
    const retried = await failure(w, { key: "poor:usdt-2", currency: "USDT", to, amount: 2_000_000n })
    expect(retried._tag).toBe("PayoutRejected")
  })

  it("refuses bad addresses, other currencies and a key reused for another payout", async () => {
    const w = await wallet()
    const to = fresh()
    // The EIP-55 checksum is the case of the letters: flip one and the address is refused.
    const letter = to.slice(2).search(/[a-fA-F]/) + 2
    const flipped =
      to[letter] === to[letter]?.toUpperCase() ? to[letter]?.toLowerCase() : to[letter]?.toUpperCase()
    const badChecksum = `${to.slice(0, letter)}${flipped}${to.slice(letter + 1)}`
    expect(badChecksum.toLowerCase()).toBe(to.toLowerCase())
    for (const address of [
      "0x1234",
      "not an address",
      "0x0000000000000000000000000000000000000000",
      badChecksum,
    ]) {
      const refused = await failure(w, { key: `bad:${address}`, currency: "ETH", to: address, amount: 1n })
      expect(refused._tag).toBe("PayoutRejected")
    }
    // All-lowercase carries no checksum and is accepted, as wallets do.
    await send(w, { key: "withdrawal:lowercase", currency: "ETH", to: to.toLowerCase(), amount: 1n })
    expect((await failure(w, { key: "bad:btc", currency: "BTC", to, amount: 1n }))._tag).toBe(
      "PayoutRejected",
    )
    expect((await failure(w, { key: "bad:zero", currency: "ETH", to, amount: 0n }))._tag).toBe(
      "PayoutRejected",
    )
    await send(w, { key: "withdrawal:fixed", currency: "ETH", to, amount: 5n })
    const reused = await failure(w, { key: "withdrawal:fixed", currency: "ETH", to, amount: 6n })
    expect(reused).toMatchObject({ _tag: "PayoutRejected" })
    expect(w.supports("ETH") && w.supports("USDT") && !w.supports("BTC")).toBe(true)
  })
})
