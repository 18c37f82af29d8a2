/**
 * The EVM wiring of the server: with CHAIN_SANDBOX=on (the default outside production) the server
 * starts anvil, funds its hot wallet and pays out through `CryptoPayouts`; the node stops with the
 * server; the sandbox chain survives a restart through its state file; configuration refuses the
 * public test key in production.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Scope } from "effect"
import { parseEther } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadConfig } from "../../server/config.ts"
import { EvmNode, sandboxHotWalletFunding } from "../../server/crypto/evm/EvmNode.ts"
import { makeEvmAdapter } from "../../server/crypto/evm/index.ts"
import { evmPublicClient } from "../../server/crypto/evm/rpc.ts"
import { CryptoPayouts } from "../../server/crypto/payouts.ts"
import { anvilTestAccounts, makeEvmSandbox } from "../../server/providers/evm-sandbox/index.ts"
import { startTestServer, type TestServer } from "./harness.ts"

describe("the server's EVM sandbox and payouts", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ captchaEnabled: false, chainSandbox: true, chainSandboxBlockSeconds: 0 })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
  })

  it("runs anvil with a funded hot wallet and pays out through CryptoPayouts", async () => {
    const node = await server.run(Effect.service(EvmNode))
    expect(node.chain?.chainId).toBe(31337)
    expect(node.chain?.usdtContract).toBe("0xdAC17F958D2ee523a2206206994597C13D831ec7")
    const sandbox = node.sandbox
    if (sandbox === undefined || node.chain === undefined) throw new Error("the sandbox should run")
    const client = evmPublicClient(node.chain.rpcUrl)
    expect(await client.getBalance({ address: anvilTestAccounts.hotWallet.address })).toBeGreaterThanOrEqual(
      sandboxHotWalletFunding.eth,
    )
    const to = "0x4444444444444444444444444444444444444444"
    const sent = await server.run(
      Effect.gen(function* () {
        const payouts = yield* CryptoPayouts
        return yield* payouts.send({ key: "withdrawal:server-1", currency: "USDT", to, amount: 42_000_000n })
      }),
    )
    await server.run(sandbox.mine(1))
    const seen = await server.run(
      makeEvmAdapter(node.chain).transfersIn(0n, (await client.getBlockNumber()) + 0n, (a) => a === to),
    )
    expect(seen.map((t) => [t.txHash, t.amount])).toEqual([[sent.txHash, 42_000_000n]])
  })

  it("stops anvil with the server", async () => {
    const node = await server.run(Effect.service(EvmNode))
    const rpcUrl = node.chain?.rpcUrl ?? ""
    await server.close()
    const exit = await Effect.runPromiseExit(
      makeEvmAdapter({ rpcUrl, usdtContract: node.chain?.usdtContract ?? "" }).tip,
    )
    expect(Exit.isFailure(exit)).toBe(true)
  })
})

it("the sandbox chain outlives a restart through its state file", async () => {
  const dir = await mkdtemp(join(tmpdir(), "casino-evm-state-"))
  const stateFile = join(dir, "state.json")
  const runSandbox = async <A>(f: (s: Effect.Success<ReturnType<typeof makeEvmSandbox>>) => Promise<A>) => {
    const scope = Scope.makeUnsafe()
    const sandbox = await Effect.runPromise(makeEvmSandbox({ stateFile }).pipe(Scope.provide(scope)))
    try {
      return await f(sandbox)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }
  try {
    const to = "0x5555555555555555555555555555555555555555"
    const before = await runSandbox(async (s) => {
      await Effect.runPromise(s.faucet.send("ETH", to, parseEther("2")))
      await Effect.runPromise(s.mine(3))
      return Effect.runPromise(makeEvmAdapter(s).tip)
    })
    const after = await runSandbox(async (s) => ({
      hash: await Effect.runPromise(makeEvmAdapter(s).blockHash(before.height)),
      balance: await evmPublicClient(s.rpcUrl).getBalance({ address: to }),
    }))
    expect(after).toEqual({ hash: before.hash, balance: parseEther("2") })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}, 60_000)

it("configuration refuses anvil's public key as the hot wallet in production", () => {
  expect(() =>
    loadConfig({
      NODE_ENV: "production",
      CRYPTO_HOT_WALLET_KEY_ETH: anvilTestAccounts.hotWallet.privateKey,
      PUBLIC_URL: "https://casino.example",
    }),
  ).toThrow(/PUBLIC anvil test key/)
  const production = loadConfig({ NODE_ENV: "production", PUBLIC_URL: "https://casino.example" })
  expect(production.cryptoHotWalletKeyEth).toBeUndefined()
  expect(production.chainSandbox).toBe(false)
  const development = loadConfig({ NODE_ENV: "development" })
  expect(development.cryptoHotWalletKeyEth).toBe(anvilTestAccounts.hotWallet.privateKey)
  expect(development.chainSandbox).toBe(true)
})
