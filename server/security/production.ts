/**
 * What production refuses to start with (NODE_ENV=production): every part that is only fit for a
 * developer's machine, each named in one line that says what to set. Outside production the same
 * parts make the server say, on its banner and at /health, that it runs in local sandbox mode.
 *
 * Test parts are recognised without the casino holding any sandbox code: a party's test
 * environment issues keys that begin with `test_` (protocols/keys.ts); the public test keys of the
 * chains are a denylist of public values (server/security/publicTestKeys.ts, from the crypto
 * configuration).
 */
import { isTestKey } from "../../protocols/keys.ts"

/** Everything the checks read (a subset of AppConfigShape, so tests can state just that). */
export interface ProductionInputs {
  readonly nodeEnv: string
  readonly captchaEnabled: boolean
  /** The variables the server would fill in itself (PUBLIC_URL, CAPTCHA_SECRET, OPERATOR_SECRETS, BACKOFFICE_TOTP_KEY). */
  readonly defaulted: ReadonlyArray<string>
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
}

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
    : [...c.defaulted.flatMap((name) => defaultedFix[name] ?? []), ...testParts(c)]

/** The sentence the banner and /health carry when the configuration has test parts. */
export const SANDBOX_MODE = "local sandbox mode: test cards and test keys, no real money"

/** Whether the server runs with test parts (never in production: those refuse to start). */
export const inSandboxMode = (c: ProductionInputs): boolean => testParts(c).length > 0
