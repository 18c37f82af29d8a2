/**
 * The frames follow the host the player typed: the same journeys opened at http://127.0.0.1:<port>
 * (the e2e server's PUBLIC_URL) and at http://localhost:<port> — a game's frame shows the studio's
 * page on that host and a round is played; the card deposit's frame shows the payment sandbox's
 * form on that host and the payment goes through; a Buy crypto widget's frame shows the on-ramp's
 * page on that host. A party that cannot be reached (its requests
 * aborted) leaves no blank box: the frame's place says the page could not be loaded, with Try
 * again, which loads it once the party answers again; a frame the browser refuses says so at once.
 * The back office on a host of its own (BACKOFFICE_URL, a casino of its own started here): an
 * operator signs in there under its strict CSP, and the player's host has none of it.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Page } from "@playwright/test"
import { freePort, startServerProcess } from "../support/server.ts"
import { API } from "./bindings/common.ts"
import { registerPlayer, solvedCaptcha } from "./support/api.ts"
import { addOperatorByCommand, signInToBackoffice } from "./support/backoffice.ts"
import { openUsdtForm } from "./support/crypto.ts"
import {
  balance,
  chooseAmount,
  chooseMethod,
  completeCardProfile,
  newPlayer,
  payByCard,
  paymentDialog,
  paymentPage,
} from "./support/deposit.ts"
import { partyUrlEnv, requiredEnv } from "./support/env.ts"
import { expect, test, type World } from "./support/fixtures.ts"

/** The casino's address on `hostname` (same port). */
const casinoOn = (world: World, hostname: string): string => {
  const url = new URL(world.baseUrl)
  url.hostname = hostname
  return url.origin
}

const partyPort = (party: string): string => new URL(requiredEnv(partyUrlEnv(party))).port

/** Every request to a party's port, whatever the host. */
const partyRequests = (party: string): RegExp => new RegExp(`^http://[^/]+:${partyPort(party)}/`)

/** A new player signed in from this page's cookie jar on the casino at `base`; the home page open. */
const signedInOn = async (page: Page, world: World, base: string, tag: string): Promise<void> => {
  const player = newPlayer(world, tag)
  await registerPlayer(world.baseUrl, player)
  const response = await page.request.post(`${base}${API}/signin`, {
    data: { email: player.email, password: player.password, captcha: await solvedCaptcha(world.baseUrl) },
    headers: { origin: base },
  })
  expect(response.status()).toBe(200)
  await page.goto(`${base}/`)
  await expect(balance(page)).toContainText("0.00")
}

const gameFrame = (page: Page) => page.frameLocator(".game__frame")

/** The round's announcement: "<what happened> — you win 1.98 EUR (1.98×)." or "… — no win." */
const ROUND_RESULT =
  / — (Won [\d,]+\.\d{2} EUR \(\+[\d,]+\.\d{2}\)|Returned [\d,]+\.\d{2} EUR \([\u2212±][\d,]+\.\d{2}\)|Lost [\d,]+\.\d{2} EUR)/

for (const hostname of ["127.0.0.1", "localhost"]) {
  test(`opened at ${hostname}: a game's frame shows the studio's page on that host and a round is played`, async ({
    page,
    world,
  }) => {
    const base = casinoOn(world, hostname)
    await page.goto(`${base}/game/aurora-vault`)
    await expect(page.getByRole("heading", { level: 1, name: "Aurora Vault" })).toBeVisible()
    await expect(page.locator(".game__frame")).toHaveAttribute(
      "src",
      new RegExp(`^http://${hostname.replaceAll(".", "\\.")}:${partyPort("studio")}/studio/play/`),
    )
    const game = gameFrame(page)
    const spin = game.getByRole("button", { name: "Spin", exact: true })
    await expect(spin).toBeVisible()
    await spin.click()
    await expect(game.getByRole("status")).toHaveText(ROUND_RESULT)
    await world.screenshot(page, `hosts-game-${hostname}`)
  })

  test(`opened at ${hostname}: the card deposit's frame shows the payment form on that host, and pays`, async ({
    page,
    world,
  }) => {
    test.setTimeout(180_000)
    const base = casinoOn(world, hostname)
    await signedInOn(page, world, base, `hosts-${hostname}`)
    const dialog = await chooseAmount(page, undefined, 30)
    await chooseMethod(dialog, "Card")
    await completeCardProfile(page, undefined)
    await expect(paymentDialog(page)).toBeVisible({ timeout: 20_000 })
    await expect(paymentDialog(page).locator('iframe[title="Payment page"]')).toHaveAttribute(
      "src",
      new RegExp(`^http://${hostname.replaceAll(".", "\\.")}:${partyPort("payments")}/sandbox-pay/card/`),
    )
    await expect(paymentPage(page).getByLabel("Card number")).toBeVisible()
    await world.screenshot(page, `hosts-payment-${hostname}`)
    await payByCard(page, undefined, "4242 4242 4242 4242")
    await expect(paymentDialog(page)).toHaveCount(0, { timeout: 20_000 })
    await expect(balance(page)).toContainText("30.00")
  })

  test(`opened at ${hostname}: a Buy crypto widget's frame shows the on-ramp's page on that host`, async ({
    page,
    world,
  }) => {
    const base = casinoOn(world, hostname)
    await signedInOn(page, world, base, `hosts-onramp-${hostname}`)
    const dialog = await openUsdtForm(page)
    await dialog.getByRole("tab", { name: "Buy crypto" }).click()
    const buy = dialog.getByRole("tabpanel", { name: "Buy crypto" })
    await buy.getByRole("button", { name: /Banxa/ }).click()
    const frame = buy.locator('iframe[title="Banxa: buy USDT (Erc20)"]')
    await expect(frame).toHaveAttribute(
      "src",
      new RegExp(`^http://${hostname.replaceAll(".", "\\.")}:${partyPort("onramp")}/`),
    )
    await expect(
      buy.frameLocator('iframe[title="Banxa: buy USDT (Erc20)"]').getByRole("heading", { name: "Buy USDT" }),
    ).toBeVisible()
  })
}

