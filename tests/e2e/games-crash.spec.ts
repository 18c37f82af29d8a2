/**
 * Multiplayer crash in Chromium, inside the game's frame (the studio's own origin), against the real
 * server and the studio's sandbox:
 *
 * - Two signed-in players (two browser contexts, 30 EUR card deposits) open Comet Crash and bet 1.00
 *   in the same betting phase; one cashes out by hand, the other at their auto cash-out. Each sees
 *   the other in the players list; each page's result words are the money won or lost, and each
 *   casino header follows to the cent. The bust point is the chain's (not chosen by the test), so a
 *   game that busts before the manual cash-out counts as lost and the next game is played.
 * - A visitor's demo page at 1280×800 and 390×844: the curve, the Bet button and the players table in
 *   view; screenshots in test-results/screens/.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { BrowserContext, FrameLocator, Page } from "@playwright/test"
import { expectAccessible } from "./support/a11y.ts"
import { balance, depositThirtyByCard, newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { expect, test } from "./support/fixtures.ts"
import { dismissToasts } from "./support/ui.ts"

const frame = (page: Page): FrameLocator => page.frameLocator(".game__frame")

const centsIn = (text: string): bigint => {
  const match = /(\d+)\.(\d{2})/.exec(text)
  if (match?.[1] === undefined || match[2] === undefined)
    throw new Error(`no amount in ${JSON.stringify(text)}`)
  return BigInt(match[1] + match[2])
}

const openCrash = async (page: Page, mode: "Demo" | "Real money"): Promise<FrameLocator> => {
  await page.goto("/game/comet-crash")
  await expect(page.getByRole("heading", { level: 1, name: "Comet Crash" })).toBeVisible()
  if (mode === "Real money") await page.getByRole("button", { name: "Real money" }).click()
  await expect(page.getByRole("button", { name: mode })).toHaveAttribute("aria-pressed", "true")
  const game = frame(page)
  await expect(game.getByRole("heading", { level: 1 })).toContainText("Comet Crash")
  await expect(game.getByText(/^Balance: \d+\.\d{2} EUR$/)).toBeVisible()
  return game
}

const nameOf = async (game: FrameLocator): Promise<string> => {
  const me = game.locator("#me")
  await expect(me).toHaveText(/^Player [0-9A-F]{4}$/)
  return (await me.innerText()).trim()
}

/** Waits for a fresh betting phase (after a game ran or busted), so both players have its full length. */
const freshBetting = async (game: FrameLocator): Promise<void> => {
  const bet = game.getByRole("button", { name: "Bet", exact: true })
  await expect(bet).toBeDisabled({ timeout: 120_000 })
  await expect(bet).toBeEnabled({ timeout: 120_000 })
}

