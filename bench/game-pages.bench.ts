/**
 * The studio's game pages in Debian's Chromium (`npm run bench:game-pages`): for the first title of
 * each kind, a demo session launched on a studio of its own (PGlite, a fake casino wallet: demo
 * play never calls it), opened at 1280×800 with an empty cache, then:
 *
 * - the page's weight: the document as sent (its inline style and script are all its code; the
 *   studio serves no other asset) raw and gzip;
 * - time to first frame: the navigation's start to the first contentful paint (the board drawn);
 * - a round's animation: from the click on the play button until the board says `settled` (mines:
 *   Bet, one tile, Cash out — three calls, so its figure includes two round trips), every
 *   frame's interval is recorded with requestAnimationFrame; a frame is dropped for each 16.7 ms
 *   beyond the first in an interval (60 Hz), so a 50 ms gap counts 2.
 *
 * Median of RUNS runs (default 3) per kind; written to test-results/game-pages.json. A measurement,
 * never an assertion. Crash is multiplayer (its animation runs with the shared round): only its
 * weight and first frame are measured.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { chromium, type Page } from "@playwright/test"
import { catalogue, type GameKind } from "../services/games/catalogue.ts"
import { startStudio } from "../tests/server/game-studio-harness.ts"

const root = fileURLToPath(new URL("..", import.meta.url))
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const KINDS: ReadonlyArray<GameKind> = ["dice", "plinko", "mines", "roulette", "slot", "crash"]

interface Sample {
  readonly firstFrameMs: number
  readonly roundMs: number | null
  readonly frames: number | null
  readonly dropped: number | null
}

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? Number.NaN
}

/** Records rAF intervals from now until the board is `settled`; resolves with them. */
const recordRound = async (
  page: Page,
  kind: GameKind,
): Promise<{ readonly ms: number; readonly intervals: Array<number> }> => {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: Array<number>; __recording: boolean }
    w.__frames = []
    w.__recording = true
    const tick = (t: number) => {
      w.__frames.push(t)
      if (w.__recording) requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
  const started = Date.now()
  await page.locator("#play").click()
  if (kind === "mines") {
    // Tile by tile: Bet, one tile, then the cash-out the button offers (unless that tile was a mine).
    await page.locator('#board[data-state="running"]').waitFor()
    await page.getByRole("button", { name: "Tile 3-3", exact: true }).click()
    const opened = page.getByRole("button", { name: /^Tile 3-3, (gem|mine)$/ })
    if ((await opened.getAttribute("aria-label")) === "Tile 3-3, gem")
      await page.getByRole("button", { name: /^Cash out \d/ }).click()
  }
  await page.locator('#board[data-state="settled"]').waitFor({ timeout: 30_000 })
  const ms = Date.now() - started
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: Array<number>; __recording: boolean }
    w.__recording = false
    return w.__frames
  })
  const intervals = frames.slice(1).map((t, i) => t - (frames[i] ?? t))
  return { ms, intervals }
}

const studio = await startStudio("pglite")
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-dev-shm-usage"],
})
const rows: Array<{ kind: GameKind; game: string; rawBytes: number; gzipBytes: number } & Sample> = []
try {
  for (const kind of KINDS) {
    const def = catalogue.find((g) => g.kind === kind)
    if (def === undefined) continue
    const samples: Array<Sample> = []
    let rawBytes = 0
    let gzipBytes = 0
    for (let run = 0; run < RUNS; run++) {
      const launched = await studio.launch({
        sessionToken: null,
        playerId: null,
        nickname: null,
        currency: "EUR",
        gameId: def.id,
        demo: true,
        lang: "en",
        platform: "desktop",
        lobbyUrl: null,
      })
      const { url } = (await launched.json()) as { url: string }
      const html = await (await fetch(url)).text()
      rawBytes = Buffer.byteLength(html)
      gzipBytes = gzipSync(html, { level: 9 }).length
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      const page = await context.newPage()
      await page.goto(url)
      await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0)
      const firstFrameMs = await page.evaluate(
        () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
      )
      if (kind === "crash") {
        samples.push({ firstFrameMs, roundMs: null, frames: null, dropped: null })
      } else {
        await page.locator('#board[data-state="idle"], #board:not([data-state])').first().waitFor()
        const { ms, intervals } = await recordRound(page, kind)
        const dropped = intervals.reduce((n, d) => n + Math.max(0, Math.round(d / (1000 / 60)) - 1), 0)
        samples.push({ firstFrameMs, roundMs: ms, frames: intervals.length, dropped })
      }
      await context.close()
    }
    const pick = (f: (s: Sample) => number | null): number | null => {
      const xs = samples.map(f).filter((x): x is number => x !== null)
      return xs.length === 0 ? null : median(xs)
    }
    rows.push({
      kind,
      game: def.id,
      rawBytes,
      gzipBytes,
      firstFrameMs: pick((s) => s.firstFrameMs) ?? Number.NaN,
      roundMs: pick((s) => s.roundMs),
      frames: pick((s) => s.frames),
      dropped: pick((s) => s.dropped),
    })
  }
} finally {
  await browser.close()
  await studio.close()
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`
const cell = (n: number | null, unit = "") => (n === null ? "—" : `${Math.round(n)}${unit}`)
console.log(`\nStudio game pages in Chromium, 1280×800, cold (median of ${RUNS})\n`)
console.log(
  `${"kind".padEnd(9)}${"game".padEnd(20)}${"page".padStart(10)}${"gzip".padStart(10)}${"1st frame".padStart(11)}${"round".padStart(9)}${"frames".padStart(8)}${"dropped".padStart(9)}`,
)
for (const r of rows)
  console.log(
    `${r.kind.padEnd(9)}${r.game.padEnd(20)}${kib(r.rawBytes).padStart(10)}${kib(r.gzipBytes).padStart(10)}${cell(r.firstFrameMs, " ms").padStart(11)}${cell(r.roundMs, " ms").padStart(9)}${cell(r.frames).padStart(8)}${cell(r.dropped).padStart(9)}`,
  )
mkdirSync(join(root, "test-results"), { recursive: true })
writeFileSync(join(root, "test-results/game-pages.json"), JSON.stringify({ runs: RUNS, rows }, null, 2))
console.log("\nWritten: test-results/game-pages.json")
process.exit(0)
