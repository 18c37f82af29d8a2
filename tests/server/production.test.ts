/**
 * Production refuses test parts. Each setting is checked where it is decided — the configuration
 * the entry points load (`loadConfig`), and the sandbox switches of the composition root
 * (`sandboxOn`) — with a configuration that is fine but for that one part: refused with one line
 * saying what to set. The REAL entry points, each in its own process with NODE_ENV=production, show
 * the wiring: the casino alone (`node server/main.ts`) and what `npm start` runs (`node
 * compose/start.ts`) exit 2 with that line for a refused part, and get past the configuration (to
 * the unreachable database, exit 1) with nothing wrong. What an operator may really want (an open
 * back office, the embedded database) is an explicit value that the start banner repeats, beside
 * the warning of a back office on the player app's origin and a /metrics nobody may read.
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parties, sandboxOn } from "../../compose/local.ts"
import { ConfigError, loadConfig } from "../../server/config.ts"
import { nodeBinary, repoRoot } from "../support/server.ts"
import { startTestServer } from "./harness.ts"

let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "casino-production-"))
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))

/** A production configuration with nothing wrong (the database is never reached: it refuses first). */
const production = (): Record<string, string> => ({
  NODE_ENV: "production",
  PORT: "0",
  DATA_DIR: dataDir,
  DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
  PUBLIC_URL: "https://casino.example",
  BACKOFFICE_ALLOW: "203.0.113.0/24",
  SMTP_URL: "smtp://mailer:secret@mail.casino.example:587",
  CAPTCHA_SECRET: "c".repeat(40),
  OPERATOR_SECRETS: JSON.stringify({ ana: "a".repeat(40) }),
  BACKOFFICE_TOTP_KEY: "b".repeat(40),
  SANDBOX_PAYMENTS: "off",
  CHAIN_SANDBOX: "off",
  ONRAMP_SANDBOX: "off",
  STUDIO: "off",
})

const start = (entry: string, env: Record<string, string | undefined>) => {
  const clean = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined),
  )
  const result = spawnSync(nodeBinary, [join(repoRoot, entry)], {
    env: { PATH: process.env.PATH ?? "", ...clean },
    encoding: "utf8",
    timeout: 60_000,
  })
  return { code: result.status, stderr: result.stderr }
}

const gateway = (apiKey: string) =>
  JSON.stringify([
    {
      code: "paystudio",
      family: "hosted-card",
      baseUrl: "https://pay.example",
      merchantId: "m1",
      apiKey,
      webhookSecret: "w".repeat(32),
    },
  ])

