/**
 * The EVM wiring: with the chains party beside it (as `npm start` composes them) the casino is told
 * anvil's JSON-RPC and a hot wallet the chains fund, and pays out through `CryptoPayouts`; anvil stops
 * with the stack; the sandbox chain survives a restart through its state file; configuration has no
 * hot wallet by default and refuses a public dev account's key in production — knowing those
 * accounts by their addresses only.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Scope } from "effect"
import { parseEther } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fundedBalances, makeEvmSandbox } from "../../providers/chains/evm/EvmChain.ts"
import { anvilDevAccounts, anvilTestAccounts } from "../../providers/chains/testKeys.ts"
import { loadConfig } from "../../server/config.ts"
import { EvmNode } from "../../server/crypto/evm/EvmNode.ts"
import { makeEvmAdapter } from "../../server/crypto/evm/index.ts"
import { evmPublicClient } from "../../server/crypto/evm/rpc.ts"
import { CryptoPayouts } from "../../server/crypto/payouts.ts"
import { publicTestAddresses } from "../../server/security/publicTestKeys.ts"
import { chainsOf } from "./crypto-support.ts"
import { startTestServer, type TestServer } from "./harness.ts"

describe("the casino beside the chains party: its EVM node and payouts", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(
      { captchaEnabled: false },
      { env: { CHAIN_SANDBOX_BLOCK_SECONDS: "0" }, parties: ["chains"] },
    )
  }, 60_000)
  afterAll(async () => {
    await server?.close()
  })

  it("is told anvil's RPC and a funded hot wallet, and pays out through CryptoPayouts", async () => {
    const node = await server.run(Effect.service(EvmNode))
    expect(node.chain?.chainId).toBe(31337)
    expect(node.chain?.usdtContract).toBe("0xdAC17F958D2ee523a2206206994597C13D831ec7")
    const chains = chainsOf(server)
    if (node.chain === undefined) throw new Error("the casino should have an EVM chain")
    expect(node.chain.rpcUrl).toBe(chains.rpcUrl)
    const client = evmPublicClient(node.chain.rpcUrl)
    expect(await client.getBalance({ address: anvilTestAccounts.hotWallet.address })).toBeGreaterThanOrEqual(
      fundedBalances.eth,
    )
    const to = "0x4444444444444444444444444444444444444444"
    const sent = await server.run(
      Effect.gen(function* () {
        const payouts = yield* CryptoPayouts
        return yield* payouts.send({ key: "withdrawal:server-1", currency: "USDT", to, amount: 42_000_000n })
      }),
    )
    await chains.mine("ethereum", 1)
    const seen = await server.run(
      makeEvmAdapter(node.chain).transfersIn(0n, (await client.getBlockNumber()) + 0n, (a) => a === to),
    )
    expect(seen.map((t) => [t.txHash, t.amount])).toEqual([[sent.txHash, 42_000_000n]])
  })

  it("stops anvil with the stack", async () => {
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
      await Effect.runPromise(s.send("ETH", to, parseEther("2")))
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

it("configuration has no hot wallet by default and refuses a public anvil key in production", () => {
  // The casino's denylist is the dev accounts' addresses: every one of the chains' keys is on it.
  expect(publicTestAddresses).toEqual(anvilDevAccounts.map((a) => a.address.toLowerCase()))
  // What production needs besides (tests/server/production.test.ts refuses each one missing).
  const productionBasics = {
    NODE_ENV: "production",
    PUBLIC_URL: "https://casino.example",
    CAPTCHA_SECRET: "c".repeat(32),
    OPERATOR_SECRETS: JSON.stringify({ ana: "a".repeat(32) }),
    BACKOFFICE_TOTP_KEY: "b".repeat(32),
    BACKOFFICE_ALLOW: "203.0.113.0/24",
    SMTP_URL: "smtp://mail.casino.example:587",
    DATABASE_URL: "embedded",
  }
  for (const account of anvilDevAccounts)
    expect(() => loadConfig({ ...productionBasics, CRYPTO_HOT_WALLET_KEY_ETH: account.privateKey })).toThrow(
      /CRYPTO_HOT_WALLET_KEY_ETH is a PUBLIC anvil dev account's key/,
    )
  const own = "0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63"
  const production = loadConfig({ ...productionBasics, CRYPTO_HOT_WALLET_KEY_ETH: own })
  expect(production.cryptoHotWalletKeyEth).toBe(own)
  expect(loadConfig(productionBasics).cryptoHotWalletKeyEth).toBeUndefined()
  const development = loadConfig({ NODE_ENV: "development" })
  expect(development.cryptoHotWalletKeyEth).toBeUndefined()
  expect(development.evmRpcUrl).toBeUndefined()
  // Outside production the public key is allowed: the local composition gives it.
  expect(
    loadConfig({ NODE_ENV: "development", CRYPTO_HOT_WALLET_KEY_ETH: anvilTestAccounts.hotWallet.privateKey })
      .cryptoHotWalletKeyEth,
  ).toBe(anvilTestAccounts.hotWallet.privateKey)
})
