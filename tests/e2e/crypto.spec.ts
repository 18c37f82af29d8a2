/**
 * Crypto deposits in Chromium, in two parts that say what they are.
 *
 * 1. NOT against the real server's crypto: the form's states on cue. The player registers and
 *    opens Deposit on the real server (which adds the USDT wallet), but the crypto calls
 *    (`POST`/`GET …/profile/crypto/deposit`), the push stream and the widget page are STUBBED in the
 *    browser with the contract's shapes (page.route), so each state of the form shows when the
 *    test wants it: the address and the QR code, the copy (the clipboard holds it; "Copied" goes
 *    away after 2 s), a transfer going pending → credited from push events, a Buy crypto widget in
 *    its frame, the crypto deposits tab — at both sizes with axe. Screenshots at 1280×800 and
 *    390×844 go to test-results/screenshots/crypto-*.png.
 * 2. Against the real server and the real local chains: the journeys (the e2e stack's anvil,
 *    docs/chains-evm.md; the global setup gives it blocks only on demand and 2 confirmations for
 *    USDT): a new player signs up in the
 *    page, the TEST sends USDT on the local chain to the address the page shows, mines the blocks,
 *    and the page shows pending → credited without a reload; the wallets list the USDT balance and,
 *    once USDT is made the default wallet, the header shows it. Then the same through the Buy crypto
 *    sandbox widget (its real purchase page in the frame; its faucet pays on the chain); the crypto
 *    deposits tab lists both. Screenshots: test-results/screenshots/crypto-chain-*.png,
 *    crypto-widget-*.png.
 */
