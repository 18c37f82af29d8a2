/**
 * Every game kind of the studio played in Chromium, inside the game page's frame (the studio's own
 * origin), against the real server and the studio's sandbox: mines (tile by tile: Bet, a tile or two,
 * then Cash out, or a mine), plinko, roulette (chips on the board) and a video slot. Crash is
 * multiplayer, played in games-crash.spec.ts.
 *
 * - Real money: a signed-in player with a 30 EUR card deposit plays one round of each; after each
 *   round the header's balance is exactly the previous one − the bet + the win the round announced,
 *   and the round is the newest of the bet-history call with that bet and win; the bets tab lists
 *   the four rounds.
 * - Demo, as a visitor: one round of each; the demo balance moves by exactly the bet and the win,
 *   the header has no balance, and (on PostgreSQL) the casino's wallet saw none of these rounds.
 * Screenshots: test-results/screenshots/games-kind-*.png.
 */
import type { FrameLocator, Page } from "@playwright/test"
import { API } from "./bindings/common.ts"
import { VIEWPORTS } from "./support/a11y.ts"
import { registerPlayer, solvedCaptcha } from "./support/api.ts"
import { balance, banner, depositThirtyByCard } from "./support/deposit.ts"
import { expect, test, type World } from "./support/fixtures.ts"
import { dismissToasts } from "./support/ui.ts"

const studio = (page: Page): FrameLocator => page.frameLocator(".game__frame")

/** "Balance: 1000.00 EUR" → 100000n (cents; amounts are compared exactly, never as floats). */
const centsIn = (text: string): bigint => {
  const match = /(\d+)\.(\d{2})/.exec(text)
  if (match?.[1] === undefined || match[2] === undefined)
    throw new Error(`no amount in ${JSON.stringify(text)}`)
  return BigInt(match[1] + match[2])
}

/** The round's announcement: "<what happened> — Won 1.98 EUR (+0.98) · 1.98×.", "… — Returned 0.90 EUR (−0.10) · 0.90×." or "… — Lost 1.00 EUR." */
const ROUND_RESULT =
  / — (Won \d+\.\d{2} EUR \(\+\d+\.\d{2}\) · \d+\.\d{2}×|Returned \d+\.\d{2} EUR \([−±]\d+\.\d{2}\) · \d+\.\d{2}×|Lost \d+\.\d{2} EUR)\./

/** The money a round paid back, in cents (0 for "Lost"). */
const winIn = (announcement: string): bigint => {
  const match = / — (?:Won|Returned) (\d+\.\d{2}) EUR /.exec(announcement)
  return match?.[1] === undefined ? 0n : centsIn(match[1])
}

interface Kind {
  readonly kind: string
  readonly id: string
  readonly name: string
  /** Sets the round up in the frame; the bet is already filled in. */
  readonly arrange: (game: FrameLocator) => Promise<void>
  readonly button: string
  /** A round of more than one press (mines): played from the play button on; else one press of it. */
  readonly play?: (game: FrameLocator) => Promise<void>
  /** What the announcement says before " — ". */
  readonly outcome: RegExp
}

/**
 * A mines round tile by tile, with 1 mine: Bet, then tile 1-1 and tile 3-3 (each a gem 24 times in
 * 25), then Cash out — unless a mine ended it first. Each tile waits for its answer (its label says
 * gem or mine) before the next press.
 */
const playMines = async (game: FrameLocator): Promise<void> => {
  const board = game.locator("#board")
  await game.getByRole("button", { name: "Bet", exact: true }).click()
  await expect(board).toHaveAttribute("data-state", "running")
  await expect(game.getByRole("button", { name: "Cash out", exact: true })).toBeDisabled()
  for (const tile of ["Tile 1-1", "Tile 3-3"]) {
    const button = game.getByRole("button", { name: tile, exact: true })
    await expect(button).toBeEnabled()
    await button.click()
    const opened = game.getByRole("button", { name: new RegExp(`^${tile}, (gem|mine)$`) })
    await expect(opened).toHaveAttribute("aria-pressed", "true")
    if ((await opened.getAttribute("aria-label")) === `${tile}, mine`) return
  }
  // Two gems: the play button offers the cash-out in money (a 1.00 bet: 0.99 × 300/276 = 1.07 EUR).
  const cashOut = game.getByRole("button", { name: /^Cash out \d+\.\d{2} EUR \(\d+\.\d{2}×\)$/ })
  await expect(cashOut).toBeEnabled()
  await cashOut.click()
}