test("the studio unreachable: the game's place says so, and Try again loads it once it answers", async ({
  page,
  world,
}) => {
  const studio = partyRequests("studio")
  await page.route(studio, (route) => route.abort("connectionrefused"))
  await page.goto("/game/aurora-vault")
  // The frame's page never says it is there: after its time (15 s) the words, never a blank box.
  const failed = page.getByRole("alert").filter({ hasText: "The game could not be loaded." })
  await expect(failed).toBeVisible({ timeout: 30_000 })
  await expect(failed).toContainText("The game studio did not answer in time.")
  await expect(page.locator(".game__frame")).toHaveCount(0)
  await world.screenshot(page, "hosts-game-unreachable")
  await page.unroute(studio)
  await failed.getByRole("button", { name: "Try again" }).click()
  await expect(gameFrame(page).getByRole("button", { name: "Spin", exact: true })).toBeVisible()
  await expect(page.getByText("The game could not be loaded.")).toHaveCount(0)
})

test("a game frame the browser refuses (its origin missing from frame-src) says so at once", async ({
  page,
  world,
}) => {
  // The casino's page as a misconfigured server would send it: frames only from itself and https.
  await page.route("**/game/aurora-vault", async (route) => {
    const response = await route.fetch()
    const csp = (response.headers()["content-security-policy"] ?? "").replace(
      /frame-src [^;]*/,
      "frame-src 'self' https:",
    )
    await route.fulfill({ response, headers: { ...response.headers(), "content-security-policy": csp } })
  })
  await page.goto("/game/aurora-vault")
  const failed = page.getByRole("alert").filter({ hasText: "The game could not be loaded." })
  // Sooner than the 15 s a silent frame is given: the browser said why.
  await expect(failed).toContainText("Your browser blocked it on this address.", { timeout: 10_000 })
  await expect(failed.getByRole("button", { name: "Try again" })).toBeVisible()
  await world.screenshot(page, "hosts-game-blocked")
})

test("the payment page unreachable: the frame's place says so, and Try again loads it once it answers", async ({
  page,
  world,
}) => {
  test.setTimeout(180_000)
  await signedInOn(page, world, world.baseUrl, "hosts-unreachable")
  const payments = partyRequests("payments")
  const dialog = await chooseAmount(page, undefined, 30)
  await chooseMethod(dialog, "Card")
  // Only the page in the frame is cut off (the casino reaches the sandbox server to server).
  await page.route(payments, (route) => route.abort("connectionrefused"))
  await completeCardProfile(page, undefined)
  await expect(paymentDialog(page)).toBeVisible({ timeout: 20_000 })
  const failed = paymentDialog(page).getByRole("alert")
  await expect(failed).toContainText("The payment page could not be loaded.", { timeout: 30_000 })
  await expect(failed).toContainText("The payment service did not answer in time.")
  await world.screenshot(page, "hosts-payment-unreachable")
  await page.unroute(payments)
  await failed.getByRole("button", { name: "Try again" }).click()
  await expect(paymentPage(page).getByLabel("Card number")).toBeVisible()
})

test("the back office on a host of its own: an operator signs in there under its strict CSP; the player's host has none of it", async ({
  page,
  world,
}) => {
  test.setTimeout(300_000)
  // A casino of its own (the e2e server shares one origin): the player's host 127.0.0.1, the back
  // office's localhost, one port; on the embedded database of a fresh folder.
  const dataDir = mkdtempSync(join(tmpdir(), "casino-e2e-backoffice-host-"))
  const port = await freePort()
  const player = `http://127.0.0.1:${port}`
  const admin = `http://localhost:${port}`
  const server = await startServerProcess({
    dataDir,
    port,
    env: { BACKOFFICE_URL: admin },
  })
  try {
    expect(server.url).toBe(player)
    const refused: Array<string> = []
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) refused.push(message.text())
    })
    const staff = await addOperatorByCommand(world, "admin", "Host admin", dataDir)
    // Its bare root leads to the app; the whole sign-in (enrolment, QR code, own password) runs there.
    await signInToBackoffice(page, staff, `${admin}/`)
    expect(new URL(page.url()).origin).toBe(admin)
    expect(new URL(page.url()).pathname).toMatch(/^\/backoffice\//)
    await world.screenshot(page, "hosts-backoffice-own-host")
    expect(refused).toEqual([])
    const home = await page.request.get(`${admin}/backoffice/`)
    expect(home.headers()["content-security-policy"]).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
    )
    // The session's cookie is the back office's host's alone.
    const cookies = await page.context().cookies()
    expect(cookies.filter((c) => c.name === "bo_session").map((c) => c.domain)).toEqual(["localhost"])
    expect((await page.request.get(`${admin}/api/backoffice/v1/me`)).status()).toBe(200)
    // The player's host: no back office, no API of it; the back office's host: nothing of the player's.
    expect((await page.request.get(`${player}/backoffice/`)).status()).toBe(404)
    expect((await page.request.get(`${player}/api/backoffice/v1/me`)).status()).toBe(404)
    expect((await page.request.get(`${admin}/profile`, { headers: { accept: "text/html" } })).status()).toBe(
      404,
    )
    const fromPlayer = await page.request.post(`${admin}/api/backoffice/v1/logout`, {
      headers: { origin: player },
    })
    expect(fromPlayer.status()).toBe(403)
    expect((await page.request.get(`${admin}/api/backoffice/v1/me`)).status()).toBe(200)
  } finally {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
})