import type { Page, Route } from "@playwright/test"
import { expectAccessible } from "./support/a11y.ts"
import { evmRpcUrl, mine, sendToken, withChain } from "./support/chain.ts"
import { CRYPTO_DEPOSIT_PATH, openUsdtForm, usdtDepositAnswer } from "./support/crypto.ts"
import { balance, newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { expect, test, type World } from "./support/fixtures.ts"
import { signUpInPage } from "./support/ui.ts"

const satoshi = (world: World, tag: string) => newPlayer(world, tag, "Satoshi Player")

// ── 1. The form, with the crypto calls STUBBED in the browser (not the real server's crypto) ──────

const address = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
const txHash = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"
const depositAnswer = {
  currency: "USDT",
  network: "ethereum",
  address,
  chainId: 31337,
  tokenContract: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
  confirmations: 3,
  minDeposit: "10000000",
  banxaCheckoutIframe: "/sandbox-onramp/banxa?currency=USDT",
  widgets: [
    {
      id: "banxa",
      name: "Banxa",
      feeBps: 500,
      etaMinutes: 15,
      verificationAboveEur: 200,
      url: "/sandbox-onramp/banxa",
    },
    {
      id: "mercuryo",
      name: "Mercuryo",
      feeBps: 500,
      etaMinutes: 15,
      verificationAboveEur: 200,
      url: "/sandbox-onramp/mercuryo",
    },
    {
      id: "moonpay",
      name: "MoonPay",
      feeBps: 450,
      etaMinutes: 20,
      verificationAboveEur: 100,
      url: "/sandbox-onramp/moonpay",
    },
    {
      id: "transak",
      name: "Transak",
      feeBps: 450,
      etaMinutes: 20,
      verificationAboveEur: 100,
      // An origin the casino's CSP does not allow to be framed (plain http, not in FRAME_ORIGINS).
      url: "http://onramp.blocked.test/transak",
    },
  ],
}
const transfer = (confirmations: number, status: string) => ({
  type: "cryptoDeposit",
  id: "e2e-transfer-1",
  currency: "USDT",
  txHash,
  amount: "25000000",
  confirmations,
  requiredConfirmations: 3,
  status,
})
const historyRow = {
  ...transfer(3, "credited"),
  network: "ethereum",
  outputIndex: 0,
  address,
  createdAt: "2026-11-23T06:30:00.000Z",
  updatedAt: "2026-11-23T06:31:00.000Z",
}

/** The crypto calls and the push stream as the contract describes them; the first push after COPY. */
const answerCryptoCalls = async (page: Page): Promise<{ startPushes: () => void }> => {
  let pushing = false
  let connection = 0
  await page.route(`**${CRYPTO_DEPOSIT_PATH}*`, (route: Route) =>
    route.request().method() === "POST"
      ? route.fulfill({ json: depositAnswer })
      : route.fulfill({ json: pushing ? [{ ...historyRow, type: undefined }] : [] }),
  )
  await page.route("**/sandbox-onramp/**", (route: Route) =>
    route.fulfill({
      contentType: "text/html",
      body: "<!doctype html><title>Sandbox purchase</title><body style='font-family:sans-serif;padding:2rem'><h1>Buy USDT</h1><p>Sandbox purchase page (stand-in: the real one is in part 2).</p></body>",
    }),
  )
  // Each connection of the EventSource gets the transfer's next state, then closes (it reconnects
  // after `retry` ms): pending 1 of 3, pending 2 of 3, credited.
  await page.route("**/api/events", (route: Route) => {
    const steps = [transfer(1, "pending"), transfer(2, "pending"), transfer(3, "credited")]
    const step = pushing ? steps[Math.min(connection++, steps.length - 1)] : undefined
    const body = `retry: 300\n\n${step === undefined ? "" : `event: cryptoDeposit\ndata: ${JSON.stringify(step)}\n\n`}`
    return route.fulfill({ status: 200, contentType: "text/event-stream", body })
  })
  return { startPushes: () => (pushing = true) }
}

for (const viewport of [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const) {
  test(`crypto form, its calls stubbed (${viewport.name}): USDT address, QR, copy 2 s, live transfer, Buy crypto widgets, history`, async ({
    page,
    context,
    world,
  }, testInfo) => {
    // A long walk through every state with axe at each: on a busy two-core machine it needs more
    // than the default minute (its waits are for states, the bound is only for a hung test).
    test.setTimeout(180_000)
    await page.setViewportSize({ width: viewport.width, height: viewport.height })
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: world.baseUrl })
    const calls = await answerCryptoCalls(page)
    await signedInThroughApi(page, world, satoshi(world, `crypto-ui-${viewport.name}`))

    const dialog = await openUsdtForm(page)
    const deposit = dialog.getByRole("tabpanel", { name: "Deposit" })
    await expect(dialog.getByRole("tab", { name: "Deposit" })).toHaveAttribute("aria-selected", "true")
    await expect(deposit.locator("#crypto-address")).toHaveText(address)
    await expect(
      deposit.getByRole("img", { name: /QR code of your USDT \(Erc20\) deposit address/ }),
    ).toBeVisible()
    await expect(deposit).toContainText("Minimum deposit: 10.00 USDT (Erc20)")
    await expect(deposit).toContainText("Confirmations required3")
    await expect(deposit).toContainText("Ethereum")

    // Copy: the clipboard holds the address; "Copied" goes away after 2 s.
    const copy = deposit.getByRole("button", { name: /Copy address|Copied/ })
    await copy.click()
    await expect(copy).toHaveText("✓ Copied")
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address)
    await world.screenshot(page, `crypto-deposit-${viewport.name}`)
    await expect(copy).toHaveText("Copy address", { timeout: 5_000 })

    // The transfer shows up and counts its confirmations up to credited, without a reload.
    calls.startPushes()
    const row = deposit.getByRole("listitem").filter({ hasText: "25.00 USDT (Erc20)" })
    await expect(row).toContainText(/Pending|Credited/, { timeout: 15_000 })
    await expect(row).toContainText("Credited", { timeout: 15_000 })
    await expect(row).toContainText("3 of 3 confirmations")
    await world.screenshot(page, `crypto-deposit-credited-${viewport.name}`)
    await expectAccessible(page, testInfo, `crypto deposit tab (${viewport.name})`)

    // Buy crypto: the four widgets with their tiers; one opens in a frame, and back.
    await dialog.getByRole("tab", { name: "Buy crypto" }).click()
    const buy = dialog.getByRole("tabpanel", { name: "Buy crypto" })
    await expect(buy.getByRole("button")).toHaveCount(4)
    await expect(buy.getByRole("button", { name: /Banxa/ })).toContainText("Fee 5 %")
    await expect(buy.getByRole("button", { name: /MoonPay/ })).toContainText("Fee 4.5 %")
    await expect(buy.getByRole("button", { name: /MoonPay/ })).toContainText("Verification above 100 EUR")
    await world.screenshot(page, `crypto-buy-${viewport.name}`)
    await expectAccessible(page, testInfo, `crypto buy tab (${viewport.name})`)
    await buy.getByRole("button", { name: /MoonPay/ }).click()
    const frame = buy.locator('iframe[title="MoonPay: buy USDT (Erc20)"]')
    await expect(frame).toHaveAttribute("sandbox", /allow-scripts/)
    await expect(buy.frameLocator("iframe").getByRole("heading", { name: "Buy USDT" })).toBeVisible()
    await world.screenshot(page, `crypto-buy-widget-${viewport.name}`)
    await buy.getByRole("button", { name: /All purchase options/ }).click()
    await expect(buy.getByRole("button", { name: /Banxa/ })).toBeVisible()
    // A widget the browser refuses to frame is said in words with Try again, never a blank box.
    await buy.getByRole("button", { name: /Transak/ }).click()
    const refused = buy.getByRole("alert")
    await expect(refused).toContainText("The purchase page could not be loaded.")
    await expect(refused).toContainText("Your browser refused to show it inside the casino.")
    await refused.getByRole("button", { name: "Try again" }).click()
    await expect(buy.getByRole("alert")).toContainText("Your browser refused to show it inside the casino.")
    await world.screenshot(page, `crypto-buy-widget-refused-${viewport.name}`)
    await buy.getByRole("button", { name: /All purchase options/ }).click()
    await expect(buy.getByRole("button", { name: /Banxa/ })).toBeVisible()

    // The crypto deposits tab: date, currency, amount, hash (short, full in its title), k/N, status.
    await page.keyboard.press("Escape")
    await page.goto("/profile/crypto-deposits")
    const table = page.getByRole("table", { name: "Crypto deposits" })
    const cells = table.getByRole("row").nth(1).getByRole("cell")
    await expect(cells.nth(1)).toHaveText("USDT (Erc20)")
    await expect(cells.nth(2)).toHaveText("25.00")
    await expect(cells.nth(3).locator("code")).toHaveAttribute("title", txHash)
    await expect(cells.nth(4)).toContainText("3/3")
    await expect(cells.nth(5)).toHaveText("Credited")
    await cells
      .nth(3)
      .getByRole("button", { name: /Copy transaction hash/ })
      .click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(txHash)
    await world.screenshot(page, `crypto-history-${viewport.name}`)
    // The copy feedback goes after its 2 s: axe and the pixel probe then read the same page (text
    // that vanished between the two measured as its own background).
    await expect(page.getByRole("status").filter({ hasText: "Transaction hash copied" })).toHaveCount(0)
    // From the top: scrolled down, the sticky header covers part of the tab links (axe target-size).
    await page.evaluate(() => window.scrollTo(0, 0))
    await expectAccessible(page, testInfo, `crypto deposits history (${viewport.name})`)
  })
}

