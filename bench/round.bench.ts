/**
 * A round in the browser, click → result drawn, for a real-money slot (Aurora Vault) and a
 * real-money dice game (Dice), in Debian's Chromium (headless) against the real stack:
 *
 *   npm run bench:round                              # 50 rounds of each, PGlite in a temp folder
 *   npm run bench:round -- --rounds=50 --warmup=5 --db=postgres
 *
 * The stack is started as the e2e tests start it (tests/e2e/global-setup.ts): a child process
 * running tests/e2e/support/serve.ts (compose/local.ts `startLocal`: the casino with every sandbox
 * party — the studio, the payment gateways, the chains, the on-ramp), on PGlite in a temporary
 * DATA_DIR or, with --db=postgres, a fresh PostgreSQL database (tests/support/databases.ts) dropped
 * at the end. A new player registers through the API (captcha solved), signs in from the page's
 * cookie jar and deposits 100 EUR by card through the deposit modal and the payment sandbox's card
 * page, as tests/e2e/games.spec.ts does with 30 EUR (support/deposit.ts). Bets are 0.10 EUR, the
 * games' minimum, so 100 EUR outlasts any run of losses.
 *
 * How a round is timed — inside the studio's page (the frame), never by the driver's polling:
 * - the start is the `click` event's own timeStamp on the play button (a capturing listener): when
 *   Chromium took the click in, before any of the page's handlers ran;
 * - the studio's script answers the round's POST in ONE callback: the button enabled again, the
 *   announcement (`role="status"`, "… — you win … / no win."), the board, the rounds table, the
 *   balance and the nonce. A MutationObserver on the document sees that callback's mutations at
 *   its microtask checkpoint: "result in DOM" is that performance.now();
 * - "drawn" is one animation frame later (requestAnimationFrame, then a task after it, i.e. after
 *   that frame's style, layout and paint): the figure reported as click → result drawn.
 * The POST /round fetch of the studio's page (resource timing: request start → response end; the
 * studio calls the casino's wallet inside it) is shown beside, so what dominates is visible.
 * Each round must announce a result, leave no error and advance the nonce by one; anything else
 * (an insufficient balance included) ends the run with exit code 1.
 *
 * The casino page's own HTTP requests during the counted rounds (any request to the casino's
 * origin but its server-sent event stream GET /api/events, by which the balance arrives) are
 * counted per game and listed by path: the goal is none per round. After each game the header's
 * balance must show the frame's (delivered by the event stream).
 *
 * Then the signed-in lobby is left alone (--idle-seconds, 60) and the page makes trips lobby →
 * account → lobby by the header's links (--tour-trips, 5), each with its requests listed: an idle
 * tab's rate per minute, and what moving between screens costs (data reused until stale).
 *
 * A measurement: it asserts nothing about speed. Load average is printed at the start and end.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { type Browser, chromium, type Frame, type Page, type Request } from "@playwright/test"
import { registerPlayer, solvedCaptcha } from "../tests/e2e/support/api.ts"
import {
  balance,
  chooseAmount,
  chooseMethod,
  completeCardProfile,
  payByCard,
  paymentDialog,
} from "../tests/e2e/support/deposit.ts"
import { expect } from "../tests/e2e/support/fixtures.ts"
import { dismissToasts } from "../tests/e2e/support/ui.ts"
import { createDatabase, seedPgliteDataDir, type TestDatabase } from "../tests/support/databases.ts"
import { freePort, nodeBinary, repoRoot } from "../tests/support/server.ts"
import { percentile } from "./pgbench.ts"

const numberFlag = (name: string, fallback: number): number => {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`))
  const value = arg === undefined ? fallback : Number(arg.slice(name.length + 3))
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`)
  return value
}
const textFlag = (name: string, fallback: string): string =>
  process.argv
    .slice(2)
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3) ?? fallback

const ROUNDS = numberFlag("rounds", 50)
const WARMUP = numberFlag("warmup", 5)
/** How long the signed-in lobby is left alone while its requests are counted (0: not measured). */
const IDLE_SECONDS = numberFlag("idle-seconds", 60)
/** Rounds trips lobby → account → lobby by the header's links, their requests counted. */
const TOUR_TRIPS = numberFlag("tour-trips", 5)
const DB = textFlag("db", "pglite")
if (DB !== "pglite" && DB !== "postgres") throw new Error(`--db=${DB}: expected pglite or postgres`)
const BET = "0.10"
const DEPOSIT = 100
/** The casino's server-sent event stream (server/events/http.ts EVENTS_PATH): not a round's cost. */
const EVENTS_PATH = "/api/events"
/** The studio's announcement of a settled round (as tests/e2e/games.spec.ts reads it). */
const ROUND_RESULT = / — (you win \d+\.\d{2} EUR \([\d.]+×\)|no win)\./

