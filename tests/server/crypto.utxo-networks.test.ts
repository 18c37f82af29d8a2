/**
 * LTC and DOGE deposits, on both backends: the same watcher and the same Esplora adapter as
 * Bitcoin's, over the chains party's Litecoin and Dogecoin sandbox chains. For each currency: the deposit
 * address is the chain's own form (Litecoin bech32 `ltc1q…`, Dogecoin P2PKH `D…`, both accepted by
 * `isValidAddress`); a transfer is pending while its confirmations count up (3 required here),
 * then credited ONCE in the currency's minor units (litoshi, koinu: 10^8 per coin) on a wallet the
 * credit creates; more blocks and steps credit nothing more; the history lists it; the other
 * networks' watchers never see it; `ledger:check` stays clean. The Dogecoin payment is above one
 * block reward, so the faucet pays it from several outputs (a multi-input transaction).
 */
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { UtxoNetwork } from "../../protocols/chains/networks.ts"
import { COINBASE_VALUE } from "../../providers/chains/utxo/chain.ts"
import { Watcher } from "../../server/crypto/Watcher.ts"
import { Wallets } from "../../server/wallet/Wallets.ts"
import { isValidAddress, networkOf } from "../../services/crypto-rules.ts"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import { newPlayer } from "./account-support.ts"
import { chainsOf } from "./crypto-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { balanceOf, ledgerReport, PROFILE, userIdOf } from "./money-support.ts"

const env = {
  CRYPTO_WATCHER: "off",
  CHAIN_SANDBOX_BLOCK_SECONDS: "0",
  CRYPTO_CONFIRMATIONS: "BTC=2,LTC=3,DOG=3",
}

interface Row {
  readonly status: string
  readonly confirmations: number
  readonly amount: string
  readonly currency: string
  readonly network: string
  readonly required_confirmations: number
}

interface Case {
  readonly currency: Extract<CryptoCurrency, "LTC" | "DOG">
  readonly network: UtxoNetwork
  readonly addressForm: RegExp
  /** In minor units; above the seeded minDeposit (10 EUR at the seed rate). */
  readonly amount: bigint
}

const cases: ReadonlyArray<Case> = [
  // 0.5 LTC (minDeposit ≈ 0.143 LTC at 70 EUR).
  { currency: "LTC", network: "litecoin", addressForm: /^ltc1q[02-9ac-hj-np-z]{38}$/, amount: 50_000_000n },
  // 123.45678901 DOGE (minDeposit ≈ 83.34 DOGE at 0.12 EUR): more than one 50-coin block reward.
  {
    currency: "DOG",
    network: "dogecoin",
    addressForm: /^D[1-9A-HJ-NP-Za-km-z]{33}$/,
    amount: 12_345_678_901n,
  },
]

