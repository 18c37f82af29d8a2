/**
 * The sandbox chains party ALONE (providers/chains/server.ts), no casino: its configuration from its
 * own CHAINS_* variables; its control API over HTTP as a testnet's (POST /faucet on every chain,
 * POST /mine), its UTXO chains read through their Esplora API, its EVM chain through anvil's
 * JSON-RPC; funded addresses topped up at start; its storage its own folder, so a restart continues
 * the same chains; with a block time, blocks come by themselves.
 */
import { existsSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createPublicClient, http, parseAbi } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MAINNET_USDT_CONTRACT } from "../../protocols/chains/evm.ts"
import { loadChainsConfig } from "../../providers/chains/config.ts"
import { fundedBalances } from "../../providers/chains/evm/EvmChain.ts"
import { type RunningChains, startChains } from "../../providers/chains/server.ts"
import { eventually } from "./onramp-harness.ts"

const btcAddress = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
const ethAddress = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
const funded = "0x6666666666666666666666666666666666666666"

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe("configuration", () => {
  it("reads its own CHAINS_* variables and names a bad one", () => {
    const config = loadChainsConfig({ CHAINS_FUND: `${funded}, ${ethAddress}` })
    expect(config).toMatchObject({ port: 8084, host: "127.0.0.1", evmPort: 0, blockSeconds: 2 })
    expect(config.fund).toEqual([funded, ethAddress])
    expect(config.dataDir).toBe(".data/chains")
    expect(() => loadChainsConfig({ CHAINS_PORT: "http" })).toThrow(/CHAINS_PORT/)
    expect(() => loadChainsConfig({ CHAINS_BLOCK_SECONDS: "-1" })).toThrow(/CHAINS_BLOCK_SECONDS/)
    expect(() => loadChainsConfig({ CHAINS_FUND: "bc1q…" })).toThrow(/CHAINS_FUND/)
    expect(() => loadChainsConfig({ CHAINS_LOG_LEVEL: "loud" })).toThrow(/CHAINS_LOG_LEVEL/)
  })
})