interface Game {
  readonly kind: string
  readonly id: string
  readonly name: string
  readonly button: string
}

const GAMES: ReadonlyArray<Game> = [
  { kind: "slot", id: "aurora-vault", name: "Aurora Vault", button: "Spin" },
  { kind: "dice", id: "dice-classic", name: "Dice", button: "Roll" },
]

// ── The stack, as the e2e global setup starts it ──

interface Stack {
  readonly baseUrl: string
  readonly stop: () => Promise<void>
  /** The stack's output so far (the last 256 KiB), for failure messages. */
  readonly output: () => string
}

const startStack = async (dataDir: string, outboxDir: string, databaseUrl: string | undefined) => {
  const port = await freePort()
  const env: Record<string, string> = {
    ...Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    // The e2e server's settings (tests/e2e/global-setup.ts), so the stack is the one the tests drive.
    NODE_ENV: "test",
    PORT: String(port),
    SANDBOX_PORTS: "auto",
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    TRUST_PROXY: "true",
    CAPTCHA: "on",
    CAPTCHA_COST: "10",
    MAIL_OUTBOX_DIR: outboxDir,
    RATE_LIMIT_SCALE: "1000",
    LOG_LEVEL: "Info",
    CHAIN_SANDBOX_BLOCK_SECONDS: "0",
  }
  if (databaseUrl !== undefined) env.DATABASE_URL = databaseUrl
  else delete env.DATABASE_URL
  const child: ChildProcess = spawn(nodeBinary, [join(repoRoot, "tests/e2e/support/serve.ts")], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  })
  let log = ""
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-256 * 1024)
  }
  child.stdout?.on("data", keep)
  child.stderr?.on("data", keep)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    // serve.ts closes the casino, then the parties (anvil included) on SIGTERM.
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000)
    child.kill("SIGTERM")
    await exited
    clearTimeout(timer)
  }
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the stack did not start within 180 s")), 180_000)
      child.stdout?.on("data", () => {
        const match = /E2E_SERVER_READY (\S+)/.exec(log)
        if (match?.[1] !== undefined) {
          clearTimeout(timer)
          resolve(match[1])
        }
      })
      child.once("exit", (code, signal) => {
        clearTimeout(timer)
        reject(new Error(`the stack exited (code ${String(code)}, signal ${String(signal)})`))
      })
    })
    return { baseUrl, stop, output: () => log } satisfies Stack
  } catch (error) {
    await stop()
    throw new Error(`${String(error)}\n${log.slice(-4000)}`)
  }
}

// ── The probe inside the studio's page ──

interface RoundSample {
  readonly domMs: number
  readonly drawnMs: number
  /** The POST /round fetch, request start → response end (NaN when no entry was found). */
  readonly fetchMs: number
  readonly text: string
  readonly nonce: string
  readonly balance: string
}

interface Probe {
  /** Readies `done` for the next click on the play button. */
  readonly arm: () => void
  done: Promise<RoundSample> | undefined
}

type ProbeWindow = Window & { __roundProbe?: Probe }