describeBackends("crypto: LTC and DOGE deposits through the UTXO watcher", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false }, { env, parties: ["chains"] })
    // The first step of each network places its cursor at the tip.
    for (const c of cases) await tick(c.network)
  })
  afterAll(() => server?.close())

  const chain = async (network: UtxoNetwork) => chainsOf(server).utxo(network)
  const tick = (network: UtxoNetwork) =>
    server.run(
      Effect.gen(function* () {
        return yield* (yield* Watcher).tick(network)
      }),
    )
  const rowsOf = (txHash: string) =>
    server.query<Row>(
      `SELECT status, confirmations, amount::text AS amount, currency, network, required_confirmations
         FROM crypto_deposits WHERE tx_hash = $1`,
      [txHash],
    )
  const creditsOf = async (network: UtxoNetwork, txHash: string) =>
    (
      await server.query<{ n: number; sum: string | null }>(
        `SELECT count(*)::int AS n, sum(e.amount)::text AS sum
           FROM ledger_transactions t
           JOIN ledger_entries e ON e.transaction_id = t.id AND e.amount > 0
          WHERE t.idempotency_key LIKE $1`,
        [`crypto-deposit:${network}:${txHash}:%`],
      )
    )[0]

  it("the watcher steps every UTXO network with the same adapter", async () => {
    const networks = await server.run(Effect.map(Watcher, (w) => w.networks))
    expect(networks).toEqual(expect.arrayContaining(["bitcoin", "litecoin", "dogecoin"]))
  })

  for (const c of cases)
    it(`${c.currency}: pending with confirmations counting up → credited once in minor units, wallet created`, async () => {
      expect(networkOf[c.currency]).toBe(c.network)
      const p = await newPlayer(server, `utxo-${c.currency.toLowerCase()}`)
      const id = await userIdOf(server, p.email)
      const res = await p.browser.post(`${PROFILE}/profile/crypto/deposit`, { currency: c.currency })
      expect(res.status).toBe(200)
      const body = res.body as { address: string; network: string; confirmations: number; minDeposit: string }
      expect(body).toMatchObject({ network: c.network, confirmations: 3 })
      expect(BigInt(body.minDeposit)).toBeLessThan(c.amount)
      const { address } = body
      expect(address).toMatch(c.addressForm)
      expect(isValidAddress(c.currency, address)).toBe(true)
      // Asking again gives the same address.
      const again = await p.browser.post(`${PROFILE}/profile/crypto/deposit`, { currency: c.currency })
      expect((again.body as { address: string }).address).toBe(address)

      const sandbox = await chain(c.network)
      const tx = sandbox.send(address, c.amount)
      if (c.currency === "DOG") {
        // Paid from several block rewards: the faucet's multi-input transaction, valid on the chain.
        expect(c.amount).toBeGreaterThan(COINBASE_VALUE)
        expect(sandbox.transaction(tx)?.tx.ins.length).toBeGreaterThan(1)
      }
      await tick(c.network)
      expect(await rowsOf(tx)).toEqual([]) // in the mempool: nothing yet

      const amount = c.amount.toString()
      const expectRow = async (status: string, confirmations: number) =>
        expect(await rowsOf(tx)).toEqual([
          {
            status,
            confirmations,
            amount,
            currency: c.currency,
            network: c.network,
            required_confirmations: 3,
          },
        ])
      sandbox.mine(1)
      await tick(c.network)
      await expectRow("pending", 1)
      expect(await balanceOf(server, id, c.currency)).toBe("missing")
      sandbox.mine(1)
      await tick(c.network)
      await expectRow("pending", 2)
      expect(await balanceOf(server, id, c.currency)).toBe("missing")
      // The other networks' watchers never see it.
      await tick("bitcoin")
      await tick(c.network === "litecoin" ? "dogecoin" : "litecoin")
      await expectRow("pending", 2)

      sandbox.mine(1)
      await tick(c.network)
      await expectRow("credited", 3)
      expect(await balanceOf(server, id, c.currency)).toBe(amount)
      const wallet = await server.run(
        Effect.gen(function* () {
          return yield* (yield* Wallets).find(id, c.currency)
        }),
      )
      expect(wallet).toBeDefined()

      // Replays and later blocks credit nothing more.
      sandbox.mine(2)
      await tick(c.network)
      await tick(c.network)
      expect(await creditsOf(c.network, tx)).toEqual({ n: 1, sum: amount })
      expect(await balanceOf(server, id, c.currency)).toBe(amount)

      const history = await p.browser.get(`${PROFILE}/profile/crypto/deposit`)
      expect(history.body).toMatchObject([
        {
          txHash: tx,
          outputIndex: 0,
          status: "credited",
          amount,
          currency: c.currency,
          network: c.network,
          address,
          requiredConfirmations: 3,
        },
      ])
    })

  it("ledger:check is clean after the LTC and DOGE credits", async () => {
    const report = await ledgerReport(server)
    expect(report.clean).toBe(true)
  })
})
