/**
 * The chain watcher on the EVM chain, on both backends, against a real anvil the test owns
 * (tests/support/anvil.ts) so it outlives the servers: the server reads it as its EVM node
 * (EVM_RPC_URL) and the test mines. USDT (ERC-20) and native ETH transfers to a
 * player's deposit address go pending, count confirmations (pushed as `cryptoDeposit`) and are
 * credited once, in minor units, on a wallet made for them; a transfer to an address nobody owns is
 * ignored; a reorg (evm_snapshot / evm_revert, then other blocks) before the credit orphans the
 * transfer, after it reverses the credit (the same transactions mined again in the new branch are
 * credited again: counted once); a watcher restarted mid-stream (the server closed, a new
 * one on the same database and the same anvil) misses nothing and credits nothing twice;
 * `ledger:check` stays clean.
 */
import { Effect, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { parseEther } from "viem"
import { afterAll, beforeAll, expect, it } from "vitest"
import { testXpubs } from "../../providers/chains/testKeys.ts"
import { REORG_WINDOW, Watcher } from "../../server/crypto/Watcher.ts"
import { PlayerEvents } from "../../server/events/PlayerEvents.ts"
import { startEvmSandbox, type TestChain } from "../support/anvil.ts"
import { newPlayer } from "./account-support.ts"
import { openRestartableData, type RestartableData } from "./crypto-evm-watcher-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { balanceOf, ledgerReport, PROFILE, userIdOf } from "./money-support.ts"

// Above the seeded minimum deposits (10 EUR: ≈10.9 USDT, ≈0.0034 ETH).
const usdt = (whole: number) => BigInt(whole) * 1_000_000n
const eth = (text: string) => parseEther(text)

interface Row {
  readonly status: string
  readonly confirmations: number
  readonly amount: string
  readonly currency: string
  readonly generation: number
}

describeBackends("crypto: the chain watcher on the EVM chain (anvil)", ({ backend }) => {
  let chain: TestChain
  let data: RestartableData
  let server: TestServer
  beforeAll(async () => {
    chain = await startEvmSandbox()
    data = await openRestartableData(backend, {
      EVM_RPC_URL: chain.rpcUrl,
      EVM_CHAIN_ID: String(chain.chainId),
      EVM_USDT_CONTRACT: chain.usdtContract,
      // The test ticks the watcher itself, on the ethereum network only.
      CRYPTO_WATCHER: "off",
      CRYPTO_CONFIRMATIONS: "ETH=3,USDT=2",
      CRYPTO_SCAN_BATCH: "2",
      // Every player of the file registers from 127.0.0.1, and the count survives the restarts.
      RATE_LIMIT_SCALE: "10",
      // Deposits on Ethereum only: without their xpubs the UTXO networks are neither offered nor
      // watched, so no test ever asks their public explorers.
      CRYPTO_XPUB_ETH: testXpubs.ethereum,
    })
    server = await data.start()
    await tick() // the first step places the cursor at the tip
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await data?.dispose()
    await chain?.close()
  })

  const tick = () =>
    server.run(
      Effect.gen(function* () {
        return yield* (yield* Watcher).tick("ethereum")
      }),
    )
  /** Ticks until the watcher has scanned up to the chain's tip (the batch is 2 blocks). */
  const settle = async () => {
    const tip = await chain.public.getBlockNumber()
    for (let i = 0; i < 20; i++) {
      const [report] = await tick()
      if (report?.ran === true && report.scannedTo === tip) return
    }
    throw new Error(`the watcher did not reach block ${tip}`)
  }
  const mine = (n = 1) => chain.run(chain.mine(n))
  const send = (currency: "ETH" | "USDT", to: string, amount: bigint) =>
    chain.run(chain.send(currency, to, amount))
  const rowsOf = (txHash: string) =>
    server.query<Row>(
      "SELECT status, confirmations, amount::text AS amount, currency, generation FROM crypto_deposits WHERE tx_hash = $1",
      [txHash],
    )
  const creditsOf = async (txHash: string) =>
    (
      await server.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM ledger_transactions WHERE idempotency_key LIKE $1",
        [`crypto-deposit:ethereum:${txHash}:%`],
      )
    )[0]?.n
  const reversalsOf = async (txHash: string) =>
    (
      await server.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'crypto_deposit_reversal' AND metadata->>'txHash' = $1",
        [txHash],
      )
    )[0]?.n
  const walletsOf = async (userId: string) =>
    (
      await server.query<{ currency: string }>(
        "SELECT currency FROM wallets WHERE user_id = $1 ORDER BY currency",
        [userId],
      )
    ).map((w) => w.currency)
  /** A JSON-RPC call viem's public client has no typed action for (anvil answers both). */
  const rpcCall = async (method: string, params: ReadonlyArray<unknown>): Promise<unknown> => {
    const res = await fetch(chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    })
    const body = (await res.json()) as { result?: unknown; error?: { message: string } }
    if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`)
    return body.result
  }
  const rawOf = async (txHash: string): Promise<string> => {
    const raw = await rpcCall("eth_getRawTransactionByHash", [txHash])
    if (typeof raw !== "string" || !raw.startsWith("0x")) throw new Error(`no raw transaction for ${txHash}`)
    return raw
  }
  const player = async (tag: string) => {
    const p = await newPlayer(server, tag)
    const res = await p.browser.post(`${PROFILE}/profile/crypto/deposit`, { currency: "USDT" })
    expect(res.status).toBe(200)
    const address = (res.body as { address: string }).address
    // ETH and USDT share the player's ethereum address.
    const ethRes = await p.browser.post(`${PROFILE}/profile/crypto/deposit`, { currency: "ETH" })
    expect((ethRes.body as { address: string }).address).toBe(address)
    return { p, id: await userIdOf(server, p.email), address }
  }

  it("USDT and ETH: pending, confirmations counting and pushed, then credited once on wallets made for them", async () => {
    const { p, id, address } = await player("evm-credit")
    expect(await walletsOf(id)).not.toContain("USDT")
    const collected = server.run(
      Effect.gen(function* () {
        const events = yield* PlayerEvents
        return yield* events.stream(id).pipe(Stream.take(7), Stream.runCollect)
      }).pipe(Effect.timeout("60 seconds")),
    )
    // Let the subscription start before anything is published (pushes are hints, never replayed).
    await new Promise((r) => setTimeout(r, 300))
    const usdtTx = await send("USDT", address, usdt(25))
    const ethTx = await send("ETH", address, eth("0.02"))
    await settle()
    expect(await rowsOf(usdtTx)).toEqual([]) // not mined yet: nothing
    await mine()
    await settle()
    expect(await rowsOf(usdtTx)).toMatchObject([
      { status: "pending", confirmations: 1, amount: "25000000", currency: "USDT" },
    ])
    expect(await rowsOf(ethTx)).toMatchObject([
      { status: "pending", confirmations: 1, amount: "20000000000000000", currency: "ETH" },
    ])
    expect(await balanceOf(server, id, "USDT")).toBe("missing")
    await mine()
    await settle()
    expect(await rowsOf(usdtTx)).toMatchObject([{ status: "credited", confirmations: 2 }])
    expect(await rowsOf(ethTx)).toMatchObject([{ status: "pending", confirmations: 2 }])
    expect(await balanceOf(server, id, "USDT")).toBe("25000000")
    expect(await balanceOf(server, id, "ETH")).toBe("missing")
    await mine()
    await settle()
    expect(await rowsOf(ethTx)).toMatchObject([{ status: "credited", confirmations: 3 }])
    expect(await balanceOf(server, id, "ETH")).toBe("20000000000000000")
    // More blocks and steps credit nothing more.
    await mine(3)
    await settle()
    await tick()
    expect([await creditsOf(usdtTx), await creditsOf(ethTx)]).toEqual([1, 1])
    expect(await balanceOf(server, id, "USDT")).toBe("25000000")
    expect(await balanceOf(server, id, "ETH")).toBe("20000000000000000")
    expect(await walletsOf(id)).toEqual(expect.arrayContaining(["ETH", "USDT"]))

    const events = [...(await collected)]
    const of = (tx: string) =>
      events.flatMap((e) =>
        e.type === "cryptoDeposit" && e.txHash === tx ? [[e.currency, e.status, e.confirmations]] : [],
      )
    expect(of(usdtTx)).toEqual([
      ["USDT", "pending", 1],
      ["USDT", "credited", 2],
    ])
    expect(of(ethTx)).toEqual([
      ["ETH", "pending", 1],
      ["ETH", "pending", 2],
      ["ETH", "credited", 3],
    ])
    expect(events.filter((e) => e.type === "balance")).toEqual([
      { type: "balance", currency: "USDT", balance: "25000000" },
      { type: "balance", currency: "ETH", balance: "20000000000000000" },
    ])

    const history = await p.browser.get(`${PROFILE}/profile/crypto/deposit`)
    expect(history.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ txHash: usdtTx, currency: "USDT", status: "credited", amount: "25000000" }),
        expect.objectContaining({
          txHash: ethTx,
          currency: "ETH",
          status: "credited",
          amount: "20000000000000000",
          outputIndex: null,
        }),
      ]),
    )
  })

  it("credits wei amounts beyond 64 bits exactly (50 ETH = 5·10^19 wei)", async () => {
    const { id, address } = await player("evm-big")
    const amount = eth("50")
    expect(amount > 2n ** 63n).toBe(true)
    const tx = await send("ETH", address, amount)
    await mine(3)
    await settle()
    expect(await rowsOf(tx)).toMatchObject([{ status: "credited", amount: "50000000000000000000" }])
    expect(await balanceOf(server, id, "ETH")).toBe("50000000000000000000")
  })

  it("ignores transfers to an address that is not a player's", async () => {
    const before = await server.query<{ n: number }>("SELECT count(*)::int AS n FROM crypto_deposits")
    const stranger = "0x3333333333333333333333333333333333333333"
    const txs = [await send("USDT", stranger, usdt(50)), await send("ETH", stranger, eth("1"))]
    await mine(3)
    await settle()
    for (const tx of txs) {
      expect(await rowsOf(tx)).toEqual([])
      expect(await creditsOf(tx)).toBe(0)
    }
    expect(await server.query("SELECT count(*)::int AS n FROM crypto_deposits")).toEqual(before)
  })

  it("a reorg before the credit orphans the transfers; nothing is credited", async () => {
    const { id, address } = await player("evm-reorg-before")
    const snapshot = await chain.test.snapshot()
    const usdtTx = await send("USDT", address, usdt(30))
    const ethTx = await send("ETH", address, eth("0.05"))
    await mine()
    await settle()
    expect(await rowsOf(usdtTx)).toMatchObject([{ status: "pending", confirmations: 1 }])
    expect(await rowsOf(ethTx)).toMatchObject([{ status: "pending", confirmations: 1 }])
    // Another branch from the snapshot, longer, without the transfers.
    await chain.test.revert({ id: snapshot })
    await mine(4)
    await settle()
    expect(await rowsOf(usdtTx)).toMatchObject([{ status: "orphaned" }])
    expect(await rowsOf(ethTx)).toMatchObject([{ status: "orphaned" }])
    await mine(3)
    await settle()
    expect(await rowsOf(usdtTx)).toMatchObject([{ status: "orphaned" }])
    expect(await rowsOf(ethTx)).toMatchObject([{ status: "orphaned" }])
    expect([await creditsOf(usdtTx), await creditsOf(ethTx)]).toEqual([0, 0])
    expect(await balanceOf(server, id, "USDT")).toBe("missing")
    expect(await balanceOf(server, id, "ETH")).toBe("missing")
  })

  it("a reorg after the credit reverses it (balances back to zero, never below)", async () => {
    const { id, address } = await player("evm-reorg-after")
    const snapshot = await chain.test.snapshot()
    const usdtTx = await send("USDT", address, usdt(40))
    const ethTx = await send("ETH", address, eth("0.1"))
    await mine(3)
    await settle()
    expect(await rowsOf(usdtTx)).toMatchObject([{ status: "credited" }])
    expect(await rowsOf(ethTx)).toMatchObject([{ status: "credited" }])
    expect(await balanceOf(server, id, "USDT")).toBe("40000000")
    expect(await balanceOf(server, id, "ETH")).toBe("100000000000000000")
    await chain.test.revert({ id: snapshot })
    await mine(5)
    await settle()
    expect(await rowsOf(usdtTx)).toMatchObject([{ status: "orphaned" }])
    expect(await rowsOf(ethTx)).toMatchObject([{ status: "orphaned" }])
    expect([await reversalsOf(usdtTx), await reversalsOf(ethTx)]).toEqual([1, 1])
    expect(await balanceOf(server, id, "USDT")).toBe("0")
    expect(await balanceOf(server, id, "ETH")).toBe("0")
    // Later steps reverse nothing twice.
    await mine(2)
    await settle()
    expect([await reversalsOf(usdtTx), await reversalsOf(ethTx)]).toEqual([1, 1])
    expect(await balanceOf(server, id, "USDT")).toBe("0")
  })

  it("a reorg after the credit, the same transactions mined again in the new branch: credited again, counted once", async () => {
    const { id, address } = await player("evm-reorg-again")
    const snapshot = await chain.test.snapshot()
    const usdtTx = await send("USDT", address, usdt(35))
    const ethTx = await send("ETH", address, eth("0.03"))
    await mine(3)
    await settle()
    expect(await balanceOf(server, id, "USDT")).toBe("35000000")
    expect(await balanceOf(server, id, "ETH")).toBe("30000000000000000")
    // The signed transactions as broadcast: after the revert their nonces are free again.
    const raws = [await rawOf(usdtTx), await rawOf(ethTx)]
    await chain.test.revert({ id: snapshot })
    for (const raw of raws) await rpcCall("eth_sendRawTransaction", [raw])
    await mine(4)
    await settle()
    expect(await rowsOf(usdtTx)).toMatchObject([{ status: "credited", generation: 1 }])
    expect(await rowsOf(ethTx)).toMatchObject([{ status: "credited", generation: 1 }])
    expect([await reversalsOf(usdtTx), await reversalsOf(ethTx)]).toEqual([1, 1])
    expect([await creditsOf(usdtTx), await creditsOf(ethTx)]).toEqual([2, 2])
    expect(await balanceOf(server, id, "USDT")).toBe("35000000")
    expect(await balanceOf(server, id, "ETH")).toBe("30000000000000000")
  })

  it("below minDeposit (1 USDT): recorded, held, not credited, listed for an operator", async () => {
    const { id, address } = await player("evm-dust")
    const tx = await send("USDT", address, usdt(1))
    await mine(2)
    await settle()
    expect(await rowsOf(tx)).toMatchObject([{ status: "below_minimum", confirmations: 2, amount: "1000000" }])
    expect(await creditsOf(tx)).toBe(0)
    expect(await balanceOf(server, id, "USDT")).toBe("missing")
    const alerts = await server.query<{ kind: string }>(
      "SELECT a.kind FROM crypto_alerts a JOIN crypto_deposits d ON d.id = a.deposit_id WHERE d.tx_hash = $1",
      [tx],
    )
    expect(alerts).toEqual([{ kind: "below_minimum" }])
  })

  it("a reorg while the watcher is down is undone by the next process", async () => {
    const { id, address } = await player("evm-reorg-down")
    const snapshot = await chain.test.snapshot()
    const tx = await send("USDT", address, usdt(45))
    await mine(2)
    await settle()
    expect(await balanceOf(server, id, "USDT")).toBe("45000000")
    await server.close()
    await chain.test.revert({ id: snapshot })
    await mine(4)
    server = await data.start()
    await settle()
    expect(await rowsOf(tx)).toMatchObject([{ status: "orphaned" }])
    expect(await reversalsOf(tx)).toBe(1)
    expect(await balanceOf(server, id, "USDT")).toBe("0")
  })

  it("more confirmations required than the reorg window keeps hashes: still credited (scanning 20 blocks a step)", async () => {
    await server.close()
    const required = Number(REORG_WINDOW) + 5
    server = await data.start({ CRYPTO_CONFIRMATIONS: `ETH=3,USDT=${required}`, CRYPTO_SCAN_BATCH: "20" })
    try {
      const { id, address } = await player("evm-deep")
      const tx = await send("USDT", address, usdt(60))
      await mine()
      await settle()
      expect(await rowsOf(tx)).toMatchObject([{ status: "pending", confirmations: 1 }])
      await mine(required + 10)
      await settle()
      expect(await rowsOf(tx)).toMatchObject([{ status: "credited", confirmations: required + 11 }])
      expect(await balanceOf(server, id, "USDT")).toBe("60000000")
    } finally {
      await server.close()
      server = await data.start()
    }
  })

  it("a watcher restarted mid-stream misses nothing and credits nothing twice", async () => {
    const players = [await player("evm-restart-1"), await player("evm-restart-2")]
    const sent: Array<{ tx: string; player: number; currency: "ETH" | "USDT"; amount: bigint }> = []
    const pay = async (i: number) => {
      const n = i % 2
      const target = players[n]
      if (target === undefined) throw new Error("no player")
      const currency = i % 3 === 0 ? "ETH" : "USDT"
      const amount = currency === "ETH" ? eth("0.01") + BigInt(i) : usdt(20) + BigInt(i)
      sent.push({ tx: await send(currency, target.address, amount), player: n, currency, amount })
    }
    // Five blocks with payments; one step scans two of them, then the process stops.
    for (let i = 0; i < 5; i++) {
      await pay(i)
      await mine()
    }
    const [first] = await tick()
    expect(first?.ran).toBe(true)
    expect(first?.scannedTo).toBeLessThan(await chain.public.getBlockNumber())
    await server.close()
    // While no watcher runs: more payments, more blocks.
    for (let i = 5; i < 9; i++) {
      await pay(i)
      await mine()
    }
    // A new process on the same database and the same chain.
    server = await data.start()
    await settle()
    await mine(3)
    await settle()
    await tick()
    for (const s of sent) {
      expect(await rowsOf(s.tx)).toMatchObject([{ status: "credited", amount: s.amount.toString() }])
      expect(await creditsOf(s.tx)).toBe(1)
    }
    for (const [n, p] of players.entries()) {
      for (const currency of ["ETH", "USDT"] as const) {
        const sum = sent
          .filter((s) => s.player === n && s.currency === currency)
          .reduce((total, s) => total + s.amount, 0n)
        expect(await balanceOf(server, p.id, currency)).toBe(sum === 0n ? "missing" : sum.toString())
      }
    }
  })

  it("a server stopped while its watcher loop scans: the next one credits everything, once", async () => {
    // This server steps on its own (every second), like production; the test only waits and stops it.
    await server.close()
    server = await data.start({ CRYPTO_WATCHER: "on", CRYPTO_POLL_SECONDS: "1" })
    const players = [await player("evm-loop-1"), await player("evm-loop-2")]
    const sent: Array<{ tx: string; player: number; amount: bigint }> = []
    const pay = async (i: number) => {
      const n = i % 2
      const target = players[n]
      if (target === undefined) throw new Error("no player")
      const amount = usdt(15) + BigInt(i)
      sent.push({ tx: await send("USDT", target.address, amount), player: n, amount })
    }
    for (let i = 0; i < 6; i++) {
      await pay(i)
      await mine()
    }
    // Stop it once it has seen the first payment, whatever step it is in then.
    const first = sent[0]?.tx ?? ""
    for (let i = 0; i < 600 && (await rowsOf(first)).length === 0; i++)
      await new Promise((r) => setTimeout(r, 50))
    expect(await rowsOf(first)).toHaveLength(1)
    await server.close()
    for (let i = 6; i < 9; i++) {
      await pay(i)
      await mine()
    }
    server = await data.start()
    await settle()
    await mine(2)
    await settle()
    for (const s of sent) {
      expect(await rowsOf(s.tx)).toMatchObject([{ status: "credited", amount: s.amount.toString() }])
      expect(await creditsOf(s.tx)).toBe(1)
    }
    for (const [n, p] of players.entries()) {
      const sum = sent.filter((s) => s.player === n).reduce((total, s) => total + s.amount, 0n)
      expect(await balanceOf(server, p.id, "USDT")).toBe(sum.toString())
    }
  })

  // Two processes on one PostgreSQL database (PGlite's folder belongs to one process).
  it.skipIf(backend === "pglite")(
    "two servers stepping at once on one database: one scans each step, each transfer credited once",
    async () => {
      const other = await data.start()
      try {
        const { id, address } = await player("evm-two-servers")
        const txs: string[] = []
        const both = () =>
          Promise.all(
            [server, other].map((s) =>
              s.run(
                Effect.gen(function* () {
                  return yield* (yield* Watcher).tick("ethereum")
                }),
              ),
            ),
          )
        // The advisory lock, deterministically: while a transaction holds the network's lock (as a
        // step in progress does), neither server steps; once it ends, they step again.
        const whileHeld = await server.run(
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            return yield* sql.withTransaction(
              Effect.gen(function* () {
                yield* sql`SELECT pg_advisory_xact_lock(hashtext('crypto-watcher:ethereum'))`
                return yield* Effect.promise(both)
              }),
            )
          }),
        )
        expect(whileHeld.flat().map((r) => r.ran)).toEqual([false, false])
        for (let i = 0; i < 4; i++) {
          txs.push(await send("USDT", address, usdt(12) + BigInt(i)))
          await mine()
          const reports = (await both()).flat()
          // At least one scans each step; both may, one after the other (on a busy machine the first
          // can finish before the second begins); the credits below are counted once either way.
          expect(reports.some((r) => r.ran)).toBe(true)
        }
        await mine(2)
        for (let i = 0; i < 6; i++) await both()
        await settle()
        for (const tx of txs) {
          expect(await rowsOf(tx)).toMatchObject([{ status: "credited" }])
          expect(await creditsOf(tx)).toBe(1)
        }
        expect(await balanceOf(server, id, "USDT")).toBe(String(usdt(48) + 6n))
      } finally {
        await other.close()
      }
    },
  )

  it("ledger:check is clean after all of it", async () => {
    const report = await ledgerReport(server)
    expect(report.clean).toBe(true)
  })
})
