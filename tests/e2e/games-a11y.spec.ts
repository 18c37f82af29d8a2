/**
 * Accessibility of the games screens, measured like tests/e2e/a11y.spec.ts does for the
 * account screens: axe-core (WCAG 2.0/2.1/2.2 A and AA; the studio's page in the game frame
 * included) at desktop (1280×800) and mobile (390×844) widths against the real server — a serious
 * or critical violation fails; moderate and minor ones are printed (support/a11y.ts).
 * Screens: the lobby (sections, 12 more, search results), a game page in demo (before and after a
 * round; a mines round in play) and for real money, the verifier with an outcome, the bets tab.
 * Screenshots: test-results/screenshots/games-a11y-<screen>-<viewport>.png.
 */
import type { Page } from "@playwright/test"
import { API } from "./bindings/common.ts"
import { expectAccessible, VIEWPORTS } from "./support/a11y.ts"
import { registerPlayer, solvedCaptcha } from "./support/api.ts"
import { expect, test, type World } from "./support/fixtures.ts"

const signedIn = async (page: Page, world: World, tag: string): Promise<void> => {
  const player = {
    fullName: "Alan Turing",
    email: world.uniqueEmail(tag),
    password: "enigma bombe 1940",
    currency: "EUR",
  }
  await registerPlayer(world.baseUrl, player)
  const response = await page.request.post(`${world.baseUrl}${API}/signin`, {
    data: { email: player.email, password: player.password, captcha: await solvedCaptcha(world.baseUrl) },
    headers: { origin: world.baseUrl },
  })
  expect(response.status()).toBe(200)
}

const allGames = (page: Page) => page.getByRole("region", { name: /^(All games|Results for)/ })

for (const viewport of VIEWPORTS) {
  test.describe(`games axe at ${viewport.name} width (${viewport.width}×${viewport.height})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } })
    // Several axe runs per test, each measuring the contrasts axe leaves undecided on pixels.
    test.describe.configure({ timeout: 180_000 })

    test("lobby: sections, 12 more, search results", async ({ page, world }, testInfo) => {
      await page.goto("/")
      await expect(page.getByRole("heading", { name: "New games" })).toBeVisible()
      await expect(allGames(page).getByRole("listitem")).toHaveCount(12)
      await expectAccessible(page, testInfo, "lobby")
      await allGames(page)
        .getByRole("button", { name: /^Show \d+ more$/ })
        .click()
      await expect(allGames(page).getByRole("listitem")).toHaveCount(24)
      // Measured from the top: where "more" leaves the scroll depends on when the tiles' art
      // lands, and a tile half under the sticky header reads to axe as an obscured target.
      await page.evaluate(() => window.scrollTo(0, 0))
      await expectAccessible(page, testInfo, "lobby more")
      await world.screenshot(page, `games-a11y-lobby-${viewport.name}`)
      // Back to the top, where a player finds the search box (not under the sticky header).
      await page.evaluate(() => window.scrollTo(0, 0))
      await page.getByRole("searchbox", { name: "Search games" }).fill("owl")
      await expect(page.getByRole("heading", { name: /Results for “owl”/ })).toBeVisible()
      await expect(allGames(page).getByRole("listitem").first()).toBeVisible()
      await expectAccessible(page, testInfo, "lobby search results")
    })

    test("game page in demo: the studio's slot in the frame, before and after a spin", async ({
      page,
      world,
    }, testInfo) => {
      await page.goto("/game/aurora-vault")
      const game = page.frameLocator(".game__frame")
      await expect(game.getByText(/^Balance: \d+\.\d{2} EUR$/)).toBeVisible()
      await expectAccessible(page, testInfo, "game demo")
      await game.getByRole("button", { name: "Spin", exact: true }).click()
      await expect(game.getByRole("status")).toHaveText(/ — (Won|Returned|Lost) /)
      await expectAccessible(page, testInfo, "game demo after a spin")
      await world.screenshot(page, `games-a11y-game-demo-${viewport.name}`)
    })

    test("game pages in demo: mines, roulette and plinko boards, and a mines round in play", async ({
      page,
    }, testInfo) => {
      for (const id of ["mines", "european-roulette", "plinko"]) {
        await page.goto(`/game/${id}`)
        const game = page.frameLocator(".game__frame")
        await expect(game.getByText(/^Balance: \d+\.\d{2} EUR$/)).toBeVisible()
        await expectAccessible(page, testInfo, `game ${id}`)
        if (id !== "mines") continue
        // A round in play: the tiles enabled, one opened (a gem, or the mine that ended it), the ladder.
        await game.getByRole("button", { name: "Bet", exact: true }).click()
        await expect(game.locator("#board")).toHaveAttribute("data-state", "running")
        await game.getByRole("button", { name: "Tile 3-3", exact: true }).click()
        await expect(game.getByRole("button", { name: /^Tile 3-3, (gem|mine)$/ })).toHaveAttribute(
          "aria-pressed",
          "true",
        )
        await expectAccessible(page, testInfo, "game mines in play")
      }
    })

    test("game page for real money (signed in, no money yet)", async ({ page, world }, testInfo) => {
      await signedIn(page, world, "a11y-game-real")
      await page.goto("/game/dice-classic")
      await expect(page.getByRole("button", { name: "Real money" })).toHaveAttribute("aria-pressed", "true")
      const game = page.frameLocator(".game__frame")
      await expect(game.getByText("Balance: 0.00 EUR")).toBeVisible()
      await expectAccessible(page, testInfo, "game real")
      // A roll without money: the page says why and offers Deposit.
      await game.getByRole("button", { name: "Roll", exact: true }).click()
      await expect(page.getByRole("alert").filter({ hasText: "Your balance is too low" })).toBeVisible()
      await expectAccessible(page, testInfo, "game real low balance")
      await world.screenshot(page, `games-a11y-game-real-${viewport.name}`)
    })

    test("verifier with an outcome", async ({ page, world }, testInfo) => {
      await page.goto("/fairness")
      await expect(page.getByRole("heading", { name: "Provably fair: verify a round" })).toBeVisible()
      await expectAccessible(page, testInfo, "verifier")
      await page.getByLabel("Game").selectOption("dice-classic")
      await page.getByLabel("Server seed (revealed)").fill("a".repeat(64))
      await page.getByLabel("Client seed").fill("abc")
      await page.getByLabel("Nonce").fill("0")
      await page.getByRole("button", { name: "Verify" }).click()
      await expect(page.getByRole("region", { name: "Outcome" })).toBeVisible()
      await expectAccessible(page, testInfo, "verifier outcome")
      await world.screenshot(page, `games-a11y-verifier-${viewport.name}`)
    })

    test("bets tab", async ({ page, world }, testInfo) => {
      await signedIn(page, world, "a11y-bets")
      await page.goto("/profile/bets")
      await expect(page.getByText(/^No bets from /)).toBeVisible()
      await expectAccessible(page, testInfo, "bets")
      await page.getByLabel("From").fill("2026-12-01")
      await page.getByLabel("To").fill("2026-11-01")
      await page.getByRole("button", { name: "Show" }).click()
      await expect(page.getByRole("alert")).toBeVisible()
      await expectAccessible(page, testInfo, "bets error")
    })
  })
}