const KINDS: ReadonlyArray<Kind> = [
  {
    kind: "mines",
    id: "mines",
    name: "Mines",
    arrange: async (game) => {
      await game.getByLabel("Mines", { exact: true }).selectOption("1")
    },
    button: "Bet",
    play: playMines,
    outcome: /^(Cashed out after 2 safe tiles|Mine hit after (0 safe tiles|1 safe tile)) — /,
  },
  {
    kind: "plinko",
    id: "plinko",
    name: "Plinko",
    arrange: async (game) => {
      await game.getByLabel("Rows").selectOption("8")
      await game.getByLabel("Risk").selectOption("low")
    },
    button: "Drop",
    outcome: /^Bucket \d of 9/,
  },
  {
    kind: "roulette",
    id: "european-roulette",
    name: "European Roulette",
    arrange: async (game) => {
      const board = game.getByRole("group", { name: /^Betting board/ })
      // Exact names: the lines and corners around 17 are bets of their own ("Split 14/17, 0 chips").
      await board.getByRole("button", { name: "Red, 0 chips", exact: true }).click()
      await board.getByRole("button", { name: "17, 0 chips", exact: true }).click()
      await expect(board.getByRole("button", { name: "Red, 1 chips", exact: true })).toBeVisible()
      await expect(board.getByRole("button", { name: "17, 1 chips", exact: true })).toBeVisible()
    },
    button: "Spin the wheel",
    outcome: /^The ball lands on \d+ \((red|black|green)\)/,
  },
  {
    kind: "slot",
    id: "aurora-vault",
    name: "Aurora Vault",
    arrange: async (game) => {
      await expect(game.getByRole("img", { name: /^Reels: / })).toBeVisible()
    },
    button: "Spin",
    outcome: /^(line \d+: |\d+ scatters pay|Nothing on the lines)/,
  },
]

/** The first kind (games.spec.ts plays it for real money): here for the looks check only. */
const DICE: Kind = {
  kind: "dice",
  id: "dice-classic",
  name: "Dice",
  arrange: async () => {},
  button: "Roll",
  outcome: /^Roll \d+\.\d{2} /,
}

/** Opens /game/{id} in the given mode and waits for the studio's page with its balance. */
const openGame = async (page: Page, kind: Kind, mode: "Demo" | "Real money"): Promise<FrameLocator> => {
  await page.goto(`/game/${kind.id}`)
  await expect(page.getByRole("heading", { level: 1, name: kind.name })).toBeVisible()
  // A visitor starts in demo, a signed-in player in real money.
  const wanted = page.getByRole("button", { name: mode })
  if (mode === "Real money" || (await wanted.getAttribute("aria-pressed")) === "false") await wanted.click()
  await expect(wanted).toHaveAttribute("aria-pressed", "true")
  const game = studio(page)
  const title = game.getByRole("heading", { level: 1 })
  await expect(title).toContainText(kind.name)
  if (mode === "Demo") await expect(title).toContainText("DEMO")
  else await expect(title).not.toContainText("DEMO")
  await expect(game.getByText(/^Balance: \d+\.\d{2} EUR$/)).toBeVisible()
  return game
}

interface Round {
  readonly before: bigint
  readonly after: bigint
  readonly win: bigint
  readonly announcement: string
}

/** One round of `bet` cents: arranged, played with the keyboard-reachable button, announced. */
const playRound = async (game: FrameLocator, kind: Kind, bet: string): Promise<Round> => {
  const before = centsIn(await game.getByText(/^Balance: /).innerText())
  await game.getByLabel(/^Bet \(EUR\)/).fill(bet)
  await kind.arrange(game)
  const play = game.getByRole("button", { name: kind.button, exact: true })
  await expect(play).toBeInViewport()
  if (kind.play === undefined) await play.click()
  else await kind.play(game)
  const status = game.getByRole("status")
  await expect(status).toHaveText(ROUND_RESULT)
  await expect(play).toBeEnabled()
  const announcement = (await status.innerText()).trim()
  expect(announcement).toMatch(kind.outcome)
  const win = winIn(announcement)
  // The page's own history of this session's rounds: the newest first, with its bet and win.
  const newest = game
    .getByRole("table", { name: "Your last rounds, newest first" })
    .getByRole("row")
    .nth(1)
    .getByRole("cell")
  await expect(newest.nth(1)).toHaveText(`${bet} EUR`)
  const winCell = (await newest.nth(3).innerText()).trim()
  expect(winCell === "—" ? 0n : centsIn(winCell)).toBe(win)
  const after = centsIn(await game.getByText(/^Balance: /).innerText())
  return { before, after, win, announcement }
}

