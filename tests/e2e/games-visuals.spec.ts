/**
 * The studio's game pages show exactly the round the server computed, once their animation ended
 * (the board's data-state="settled"; nothing here waits for time):
 * - dice: the roll's marker stops on detail.roll;
 * - plinko: the ball's path ends in detail.bucket (read back from the drawn path);
 * - mines: played tile by tile (Bet, tiles until a mine or three gems, Cash out), each gem flips as
 *   answered, and the mines shown at the end are detail.mines;
 * - roulette: a split, a corner and a dozen placed by clicking the table are the bets sent, and the
 *   wheel stops on detail.pocket;
 * - slots: the reels stop on detail.window.
 * The result words say what happened to the money. With reduced motion the result shows at once
 * (no animation runs). Screenshots at 1280×800 and 390×844: test-results/screens/<game>-<size>.png.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { Frame, FrameLocator, Page } from "@playwright/test"
import { VIEWPORTS } from "./support/a11y.ts"
import { expect, test } from "./support/fixtures.ts"

const screensDir = join(process.cwd(), "test-results", "screens")

interface RoundAnswer {
  readonly bet: string
  readonly win: string
  readonly roundId: string
  readonly gameRound: number
  readonly detail: Readonly<Record<string, unknown>>
}

const isRoundAnswer = (v: unknown): v is RoundAnswer =>
  typeof v === "object" && v !== null && "detail" in v && "win" in v && "bet" in v

/** "1.98" of 198 cents. */
const eur = (cents: bigint): string => {
  const abs = cents < 0n ? -cents : cents
  return `${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`
}

/** The words the rule gives (EUR): win > bet Won (+), 0 < win ≤ bet Returned (− or ±), 0 Lost. */
const expectedWords = (bet: bigint, win: bigint): string =>
  win === 0n
    ? `Lost ${eur(bet)} EUR`
    : win > bet
      ? `Won ${eur(win)} EUR (+${eur(win - bet)})`
      : win === bet
        ? `Returned ${eur(win)} EUR (±0.00)`
        : `Returned ${eur(win)} EUR (\u2212${eur(bet - win)})`

const studioFrame = (page: Page): Frame => {
  const frame = page.frames().find((f) => f.url().includes("/studio/play/"))
  if (frame === undefined) throw new Error("no studio frame")
  return frame
}

const open = async (page: Page, id: string): Promise<FrameLocator> => {
  await page.goto(`/game/${id}`)
  const game = page.frameLocator(".game__frame")
  await expect(game.getByText(/^Balance: \d+\.\d{2} EUR$/)).toBeVisible()
  return game
}

/** Plays one round with the kind's button; the server's answer and the settled board. */
const playRound = async (page: Page, game: FrameLocator, button: string): Promise<RoundAnswer> => {
  const answer = page.waitForResponse((r) => r.url().includes("/round") && r.request().method() === "POST")
  await game.getByRole("button", { name: button, exact: true }).click()
  const body: unknown = await (await answer).json()
  if (!isRoundAnswer(body)) throw new Error(`not a round: ${JSON.stringify(body)}`)
  return settled(game, body)
}

/** The board settled on the server's round: the words in money, the rounds table and its Verify link. */
const settled = async (game: FrameLocator, body: RoundAnswer): Promise<RoundAnswer> => {
  await expect(game.locator("#board")).toHaveAttribute("data-state", "settled", { timeout: 20_000 })
  const bet = BigInt(body.bet)
  const win = BigInt(body.win)
  await expect(game.locator("#result")).toContainText(` — ${expectedWords(bet, win)}`)
  if (win > bet) await expect(game.locator("#result")).toHaveClass(/\bwin\b/)
  else await expect(game.locator("#result")).not.toHaveClass(/\bwin\b/)
  // The rounds table: this game's round number and the verifier link for the casino's round id.
  const first = game.getByRole("table", { name: "Your last rounds, newest first" }).getByRole("row").nth(1)
  await expect(first.getByRole("cell").first()).toHaveText(`#${body.gameRound}`)
  const verify = first.getByRole("link", { name: `Verify round ${body.gameRound}` })
  await expect(verify).toHaveAttribute("href", new RegExp(`/fairness\\?round=${body.roundId}$`))
  return body
}