/** Runs IN the frame (serialized by Playwright: self-contained, no closure over this module). */
const installProbe = (pattern: string): void => {
  const w: ProbeWindow = window
  const byId = (id: string): HTMLElement => {
    const element = document.getElementById(id)
    if (element === null) throw new Error(`#${id} is missing from the studio's page`)
    return element
  }
  const play = byId("play")
  const result = byId("result")
  const money = byId("balance")
  const nonce = byId("nonce")
  if (!(play instanceof HTMLButtonElement)) throw new Error("#play is not a button")
  const announced = new RegExp(pattern)
  let clickAt: number | null = null
  let settle: ((sample: RoundSample) => void) | null = null
  let fail: ((error: Error) => void) | null = null
  // Capturing: runs before the form's submit handler (the click's default action).
  document.addEventListener(
    "click",
    (event) => {
      if (settle !== null && event.target instanceof Node && play.contains(event.target))
        clickAt = event.timeStamp
    },
    true,
  )
  new MutationObserver(() => {
    // While the round is in flight the button is disabled ("…" announced): not the result yet.
    if (clickAt === null || play.disabled) return
    const domAt = performance.now()
    const startedAt = clickAt
    const ok = settle
    const ko = fail
    clickAt = null
    settle = null
    fail = null
    const text = result.textContent ?? ""
    if (result.classList.contains("error") || !announced.test(text)) {
      ko?.(new Error(`the round did not settle: ${JSON.stringify(text)}`))
      return
    }
    // The next frame's rendering, then a task after it: the result has been drawn.
    requestAnimationFrame(() =>
      setTimeout(() => {
        const drawnAt = performance.now()
        const fetches = performance
          .getEntriesByType("resource")
          .filter((entry) => entry.name.endsWith("/round"))
        const last = fetches.at(-1)
        performance.clearResourceTimings()
        const fetchMs =
          last instanceof PerformanceResourceTiming ? last.responseEnd - last.startTime : Number.NaN
        ok?.({
          domMs: domAt - startedAt,
          drawnMs: drawnAt - startedAt,
          fetchMs,
          text,
          nonce: nonce.textContent ?? "",
          balance: money.textContent ?? "",
        })
      }, 0),
    )
  }).observe(document.body, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ["disabled"],
  })
  const probe: Probe = {
    arm: () => {
      probe.done = new Promise<RoundSample>((resolve, reject) => {
        settle = resolve
        fail = reject
      })
    },
    done: undefined,
  }
  w.__roundProbe = probe
}

// ── The player, the game page, the rounds ──

/** A registered, signed-in EUR player with DEPOSIT EUR from a card deposit; the header shows it. */
const playerWithMoney = async (page: Page, baseUrl: string): Promise<void> => {
  const email = `bench-round-${Date.now()}-${process.pid}@example.com`
  const password = "compiler cobol 1959"
  await registerPlayer(baseUrl, { email, password, fullName: "Grace Hopper", currency: "EUR" })
  const response = await page.request.post(`${baseUrl}/user-service/api/v1/signin`, {
    data: { email, password, captcha: await solvedCaptcha(baseUrl) },
    headers: { origin: baseUrl },
  })
  if (response.status() !== 200) throw new Error(`sign-in: HTTP ${response.status()}`)
  await page.goto("/")
  await expect(balance(page)).toContainText("0.00")
  // support/deposit.ts's depositThirtyByCard, with the 100 EUR quick amount.
  const dialog = await chooseAmount(page, undefined, DEPOSIT)
  await chooseMethod(dialog, "Card")
  await completeCardProfile(page, undefined)
  await expect(paymentDialog(page)).toBeVisible({ timeout: 20_000 })
  await payByCard(page, undefined, "4242 4242 4242 4242")
  await expect(paymentDialog(page)).toHaveCount(0, { timeout: 20_000 })
  await expect(balance(page)).toContainText(`${DEPOSIT}.00`, { timeout: 10_000 })
  await dismissToasts(page)
}