const cases: ReadonlyArray<readonly [string, Record<string, string | undefined>, RegExp]> = [
  ["PUBLIC_URL missing", { PUBLIC_URL: undefined }, /PUBLIC_URL is not set/],
  ["CAPTCHA=off", { CAPTCHA: "off" }, /CAPTCHA=off: set CAPTCHA=on/],
  ["a captcha secret it would invent", { CAPTCHA_SECRET: undefined }, /CAPTCHA_SECRET is not set/],
  ["an operator secret it would invent", { OPERATOR_SECRETS: undefined }, /OPERATOR_SECRETS is not set/],
  [
    "a back-office TOTP key it would invent",
    { BACKOFFICE_TOTP_KEY: undefined },
    /BACKOFFICE_TOTP_KEY is not set: set a random key of 32\+ characters/,
  ],
  [
    "a payment gateway's test key",
    { PAYMENT_GATEWAYS: gateway(`test_${"k".repeat(40)}`) },
    /PAYMENT_GATEWAYS: gateway paystudio has a sandbox's test key/,
  ],
  [
    "a game provider's test key",
    {
      GAME_PROVIDERS: JSON.stringify([
        {
          code: "acme",
          launchUrl: "https://games.example/api/launch",
          casinoKey: `test_${"k".repeat(40)}`,
          walletSecret: "w".repeat(40),
        },
      ]),
    },
    /GAME_PROVIDERS: provider acme has a sandbox's test key/,
  ],
  [
    "RATE_LIMIT_SCALE above 1",
    { RATE_LIMIT_SCALE: "1000" },
    /RATE_LIMIT_SCALE=1000 multiplies every rate limit \(the back office's second-factor guesses too\): remove it, or set 1/,
  ],
  [
    "COOKIE_SECURE=false",
    { COOKIE_SECURE: "false" },
    /COOKIE_SECURE=false: remove it \(production's default is true\) or set COOKIE_SECURE=true/,
  ],
  [
    "a plain-http PUBLIC_URL",
    { PUBLIC_URL: "http://casino.example" },
    /PUBLIC_URL=http:\/\/casino\.example is plain http: set the casino's https address/,
  ],
  [
    "an empty BACKOFFICE_ALLOW",
    { BACKOFFICE_ALLOW: "" },
    /BACKOFFICE_ALLOW is not set: list the addresses or networks the team reaches the back office from \(e\.g\. 203\.0\.113\.0\/24\), or set BACKOFFICE_ALLOW=any/,
  ],
  [
    "no SMTP_URL",
    { SMTP_URL: undefined },
    /SMTP_URL is not set: set the SMTP server that sends the casino's mail/,
  ],
  [
    "no DATABASE_URL",
    { DATABASE_URL: undefined },
    /DATABASE_URL is not set: set the PostgreSQL URL \(postgres:\/\/…\), or DATABASE_URL=embedded/,
  ],
  [
    "a plain-http BACKOFFICE_URL",
    { BACKOFFICE_URL: "http://admin.casino.example" },
    /BACKOFFICE_URL=http:\/\/admin\.casino\.example is plain http: set the back office's https address/,
  ],
]

/** The configuration error `env` gets, or "" when it loads. */
const refusalOf = (env: Record<string, string | undefined>): string => {
  try {
    loadConfig(env)
    return ""
  } catch (error) {
    if (error instanceof ConfigError) return error.message
    throw error
  }
}

const SANDBOXES = ["SANDBOX_PAYMENTS", "CHAIN_SANDBOX", "ONRAMP_SANDBOX", "STUDIO"] as const

describe("production refuses test parts", () => {
  it("loads a configuration with nothing wrong (the refusals below are each one part)", () => {
    expect(refusalOf(production())).toBe("")
  })

  for (const [what, change, line] of cases) {
    it(`the configuration refuses ${what}`, () => {
      expect(refusalOf({ ...production(), ...change })).toMatch(line)
    })
  }

  it("takes the explicit opt-in BACKOFFICE_ALLOW=any (an open back office, chosen)", () => {
    expect(refusalOf({ ...production(), BACKOFFICE_ALLOW: "any" })).toBe("")
  })

  for (const sandbox of SANDBOXES) {
    it(`npm start refuses ${sandbox}=on`, () => {
      const party = parties.find((p) => p.switch === sandbox)
      expect(party).toBeDefined()
      if (party === undefined) return
      expect(() => sandboxOn({ ...production(), [sandbox]: "on" }, party)).toThrow(
        `${sandbox}=on is not allowed with NODE_ENV=production`,
      )
    })
  }

  it("npm start turns every sandbox off by default in production", () => {
    const env = production()
    for (const sandbox of SANDBOXES) delete env[sandbox]
    const on = Object.fromEntries(parties.map((p) => [p.switch, sandboxOn(env, p)]))
    expect(on).toEqual(Object.fromEntries(SANDBOXES.map((s) => [s, false])))
  })

  describe("the entry points, each in a process of its own", () => {
    it("the casino gets past the configuration with nothing wrong (to the database: exit 1)", () => {
      const { code, stderr } = start("server/main.ts", production())
      expect(stderr).not.toMatch(/configuration error/)
      expect(code).toBe(1)
    })

    it("the casino exits 2 for a refused part, with its line", () => {
      const { code, stderr } = start("server/main.ts", { ...production(), COOKIE_SECURE: "false" })
      expect(code).toBe(2)
      expect(stderr).toMatch(/COOKIE_SECURE=false: remove it \(production's default is true\)/)
    })

    it("npm start exits 2 for a sandbox switched on, with its line", () => {
      const { code, stderr } = start("compose/start.ts", { ...production(), STUDIO: "on" })
      expect(code).toBe(2)
      expect(stderr).toContain("STUDIO=on is not allowed with NODE_ENV=production")
    })

    it("npm start gets past the configuration with every sandbox off by default (exit 1)", () => {
      const env = production()
      for (const sandbox of SANDBOXES) delete env[sandbox]
      const { code, stderr } = start("compose/start.ts", env)
      expect(stderr).not.toMatch(/configuration error/)
      expect(code).toBe(1)
    })
  })
})

/**
 * Starts `entry` and returns what it printed up to its "listening on" line (the banner's notes come
 * before it), then stops it with SIGTERM.
 */
const banner = (entry: string, env: Record<string, string>): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(nodeBinary, [join(repoRoot, entry)], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000)
    const collect = (chunk: Buffer) => {
      output += chunk.toString("utf8")
      if (/casino: listening on /.test(output)) child.kill("SIGTERM")
    }
    child.stdout.on("data", collect)
    child.stderr.on("data", collect)
    child.once("error", reject)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve(output)
    })
  })