test("two players in one crash game: a manual and an auto cash-out, each sees the other, headers follow", async ({
  browser,
  page,
  world,
}) => {
  test.setTimeout(600_000)
  const other: BrowserContext = await browser.newContext({ baseURL: world.baseUrl })
  try {
    const second = await other.newPage()
    const players: Array<{ page: Page; game?: FrameLocator; cents: bigint }> = [
      { page, cents: 3000n },
      { page: second, cents: 3000n },
    ]
    for (const [i, p] of players.entries()) {
      await signedInThroughApi(
        p.page,
        world,
        newPlayer(world, `crash${i}`, i === 0 ? "Ada Lovelace" : "Alan Turing"),
      )
      await depositThirtyByCard(p.page)
      await dismissToasts(p.page)
      p.game = await openCrash(p.page, "Real money")
    }
    const [manual, auto] = players
    if (manual?.game === undefined || auto?.game === undefined) throw new Error("two games")
    const manualName = await nameOf(manual.game)
    const autoName = await nameOf(auto.game)
    expect(manualName).not.toBe(autoName)
    await manual.game.getByLabel(/^Auto cash-out/).fill("")
    await auto.game.getByLabel(/^Auto cash-out/).fill("1.10")

    let manualWon = false
    for (let attempt = 0; attempt < 6 && !manualWon; attempt++) {
      await freshBetting(manual.game)
      // Each own finished round gets a "Verify your round" link in the history (the list is in a
      // closed <details>, so counted in the DOM): one more than now means this round is over.
      const ownRounds = (game: FrameLocator) => game.locator('a[href^="/studio/crash-rounds/"]')
      const roundsBefore = new Map<FrameLocator, number>()
      for (const p of [manual, auto]) {
        const game = p.game as FrameLocator
        roundsBefore.set(game, await ownRounds(game).count())
      }
      // Both bet at once (the betting phase is 5 s), then each page and header shows its bet.
      await Promise.all(
        [manual, auto].map(async (p) => {
          const game = p.game as FrameLocator
          await game.getByLabel(/^Bet \(EUR\)/).fill("1.00")
          await game.getByRole("button", { name: "Bet", exact: true }).click()
        }),
      )
      // Once the game launches, each bet is in it (cash-out offered, or already settled by an
      // instant bust) — or, on a busy machine, it reached the casino after the launch and came back:
      // that player sits this game out, and the pair tries the next one.
      const inGame: Array<(typeof players)[number]> = []
      for (const p of [manual, auto]) {
        const game = p.game as FrameLocator
        const returned = game.getByText(
          "The round had started before the casino took your bet: it was returned.",
        )
        const cashOut = game.getByRole("button", { name: /^Cash out / })
        // First the bet's own answer (so last game's result line is not taken for this one's), or
        // this round already over (a bust at launch on a busy machine can pass in one poll)…
        const placedOrOver = game
          .getByRole("button", { name: "Bet placed — waiting for the launch" })
          .or(cashOut)
          .or(returned)
        await expect
          .poll(
            async () =>
              (await placedOrOver.isVisible()) ||
              (await ownRounds(game).count()) > (roundsBefore.get(game) ?? 0),
            { timeout: 10_000 },
          )
          .toBe(true)
        // …then the launch.
        const launched = cashOut.or(game.getByRole("status").filter({ hasText: /^(Won|Lost) / }))
        await expect(launched.or(returned)).toBeVisible({ timeout: 120_000 })
        if (await returned.isVisible()) continue
        inGame.push(p)
        p.cents -= 100n
      }
      const together = inGame.length === 2
      // Each sees the other's bet in the players list (pseudonyms).
      if (together)
        for (const [game, name] of [
          [manual.game, autoName],
          [auto.game, manualName],
        ] as const) {
          await expect(game.getByRole("row").filter({ hasText: name })).toContainText("1.00")
        }
      if (inGame.includes(manual)) {
        // The manual player cashes out as soon as the game runs.
        const cash = manual.game.getByRole("button", { name: /^Cash out \d+\.\d{2}×$/ })
        const status = manual.game.getByRole("status").filter({ hasText: /^(Won|Lost) / })
        await expect(cash.or(status)).toBeVisible({ timeout: 30_000 })
        if (await cash.isVisible()) await cash.click().catch(() => undefined)
        await expect(status).toHaveText(/^(Won \d+\.\d{2} EUR \(\+\d+\.\d{2}\)|Lost 1\.00 EUR)$/, {
          timeout: 120_000,
        })
        const words = (await status.innerText()).trim()
        if (words.startsWith("Won")) {
          if (together) manualWon = true
          const won = centsIn(words)
          expect(won).toBeGreaterThanOrEqual(100n)
          expect(words).toBe(
            `Won ${won / 100n}.${String(won % 100n).padStart(2, "0")} EUR (+${(won - 100n) / 100n}.${String((won - 100n) % 100n).padStart(2, "0")})`,
          )
          manual.cents += won
        }
      }
      if (inGame.includes(auto)) {
        // The auto player: 1.10 EUR at 1.10×, or the bet lost if it busted first.
        const autoStatus = auto.game.getByRole("status").filter({ hasText: /^(Won|Lost) / })
        await expect(autoStatus).toHaveText(/^(Won 1\.10 EUR \(\+0\.10\)|Lost 1\.00 EUR)$/, {
          timeout: 120_000,
        })
        if ((await autoStatus.innerText()).startsWith("Won")) {
          auto.cents += 110n
          // The other page shows the auto cash-out in its list.
          if (together)
            await expect(manual.game.getByRole("row").filter({ hasText: autoName })).toContainText("1.10×")
        }
      }
      // The headers follow the studio's balance messages to the cent.
      for (const p of [manual, auto])
        await expect
          .poll(async () => centsIn(await balance(p.page).innerText()), { timeout: 20_000 })
          .toBe(p.cents)
    }
    expect(manualWon).toBe(true)
    await expect(manual.game.getByRole("row").filter({ hasText: manualName })).toContainText("(you)")
    await world.screenshot(page, "games-crash-two-players")

    // One click verifies the round: its proof page recomputes the bust and the chain link in the
    // player's browser.
    await manual.game.getByText("Fairness").click()
    // The round is listed once its game has busted, which a cash-out does not wait for: the
    // multiplier may still be rising for the others (a high bust takes minutes).
    const verify = manual.game.getByRole("link", { name: "Verify your round" }).first()
    await expect(verify).toBeVisible({ timeout: 240_000 })
    const [proof] = await Promise.all([manual.page.waitForEvent("popup"), verify.click()])
    await expect(proof.getByRole("heading", { level: 1 })).toHaveText(/ — game #\d+$/)
    await expect(proof.getByText(/^✓ The bust recomputes to \d+\.\d{2}×, as played\.$/)).toBeVisible()
    await expect(
      proof.getByText(
        "✓ SHA-256 of this game's hash is the previous game's hash: it was fixed in the chain before play.",
      ),
    ).toBeVisible()
    await proof.close()
  } finally {
    await other.close()
  }
})

test.describe("the crash page's looks", () => {
  // The contrast probe (support/a11y.ts) styles the page from outside: allowed past the page's strict CSP.
  test.use({ bypassCSP: true })

  test("the crash page at 1280×800 and 390×844: the curve, the bet controls and the players in view; axe finds nothing serious", async ({
    page,
  }, testInfo) => {
    // A bound for a hang, not a speed check: two whole rounds are waited for, and how long each
    // climbs is the chain's bust point (a 50× round alone runs over a minute), beside the other
    // worker's crash game on two cores.
    test.setTimeout(360_000)
    const dir = join(process.cwd(), "test-results", "screens")
    mkdirSync(dir, { recursive: true })
    await openCrash(page, "Demo")
    const src = await page.locator(".game__frame").getAttribute("src")
    expect(src).toMatch(/\/studio\/play\//)
    await page.goto(src ?? "")
    for (const [w, h] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h })
      const action = page.getByRole("button", { name: "Bet", exact: true })
      await expect(action).toBeEnabled({ timeout: 60_000 })
      await expect(page.getByLabel(/^Bet \(EUR\)/)).toBeInViewport()
      await expect(action).toBeInViewport()
      await page.getByLabel(/^Auto cash-out/).fill("")
      await action.click()
      await expect(page.getByRole("row").filter({ hasText: "(you)" })).toContainText("1.00")
      await expect(
        page.getByRole("button", { name: /^Cash out \d+\.\d{2}×$/ }).or(page.getByText(/^Lost /)),
      ).toBeVisible({
        timeout: 30_000,
      })
      await page.screenshot({ path: join(dir, `crash-${w}x${h}-running.png`) })
      await expect(page.getByText(/^Busted @ \d+\.\d{2}×$/)).toBeVisible({ timeout: 120_000 })
      await page.getByText("Fairness").click()
      await expect(page.getByText(/^Terminating hash: [0-9a-f]{64}$/)).toBeVisible()
      await page.screenshot({ path: join(dir, `crash-${w}x${h}-busted.png`), fullPage: true })
      // axe measures undecided contrast on the drawn pixels of the viewport: from the top of the page.
      await page.evaluate(() => window.scrollTo(0, 0))
      await expectAccessible(page, testInfo, `crash page ${w}×${h}`)
      await page.getByText("Fairness").click()
    }
  })
})