/** /game/{id} in real-money mode, the studio's page loaded with its balance and the probe in it. */
const openGame = async (page: Page, game: Game): Promise<Frame> => {
  await page.goto(`/game/${game.id}`)
  await expect(page.getByRole("heading", { level: 1, name: game.name })).toBeVisible()
  const realMoney = page.getByRole("button", { name: "Real money" })
  if ((await realMoney.getAttribute("aria-pressed")) !== "true") await realMoney.click()
  await expect(realMoney).toHaveAttribute("aria-pressed", "true")
  const studio = page.frameLocator(".game__frame")
  await expect(studio.getByRole("heading", { level: 1 })).toContainText(game.name)
  await expect(studio.getByRole("heading", { level: 1 })).not.toContainText("DEMO")
  await expect(studio.getByText(/^Balance: \d+\.\d{2} EUR$/)).toBeVisible()
  await studio.getByLabel("Bet (EUR)").fill(BET)
  const frame = await (await page.locator(".game__frame").elementHandle())?.contentFrame()
  if (frame === null || frame === undefined) throw new Error(`${game.name}: no frame`)
  await frame.evaluate(installProbe, ROUND_RESULT.source)
  return frame
}

const withTimeout = <A>(promise: Promise<A>, ms: number, what: string): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })

/** One round: armed, clicked as a player clicks, timed by the probe; the nonce must advance by one. */
const playRound = async (page: Page, frame: Frame, game: Game): Promise<RoundSample> => {
  // textContent, not innerText: #nonce sits in the closed "Fairness" panel, not rendered, so its
  // innerText is "" (and Number("") is 0).
  const before = Number(await frame.locator("#nonce").textContent())
  if (!Number.isInteger(before)) throw new Error(`${game.name}: no nonce before the round`)
  await frame.evaluate(() => (window as ProbeWindow).__roundProbe?.arm())
  await page.frameLocator(".game__frame").getByRole("button", { name: game.button, exact: true }).click()
  const sample = await withTimeout(
    frame.evaluate(() => {
      const done = (window as ProbeWindow).__roundProbe?.done
      if (done === undefined) throw new Error("the probe is not armed")
      return done
    }),
    30_000,
    game.name,
  )
  if (Number(sample.nonce) !== before + 1)
    throw new Error(`${game.name}: nonce ${sample.nonce} after ${before}, expected ${before + 1}`)
  return sample
}

interface GameResult {
  readonly game: Game
  readonly samples: ReadonlyArray<RoundSample>
  readonly requests: ReadonlyMap<string, number>
  readonly streamConnections: number
}

const runGame = async (page: Page, casinoOrigin: string, game: Game): Promise<GameResult> => {
  const frame = await openGame(page, game)
  for (let i = 0; i < WARMUP; i++) await playRound(page, frame, game)
  const requests = new Map<string, number>()
  let streamConnections = 0
  const onRequest = (request: Request) => {
    const url = new URL(request.url())
    if (url.origin !== casinoOrigin) return
    if (request.method() === "GET" && url.pathname === EVENTS_PATH) {
      streamConnections++
      return
    }
    const key = `${request.method()} ${url.pathname}`
    requests.set(key, (requests.get(key) ?? 0) + 1)
  }
  page.on("request", onRequest)
  const samples: Array<RoundSample> = []
  try {
    for (let i = 0; i < ROUNDS; i++) samples.push(await playRound(page, frame, game))
  } finally {
    page.off("request", onRequest)
  }
  // The header follows by the event stream alone: the frame's last balance, to the cent.
  const last = samples.at(-1)
  const amount = /\d+\.\d{2}/.exec(last?.balance ?? "")?.[0]
  if (amount !== undefined) await expect(balance(page)).toContainText(amount, { timeout: 10_000 })
  return { game, samples, requests, streamConnections }
}

// ── Report ──

const ms = (value: number): string => (Number.isNaN(value) ? "—" : value.toFixed(1))
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")

