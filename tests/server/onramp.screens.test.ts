/**
 * The sandbox on-ramp's pages in Chromium at 390×700 (the width of the deposit modal's frame on a
 * phone), against the provider alone with a TEST double of the chains' faucet: the purchase page, the quote the
 * script refreshes while typing, the verification step appearing above the tier's threshold, the
 * errors announced, the order page with its transaction hash. Screenshots go to
 * test-results/onramp/ (look at them); axe must find nothing serious or critical on each page.
 */
import { mkdir } from "node:fs/promises"
import AxeBuilder from "@axe-core/playwright"
import { type Browser, chromium, type Page } from "@playwright/test"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FaucetDouble, type OnrampTest, startFaucetDouble, startOnramp } from "./onramp-harness.ts"

const shots = "test-results/onramp"
const ethAddress = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"

const serious = async (page: Page): Promise<ReadonlyArray<string>> => {
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze()
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)
}

describe("onramp sandbox pages in Chromium (390×700)", () => {
  let t: OnrampTest
  let faucet: FaucetDouble
  let browser: Browser
  beforeAll(async () => {
    await mkdir(shots, { recursive: true })
    faucet = await startFaucetDouble()
    t = await startOnramp("pglite", { ONRAMP_SANDBOX_CHAINS_URL: faucet.url })
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-quic"],
    })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await t?.close()
    await faucet?.close()
  })

  it("buys below and above the threshold, with the verification step only when needed", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 700 } })
    const page = await context.newPage()
    const errors: Array<string> = []
    page.on("console", (m) => {
      // The form answered 422 (the expected page with its errors) is logged by Chromium as a load error.
      if (m.type() === "error" && !m.text().includes("status of 422")) errors.push(m.text())
    })
    const url = t.widgetUrl("moonpay", "ETH", ethAddress)
    await page.goto(url)
    await expect.poll(() => page.locator("h1").textContent()).toBe("Buy ETH")
    // With script, the verification step stays hidden until an amount needs it.
    expect(await page.locator("#verification").isHidden()).toBe(true)
    await page.screenshot({ path: `${shots}/1-purchase.png`, fullPage: true })
    expect(await serious(page)).toEqual([])

    await page.getByLabel("Amount in EUR").fill("80")
    await expect.poll(() => page.locator('[data-q="get"]').textContent()).toMatch(/ETH$/)
    expect(await page.locator('[data-q="fee"]').textContent()).toBe("− 3.60 EUR")
    expect(await page.locator("#verification").isHidden()).toBe(true)
    await page.screenshot({ path: `${shots}/2-quote.png`, fullPage: true })

    await page.getByLabel("Amount in EUR").fill("150")
    await expect.poll(() => page.locator("#verification").isVisible()).toBe(true)
    await page.getByRole("button", { name: "Buy ETH" }).click()
    // Server-side check: the form comes back with the errors, the first invalid field focused.
    await expect
      .poll(() => page.locator("[role=alert]").first().textContent())
      .toBe("Please correct the highlighted fields.")
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("f-fullName")
    await page.screenshot({ path: `${shots}/3-verification-errors.png`, fullPage: true })
    expect(await serious(page)).toEqual([])

    await page.getByLabel("Full name").fill("Ada Lovelace")
    await page.getByLabel("Date of birth").fill("1990-12-10")
    await page.getByLabel("ID document number").fill("X1234567")
    await page.getByRole("button", { name: "Buy ETH" }).click()
    await expect.poll(() => page.locator("[data-status]").getAttribute("data-status")).toBe("sent")
    const tx = await page.locator("[data-tx]").textContent()
    expect(tx).toBe(faucet.sends.at(-1)?.txHash)
    await page.screenshot({ path: `${shots}/4-order.png`, fullPage: true })
    expect(await serious(page)).toEqual([])
    // Nothing wider than the frame.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(errors).toEqual([])
    await context.close()
  })
})
