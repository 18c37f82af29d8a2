/**
 * The UTXO sandbox chains survive a restart, on both backends: a deposit is credited; the casino
 * and the chains party stop; new ones on the same DATA_DIR (the chains' state under
 * `${DATA_DIR}/chains`) and database continue the same chain (height, hashes, the faucet's coins,
 * the mempool), the watcher carries on from its cursor without a reorg alert, a new transfer is
 * credited and the old one is not credited again. Also: a chain state file that does not verify
 * stops the start with its reason instead of silently starting a new chain.
 *
 * Not `harness.ts`'s `start()`: its `close()` deletes the data folder and the database, and this
 * test needs both to outlive the first server.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, expect, it } from "vitest"
import { startLocal } from "../../compose/local.ts"
import { SandboxChain } from "../../providers/chains/utxo/chain.ts"
import { utxoStateFile } from "../../providers/chains/utxo/UtxoChains.ts"
import { Watcher } from "../../server/crypto/Watcher.ts"
import { createDatabase, seedPgliteDataDir, type TestDatabase } from "../support/databases.ts"
import { freePort } from "../support/server.ts"
import { newPlayer } from "./account-support.ts"
import { chainsOf } from "./crypto-support.ts"
import { describeBackends, queryThrough, type TestServer } from "./harness.ts"
import { balanceOf, ledgerReport, PROFILE, userIdOf } from "./money-support.ts"

const env = {
  CRYPTO_WATCHER: "off",
  CHAIN_SANDBOX_BLOCK_SECONDS: "0",
  CRYPTO_CONFIRMATIONS: "BTC=2,LTC=3,DOG=3",
}

describeBackends("crypto: the UTXO sandbox chains survive a restart", ({ backend }) => {
  let dataDir: string | undefined
  let database: TestDatabase | undefined
  const running: TestServer[] = []
  afterAll(async () => {
    for (const s of running) await s.close()
    await database?.drop()
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
  })

  /** The real server and the chains party on `dataDir` (and `database`); closing them keeps both. */
  const boot = async (): Promise<TestServer> => {
    const dir = dataDir ?? ""
    const port = await freePort()
    const stack = await startLocal(
      {
        PORT: String(port),
        SANDBOX_PORTS: "auto",
        HOST: "127.0.0.1",
        DATA_DIR: dir,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: process.env.LOG_LEVEL ?? "Warn",
        NODE_ENV: "test",
        ...(database === undefined ? {} : { DATABASE_URL: database.url }),
        ...env,
      },
      { only: ["chains"], overrides: { captchaEnabled: false } },
    )
    const query = queryThrough(stack.casino.run)
    const s: TestServer = {
      backend,
      url: stack.casino.url,
      config: stack.config,
      dataDir: dir,
      outboxDir: stack.config.mailOutboxDir,
      query,
      sql: query,
      run: stack.casino.run,
      parties: stack.parties,
      close: stack.close,
      drain: (settleMs) => stack.casino.drain(settleMs),
    }
    running.push(s)
    return s
  }

  const chain = async (s: TestServer) => chainsOf(s).utxo("bitcoin")
  const tick = (s: TestServer) =>
    s.run(
      Effect.gen(function* () {
        return yield* (yield* Watcher).tick("bitcoin")
      }),
    )
  const creditsOf = async (s: TestServer, txHash: string) =>
    (
      await s.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM ledger_transactions WHERE idempotency_key LIKE $1",
        [`crypto-deposit:bitcoin:${txHash}:%`],
      )
    )[0]?.n
  const statusOf = async (s: TestServer, txHash: string) =>
    (
      await s.query<{ status: string }>("SELECT status FROM crypto_deposits WHERE tx_hash = $1", [txHash])
    ).map((r) => r.status)

  it("a restarted server continues the same chain and credits each transfer once", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "casino-utxo-persist-"))
    if (backend === "postgres") database = await createDatabase("casino_test")
    else await seedPgliteDataDir(dataDir)

    // First run: a deposit credited, then one more transfer still in the mempool at the stop.
    const first = await boot()
    await tick(first) // places the cursor at the tip
    const p = await newPlayer(first, "utxo-persist")
    const id = await userIdOf(first, p.email)
    const res = await p.browser.post(`${PROFILE}/profile/crypto/deposit`, { currency: "BTC" })
    const address = (res.body as { address: string }).address
    const c1 = await chain(first)
    const tx1 = c1.send(address, 1_000_000n)
    c1.mine(2)
    await tick(first)
    expect(await statusOf(first, tx1)).toEqual(["credited"])
    expect(await balanceOf(first, id, "BTC")).toBe("1000000")
    const pendingTx = c1.send(address, 250_000n)
    const before = {
      height: c1.tip.height,
      hashes: Array.from({ length: c1.tip.height + 1 }, (_, h) => c1.blockAt(h)?.hash),
      faucet: c1.faucetAddress,
    }
    await first.close()

    // Second run on the same DATA_DIR and database.
    const second = await boot()
    const c2 = await chain(second)
    expect(c2).not.toBe(c1)
    expect({
      height: c2.tip.height,
      hashes: Array.from({ length: c2.tip.height + 1 }, (_, h) => c2.blockAt(h)?.hash),
      faucet: c2.faucetAddress,
    }).toEqual(before)
    // The mempool came back too: the pending transfer is known, unconfirmed.
    expect(c2.transaction(pendingTx)?.height).toBeNull()
    // The UTXO set was rebuilt: tx1's output is spendable state, not forgotten.
    expect(c2.utxosOf(address).map((u) => u.txid)).toEqual(expect.arrayContaining([tx1, pendingTx]))

    await tick(second) // the cursor's recorded hash is still on the chain: no reorg
    const tx2 = c2.send(address, 300_000n) // the restored faucet key still signs for its coins
    c2.mine(2)
    await tick(second)
    await tick(second)
    expect(c2.tip.height).toBe(before.height + 2)
    expect(c2.blockAt(before.height)?.hash).toBe(before.hashes.at(-1))
    expect(await statusOf(second, pendingTx)).toEqual(["credited"])
    expect(await statusOf(second, tx2)).toEqual(["credited"])
    expect(await creditsOf(second, tx1)).toBe(1)
    expect(await creditsOf(second, pendingTx)).toBe(1)
    expect(await creditsOf(second, tx2)).toBe(1)
    expect(await balanceOf(second, id, "BTC")).toBe("1550000")
    expect(await second.query("SELECT kind, detail FROM crypto_alerts")).toEqual([])
    expect((await ledgerReport(second)).clean).toBe(true)
  }, 120_000)
})