const report = (results: ReadonlyArray<GameResult>, loadAtStart: string, database: string): void => {
  console.log(
    `\nA round in the browser, click → result drawn (Chromium headless, ${database}, real money, ` +
      `bet ${BET} EUR, ${WARMUP} warm-up rounds not counted)\n`,
  )
  const widths = [20, 8, 9, 9, 9, 13, 14, 19]
  const row = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("")
  console.log(
    row(["game", "rounds", "p50 ms", "p95 ms", "max ms", "DOM p50 ms", "POST p50 ms", "casino req/round"]),
  )
  for (const r of results) {
    const sorted = (pick: (s: RoundSample) => number) =>
      r.samples
        .map(pick)
        .filter((v) => !Number.isNaN(v))
        .sort((a, b) => a - b)
    const drawn = sorted((s) => s.drawnMs)
    const total = [...r.requests.values()].reduce((a, b) => a + b, 0)
    console.log(
      row([
        `${r.game.kind} (${r.game.name})`,
        String(r.samples.length),
        ms(percentile(drawn, 50)),
        ms(percentile(drawn, 95)),
        ms(drawn.at(-1) ?? Number.NaN),
        ms(
          percentile(
            sorted((s) => s.domMs),
            50,
          ),
        ),
        ms(
          percentile(
            sorted((s) => s.fetchMs),
            50,
          ),
        ),
        (total / Math.max(1, r.samples.length)).toFixed(2),
      ]),
    )
  }
  console.log(
    "\n  p50/p95/max: click event → one frame after the result is in the DOM (drawn);" +
      "\n  DOM: click → the round's mutations; POST: the studio page's POST /round (request → response end).",
  )
  console.log(
    `\nCasino requests from the page during the counted rounds (casino origin, but GET ${EVENTS_PATH}):`,
  )
  for (const r of results) {
    const paths = [...r.requests.entries()].sort((a, b) => b[1] - a[1])
    console.log(
      `  ${r.game.kind}: ${paths.length === 0 ? "none" : ""}` +
        `${r.streamConnections > 0 ? ` (${r.streamConnections} event stream (re)connection(s))` : ""}`,
    )
    for (const [path, count] of paths) console.log(`    ${String(count).padStart(5)}  ${path}`)
  }
  console.log(`\nLoad average (1, 5, 15 min): at start ${loadAtStart}; at end ${load()}`)
}

/** Counts the casino page's requests (its origin, but the event stream) while `during` runs. */
const NOT_SENT = "  (Chromium's cache: not sent)"

/**
 * The page's requests to the casino during `during` (the event stream aside), by method and path;
 * those Chromium answered from its own cache (no byte sent to the server) are listed apart.
 */
const countRequests = async (
  page: Page,
  casinoOrigin: string,
  during: () => Promise<void>,
): Promise<ReadonlyMap<string, number>> => {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("Network.enable")
  const keys = new Map<string, string>()
  const cached = new Set<string>()
  cdp.on("Network.requestWillBeSent", (event) => {
    const url = new URL(event.request.url)
    if (url.origin !== casinoOrigin || (event.request.method === "GET" && url.pathname === EVENTS_PATH))
      return
    keys.set(event.requestId, `${event.request.method} ${url.pathname}`)
  })
  cdp.on("Network.requestServedFromCache", (event) => void cached.add(event.requestId))
  cdp.on("Network.responseReceived", (event) => {
    if (event.response.fromDiskCache === true || event.response.fromPrefetchCache === true)
      cached.add(event.requestId)
  })
  try {
    await during()
  } finally {
    await cdp.detach()
  }
  const requests = new Map<string, number>()
  for (const [id, path] of keys) {
    const key = cached.has(id) ? `${path}${NOT_SENT}` : path
    requests.set(key, (requests.get(key) ?? 0) + 1)
  }
  return requests
}

