/**
 * What production refuses to start with (NODE_ENV=production): every part that is only fit for a
 * developer's machine, each named in one line that says what to set. Outside production the same
 * parts make the server say, on its banner and at /health, that it runs in local sandbox mode.
 *
 * Test parts are recognised without the casino holding any sandbox code: a party's test
 * environment issues keys that begin with `test_` (protocols/keys.ts); the public test keys of the
 * chains are a denylist of public values (server/security/publicTestKeys.ts, from the crypto
 * configuration). Where an operator may really want what is refused unset (an open back office,
 * the embedded database), an explicit value is accepted and the start banner repeats it
 * (`startNotes`).
 */
import { isTestKey } from "../../protocols/keys.ts"

/** Everything the checks read (a subset of AppConfigShape, so tests can state just that). */
export interface ProductionInputs {
  readonly nodeEnv: string
  readonly captchaEnabled: boolean
  /**
   * The variables the server would fill in itself (PUBLIC_URL, CAPTCHA_SECRET, OPERATOR_SECRETS,
   * BACKOFFICE_TOTP_KEY, BACKOFFICE_ALLOW, SMTP_URL, DATABASE_URL).
   */
  readonly defaulted: ReadonlyArray<string>
  readonly publicUrl: string
  /** BACKOFFICE_URL's origin, or undefined: the back office on the player app's origin. */
  readonly backofficeUrl: string | undefined
  readonly cookieSecure: boolean
  readonly rateLimitScale: number
  readonly paymentGateways: ReadonlyArray<{
    readonly code: string
    readonly apiKey: string
    readonly webhookSecret: string
  }>
  readonly gameProviders: ReadonlyArray<{
    readonly code: string
    readonly casinoKey: string
    readonly walletSecret: string
  }>
  readonly onrampWidgets: ReadonlyArray<{
    readonly id: string
    readonly baseUrl: string
    readonly apiKey: string
    readonly secretKey: string
    readonly webhookSecret: string
  }>
  /** Chain keys that are public test values (the test mnemonic's xpubs, a public dev account). */
  readonly publicTestKeys: ReadonlyArray<string>
}

const defaultedFix: Readonly<Record<string, string>> = {
  PUBLIC_URL:
    "PUBLIC_URL is not set: set it to the casino's public https address (e-mail links and the Origin allow-list use it)",
  CAPTCHA_SECRET:
    "CAPTCHA_SECRET is not set: set a random secret of 16+ characters shared by every server process (the server will not invent one)",
  OPERATOR_SECRETS:
    'OPERATOR_SECRETS is not set: give each operator a secret of their own, e.g. {"ana":"<32+ random characters>"} (the server will not invent one)',
  BACKOFFICE_TOTP_KEY:
    "BACKOFFICE_TOTP_KEY is not set: set a random key of 32+ characters kept with the database's backups (it encrypts the operators' second-factor secrets; the server will not invent one)",
  BACKOFFICE_ALLOW:
    "BACKOFFICE_ALLOW is not set: list the addresses or networks the team reaches the back office from (e.g. 203.0.113.0/24), or set BACKOFFICE_ALLOW=any to open it to every address",
  SMTP_URL:
    "SMTP_URL is not set: set the SMTP server that sends the casino's mail (e.g. smtps://user:password@mail.example:465); without it mail is only written to MAIL_OUTBOX_DIR",
  DATABASE_URL:
    "DATABASE_URL is not set: set the PostgreSQL URL (postgres://…), or DATABASE_URL=embedded to run on the embedded PGlite database (one process on one machine)",
}

/** Settings a developer's machine relaxes, set explicitly: one line each, what to set instead. */
const relaxedSettings = (c: ProductionInputs): ReadonlyArray<string> => [
  ...(c.rateLimitScale > 1
    ? [
        `RATE_LIMIT_SCALE=${c.rateLimitScale} multiplies every rate limit (the back office's second-factor guesses too): remove it, or set 1 or less`,
      ]
    : []),
  ...(c.cookieSecure
    ? []
    : [
        "COOKIE_SECURE=false: remove it (production's default is true) or set COOKIE_SECURE=true (session cookies would travel over plain http)",
      ]),
  // An unset PUBLIC_URL has its own line (defaultedFix).
  ...(c.publicUrl.startsWith("https://") || c.defaulted.includes("PUBLIC_URL")
    ? []
    : [
        `PUBLIC_URL=${c.publicUrl} is plain http: set the casino's https address (sign-ins and sessions would cross the network in clear)`,
      ]),
  ...(c.backofficeUrl === undefined || c.backofficeUrl.startsWith("https://")
    ? []
    : [`BACKOFFICE_URL=${c.backofficeUrl} is plain http: set the back office's https address`]),
]