/** Registers and signs in a new player; their e-mail. */
const signedInPlayer = async (page: Page, world: World): Promise<string> => {
  const player = {
    fullName: "Katherine Johnson",
    email: world.uniqueEmail("kinds"),
    password: "orbital mechanics 1962",
    currency: "EUR",
  }
  await registerPlayer(world.baseUrl, player)
  const response = await page.request.post(`${world.baseUrl}${API}/signin`, {
    data: { email: player.email, password: player.password, captcha: await solvedCaptcha(world.baseUrl) },
    headers: { origin: world.baseUrl },
  })
  expect(response.status()).toBe(200)
  return player.email
}

interface BetRecord {
  readonly roundId: string
  readonly gameId: string
  readonly bet: string
  readonly win: string
  readonly status: string
}

const isBetRecord = (value: unknown): value is BetRecord =>
  typeof value === "object" &&
  value !== null &&
  ["roundId", "gameId", "bet", "win", "status"].every((key) => typeof Reflect.get(value, key) === "string")

/** GET /profile-service/api/v1/history/bet with the page's session: the newest rounds first. */
const betHistory = async (page: Page, world: World): Promise<ReadonlyArray<BetRecord>> => {
  const response = await page.request.get(`${world.baseUrl}/profile-service/api/v1/history/bet?size=20`)
  expect(response.status()).toBe(200)
  const body: unknown = await response.json()
  const content = typeof body === "object" && body !== null ? Reflect.get(body, "content") : undefined
  if (!Array.isArray(content) || !content.every(isBetRecord))
    throw new Error(`unexpected bet history: ${JSON.stringify(body)}`)
  return content
}

test("real money: one round of mines, plinko, roulette and a video slot; the header and the bet history follow each", async ({
  page,
  world,
}) => {
  test.setTimeout(180_000)
  await signedInPlayer(page, world)
  await page.goto("/")
  await expect(balance(page)).toContainText("0.00")
  await depositThirtyByCard(page)
  await dismissToasts(page)

  let expected = 3000n
  const played: Array<{ readonly kind: Kind; readonly win: bigint }> = []
  for (const kind of KINDS) {
    const game = await openGame(page, kind, "Real money")
    await expect(balance(page)).toContainText(
      `${expected / 100n}.${String(expected % 100n).padStart(2, "0")}`,
    )
    const round = await playRound(game, kind, "1.00")
    // The studio's balance after the round: exactly the previous one − 1.00 + the announced win.
    expect(round.before).toBe(expected)
    expected = expected - 100n + round.win
    expect(round.after).toBe(expected)
    // The header follows the studio's studio:balance message to the cent.
    await expect
      .poll(async () => centsIn(await balance(page).innerText()), { message: `header after ${kind.kind}` })
      .toBe(expected)
    // The round is the newest in the bet history: this game, a bet of 1.00, the announced win.
    await expect
      .poll(async () => {
        const [newest] = await betHistory(page, world)
        return newest === undefined ? "none" : `${newest.gameId} ${newest.bet} ${newest.win} ${newest.status}`
      })
      .toBe(`${kind.id} 100 ${round.win} settled`)
    played.push({ kind, win: round.win })
    await world.screenshot(page, `games-kind-${kind.kind}-real`)
  }

  // The bets tab: four rounds of 1.00 EUR, each with its own win, newest first.
  await page.goto("/profile/bets")
  const rows = page
    .getByRole("table")
    .getByRole("row")
    .filter({ has: page.getByRole("cell") })
  await expect(rows).toHaveCount(KINDS.length)
  const newestFirst = [...played].reverse()
  for (const [index, round] of newestFirst.entries()) {
    const cells = rows.nth(index).getByRole("cell")
    // Each game played once: its round #1 in that game.
    await expect(cells.nth(0)).toHaveText(`${round.kind.name} #1`)
    await expect(cells.nth(2)).toHaveText("1.00 EUR")
    // The result in money words: "Lost 1.00 EUR" paid nothing; otherwise the first amount is the win.
    const words = await cells.nth(3).innerText()
    expect(words.startsWith("Lost ") ? 0n : centsIn(words)).toBe(round.win)
    if (round.win > 100n) expect(words).toMatch(/^Won /)
    else if (round.win > 0n) expect(words).toMatch(/^Returned /)
  }
  expect(centsIn(await balance(page).innerText())).toBe(expected)
  await world.screenshot(page, "games-kind-bets-tab")
})