const printRequests = (title: string, requests: ReadonlyMap<string, number>) => {
  const paths = [...requests.entries()].sort((a, b) => b[1] - a[1])
  console.log(`${title}: ${paths.length === 0 ? "none" : ""}`)
  for (const [path, count] of paths) console.log(`    ${String(count).padStart(5)}  ${path}`)
}

/** An idle signed-in lobby, then trips between the lobby and the account by the header's links. */
const idleAndTour = async (page: Page, casinoOrigin: string) => {
  await page.goto("/")
  await expect(page.getByRole("link", { name: /Your account/ })).toBeVisible()
  // The first screen's own loads and the idle-time prefetches are not the idle tab's: let them end.
  await page.waitForLoadState("networkidle")
  await page.waitForTimeout(5_000)
  if (IDLE_SECONDS > 0) {
    const idle = await countRequests(page, casinoOrigin, () => page.waitForTimeout(IDLE_SECONDS * 1000))
    const total = [...idle.entries()]
      .filter(([key]) => !key.endsWith(NOT_SENT))
      .reduce((a, [, count]) => a + count, 0)
    printRequests(
      `\nAn idle signed-in lobby, ${IDLE_SECONDS} s: ${((total * 60) / IDLE_SECONDS).toFixed(1)} requests a minute besides the event stream`,
      idle,
    )
  }
  if (TOUR_TRIPS > 0) {
    const tour = await countRequests(page, casinoOrigin, async () => {
      for (let i = 0; i < TOUR_TRIPS; i++) {
        await page.getByRole("link", { name: /Your account/ }).click()
        await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible()
        await page.getByRole("link", { name: "Casino" }).first().click()
        await expect(page).toHaveURL(/\/$/)
      }
    })
    printRequests(`\n${TOUR_TRIPS} trips lobby → account → lobby by the header's links`, tour)
  }
}

// ── Main ──

const main = async (): Promise<number> => {
  const loadAtStart = load()
  // The casino serves the built app (as in the e2e tests): built once when missing.
  if (!existsSync(join(repoRoot, "dist/app/index.html"))) {
    execFileSync(nodeBinary, [join(repoRoot, "node_modules/vite/bin/vite.js"), "build"], {
      cwd: repoRoot,
      stdio: "inherit",
    })
  }
  const workDir = mkdtempSync(join(tmpdir(), "casino-bench-round-"))
  const dataDir = join(workDir, "data")
  let database: TestDatabase | undefined
  let stack: Stack | undefined
  let browser: Browser | undefined
  try {
    if (DB === "postgres") database = await createDatabase("casino_bench_round")
    // An initialised PGlite copied in place of initdb in WASM (seconds saved, same empty database).
    else await seedPgliteDataDir(dataDir)
    const outboxDir = join(workDir, "outbox")
    mkdirSync(outboxDir, { recursive: true })
    stack = await startStack(dataDir, outboxDir, database?.url)
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    })
    const context = await browser.newContext({
      baseURL: stack.baseUrl,
      viewport: { width: 1280, height: 800 },
    })
    const page = await context.newPage()
    await playerWithMoney(page, stack.baseUrl)
    const results: Array<GameResult> = []
    for (const game of GAMES) results.push(await runGame(page, new URL(stack.baseUrl).origin, game))
    report(results, loadAtStart, database === undefined ? "PGlite" : `PostgreSQL ${database.name}`)
    await idleAndTour(page, new URL(stack.baseUrl).origin)
    return 0
  } catch (error) {
    console.error(
      `bench:round failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    )
    if (stack !== undefined) console.error(`\nThe stack's last output:\n${stack.output().slice(-4000)}`)
    return 1
  } finally {
    await browser?.close().catch(() => undefined)
    await stack?.stop().catch(() => undefined)
    await database
      ?.drop()
      .catch((error: unknown) => console.error(`dropping ${database?.name}: ${String(error)}`))
    rmSync(workDir, { recursive: true, force: true })
  }
}

// Exit explicitly: a driver or database handle left open must not keep a finished run alive.
process.exit(await main())
