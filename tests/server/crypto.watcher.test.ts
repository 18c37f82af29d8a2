/**
 * The chain watcher on the UTXO sandbox chain (the chains party beside the casino), on both backends: a transfer goes pending,
 * counts its confirmations and is credited once; replays credit nothing more; a transaction the test
 * builds and signs itself is accepted over Esplora's POST /tx (a forged one is refused); reorgs before
 * and after the credit; below minDeposit is held; a watcher restarted mid-stream misses nothing and
 * credits nothing twice; `ledger:check` stays clean.
 */
import { address as addressCodec, Psbt, payments } from "bitcoinjs-lib"
import { ECPairFactory } from "ecpair"
import { Effect, Layer, Stream } from "effect"
import * as ecc from "tiny-secp256k1"
import { afterAll, beforeAll, expect, it } from "vitest"
import { networkParams } from "../../protocols/chains/networks.ts"
import { Watcher } from "../../server/crypto/Watcher.ts"
import { PlayerEvents } from "../../server/events/PlayerEvents.ts"
import { Ledger } from "../../server/ledger/Ledger.ts"
import { newPlayer, type Player } from "./account-support.ts"
import { chainsOf } from "./crypto-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { balanceOf, ledgerReport, PROFILE, userIdOf } from "./money-support.ts"

const ECPair = ECPairFactory(ecc)
const env = {
  CRYPTO_WATCHER: "off",
  CHAIN_SANDBOX_BLOCK_SECONDS: "0",
  CRYPTO_CONFIRMATIONS: "BTC=2,LTC=3,DOG=3",
  CRYPTO_SCAN_BATCH: "3",
}

interface Row {
  readonly status: string
  readonly confirmations: number
  readonly amount: string
  readonly generation: number
}

