/**
 * Buy crypto end to end, as `npm start` composes it, on both backends: the casino with the chains
 * party and the on-ramp party beside it, each on its own port with its own storage. A player's
 * deposit answer carries the on-ramp's widgets; a purchase on the widget's page is paid by the
 * on-ramp through the chains' faucet API over HTTP, the transfer lands in the chain's mempool to
 * the player's address, the casino's watcher credits it once mined, and the on-ramp's signed
 * callback is recorded by the casino. Without the chains the on-ramp still starts, and a purchase
 * fails with its "chain could not be reached" message (and says so to the casino).
 */
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Watcher } from "../../server/crypto/Watcher.ts"
import { newPlayer, type Player } from "./account-support.ts"
import { chainsOf, testXpubEnv } from "./crypto-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { balanceOf, PROFILE, userIdOf } from "./money-support.ts"
import { eventually } from "./onramp-harness.ts"

const DEPOSIT = `${PROFILE}/profile/crypto/deposit`

interface DepositAnswer {
  readonly address: string
  readonly widgets: ReadonlyArray<{ readonly id: string; readonly url: string }>
}

/** Opens the widget's page as the frame would, and buys `amount` EUR; answers the order page. */
const buyThrough = async (widgetUrl: string, amount: string) => {
  const page = await fetch(widgetUrl)
  expect(page.status).toBe(200)
  const html = await page.text()
  const action = /<form id="buy" method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&")
  const orderId = /name="orderId" value="([^"]+)"/.exec(html)?.[1]
  if (action === undefined || orderId === undefined) throw new Error("no purchase form")
  const origin = new URL(widgetUrl).origin
  const res = await fetch(`${origin}${action}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ orderId, amount }).toString(),
  })
  expect(res.status).toBe(303)
  const order = await (await fetch(`${origin}${res.headers.get("location") ?? ""}`)).text()
  return { orderId, order }
}

const depositAnswer = async (p: Player, currency: string): Promise<DepositAnswer> => {
  const res = await p.browser.post(DEPOSIT, { currency })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as DepositAnswer
}

describeBackends("Buy crypto through the on-ramp and the chains parties", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start(
      { captchaEnabled: false },
      {
        env: {
          CRYPTO_WATCHER: "off",
          CHAIN_SANDBOX_BLOCK_SECONDS: "0",
          CRYPTO_CONFIRMATIONS: "BTC=2,ETH=2,USDT=2",
        },
        parties: ["chains", "onramp"],
      },
    )
    await server.run(Effect.flatMap(Effect.service(Watcher), (w) => w.tick("bitcoin")))
  }, 120_000)
  afterAll(() => server?.close())

  it("pays the purchase through the chains' faucet to the player's address; the watcher credits it", async () => {
    const onramp = server.parties.get("onramp")
    const chains = chainsOf(server)
    const p = await newPlayer(server, "onramp-chains")
    const id = await userIdOf(server, p.email)
    const btc = await depositAnswer(p, "BTC")
    const banxa = btc.widgets.find((w) => w.id === "banxa")
    // The widget opens the on-ramp's own page, on its own port.
    expect(banxa?.url.startsWith(`${onramp?.publicUrl}/sandbox-onramp/banxa?`)).toBe(true)
    const { orderId, order } = await buyThrough(banxa?.url ?? "", "50")
    expect(order).toContain(`data-status="sent"`)
    const txHash = /data-tx>([0-9a-f]{64})</.exec(order)?.[1]
    if (txHash === undefined) throw new Error("no transaction on the order page")
    // The chains' faucet paid it: in the Bitcoin mempool, to the player's address.
    const bitcoin = chains.utxo("bitcoin")
    const tx = bitcoin.transaction(txHash)
    expect(tx?.height).toBeNull()
    const paid = bitcoin.utxosOf(btc.address).find((u) => u.txid === txHash)
    expect(paid?.value).toBeGreaterThan(0n)
    // Mined and confirmed: the casino's watcher credits exactly that amount.
    await chains.mine("bitcoin", 2)
    await server.run(Effect.flatMap(Effect.service(Watcher), (w) => w.tick("bitcoin")))
    expect(await balanceOf(server, id, "BTC")).toBe(String(paid?.value))
    // The on-ramp told the casino, signed by Banxa's scheme.
    const callbacks = await eventually(async () => {
      const rows = await server.query<{ status: string; tx_hash: string }>(
        "SELECT status, tx_hash FROM onramp_callbacks WHERE widget = 'banxa' AND order_id = $1",
        [orderId],
      )
      return rows.length > 0 ? rows : undefined
    })
    expect(callbacks).toEqual([{ status: "completed", tx_hash: txHash }])
  })

  it("USDT: the faucet mints on anvil to the player's Ethereum address", async () => {
    const chains = chainsOf(server)
    const p = await newPlayer(server, "onramp-usdt")
    const usdt = await depositAnswer(p, "USDT")
    const moonpay = usdt.widgets.find((w) => w.id === "moonpay")
    const { order } = await buyThrough(moonpay?.url ?? "", "40")
    expect(order).toContain(`data-status="sent"`)
    const txHash = /data-tx>(0x[0-9a-f]{64})</.exec(order)?.[1]
    expect(txHash).toBeDefined()
    await chains.mine("ethereum", 1)
    const receipt = (await (
      await fetch(chains.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "eth_getTransactionReceipt",
          params: [txHash],
        }),
      })
    ).json()) as { result: { status: string; to: string } | null }
    expect(receipt.result?.status).toBe("0x1")
    expect(receipt.result?.to.toLowerCase()).toBe(chains.evm.usdtContract.toLowerCase())
  })
})

describeBackends("Buy crypto with the on-ramp but no chains", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    // The deposit addresses from configuration (no chain to watch: the watcher does not run).
    server = await start(
      { captchaEnabled: false },
      { env: { ...testXpubEnv, CRYPTO_WATCHER: "off" }, parties: ["onramp"] },
    )
  }, 120_000)
  afterAll(() => server?.close())

  it("the on-ramp starts; a purchase fails with its message, nothing sent, and the casino is told", async () => {
    const p = await newPlayer(server, "onramp-no-chains")
    const btc = await depositAnswer(p, "BTC")
    const { orderId, order } = await buyThrough(btc.widgets[0]?.url ?? "", "50")
    expect(order).toContain("The purchase failed")
    expect(order).toContain("The chain could not be reached: nothing was sent and you were not charged.")
    const rows = await eventually(async () => {
      const r = await server.query<{ status: string; tx_hash: string | null }>(
        "SELECT status, tx_hash FROM onramp_callbacks WHERE order_id = $1",
        [orderId],
      )
      return r.length > 0 ? r : undefined
    })
    expect(rows).toEqual([{ status: "failed", tx_hash: null }])
  })
})
