/**
 * Two casino server processes' worth of watchers on ONE PostgreSQL database (multi-instance
 * safe): both run their watcher loop (started with the server) and are also stepped at the same
 * time by hand, over the same chain (the chains party started beside A; B configured with it). Every transfer is
 * credited exactly once. PostgreSQL only: PGlite is one process by construction.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { makeServer, type RunningServer } from "../../server/app.ts"
import { loadConfig } from "../../server/config.ts"
import { Watcher } from "../../server/crypto/Watcher.ts"
import { freePort } from "../support/server.ts"
import { newPlayer } from "./account-support.ts"
import { chainsOf, testXpubEnv } from "./crypto-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { balanceOf, ledgerReport, PROFILE, userIdOf } from "./money-support.ts"

describeBackends("crypto: two processes, one credit", ({ backend, start }) => {
  let a: TestServer | undefined
  let b: RunningServer | undefined
  let bDir: string | undefined
  const postgres = backend === "postgres"

  beforeAll(async () => {
    if (!postgres) return
    const env = { CHAIN_SANDBOX_BLOCK_SECONDS: "0", CRYPTO_POLL_SECONDS: "1", CRYPTO_CONFIRMATIONS: "BTC=2" }
    a = await start({ captchaEnabled: false }, { env, parties: ["chains"] })
    const port = await freePort()
    bDir = await mkdtemp(join(tmpdir(), "casino-crypto-b-"))
    // B is configured by hand with the chains A was composed with, the EVM one (anvil) included.
    const chains = chainsOf(a)
    b = await makeServer(
      loadConfig({
        ...env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: bDir,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        NODE_ENV: "test",
        LOG_LEVEL: "Error",
        CAPTCHA: "off",
        DATABASE_URL: a.config.databaseUrl,
        ...testXpubEnv,
        CRYPTO_ESPLORA_BTC: chains.esploraUrl("bitcoin"),
        CRYPTO_ESPLORA_LTC: chains.esploraUrl("litecoin"),
        CRYPTO_ESPLORA_DOGE: chains.esploraUrl("dogecoin"),
        EVM_RPC_URL: chains.rpcUrl,
        EVM_CHAIN_ID: String(chains.evm.chainId),
        EVM_USDT_CONTRACT: chains.evm.usdtContract,
      }),
    )
  })
  afterAll(async () => {
    await b?.close()
    if (bDir !== undefined) await rm(bDir, { recursive: true, force: true })
    await a?.close()
  })

  it.skipIf(!postgres)("every transfer is credited exactly once", async () => {
    if (a === undefined || b === undefined) throw new Error("servers not started")
    const server = a
    const chain = chainsOf(server).utxo("bitcoin")
    const tickA = () =>
      server.run(
        Effect.gen(function* () {
          return yield* (yield* Watcher).tick("bitcoin")
        }),
      )
    const tickB = () =>
      b?.run(
        Effect.gen(function* () {
          return yield* (yield* Watcher).tick("bitcoin")
        }),
      )
    // Both servers stepped at once, by hand, beside their own loops; whether a step scanned is kept.
    let scannedByHand = 0
    const tickBoth = async () => {
      const reports = await Promise.all([tickA(), tickB(), tickA(), tickB()])
      scannedByHand += reports.flat().filter((r) => r?.ran === true).length
    }
    await tickBoth()
    const players = await Promise.all(
      [1, 2, 3].map(async (i) => {
        const p = await newPlayer(server, `multi-${i}`)
        const res = await p.browser.post(`${PROFILE}/profile/crypto/deposit`, { currency: "BTC" })
        return { id: await userIdOf(server, p.email), address: (res.body as { address: string }).address }
      }),
    )
    const txs: string[] = []
    for (const [i, p] of players.entries()) {
      txs.push(chain.send(p.address, 300_000n + BigInt(i)))
      chain.mine()
      await tickBoth()
    }
    chain.mine(2)
    await tickBoth()
    const deadline = Date.now() + 30_000
    const credited = async () =>
      (
        await server.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM crypto_deposits WHERE status = 'credited' AND tx_hash = ANY($1)",
          [txs],
        )
      )[0]?.n
    while ((await credited()) !== txs.length && Date.now() < deadline) await tickBoth()
    expect(await credited()).toBe(txs.length)
    // The hand steps raced the loops for the advisory lock, and some of them won it: they scanned too
    // (a step that finds the lock held skips, so on a busy machine the loops may win many in a row).
    while (scannedByHand === 0 && Date.now() < deadline) await tickBoth()
    expect(scannedByHand).toBeGreaterThan(0)
    // Let both loops run over the same blocks a few more times: still one credit each.
    await new Promise((r) => setTimeout(r, 2_500))
    for (const tx of txs) {
      const rows = await server.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM ledger_transactions WHERE idempotency_key LIKE $1",
        [`crypto-deposit:bitcoin:${tx}:%`],
      )
      expect(rows[0]?.n).toBe(1)
    }
    for (const [i, p] of players.entries())
      expect(await balanceOf(server, p.id, "BTC")).toBe(String(300_000n + BigInt(i)))
    expect((await ledgerReport(server)).clean).toBe(true)
  })
})
