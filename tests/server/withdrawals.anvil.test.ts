/**
 * Crypto withdrawals paid by the EVM hot wallet (server/crypto/evm/HotWallet.ts, crypto-evm) on a
 * real local chain (anvil with the sandbox USDT), on PGlite and PostgreSQL: a player withdraws ETH
 * and USDT, an operator approves, the hot wallet signs and broadcasts, the chain shows the transfer
 * to the player's address, and the payout loop marks the withdrawal paid at WITHDRAW_CONFIRMATIONS.
 */
import { Effect, Layer } from "effect"
import { parseEther } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, expect, it } from "vitest"
import { sandboxUsdtAbi } from "../../providers/chains/evm/usdt.ts"
import { anvilTestAccounts } from "../../providers/chains/testKeys.ts"
import { makeHotWallet } from "../../server/crypto/evm/HotWallet.ts"
import { CryptoPayouts, type CryptoPayoutsShape } from "../../server/crypto/payouts.ts"
import { Withdrawals } from "../../server/withdrawals/Withdrawals.ts"
import { startEvmSandbox, type TestChain } from "../support/anvil.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport } from "./money-support.ts"
import { addWallet, cryptoWithdraw, fund, newCashier, PROFILE, statusOf } from "./withdrawals-support.ts"

const hot = anvilTestAccounts.hotWallet

describeBackends("withdrawals: paid on a local EVM chain", ({ start }) => {
  let chain: TestChain
  let server: TestServer
  let wallet: CryptoPayoutsShape
  beforeAll(async () => {
    chain = await startEvmSandbox({ fund: [{ address: hot.address, eth: 0n, usdt: 1_000_000_000n }] })
    server = await start({ captchaEnabled: false }, { env: { WITHDRAW_CONFIRMATIONS: "2" } })
    wallet = await server.run(
      makeHotWallet({
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        usdtContract: chain.usdtContract,
        privateKey: hot.privateKey,
      }),
    )
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await chain?.close()
  })

  /** The server's Withdrawals service with the hot wallet as its CryptoPayouts. */
  const withHotWallet = <A, E>(f: (w: Withdrawals["Service"]) => Effect.Effect<A, E>) =>
    server.run(
      Effect.gen(function* () {
        return yield* f(yield* Withdrawals)
      }).pipe(
        Effect.provide(
          Layer.fresh(Withdrawals.layer).pipe(Layer.provide(Layer.succeed(CryptoPayouts, wallet))),
        ),
      ),
    )

  it("ETH and USDT: approve → the chain shows the transfer → paid at the required confirmations", async () => {
    const p = await newCashier(server, "wa-evm", { eur: 0n })
    await addWallet(p, "ETH")
    await addWallet(p, "USDT")
    await fund(server, p.userId, parseEther("0.05"), "ETH")
    await fund(server, p.userId, 50_000_000n, "USDT")
    const to = privateKeyToAccount(generatePrivateKey()).address

    const eth = (await cryptoWithdraw(p, parseEther("0.02").toString(), "ETH", to)).body as { id: string }
    const usdt = (await cryptoWithdraw(p, "25000000", "USDT", to)).body as { id: string }
    const sentEth = await withHotWallet((w) => w.approve(eth.id, "ana"))
    const sentUsdt = await withHotWallet((w) => w.approve(usdt.id, "ana"))
    expect(sentEth.status).toBe("sent")
    expect(sentUsdt.status).toBe("sent")
    expect(sentEth.txHash).toMatch(/^0x[0-9a-f]{64}$/)

    await chain.run(chain.mine(1))
    expect(await chain.public.getBalance({ address: to })).toBe(parseEther("0.02"))
    const tokens = await chain.public.readContract({
      address: chain.usdtContract,
      abi: sandboxUsdtAbi,
      functionName: "balanceOf",
      args: [to],
    })
    expect(tokens).toBe(25_000_000n)
    const receipt = await chain.public.getTransactionReceipt({ hash: sentEth.txHash as `0x${string}` })
    expect(receipt.status).toBe("success")

    // One confirmation: not yet; two: paid.
    await withHotWallet((w) => w.runPayouts(0))
    expect(await statusOf(server, eth.id)).toBe("sent")
    await chain.run(chain.mine(1))
    await withHotWallet((w) => w.runPayouts(0))
    expect(await statusOf(server, eth.id)).toBe("paid")
    expect(await statusOf(server, usdt.id)).toBe("paid")
    const list = (await p.browser.get(`${PROFILE}/profile/withdrawals`)).body as Array<{
      id: string
      status: string
      txHash: string | null
    }>
    expect(list.find((w) => w.id === eth.id)).toMatchObject({ status: "paid", txHash: sentEth.txHash })
    expect((await ledgerReport(server)).clean).toBe(true)
  }, 120_000)
})