for (const kind of KINDS) {
  test(`demo as a visitor: one ${kind.kind} round (${kind.name}) on the demo balance, nothing in the casino's wallet`, async ({
    page,
    world,
  }) => {
    const game = await openGame(page, kind, "Demo")
    // A visitor: no balance in the header, the studio plays its own demo wallet.
    await expect(banner(page).getByRole("button", { name: "Log in" })).toBeVisible()
    await expect(balance(page)).toHaveCount(0)
    const round = await playRound(game, kind, "2.00")
    expect(round.after).toBe(round.before - 200n + round.win)
    await world.screenshot(page, `games-kind-${kind.kind}-demo`)

    if (world.databaseUrl !== undefined) {
      // The studio keeps its tables in its own schema on the same PostgreSQL.
      const src = await page.locator(".game__frame").getAttribute("src")
      const sessionId = /\/studio\/play\/([^/?#]+)/.exec(src ?? "")?.[1]
      expect(sessionId).toBeDefined()
      const rounds = await world.sql<{ id: string; bet: string; win: string; demo: boolean }>(
        `SELECT r.id::text AS id, r.bet::text AS bet, r.win::text AS win, s.demo
           FROM game_studio.studio_rounds r JOIN game_studio.studio_sessions s ON s.id = r.session_id
          WHERE r.session_id = $1`,
        [decodeURIComponent(sessionId ?? "")],
      )
      expect(rounds).toHaveLength(1)
      expect(rounds[0]).toMatchObject({ bet: "200", win: String(round.win), demo: true })
      // The casino's wallet never heard of the round: no transaction, so nothing in the ledger.
      const seen = await world.sql<{ n: string }>(
        "SELECT count(*)::text AS n FROM game_transactions WHERE round_id = $1",
        [rounds[0]?.id ?? ""],
      )
      expect(seen[0]?.n).toBe("0")
    }
  })
}

for (const viewport of VIEWPORTS) {
  test(`each studio game kind at ${viewport.name} width (${viewport.width}×${viewport.height}): board, bet and play button in view`, async ({
    page,
    world,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height })
    for (const kind of [DICE, ...KINDS]) {
      const game = await openGame(page, kind, "Demo")
      // What a player needs for a round shows without scrolling inside the frame.
      await expect(game.getByRole("region", { name: "Game board" })).toBeInViewport()
      await expect(game.getByLabel(/^Bet \(EUR\)/)).toBeInViewport({ ratio: 1 })
      await expect(game.getByRole("button", { name: kind.button, exact: true })).toBeInViewport({ ratio: 1 })
      await world.screenshot(page, `games-kind-${kind.kind}-${viewport.name}`)
    }
  })
}

/** The video slot (KINDS' last). */
const SLOT: Kind = {
  kind: "slot",
  id: "aurora-vault",
  name: "Aurora Vault",
  arrange: async () => {},
  button: "Spin",
  outcome: /^(line \d+: |\d+ scatters pay|Nothing on the lines)/,
}

const autoStatus = (game: FrameLocator) => game.getByRole("status").filter({ hasText: /^Autoplay/ })

test("a slot's autoplay where it is allowed: five turbo spins stop by themselves, a loss limit stops before it is passed, Stop stops; the header and the bet history add up", async ({
  page,
  world,
}) => {
  test.setTimeout(240_000)
  await signedInPlayer(page, world)
  await page.goto("/")
  await depositThirtyByCard(page)
  await dismissToasts(page)
  const game = await openGame(page, SLOT, "Real money")
  await game.getByLabel(/^Bet \(EUR\)/).fill("1.00")
  const turbo = game.getByRole("button", { name: /^Turbo (on|off)$/ })
  await turbo.click()
  await expect(turbo).toHaveAttribute("aria-pressed", "true")
  await expect(turbo).toHaveText("Turbo on")

  // A loss limit below one bet: autoplay stops before the first spin, nothing is bet.
  await game.getByText("Autoplay", { exact: true }).click()
  await game.getByLabel("Spins (1–100)").fill("5")
  await game.getByLabel("Stop if the loss reaches (EUR)").fill("0.50")
  await game.getByRole("button", { name: "Start autoplay" }).click()
  await expect(autoStatus(game)).toHaveText(
    "Autoplay stopped: the next spin could take your loss past 0.50 EUR.",
  )
  await expect(game.getByText("No rounds yet in this session.")).toBeVisible()

  // Five spins with no limit: they play one after another and stop by themselves.
  await game.getByText("Autoplay", { exact: true }).click()
  await game.getByLabel("Stop if the loss reaches (EUR)").fill("")
  await game.getByRole("button", { name: "Start autoplay" }).click()
  await expect(game.getByRole("button", { name: "Spin", exact: true })).toBeDisabled()
  await expect(game.getByLabel(/^Bet \(EUR\)/)).toBeDisabled()
  await expect(autoStatus(game)).toHaveText("Autoplay stopped: all 5 spins played.", { timeout: 150_000 })
  await expect(game.getByRole("button", { name: "Stop autoplay" })).toBeHidden()
  await expect(game.getByRole("button", { name: "Spin", exact: true })).toBeEnabled()
  const rows = game
    .getByRole("table", { name: "Your last rounds, newest first" })
    .getByRole("row")
    .filter({ has: game.getByRole("cell") })
  await expect(rows).toHaveCount(5)
  // The casino settled exactly five rounds of 1.00 on this slot; the header is 30.00 − 5.00 + the wins.
  const history = (await betHistory(page, world)).filter((b) => b.gameId === SLOT.id)
  expect(history).toHaveLength(5)
  expect(history.every((b) => b.bet === "100" && b.status === "settled")).toBe(true)
  const wins = history.reduce((sum, b) => sum + BigInt(b.win), 0n)
  await expect.poll(async () => centsIn(await balance(page).innerText())).toBe(3000n - 500n + wins)
  await world.screenshot(page, "games-kind-slot-autoplay")

  // Stop: the spin under way finishes, no further one starts.
  await game.getByText("Autoplay", { exact: true }).click()
  await game.getByLabel("Spins (1–100)").fill("100")
  await game.getByRole("button", { name: "Start autoplay" }).click()
  await expect(autoStatus(game)).toHaveText(/^Autoplay: 1 of 100 spins played/, { timeout: 60_000 })
  await game.getByRole("button", { name: "Stop autoplay" }).click()
  await expect(autoStatus(game)).toHaveText("Autoplay stopped: you stopped it.", { timeout: 60_000 })
  const played = (await betHistory(page, world)).filter((b) => b.gameId === SLOT.id).length - 5
  expect(played).toBeGreaterThanOrEqual(1)
  expect(played).toBeLessThan(100)
})

test("a slot where the player's jurisdiction forbids autoplay and turbo (Great Britain): neither control, and rounds at least 2.5 s apart", async ({
  page,
  world,
}) => {
  test.skip(world.databaseUrl === undefined, "the player's country is set in the database")
  const email = await signedInPlayer(page, world)
  await world.sql("UPDATE users SET country = 'GB' WHERE email = $1", [email])
  const game = await openGame(page, SLOT, "Demo")
  await expect(
    game.getByText(
      "Autoplay and turbo are not offered where you play. Rounds here are at least 2.5 s apart.",
    ),
  ).toBeVisible()
  await expect(game.getByRole("button", { name: "Start autoplay" })).toHaveCount(0)
  await expect(game.getByRole("button", { name: /^Turbo/ })).toHaveCount(0)
  await playRound(game, SLOT, "1.00")
  await playRound(game, SLOT, "1.00")
  // The studio started the second round no sooner than 2.5 s after the first (its own clock).
  const src = await page.locator(".game__frame").getAttribute("src")
  const sessionId = decodeURIComponent(/\/studio\/play\/([^/?#]+)/.exec(src ?? "")?.[1] ?? "")
  const gap = await world.sql<{ ms: string }>(
    `SELECT (extract(epoch FROM max(created_at) - min(created_at)) * 1000)::bigint::text AS ms
       FROM game_studio.studio_rounds WHERE session_id = $1`,
    [sessionId],
  )
  expect(Number(gap[0]?.ms)).toBeGreaterThanOrEqual(2500)
})