describe("the start banner repeats what production was told to accept", () => {
  /** Production on the embedded database, which it starts on (no PostgreSQL to reach). */
  const embedded = (): Record<string, string> => ({
    ...production(),
    DATABASE_URL: "embedded",
    BACKOFFICE_ALLOW: "any",
    HOST: "127.0.0.1",
  })

  it("the casino: both opt-ins, and the warning of a back office on the player app's origin", async () => {
    const out = await banner("server/main.ts", embedded())
    expect(out).toMatch(
      /casino: listening on http:\/\/127\.0\.0\.1:\d+ \(public URL https:\/\/casino\.example, database: embedded PGlite in /,
    )
    expect(out).toContain(
      "casino: DATABASE_URL=embedded: the embedded PGlite database, chosen (one process on one machine; no PostgreSQL)",
    )
    expect(out).toContain("casino: BACKOFFICE_ALLOW=any: the back office is open to every address, chosen")
    // Production's default: nobody may read /metrics, which is said, not refused.
    expect(out).toContain(
      "casino: METRICS_ALLOW is empty: GET /metrics answers nobody (404); list the addresses or networks of your Prometheus server to read it",
    )
    expect(out).toContain(
      "casino: WARNING: the back office shares the player app's origin (BACKOFFICE_URL is not set): a script on a player page could call /api/backoffice with a signed-in operator's cookie; give it a host of its own (docs/backoffice.md)",
    )
  }, 180_000)

  it("npm start: the back office on its own host, no warning", async () => {
    const out = await banner("compose/start.ts", {
      ...embedded(),
      BACKOFFICE_URL: "https://admin.casino.example",
      METRICS_ALLOW: "10.20.0.0/16",
    })
    expect(out).toMatch(/casino: listening on /)
    expect(out).toContain("casino: the back office: https://admin.casino.example/backoffice/")
    expect(out).toContain("casino: BACKOFFICE_ALLOW=any: the back office is open to every address, chosen")
    expect(out).not.toMatch(/WARNING/)
    expect(out).not.toMatch(/METRICS_ALLOW/)
  }, 180_000)
})

describe("the mode is impossible to miss", () => {
  const health = async (url: string) => {
    const res = await fetch(`${url}/health`)
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }

  it("/health says local sandbox mode when a sandbox's test keys are configured", async () => {
    const server = await startTestServer({}, { parties: ["payments"] })
    try {
      expect(await health(server.url)).toEqual({
        status: 200,
        body: {
          status: "ok",
          database: "ok",
          mode: "local sandbox mode: test cards and test keys, no real money",
          draining: false,
        },
      })
    } finally {
      await server.close()
    }
  })

  it("/health says live without test parts", async () => {
    const server = await startTestServer()
    try {
      expect((await health(server.url)).body).toMatchObject({ status: "ok", mode: "live" })
    } finally {
      await server.close()
    }
  })
})
