/**
 * Games in Chromium against the real server and the studio's sandbox, as a new player would: browse the lobby as a
 * visitor, search, load 12 more, filter by a segment, open a game's page (info panel, demo launch);
 * a visitor's favorite asks to log in; a player adds and removes a favorite (it survives a reload);
 * the bets tab; a round verified on /fairness with the studio's own math.
 *
 * With the studio's play page in the frame (the studio's own origin, marked Sandbox): a demo round (a slot opened from the lobby, spun); real
 * money after a 30 EUR card deposit (support/deposit.ts): three dice rounds, the header's balance
 * following the studio's studio:balance message, the bets tab listing them, the server seed rotated
 * in the game and the first round recomputed on /fairness from the seeds the studio page showed.
 * The reality check on a real-money game (page clock fast-forwarded): the reminder pauses play (no
 * frame), "Continue playing" brings the frame back.
 * Screenshots: test-results/screenshots/games-*.png.
 */
import type { Locator, Page } from "@playwright/test"
import { GamePageMessages } from "../../machines/games/gamePage.machine.ts"
import { API } from "./bindings/common.ts"
import { registerPlayer, solvedCaptcha } from "./support/api.ts"
import { balance, depositThirtyByCard } from "./support/deposit.ts"
import { partyUrlEnv, requiredEnv } from "./support/env.ts"
import { expect, test, type World } from "./support/fixtures.ts"
import { dismissToasts } from "./support/ui.ts"

const allGames = (page: Page): Locator => page.getByRole("region", { name: /^(All games|Results for)/ })
const tilesIn = (region: Locator): Locator => region.getByRole("listitem")

const signedInPlayer = async (page: Page, world: World, tag: string): Promise<void> => {
  const player = {
    fullName: "Grace Hopper",
    email: world.uniqueEmail(tag),
    password: "compiler cobol 1959",
    currency: "EUR",
  }
  await registerPlayer(world.baseUrl, player)
  const response = await page.request.post(`${world.baseUrl}${API}/signin`, {
    data: { email: player.email, password: player.password, captcha: await solvedCaptcha(world.baseUrl) },
    headers: { origin: world.baseUrl },
  })
  expect(response.status()).toBe(200)
}