it("a chain state file that does not verify is refused with its reason, never replaced", async () => {
  const dir = await mkdtemp(join(tmpdir(), "casino-utxo-state-"))
  try {
    const file = utxoStateFile(dir, "litecoin")
    const original = new SandboxChain("litecoin", { stateFile: file })
    original.mine(2)
    original.send(original.faucetAddress, 1_000_000n)
    original.reorg(1) // the replaced block is written over too
    const text = await readFile(file, "utf8")
    // A reload without changes verifies and gives the same chain.
    const reloaded = new SandboxChain("litecoin", { stateFile: file })
    expect([reloaded.tip.height, reloaded.tip.hash, reloaded.faucetAddress]).toEqual([
      original.tip.height,
      original.tip.hash,
      original.faucetAddress,
    ])
    expect(reloaded.tip.txs.map((t) => t.getId())).toEqual(original.tip.txs.map((t) => t.getId()))
    // Block 3's coinbase (its only transaction) given another lock time: the merkle root no longer matches.
    const state = JSON.parse(text) as { blocks: string[] }
    const block3 = state.blocks[3] ?? ""
    expect(block3.slice(-8)).toBe("00000000")
    state.blocks[3] = `${block3.slice(0, -8)}01000000`
    await writeFile(file, JSON.stringify(state))
    expect(() => new SandboxChain("litecoin", { stateFile: file })).toThrow(
      /litecoin sandbox chain .* cannot be restored \(block 3/,
    )
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(state) // left as it was, for a look
    // Another network's file is not taken for this one.
    await writeFile(file, text)
    expect(() => new SandboxChain("dogecoin", { stateFile: file })).toThrow(
      /not a dogecoin sandbox chain state/,
    )
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