describe("the chains alone", () => {
  let dataDir: string
  let chains: RunningChains | undefined
  const start = (env: Record<string, string> = {}) =>
    startChains(
      loadChainsConfig({
        CHAINS_PORT: "0",
        CHAINS_DATA_DIR: dataDir,
        CHAINS_BLOCK_SECONDS: "0",
        CHAINS_FUND: funded,
        CHAINS_LOG_LEVEL: "Error",
        ...env,
      }),
    )
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "casino-chains-alone-"))
    chains = await start()
  }, 60_000)
  afterAll(async () => {
    await chains?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  const running = () => {
    if (chains === undefined) throw new Error("not started")
    return chains
  }
  const evm = () => createPublicClient({ transport: http(running().rpcUrl), cacheTime: 0 })
  const usdtOf = (address: `0x${string}`) =>
    evm().readContract({
      address: MAINNET_USDT_CONTRACT,
      abi: parseAbi(["function balanceOf(address) view returns (uint256)"]),
      functionName: "balanceOf",
      args: [address],
    })

  it("says what runs where, and tops up the funded address", async () => {
    const info = await (await fetch(`${running().url}/`)).json()
    expect(info).toMatchObject({
      sandbox: true,
      evm: { rpcUrl: running().rpcUrl, chainId: 31337, usdtContract: MAINNET_USDT_CONTRACT },
      esplora: { bitcoin: "/sandbox-chain/bitcoin/api" },
      faucet: "/faucet",
      mine: "/mine",
    })
    expect(await evm().getBalance({ address: funded })).toBe(fundedBalances.eth)
    expect(await usdtOf(funded)).toBe(fundedBalances.usdt)
  })

  it("pays from its faucet on a UTXO chain over HTTP; the payment is mined by POST /mine, read over Esplora", async () => {
    const url = running().url
    const paid = await post(`${url}/faucet`, { currency: "BTC", to: btcAddress, amount: "125000" })
    expect(paid.status).toBe(200)
    const txid = String(paid.body.txHash)
    expect(txid).toMatch(/^[0-9a-f]{64}$/)
    const esplora = running().esploraUrl("bitcoin")
    const pending = (await (await fetch(`${esplora}/tx/${txid}`)).json()) as {
      status: { confirmed: boolean }
    }
    expect(pending.status.confirmed).toBe(false)
    const mined = await post(`${url}/mine`, { network: "bitcoin", blocks: 2 })
    expect(mined.status).toBe(200)
    const tip = Number(await (await fetch(`${esplora}/blocks/tip/height`)).text())
    expect(mined.body).toEqual({ tips: [{ network: "bitcoin", height: tip }] })
    const tx = (await (await fetch(`${esplora}/tx/${txid}`)).json()) as {
      status: { confirmed: boolean; block_height: number }
      vout: Array<{ scriptpubkey_address?: string; value: number }>
    }
    expect(tx.status).toMatchObject({ confirmed: true, block_height: tip - 1 })
    expect(tx.vout).toContainEqual(
      expect.objectContaining({ scriptpubkey_address: btcAddress, value: 125000 }),
    )
  })

  it("pays ETH and mints USDT on the EVM chain; POST /mine without a network mines every chain", async () => {
    const url = running().url
    const before = await usdtOf(ethAddress)
    expect(
      (await post(`${url}/faucet`, { currency: "USDT", to: ethAddress, amount: "2500000" })).status,
    ).toBe(200)
    const eth = await post(`${url}/faucet`, { currency: "ETH", to: ethAddress, amount: "1000000000000000" })
    expect(String(eth.body.txHash)).toMatch(/^0x[0-9a-f]{64}$/)
    const height = await evm().getBlockNumber()
    const mined = await post(`${url}/mine`, {})
    expect((mined.body.tips as Array<{ network: string }>).map((t) => t.network)).toEqual([
      "bitcoin",
      "litecoin",
      "dogecoin",
      "ethereum",
    ])
    expect(await evm().getBlockNumber()).toBe(height + 1n)
    expect(await usdtOf(ethAddress)).toBe(before + 2_500_000n)
    expect(await evm().getBalance({ address: ethAddress })).toBeGreaterThanOrEqual(1_000_000_000_000_000n)
  })

  it("refuses what it cannot do: 400 for a malformed request, 422 for an address of another chain", async () => {
    const url = running().url
    expect((await post(`${url}/faucet`, "{not json")).status).toBe(400)
    expect((await post(`${url}/faucet`, { currency: "XRP", to: btcAddress, amount: "1" })).status).toBe(400)
    expect((await post(`${url}/faucet`, { currency: "BTC", to: btcAddress, amount: "-5" })).status).toBe(400)
    expect((await post(`${url}/mine`, { network: "solana" })).status).toBe(400)
    expect((await post(`${url}/mine`, { blocks: 1000 })).status).toBe(400)
    const wrong = await post(`${url}/faucet`, { currency: "ETH", to: btcAddress, amount: "1" })
    expect(wrong).toEqual({ status: 422, body: { error: `${btcAddress} is not an Ethereum address` } })
    const ltc = await post(`${url}/faucet`, { currency: "LTC", to: btcAddress, amount: "1000" })
    expect(ltc.status).toBe(422)
    expect(String(ltc.body.error)).toContain("not a litecoin address")
  })

  it("keeps its chains in its own folder: a restart continues them", async () => {
    const bitcoin = running().utxo("bitcoin").tip
    const evmHeight = await evm().getBlockNumber()
    await running().close()
    chains = undefined
    for (const file of ["evm/state.json", "utxo/bitcoin.json", "utxo/litecoin.json", "utxo/dogecoin.json"])
      expect(existsSync(join(dataDir, file)), file).toBe(true)
    chains = await start()
    expect(running().utxo("bitcoin").tip).toMatchObject({ height: bitcoin.height, hash: bitcoin.hash })
    expect(await evm().getBlockNumber()).toBeGreaterThanOrEqual(evmHeight)
    // Topped up, not paid again: the funded address holds what it held.
    expect(await usdtOf(funded)).toBe(fundedBalances.usdt)
  }, 60_000)
})

it("with a block time, every chain mines by itself", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "casino-chains-timer-"))
  const chains = await startChains(
    loadChainsConfig({
      CHAINS_PORT: "0",
      CHAINS_DATA_DIR: dataDir,
      CHAINS_BLOCK_SECONDS: "1",
      CHAINS_LOG_LEVEL: "Error",
    }),
  )
  try {
    const start = chains.utxo("dogecoin").tip.height
    const evmClient = createPublicClient({ transport: http(chains.rpcUrl), cacheTime: 0 })
    await eventually(async () => (chains.utxo("dogecoin").tip.height > start ? true : undefined))
    await eventually(async () => ((await evmClient.getBlockNumber()) > 0n ? true : undefined))
  } finally {
    await chains.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}, 30_000)