test("a visitor browses the lobby: sections, search, 12 more, a segment", async ({ page, world }) => {
  await page.goto("/")
  await expect(page.getByRole("heading", { name: "New games" })).toBeVisible()
  await expect(page.getByRole("heading", { name: "Top games" })).toBeVisible()
  await expect(page.getByRole("list", { name: "Jackpot pools" })).toContainText("EUR")
  // No favorites section for a visitor.
  await expect(page.getByRole("heading", { name: "Your favorites" })).toHaveCount(0)

  const all = allGames(page)
  await expect(tilesIn(all)).toHaveCount(12)
  await expect(all).toContainText(/Showing 12 of \d+/)
  await all.getByRole("button", { name: /^Show \d+ more$/ }).click()
  await expect(tilesIn(all)).toHaveCount(24)
  await world.screenshot(page, "games-lobby")

  await page.getByRole("searchbox", { name: "Search games" }).fill("aurora")
  await expect(page.getByRole("heading", { name: /Results for “aurora”/ })).toBeVisible()
  const results = allGames(page)
  await expect(tilesIn(results).first()).toContainText(/Aurora/)
  for (const name of await tilesIn(results).getByRole("link").allInnerTexts())
    expect(name.toLowerCase()).toContain("aurora")
  // Sections step aside while searching; a search that matches nothing says so.
  await expect(page.getByRole("heading", { name: "New games" })).toHaveCount(0)
  await page.getByRole("searchbox", { name: "Search games" }).fill("no such game anywhere")
  await expect(page.getByText("No game matches your search.")).toBeVisible()
  await page.getByRole("searchbox", { name: "Search games" }).fill("")

  await page.getByRole("button", { name: "Crash", exact: true }).click()
  await expect(page.getByRole("button", { name: "Crash", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  )
  await expect(tilesIn(allGames(page)).first()).toBeVisible()
})

test("a game's page shows its info panel and opens in demo for a visitor", async ({ page, world }) => {
  await page.goto("/")
  const first = tilesIn(allGames(page)).first().getByRole("link")
  const name = (await first.locator(".tile__name").innerText()).trim()
  await first.click()
  await expect(page).toHaveURL(/\/game\/[a-z0-9-]+$/)
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible()
  const info = page.getByRole("complementary", { name: "About this game" })
  await expect(info).toContainText(/Return to player\s*\d{2}\.\d{2} %/)
  await expect(info).toContainText(/Volatility\s*(Low|Medium|High)/)
  await expect(page.getByRole("button", { name: "Demo" })).toHaveAttribute("aria-pressed", "true")
  // The studio's page, from the studio's own origin, in the frame.
  const frame = page.locator(".game__frame")
  const studioOrigin = new URL(requiredEnv(partyUrlEnv("studio"))).origin
  expect(new URL((await frame.getAttribute("src")) ?? "").origin).toBe(studioOrigin)
  expect(studioOrigin).not.toBe(new URL(world.baseUrl).origin)
  await expect(page.frameLocator(".game__frame").getByRole("heading", { level: 1 })).toContainText(name)
  await world.screenshot(page, "games-game-page")

  // Real money needs a session: the login modal.
  await page.getByRole("button", { name: "Real money" }).click()
  await expect(page.getByRole("dialog", { name: /log in/i })).toBeVisible()
})

test("an unknown game's address says so", async ({ page }) => {
  await page.goto("/game/no-such-game")
  await expect(page.getByRole("heading", { name: "This game does not exist (any more)." })).toBeVisible()
})

test("a visitor's favorite asks to log in; a player adds and removes one", async ({ page, world }) => {
  await page.goto("/")
  await tilesIn(allGames(page))
    .first()
    .getByRole("button", { name: /to favorites$/ })
    .click()
  await expect(page.getByRole("dialog", { name: /log in/i })).toBeVisible()

  await signedInPlayer(page, world, "favorites")
  await page.goto("/")
  const tile = tilesIn(allGames(page)).nth(2)
  const name = (await tile.locator(".tile__name").innerText()).trim()
  await tile.getByRole("button", { name: `Add ${name} to favorites` }).click()
  const favorites = page.getByRole("region", { name: "Your favorites" })
  await expect(favorites).toContainText(name)
  await page.reload()
  await expect(page.getByRole("region", { name: "Your favorites" })).toContainText(name)
  await world.screenshot(page, "games-favorites")
  await page
    .getByRole("region", { name: "Your favorites" })
    .getByRole("button", { name: `Remove ${name} from favorites` })
    .click()
  await expect(page.getByRole("region", { name: "Your favorites" })).toHaveCount(0)
  await page.reload()
  await expect(allGames(page)).toBeVisible()
  await expect(page.getByRole("region", { name: "Your favorites" })).toHaveCount(0)
})

test("the bets tab: a new player has no bets yet, and the filters answer", async ({ page, world }) => {
  await signedInPlayer(page, world, "bets")
  await page.goto("/profile/bets")
  await expect(page.getByRole("link", { name: "Bets" })).toHaveAttribute("aria-current", "page")
  await expect(page.getByText(/^No bets from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\.$/)).toBeVisible()
  await page.getByLabel("From").fill("2026-12-01")
  await page.getByLabel("To").fill("2026-11-01")
  await page.getByRole("button", { name: "Show" }).click()
  await expect(page.getByRole("alert")).toHaveText("The start date must be on or before the end date.")
  await expect(page.getByLabel("Provider")).toHaveValue("")
})

test("a round verified on /fairness with the studio's math", async ({ page, world }) => {
  await page.goto("/fairness")
  await expect(page.getByRole("heading", { name: "Provably fair: verify a round" })).toBeVisible()
  // No game until one is chosen; then its kind's options (a crash game: the auto cash-out target).
  await expect(page.getByLabel("Game")).toHaveValue("")
  await page.getByLabel("Game").selectOption({ label: "Aurora Ascent (Northern Reels)" })
  await expect(page.getByLabel("Auto cash-out target (×)")).toHaveValue("2")
  await expect(page.locator("textarea")).toHaveCount(0)
  await page.getByLabel("Server seed (revealed)").fill("a".repeat(64))
  await page.getByLabel("Client seed").fill("abc")
  await page.getByLabel("Nonce").fill("0")
  await page.getByRole("button", { name: "Verify", exact: true }).click()
  const outcome = page.getByRole("region", { name: "Outcome" })
  // The same figures the studio's services/games/verify.ts gives in Node for these seeds.
  await expect(outcome).toContainText("2×")
  await expect(outcome).toContainText("ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
  await world.screenshot(page, "games-verifier")
  await page.getByLabel("Nonce").fill("-1")
  await page.getByRole("button", { name: "Verify" }).click()
  await expect(page.getByRole("alert")).toHaveText("The nonce is a whole number, 0 or more.")
})

/** The studio's play page inside the game page's frame. */
const studio = (page: Page) => page.frameLocator(".game__frame")

/** "Balance: 1000.00 EUR" → "1000.00" (the studio's balance line, or the header's button). */
const amountIn = (text: string): string => {
  const match = /(\d+\.\d{2})/.exec(text)
  if (match?.[1] === undefined) throw new Error(`no amount in ${JSON.stringify(text)}`)
  return match[1]
}

/** Cents of "12.34" (two decimals, EUR): sums of amounts compared exactly, never as floats. */
const cents = (amount: string): bigint => BigInt(amount.replace(".", ""))

/** The round's announcement: "<what happened> — Won 1.98 EUR (+0.98) · 1.98×.", "… — Returned 0.90 EUR (−0.10) · 0.90×." or "… — Lost 1.00 EUR." */
const ROUND_RESULT =
  / — (Won \d+\.\d{2} EUR \(\+\d+\.\d{2}\) · \d+\.\d{2}×|Returned \d+\.\d{2} EUR \([−±]\d+\.\d{2}\) · \d+\.\d{2}×|Lost \d+\.\d{2} EUR)\./

test("a demo round in the frame: a visitor opens a slot from the lobby and spins", async ({
  page,
  world,
}) => {
  await page.goto("/")
  const first = tilesIn(allGames(page)).first().getByRole("link")
  const name = (await first.locator(".tile__name").innerText()).trim()
  await first.click()
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible()
  await expect(page.getByRole("button", { name: "Demo" })).toHaveAttribute("aria-pressed", "true")

  const game = studio(page)
  // The studio's page: the game's name with DEMO, the sandbox's mark, the demo wallet's balance, the reels.
  await expect(game.getByRole("heading", { level: 1 })).toContainText(name)
  await expect(game.getByRole("heading", { level: 1 })).toContainText("DEMO")
  await expect(game.getByText("Sandbox", { exact: true })).toBeVisible()
  await expect(game.getByText(/^Balance: \d+\.\d{2} EUR$/)).toBeVisible()
  await expect(game.getByRole("img", { name: /^Reels: / })).toBeVisible()
  await game.getByLabel("Bet (EUR)").fill("1.00")
  const spin = game.getByRole("button", { name: "Spin", exact: true })
  // The whole button shows without scrolling inside the frame.
  await expect(spin).toBeInViewport({ ratio: 1 })
  await spin.click()
  await expect(game.getByRole("status")).toHaveText(ROUND_RESULT)
  await expect(spin).toBeEnabled()
  await world.screenshot(page, "games-slot-demo-round")
})

test("real money: register, deposit 30 EUR by card, play dice rounds, the balance and the bets tab follow, a round verified", async ({
  page,
  world,
}) => {
  test.setTimeout(120_000)
  await signedInPlayer(page, world, "real")
  await page.goto("/")
  await expect(balance(page)).toContainText("0.00")
  await depositThirtyByCard(page)
  await dismissToasts(page)

  // ── The dice game from the lobby's search, for real money ──
  await page.getByRole("searchbox", { name: "Search games" }).fill("dice")
  await tilesIn(allGames(page))
    .getByRole("link")
    .filter({ has: page.locator(".tile__name", { hasText: /^Dice$/ }) })
    .click()
  await expect(page).toHaveURL(/\/game\/dice-classic$/)
  await page.getByRole("button", { name: "Real money" }).click()
  await expect(page.getByRole("button", { name: "Real money" })).toHaveAttribute("aria-pressed", "true")
  const game = studio(page)
  await expect(game.getByRole("heading", { level: 1 })).not.toContainText("DEMO")
  await expect(game.getByText("Balance: 30.00 EUR")).toBeVisible()

  // The seeds before play: the committed hash, the client seed, the next round's nonce.
  await game.getByText("Fairness", { exact: true }).click()
  await expect(game.locator("#hash")).toHaveText(/^[0-9a-f]{64}$/)
  const committedHash = (await game.locator("#hash").innerText()).trim()
  await expect(game.getByLabel("Client seed")).not.toHaveValue("")
  const clientSeed = await game.getByLabel("Client seed").inputValue()
  const firstNonce = Number((await game.locator("#nonce").innerText()).trim())
  expect(Number.isInteger(firstNonce)).toBe(true)

  // ── Three rounds of 1.00 EUR, under 50 ──
  await game.getByLabel("Bet (EUR)").fill("1.00")
  await game.getByLabel("Target (0.01–99.99)").fill("50")
  await game.getByLabel("Roll", { exact: true }).selectOption("under")
  const roll = game.getByRole("button", { name: "Roll", exact: true })
  const results: Array<string> = []
  for (let round = 0; round < 3; round++) {
    await roll.click()
    await expect(game.locator("#nonce")).toHaveText(String(firstNonce + round + 1))
    await expect(game.getByRole("status")).toHaveText(ROUND_RESULT)
    results.push(await game.getByRole("status").innerText())
  }
  const inFrame = amountIn(await game.getByText(/^Balance: /).innerText())
  // Each round is −1.00 or +0.98: three never come back to 30.00.
  expect(inFrame).not.toBe("30.00")
  // The header follows the studio's studio:balance message.
  await expect(balance(page)).toContainText(inFrame)
  await world.screenshot(page, "games-dice-real")

  // ── The bets tab: the three rounds, bet and win; balance = 30 − 3 × 1 + the wins ──
  await page.goto("/profile/bets")
  await expect(balance(page)).toContainText(inFrame)
  const rows = page.getByRole("table").getByRole("row").filter({ hasText: "Lumen Play" })
  await expect(rows).toHaveCount(3)
  let wins = 0n
  for (const row of await rows.all()) {
    const cells = row.getByRole("cell")
    await expect(cells.nth(0)).toHaveText(/^Dice #[123]$/)
    await expect(cells.nth(2)).toHaveText("1.00 EUR")
    // "Won 1.98 EUR (+0.98)" or "Lost 1.00 EUR": the amount paid comes first.
    const result = await cells.nth(3).innerText()
    wins += result.startsWith("Lost ") ? 0n : cents(amountIn(result))
  }
  expect(cents(inFrame)).toBe(3000n - 300n + wins)
  await world.screenshot(page, "games-bets-tab")

  // ── Rotate the server seed in the game: it is revealed, and the first round checks out ──
  await page.goBack()
  await expect(page).toHaveURL(/\/game\/dice-classic$/)
  await page.getByRole("button", { name: "Real money" }).click()
  await game.getByText("Fairness", { exact: true }).click()
  await game.getByRole("button", { name: "Rotate server seed" }).click()
  const revealed = game.getByText(/^Revealed server seed: /)
  await expect(revealed).toBeVisible()
  const match =
    /^Revealed server seed: ([0-9a-f]+) \(hash ([0-9a-f]{64}), client seed (.+), (\d+) rounds played\)\.$/.exec(
      (await revealed.innerText()).trim(),
    )
  if (match === null) throw new Error("the revealed seed line has an unexpected shape")
  const [, serverSeed = "", hash, revealedClientSeed, played] = match
  expect(hash).toBe(committedHash)
  expect(revealedClientSeed).toBe(clientSeed)
  expect(Number(played)).toBe(firstNonce + 3)
  // The next seed is committed: a different hash.
  await expect(game.locator("#hash")).not.toHaveText(committedHash)

  await page.goto("/fairness")
  await page.getByLabel("Game").selectOption("dice-classic")
  await page.getByLabel("Target", { exact: true }).fill("50")
  await page.getByLabel("Roll", { exact: true }).selectOption("under")
  await page.getByLabel("Server seed (revealed)").fill(serverSeed)
  await page.getByLabel("Client seed").fill(clientSeed)
  await page.getByLabel("Nonce").fill(String(firstNonce))
  await page.getByRole("button", { name: "Verify", exact: true }).click()
  const outcome = page.getByRole("region", { name: "Outcome" })
  await expect(outcome).toContainText(committedHash)
  const firstRound = results[0] ?? ""
  const rolled = /^Roll (\d+\.\d{2}) /.exec(firstRound)?.[1]
  expect(rolled).toBeDefined()
  // The multiplier paid (win ÷ bet: 1.98× at 50 under, the verifier's own multiplier to two places).
  const won = / · ([\d.]+)×\.$/.exec(firstRound)?.[1]
  await expect(outcome.locator(".verifier__multiplier")).toHaveText(won === undefined ? "0×" : `${won}×`)
  await outcome.getByText("Round details").click()
  // The verifier's detail is the round's JSON ("roll": 34.5); the studio shows it with two decimals.
  const detailRoll = /"roll": ([\d.]+)/.exec(await outcome.locator(".verifier__detail").innerText())?.[1]
  expect(Number(detailRoll).toFixed(2)).toBe(rolled)
  await world.screenshot(page, "games-verified-round")
})

test("the reality check pauses a real-money game: no frame while the reminder shows, Continue playing brings it back", async ({
  page,
  world,
}) => {
  await signedInPlayer(page, world, "reality")
  const saved = await page.request.put(`${world.baseUrl}/profile-service/api/v1/profile/responsible-gaming`, {
    data: { realityCheckMinutes: 15 },
    headers: { origin: world.baseUrl },
  })
  expect(saved.status()).toBe(200)
  // The page's clock is driven by the test: fifteen minutes pass in a moment.
  await page.clock.install()
  // The reality check's timer starts once its settings arrive (after the sign-in is known).
  const settings = page.waitForResponse(
    (r) =>
      r.url().endsWith("/profile-service/api/v1/profile/responsible-gaming") &&
      r.request().method() === "GET",
  )
  await page.goto("/game/dice-classic")
  await expect(page.getByRole("button", { name: "Real money" })).toHaveAttribute("aria-pressed", "true")
  const game = studio(page)
  await expect(game.getByRole("heading", { level: 1 })).toContainText("Dice")
  await expect(game.getByRole("heading", { level: 1 })).not.toContainText("DEMO")
  await (await settings).finished()

  // Minute by minute (see account.spec.ts): the timer is scheduled a moment after the settings came.
  for (let m = 0; m < 15; m++) await page.clock.fastForward("01:00")
  const reminder = page.getByRole("alertdialog", { name: "Reality check" })
  await expect(reminder).toContainText("You have been signed in for 15 min")
  // Play is paused: the frame is gone (nothing in it plays on or bets), the page says why.
  await expect(page.locator(".game__frame")).toHaveCount(0)
  await expect(page.getByText(GamePageMessages.paused)).toBeVisible()
  await world.screenshot(page, "games-reality-check-paused")

  await reminder.getByRole("button", { name: "Continue playing" }).click()
  await expect(reminder).toHaveCount(0)
  await expect(page.getByText(GamePageMessages.paused)).toHaveCount(0)
  // The frame is loaded again, the same real-money game.
  await expect(game.getByRole("heading", { level: 1 })).toContainText("Dice")
  await expect(game.getByRole("heading", { level: 1 })).not.toContainText("DEMO")
  await expect(game.getByText(/^Balance: \d+\.\d{2} EUR$/)).toBeVisible()
})