/** The test parts of a configuration, one line each (empty: none). */
export const testParts = (c: ProductionInputs): ReadonlyArray<string> => {
  const lines: Array<string> = []
  if (!c.captchaEnabled)
    lines.push("CAPTCHA=off: set CAPTCHA=on (sign-in and registration would take any request)")
  for (const g of c.paymentGateways)
    if (isTestKey(g.apiKey) || isTestKey(g.webhookSecret))
      lines.push(
        `PAYMENT_GATEWAYS: gateway ${g.code} has a sandbox's test key: set the live keys of the real gateway`,
      )
  for (const p of c.gameProviders)
    if (isTestKey(p.casinoKey) || isTestKey(p.walletSecret))
      lines.push(
        `GAME_PROVIDERS: provider ${p.code} has a sandbox's test key: set the live keys of the real provider`,
      )
  for (const w of c.onrampWidgets) {
    if (isTestKey(w.apiKey) || isTestKey(w.secretKey) || isTestKey(w.webhookSecret))
      lines.push(
        `ONRAMP_WIDGETS: widget ${w.id} has a sandbox's test key: set the live keys of the real widget`,
      )
    if (!w.baseUrl.startsWith("https://"))
      lines.push(`ONRAMP_WIDGETS: widget ${w.id} is served over plain http: set the real widget's https page`)
  }
  lines.push(...c.publicTestKeys)
  return lines
}

/** Why this configuration must not start in production, one line each (empty: it may). */
export const productionProblems = (c: ProductionInputs): ReadonlyArray<string> =>
  c.nodeEnv !== "production"
    ? []
    : [...c.defaulted.flatMap((name) => defaultedFix[name] ?? []), ...relaxedSettings(c), ...testParts(c)]

/** The sentence the banner and /health carry when the configuration has test parts. */
export const SANDBOX_MODE = "local sandbox mode: test cards and test keys, no real money"

/** Whether the server runs with test parts (never in production: those refuse to start). */
export const inSandboxMode = (c: ProductionInputs): boolean => testParts(c).length > 0

/** Logged at start and on the banner in production when the back office has no host of its own. */
export const SHARED_ORIGIN_WARNING =
  "WARNING: the back office shares the player app's origin (BACKOFFICE_URL is not set): a script on a player page could call /api/backoffice with a signed-in operator's cookie; give it a host of its own (docs/backoffice.md)"

const optInNotes: Readonly<Record<string, string>> = {
  "BACKOFFICE_ALLOW=any": "BACKOFFICE_ALLOW=any: the back office is open to every address, chosen",
  "DATABASE_URL=embedded":
    "DATABASE_URL=embedded: the embedded PGlite database, chosen (one process on one machine; no PostgreSQL)",
}

/** Said on the banner when nobody may read /metrics (production's default): not refused, but no scrape will work. */
export const METRICS_CLOSED_NOTE =
  "METRICS_ALLOW is empty: GET /metrics answers nobody (404); list the addresses or networks of your Prometheus server to read it"

/** What the start banner reads (a subset of AppConfigShape). */
export interface BannerInputs extends ProductionInputs {
  readonly optedIn: ReadonlyArray<string>
  readonly metricsAllow: ReadonlyArray<string>
  readonly databaseUrl: string | undefined
  readonly dataDir: string
}

/**
 * The casino's start banner (`node server/main.ts` and `npm start`): its mode, the explicit
 * opt-ins, a /metrics nobody may read, in production the warning of a back office on the player
 * app's origin, the back office's own address when it has one, and where it listens (last).
 */
export const startBanner = (c: BannerInputs, url: string): ReadonlyArray<string> => [
  ...(inSandboxMode(c) ? [SANDBOX_MODE] : []),
  ...c.optedIn.flatMap((o) => optInNotes[o] ?? []),
  ...(c.metricsAllow.length === 0 ? [METRICS_CLOSED_NOTE] : []),
  ...(c.nodeEnv === "production" && c.backofficeUrl === undefined ? [SHARED_ORIGIN_WARNING] : []),
  ...(c.backofficeUrl === undefined ? [] : [`the back office: ${c.backofficeUrl}/backoffice/`]),
  // Last: tools and tests take this line as "ready" (and may stop reading there).
  `listening on ${url} (public URL ${c.publicUrl}, database: ${
    c.databaseUrl === undefined ? `embedded PGlite in ${c.dataDir}/pglite` : "PostgreSQL"
  })`,
]
