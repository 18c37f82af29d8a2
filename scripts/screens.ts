/**
 * `npm run screens`: every main screen of the player app, at desktop (1280×800) and phone (390×844)
 * width, saved to test-results/screens/<screen>-<width>.png to be looked at. Starts its own server
 * exactly as the e2e tests do (tests/e2e/global-setup.ts: builds the apps when missing, a fresh
 * PostgreSQL database or PGlite) and stops it at the end. Chromium is /usr/bin/chromium (CHROMIUM
 * overrides it).
 */
import { randomBytes } from "node:crypto"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { type Browser, chromium, type Page } from "@playwright/test"
import globalSetup from "../tests/e2e/global-setup.ts"
import { registerPlayer, solvedCaptcha } from "../tests/e2e/support/api.ts"
import { E2E_ENV, repoRoot } from "../tests/e2e/support/env.ts"

const outDir = join(repoRoot, "test-results", "screens")

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const

const PROFILE_TABS = [
  "general",
  "deposits",
  "withdrawals",
  "crypto-deposits",
  "bets",
  "bonuses",
  "loyalty",
  "verification",
  "sessions",
  "security",
  "responsible-gaming",
  "promo",
] as const

/** Until the page has settled: no spinner, no request in flight for a moment. */
const settle = async (page: Page): Promise<void> => {
  await page.waitForLoadState("networkidle").catch(() => undefined)
  await page
    .locator(".spinner")
    .first()
    .waitFor({ state: "hidden", timeout: 10_000 })
    .catch(() => undefined)
}

const shoot = async (page: Page, name: string, size: string): Promise<void> => {
  await settle(page)
  const file = join(outDir, `${name}-${size}.png`)
  await page.screenshot({ path: file })
  process.stdout.write(`saved ${file}\n`)
}

const screensAt = async (browser: Browser, baseUrl: string, size: (typeof SIZES)[number]) => {
  const visitor = await browser.newPage({ baseURL: baseUrl, viewport: size })
  await visitor.goto("/")
  await shoot(visitor, "lobby-visitor", size.name)
  await visitor.getByRole("banner").getByRole("button", { name: "Log in" }).click()
  await visitor.getByRole("dialog").waitFor()
  await shoot(visitor, "login", size.name)
  await visitor.keyboard.press("Escape")
  await visitor.getByRole("banner").getByRole("button", { name: "Sign up" }).click()
  await visitor.getByRole("dialog").waitFor()
  await shoot(visitor, "register", size.name)
  await visitor.goto("/statecharts")
  await visitor.locator(".sc-stage svg, .sc-stage--message").first().waitFor({ timeout: 30_000 })
  await shoot(visitor, "statecharts", size.name)
  await visitor.close()

  const player = {
    email: `screens-${randomBytes(4).toString("hex")}@example.com`,
    password: "compiler cobol 1959",
    fullName: "Grace Hopper",
    currency: "EUR",
  }
  await registerPlayer(baseUrl, player)
  const page = await browser.newPage({ baseURL: baseUrl, viewport: size })
  const signin = await page.request.post(`${baseUrl}/user-service/api/v1/signin`, {
    data: { email: player.email, password: player.password, captcha: await solvedCaptcha(baseUrl) },
    headers: { origin: baseUrl },
  })
  if (signin.status() !== 200) throw new Error(`sign-in: HTTP ${signin.status()}`)
  await page.goto("/")
  await page
    .getByRole("banner")
    .getByRole("button", { name: /^Balance:/ })
    .waitFor()
  await shoot(page, "lobby", size.name)

  const deposit = page.getByRole("banner").getByRole("button", { name: "Deposit", exact: true })
  await deposit.click()
  await page.getByRole("dialog", { name: "Deposit" }).waitFor()
  await shoot(page, "deposit", size.name)
  await page.keyboard.press("Escape")

  if (size.name === "phone") {
    await page.getByRole("banner").getByRole("button", { name: "Menu" }).click()
    await shoot(page, "menu", size.name)
    await page.locator("#account-menu").getByRole("button", { name: "Cash out", exact: true }).click()
  } else {
    await page.getByRole("banner").getByRole("button", { name: "Cash out", exact: true }).click()
  }
  await page.getByRole("dialog", { name: "Cash out" }).waitFor()
  await shoot(page, "cashout", size.name)
  await page.keyboard.press("Escape")

  const game = page.locator('a[href^="/game/"]').first()
  await game.waitFor({ timeout: 15_000 })
  await page.goto((await game.getAttribute("href")) ?? "/")
  await shoot(page, "game", size.name)

  for (const tab of PROFILE_TABS) {
    await page.goto(tab === "general" ? "/profile" : `/profile/${tab}`)
    await page.getByRole("heading", { name: "Your account" }).waitFor()
    await shoot(page, `profile-${tab}`, size.name)
  }
  await page.close()
}

const main = async (): Promise<void> => {
  mkdirSync(outDir, { recursive: true })
  const teardown = await globalSetup()
  const baseUrl = process.env[E2E_ENV.baseUrl]
  let browser: Browser | undefined
  try {
    if (baseUrl === undefined) throw new Error("the server did not say where it listens")
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    })
    for (const size of SIZES) await screensAt(browser, baseUrl, size)
  } finally {
    await browser?.close()
    await teardown()
  }
}

await main()