const shoot = async (page: Page, name: string): Promise<void> => {
  mkdirSync(screensDir, { recursive: true })
  for (const v of VIEWPORTS) {
    await page.setViewportSize({ width: v.width, height: v.height })
    await page.screenshot({ path: join(screensDir, `${name}-${v.width}x${v.height}.png`) })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

test.describe("game pages show the server's round", () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test("dice: the marker stops on the roll", async ({ page }) => {
    const game = await open(page, "dice-classic")
    await game.getByLabel("Bet (EUR)").fill("1.00")
    const round = await playRound(page, game, "Roll")
    expect(typeof round.detail.roll).toBe("number")
    await expect(game.locator("#board")).toHaveAttribute("data-roll", Number(round.detail.roll).toFixed(2))
    await shoot(page, "dice")
  })

  test("plinko: the ball lands in the server's bucket", async ({ page }) => {
    const game = await open(page, "plinko")
    await game.getByLabel("Rows").selectOption("16")
    await game.getByLabel("Bet (EUR)").fill("1.00")
    const round = await playRound(page, game, "Drop")
    await expect(game.locator("svg.plinko")).toHaveAttribute("data-landed", String(round.detail.bucket))
    await expect(game.locator("svg.plinko .ball")).toHaveCount(1)
    await shoot(page, "plinko")
  })

  test("mines: tile by tile, each gem as answered; the mines shown are the server's", async ({ page }) => {
    const game = await open(page, "mines")
    await game.getByLabel("Mines", { exact: true }).selectOption("5")
    await game.getByLabel("Bet (EUR)").fill("1.00")
    await game.getByRole("button", { name: "Bet", exact: true }).click()
    await expect(game.locator("#board")).toHaveAttribute("data-state", "running")
    // Tiles until a mine ends the round or three gems are in; then the cash-out the button offers.
    let end: unknown
    for (const tile of ["Tile 1-1", "Tile 2-3", "Tile 5-5"]) {
      const button = game.getByRole("button", { name: tile, exact: true })
      await expect(button).toBeEnabled()
      const answer = page.waitForResponse((r) => r.url().includes("/mines/open"))
      await button.click()
      const body: unknown = await (await answer).json()
      if (typeof body !== "object" || body === null || !("state" in body)) throw new Error("not a step")
      if (body.state !== "playing") {
        end = body
        break
      }
      await expect(game.getByRole("button", { name: `${tile}, gem`, exact: true })).toHaveAttribute(
        "aria-pressed",
        "true",
      )
    }
    if (end === undefined) {
      const answer = page.waitForResponse((r) => r.url().includes("/mines/cashout"))
      await game.getByRole("button", { name: /^Cash out \d+\.\d{2} EUR \(\d+\.\d{2}×\)$/ }).click()
      end = await (await answer).json()
    }
    if (!isRoundAnswer(end)) throw new Error(`not a round: ${JSON.stringify(end)}`)
    const round = await settled(game, end)
    const mines = round.detail.mines
    if (!Array.isArray(mines)) throw new Error("no mines")
    await expect(game.locator("#board")).toHaveAttribute("data-mines", mines.join(","))
    await expect(game.locator(".mines button.mine")).toHaveCount(5)
    await shoot(page, "mines")
  })

  test("roulette: a split, a corner and a dozen placed on the table; the wheel stops on the pocket", async ({
    page,
  }) => {
    const game = await open(page, "european-roulette")
    const table = game.getByRole("group", { name: /^Betting board/ })
    await table.getByRole("button", { name: "Split 17/20, 0 chips" }).click()
    await table.getByRole("button", { name: "Corner 17/18/20/21, 0 chips" }).click()
    await game.getByRole("button", { name: "Chip: 5 chips a click" }).click()
    await table.getByRole("button", { name: "2nd 12, 0 chips" }).click()
    await table.getByRole("button", { name: "Split 0/3, 0 chips" }).click()
    await expect(table.getByRole("button", { name: "2nd 12, 5 chips" })).toBeVisible()
    await expect(game.getByText("Total bet 1.00 EUR on 12 chips")).toBeVisible()
    await game.getByRole("button", { name: "Undo" }).click()
    await expect(table.getByRole("button", { name: "Split 0/3, 0 chips" })).toBeVisible()
    await game.getByLabel("Bet (EUR)").fill("1.00")
    const request = page.waitForRequest((r) => r.url().includes("/round") && r.method() === "POST")
    const round = await playRound(page, game, "Spin the wheel")
    expect((await request).postDataJSON().options).toEqual({
      bets: [
        { type: "split", chips: 1, numbers: [17, 20] },
        { type: "corner", chips: 1, numbers: [17, 18, 20, 21] },
        { type: "dozen", chips: 5, numbers: [2] },
      ],
    })
    await expect(game.locator("svg.wheel")).toHaveAttribute("data-landed", String(round.detail.pocket))
    await shoot(page, "roulette")
  })

  test("slots: the reels stop on the server's window, the pay table is drawn", async ({ page }) => {
    const game = await open(page, "aurora-vault")
    await game.getByLabel("Bet (EUR)").fill("1.00")
    const round = await playRound(page, game, "Spin")
    await expect(game.getByRole("img", { name: /^Reels: / })).toHaveAttribute(
      "data-window",
      JSON.stringify(round.detail.window),
    )
    await shoot(page, "slot")
    await game.getByText("Info & pay table").click()
    await expect(game.locator(".pays li")).toHaveCount(11)
    await expect(game.locator(".pays li").first()).toContainText("Aurora")
  })
})

test.describe("reduced motion", () => {
  test.use({ viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" })

  test("roulette and slots show the result at once: no animation runs", async ({ page }) => {
    for (const [id, button] of [
      ["european-roulette", "Spin the wheel"],
      ["aurora-vault", "Spin"],
    ] as const) {
      const game = await open(page, id)
      await game.getByLabel("Bet (EUR)").fill("1.00")
      await playRound(page, game, button)
      const running = await studioFrame(page).evaluate(
        () => document.getAnimations().filter((a) => a.playState === "running").length,
      )
      expect(running).toBe(0)
    }
  })
})