describeBackends("crypto: the chain watcher on the UTXO sandbox", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false }, { env, parties: ["chains"] })
    await tick() // the first step places the cursor at the tip
  })
  afterAll(() => server?.close())

  const chain = async () => chainsOf(server).utxo("bitcoin")
  const tick = () =>
    server.run(
      Effect.gen(function* () {
        return yield* (yield* Watcher).tick("bitcoin")
      }),
    )
  const mine = async (n = 1) => (await chain()).mine(n)
  const send = async (to: string, amount: bigint) => (await chain()).send(to, amount)
  const addressOf = async (p: Player, currency = "BTC") => {
    const res = await p.browser.post(`${PROFILE}/profile/crypto/deposit`, { currency })
    return (res.body as { address: string }).address
  }
  const rowsOf = (txHash: string) =>
    server.query<Row>(
      "SELECT status, confirmations, amount::text AS amount, generation FROM crypto_deposits WHERE tx_hash = $1",
      [txHash],
    )
  const creditsOf = async (txHash: string) =>
    (
      await server.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM ledger_transactions WHERE idempotency_key LIKE $1",
        [`crypto-deposit:bitcoin:${txHash}:%`],
      )
    )[0]?.n
  const player = async (tag: string) => {
    const p = await newPlayer(server, tag)
    return { p, id: await userIdOf(server, p.email), address: await addressOf(p) }
  }

  it("pending → confirmations counting → credited once, with the wallet made and history shown", async () => {
    const { p, id, address } = await player("watch-credit")
    const tx = await send(address, 1_000_000n)
    await tick()
    expect(await rowsOf(tx)).toEqual([]) // in the mempool: nothing yet
    await mine()
    await tick()
    expect(await rowsOf(tx)).toMatchObject([{ status: "pending", confirmations: 1, amount: "1000000" }])
    expect(await balanceOf(server, id, "BTC")).toBe("missing")
    await mine()
    await tick()
    expect(await rowsOf(tx)).toMatchObject([{ status: "credited", confirmations: 2 }])
    expect(await balanceOf(server, id, "BTC")).toBe("1000000")
    await mine(2)
    await tick()
    await tick()
    expect(await creditsOf(tx)).toBe(1)
    expect(await balanceOf(server, id, "BTC")).toBe("1000000")
    const history = await p.browser.get(`${PROFILE}/profile/crypto/deposit`)
    expect(history.body).toMatchObject([
      {
        txHash: tx,
        outputIndex: 0,
        status: "credited",
        amount: "1000000",
        requiredConfirmations: 2,
        currency: "BTC",
      },
    ])
  })

  it("pushes cryptoDeposit events (pending with its confirmations, credited) and the new balance", async () => {
    const { id, address } = await player("watch-events")
    const collected = server.run(
      Effect.gen(function* () {
        const events = yield* PlayerEvents
        return yield* events.stream(id).pipe(Stream.take(3), Stream.runCollect)
      }).pipe(Effect.timeout("30 seconds")),
    )
    // Let the subscription start before anything is published (pushes are hints, never replayed).
    await new Promise((r) => setTimeout(r, 300))
    const tx = await send(address, 600_000n)
    await mine()
    await tick()
    await mine()
    await tick()
    const common = {
      type: "cryptoDeposit",
      currency: "BTC",
      txHash: tx,
      amount: "600000",
      requiredConfirmations: 2,
    }
    expect([...(await collected)]).toEqual([
      expect.objectContaining({ ...common, status: "pending", confirmations: 1 }),
      expect.objectContaining({ ...common, status: "credited", confirmations: 2 }),
      { type: "balance", currency: "BTC", balance: "600000" },
    ])
  })

  it("accepts a transaction the test builds and signs itself over POST /tx; refuses a forged one", async () => {
    const { id, address } = await player("watch-own-tx")
    const key = ECPair.makeRandom({ network: networkParams.bitcoin })
    const mine_ = payments.p2wpkh({ pubkey: key.publicKey, network: networkParams.bitcoin })
    if (mine_.address === undefined || mine_.output === undefined) throw new Error("no address")
    const funding = await send(mine_.address, 5_000_000n)
    await mine()
    const api = chainsOf(server).esploraUrl("bitcoin")
    const utxos = (await (await fetch(`${api}/address/${mine_.address}/utxo`)).json()) as Array<{
      txid: string
      vout: number
      value: number
    }>
    expect(utxos).toEqual([{ txid: funding, vout: 0, value: 5_000_000, status: { confirmed: true } }])
    const build = (to: string, amount: bigint) => {
      const psbt = new Psbt({ network: networkParams.bitcoin })
      psbt.addInput({
        hash: funding,
        index: 0,
        witnessUtxo: { script: mine_.output as Uint8Array, value: 5_000_000n },
      })
      psbt.addOutput({ script: addressCodec.toOutputScript(to, networkParams.bitcoin), value: amount })
      psbt.signAllInputs(key)
      psbt.finalizeAllInputs()
      return psbt.extractTransaction(true)
    }
    // Signed for 2,000,000 then edited to pay 4,000,000: the signature no longer covers it.
    const forged = build(address, 2_000_000n)
    const out = forged.outs[0]
    if (out === undefined) throw new Error("no output")
    out.value = 4_000_000n
    const refused = await fetch(`${api}/tx`, { method: "POST", body: forged.toHex() })
    expect(refused.status).toBe(400)
    const good = build(address, 4_990_000n)
    const accepted = await fetch(`${api}/tx`, { method: "POST", body: good.toHex() })
    expect(accepted.status).toBe(200)
    expect(await accepted.text()).toBe(good.getId())
    await mine(2)
    await tick()
    expect(await rowsOf(good.getId())).toMatchObject([{ status: "credited", amount: "4990000" }])
    expect(await balanceOf(server, id, "BTC")).toBe("4990000")
  })

  it("a reorg before the credit orphans the transfer; nothing is credited", async () => {
    const { id, address } = await player("watch-reorg-before")
    const tx = await send(address, 700_000n)
    await mine()
    await tick()
    expect(await rowsOf(tx)).toMatchObject([{ status: "pending" }])
    await (await chain()).reorg(1, { dropTxs: true })
    await tick()
    expect(await rowsOf(tx)).toMatchObject([{ status: "orphaned" }])
    await mine(3)
    await tick()
    await tick()
    expect(await rowsOf(tx)).toMatchObject([{ status: "orphaned" }])
    expect(await creditsOf(tx)).toBe(0)
    expect(await balanceOf(server, id, "BTC")).toBe("missing")
  })

  it("a reorg after the credit reverses it; mined again, it is credited again: counted once", async () => {
    const { id, address } = await player("watch-reorg-after")
    const tx = await send(address, 800_000n)
    await mine(2)
    await tick()
    expect(await balanceOf(server, id, "BTC")).toBe("800000")
    // The transaction goes back to the mempool and into the new branch's first block.
    await (await chain()).reorg(2)
    await tick()
    const [row] = await rowsOf(tx)
    expect(row).toMatchObject({ generation: 1 })
    await mine(2)
    await tick()
    await tick()
    expect(await rowsOf(tx)).toMatchObject([{ status: "credited", generation: 1 }])
    expect(await balanceOf(server, id, "BTC")).toBe("800000")
    const reversals = await server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'crypto_deposit_reversal' AND metadata->>'txHash' = $1",
      [tx],
    )
    expect(reversals[0]?.n).toBe(1)
    expect(await creditsOf(tx)).toBe(2)
  })

  it("a reorg after the credit when the player spent it: an operator alert, the balance never negative", async () => {
    const { id, address } = await player("watch-reorg-spent")
    const tx = await send(address, 900_000n)
    await mine(2)
    await tick()
    expect(await balanceOf(server, id, "BTC")).toBe("900000")
    // The player loses it at a game: a posting to the house.
    await server.run(
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const account = yield* ledger.playerAccount(id, "BTC")
        const house = yield* ledger.systemAccountId("house", "test-games", "BTC")
        yield* ledger.post({
          kind: "test_bet",
          idempotencyKey: `test-bet:${tx}`,
          entries: [
            { accountId: account?.id ?? "", currency: "BTC", amount: -900_000n },
            { accountId: house, currency: "BTC", amount: 900_000n },
          ],
        })
      }).pipe(Effect.orDie),
    )
    await (await chain()).reorg(2, { dropTxs: true })
    await tick()
    expect(await rowsOf(tx)).toMatchObject([{ status: "credited" }])
    expect(await balanceOf(server, id, "BTC")).toBe("0")
    const alerts = await server.query<{ kind: string }>(
      "SELECT a.kind FROM crypto_alerts a JOIN crypto_deposits d ON d.id = a.deposit_id WHERE d.tx_hash = $1",
      [tx],
    )
    expect(alerts).toEqual([{ kind: "reorg_reversal_uncovered" }])
  })

  it("below minDeposit: recorded, held (not credited), listed for an operator", async () => {
    const { id, address } = await player("watch-dust")
    const tx = await send(address, 1_000n)
    await mine(2)
    await tick()
    expect(await rowsOf(tx)).toMatchObject([{ status: "below_minimum", confirmations: 2 }])
    expect(await creditsOf(tx)).toBe(0)
    expect(await balanceOf(server, id, "BTC")).toBe("missing")
    const alerts = await server.query(
      "SELECT 1 FROM crypto_alerts a JOIN crypto_deposits d ON d.id = a.deposit_id WHERE d.tx_hash = $1 AND a.kind = 'below_minimum'",
      [tx],
    )
    expect(alerts.length).toBe(1)
  })

  it("a watcher restarted mid-stream misses nothing and credits nothing twice", async () => {
    const players = await Promise.all([player("watch-restart-1"), player("watch-restart-2")])
    const txs: string[] = []
    // Seven blocks, a payment in most of them; the batch is 3 blocks per step.
    for (let i = 0; i < 7; i++) {
      const target = players[i % 2]
      if (target !== undefined && i !== 3) txs.push(await send(target.address, 100_000n + BigInt(i)))
      await mine()
    }
    await tick() // three blocks scanned
    // A NEW watcher (a restarted process: nothing in memory) on the same database and chain.
    const restarted = () =>
      server.run(
        Effect.gen(function* () {
          return yield* (yield* Watcher).tick("bitcoin")
        }).pipe(Effect.provide(Layer.fresh(Watcher.layer()))),
      )
    for (let i = 0; i < 4; i++) await restarted()
    await mine(2)
    for (let i = 0; i < 2; i++) await restarted()
    for (const tx of txs) {
      expect(await rowsOf(tx)).toMatchObject([{ status: "credited" }])
      expect(await creditsOf(tx)).toBe(1)
    }
    const sums = players.map((_p, n) =>
      [0, 1, 2, 4, 5, 6].filter((i) => i % 2 === n).reduce((s, i) => s + 100_000n + BigInt(i), 0n),
    )
    expect(await balanceOf(server, players[0]?.id ?? "", "BTC")).toBe(String(sums[0]))
    expect(await balanceOf(server, players[1]?.id ?? "", "BTC")).toBe(String(sums[1]))
  })

  it("ledger:check is clean after all of it", async () => {
    const report = await ledgerReport(server)
    expect(report.clean).toBe(true)
  })
})