// ── 2. The journeys on the local chain ──────────────────────────────────────────────────────────

// Each mines blocks, which must not count another journey's confirmations meanwhile: one at a time
// (serial here, and `withChain` across the workers, with cashout.spec.ts).
test.describe("real chain", () => {
  test.describe.configure({ mode: "serial" })

  test("USDT sent on the local chain to the shown address: pending → credited live, the USDT wallet's balance", async ({
    page,
    context,
    world,
  }) => {
    const rpc = evmRpcUrl()
    test.setTimeout(180_000)
    await withChain(async () => {
      await page.setViewportSize({ width: 1280, height: 800 })
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: world.baseUrl })
      // A new player, from the header's Sign up (EUR account, no USDT wallet yet).
      await signUpInPage(page, satoshi(world, "crypto-chain"))

      const dialog = await openUsdtForm(page)
      const deposit = dialog.getByRole("tabpanel", { name: "Deposit" })
      await expect(deposit.locator("#crypto-address")).toHaveText(/^0x[0-9a-fA-F]{40}$/)
      const shown = (await deposit.locator("#crypto-address").textContent()) ?? ""
      await expect(
        deposit.getByRole("img", { name: /QR code of your USDT \(Erc20\) deposit address/ }),
      ).toBeVisible()
      await expect(deposit).toContainText("Confirmations required2")
      const copy = deposit.getByRole("button", { name: /Copy address|Copied/ })
      await copy.click()
      await expect(copy).toHaveText("✓ Copied")
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown)
      await expect(copy).toHaveText("Copy address", { timeout: 5_000 })

      // The TEST pays 25 USDT to the address the page shows, in one block: 1 of 2 confirmations.
      const server = await usdtDepositAnswer(page, world)
      expect(server.address.toLowerCase()).toBe(shown.toLowerCase())
      expect(server.confirmations).toBe(2)
      const txHash = await sendToken(rpc, server.tokenContract, shown, 25_000_000n)
      const row = deposit.getByRole("listitem").filter({ hasText: "25.00 USDT (Erc20)" })
      await expect(row).toContainText("Pending", { timeout: 30_000 })
      await expect(row).toContainText("1 of 2 confirmations")
      await expect(row.locator("code")).toHaveAttribute("title", txHash)
      await world.screenshot(page, "crypto-chain-pending")
      // One more block: credited, on the page as it is (no reload).
      await mine(rpc, 1)
      await expect(row).toContainText("Credited", { timeout: 30_000 })
      await expect(row).toContainText("2 of 2 confirmations")
      await world.screenshot(page, "crypto-chain-credited")

      // The wallets (from the header's balance) list the USDT wallet the deposit opened, with its
      // balance; made the default, it is the header's balance.
      await page.keyboard.press("Escape")
      await expect(dialog).toHaveCount(0)
      await expect(balance(page)).toContainText("0.00 EUR")
      await balance(page).click()
      const wallets = page.getByRole("dialog", { name: "Wallets" })
      const usdt = wallets.getByRole("listitem").filter({ hasText: "USDT" })
      await expect(usdt).toContainText("25.00")
      await world.screenshot(page, "crypto-chain-wallets")
      await usdt.getByRole("button", { name: "Make default" }).click()
      await expect(wallets).toHaveCount(0)
      await expect(balance(page)).toContainText(/25\.00\s+USDT/)
      await world.screenshot(page, "crypto-chain-header")
    })
  })

  test("USDT bought through the Buy crypto sandbox widget arrives the same way; the history lists both", async ({
    page,
    world,
  }) => {
    const rpc = evmRpcUrl()
    test.setTimeout(180_000)
    await withChain(async () => {
      await page.setViewportSize({ width: 1280, height: 800 })
      await signedInThroughApi(page, world, satoshi(world, "crypto-widget"))

      // First a transfer of the player's own, as in the journey above.
      const dialog = await openUsdtForm(page)
      const deposit = dialog.getByRole("tabpanel", { name: "Deposit" })
      const server = await usdtDepositAnswer(page, world)
      await sendToken(rpc, server.tokenContract, server.address, 12_000_000n)
      await mine(rpc, 1)
      await expect(deposit.getByRole("listitem").filter({ hasText: "12.00 USDT (Erc20)" })).toContainText(
        "Credited",
        { timeout: 30_000 },
      )

      // Buy crypto → Banxa (5 %, verification above 200 EUR): the sandbox purchase page in its frame.
      await dialog.getByRole("tab", { name: "Buy crypto" }).click()
      const buy = dialog.getByRole("tabpanel", { name: "Buy crypto" })
      await buy.getByRole("button", { name: /Banxa/ }).click()
      const widget = buy.frameLocator('iframe[title="Banxa: buy USDT (Erc20)"]')
      await expect(widget.getByRole("heading", { name: "Buy USDT" })).toBeVisible()
      await expect(widget.getByLabel("Sent to your casino deposit address")).toHaveText(server.address)
      await widget.getByLabel("Amount in EUR").fill("50")
      // The quote: 50 EUR less the 5 % fee; no verification step below 200 EUR.
      await expect(widget.getByText("− 2.50 EUR")).toBeVisible()
      await expect(widget.getByRole("group", { name: "Identity verification" })).toBeHidden()
      await world.screenshot(page, "crypto-widget-quote")
      await widget.getByRole("button", { name: "Buy USDT" }).click()
      await expect(widget.getByRole("heading", { name: /USDT sent to your address/ })).toBeVisible({
        timeout: 30_000,
      })
      const bought = /^([\d.]+) USDT sent/.exec(
        (await widget.getByRole("heading", { name: /USDT sent to your address/ }).textContent()) ?? "",
      )?.[1]
      expect(bought).toBeDefined()
      await world.screenshot(page, "crypto-widget-sent")

      // The faucet's transfer waits in the mempool: one block (pending), then its second confirmation.
      await dialog.getByRole("tab", { name: "Deposit" }).click()
      await mine(rpc, 1)
      const row = deposit.getByRole("listitem").filter({ hasText: `${bought ?? "?"} USDT (Erc20)` })
      await expect(row).toContainText("Pending", { timeout: 30_000 })
      await mine(rpc, 1)
      await expect(row).toContainText("Credited", { timeout: 30_000 })

      // The crypto deposits tab lists both, credited, newest first.
      await page.keyboard.press("Escape")
      await page.goto("/profile/crypto-deposits")
      const rows = page.getByRole("table", { name: "Crypto deposits" }).getByRole("row")
      await expect(rows).toHaveCount(3)
      await expect(rows.nth(1).getByRole("cell").nth(2)).toHaveText(bought ?? "?")
      await expect(rows.nth(2).getByRole("cell").nth(2)).toHaveText("12.00")
      for (const i of [1, 2]) {
        await expect(rows.nth(i).getByRole("cell").nth(1)).toHaveText("USDT (Erc20)")
        await expect(rows.nth(i).getByRole("cell").nth(5)).toHaveText("Credited")
      }
      await world.screenshot(page, "crypto-chain-history")
    })
  })
})
