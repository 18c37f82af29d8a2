/**
 * The server's configuration, read once from the environment (see docs/server.md for every variable).
 * `loadConfig` is plain and synchronous so tests and `main.ts` can call it directly; it throws a
 * `ConfigError` naming the variable when a value is wrong. Handlers read it through `AppConfig`.
 */
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Context, Exit, Layer, type LogLevel, Schema } from "effect"
import proxyaddr from "proxy-addr"
import {
  bool,
  ConfigError,
  int,
  invalid,
  isEmbeddedDatabase,
  logLevels,
  originOf,
  persistentSecret,
  postgresUrl,
  text,
} from "../lib/env.ts"
import { defaultFreeRoundsUrl } from "../protocols/game-wallet/free-rounds.ts"
import { cardGateways } from "../services/wallet-service.ts"
import { type ChatConfig, loadChatConfig } from "./chat/config.ts"
import { type CryptoConfig, loadCryptoConfig } from "./crypto/config.ts"
import { type PlayRulesTable, parsePlayRules } from "./games/playRules.ts"
import { productionProblems } from "./security/production.ts"
import { parseTrustProxy, type TrustProxy } from "./security/proxy.ts"
import { isPublicTestKey } from "./security/publicTestKeys.ts"

/** The error a bad variable throws (lib/env.ts), named here for the casino's callers. */
export { ConfigError }

export interface RateLimit {
  readonly max: number
  readonly windowSeconds: number
}

export interface RateLimits {
  readonly signinPerIp: RateLimit
  readonly signinPerEmail: RateLimit
  readonly registerPerIp: RateLimit
  readonly forgotPerIp: RateLimit
  readonly forgotPerEmail: RateLimit
  readonly resendPerUser: RateLimit
  readonly errorLogPerIp: RateLimit
  readonly documentUploadPerUser: RateLimit
  /** Bonus codes checked or redeemed, per client IP: codes must not be guessable by brute force. */
  readonly couponPerIp: RateLimit
  /** Visitors' chat conversations opened per address (IPv4, IPv6 /64); docs/chat.md. */
  readonly chatConversationsPerIp: RateLimit
  /** Visitors' chat messages per address that opened their conversation; docs/chat.md. */
  readonly chatMessagesPerIp: RateLimit
}

export type RateLimitName = keyof RateLimits

export interface AppConfigShape {
  readonly port: number
  readonly host: string
  /** PostgreSQL URL; undefined ⇒ embedded PGlite at `${dataDir}/pglite` (DATABASE_URL unset or `embedded`). */
  readonly databaseUrl: string | undefined
  readonly dataDir: string
  /** Public origin of the site, used in e-mail links and the default Origin allow-list. */
  readonly publicUrl: string
  readonly allowedOrigins: ReadonlyArray<string>
  /** Plain-http origins the player app may frame besides https pages (FRAME_ORIGINS): a provider's test environment. */
  readonly frameOrigins: ReadonlyArray<string>
  readonly nodeEnv: string
  /** Minimum level of the Effect logger (LOG_LEVEL: Trace, Debug, Info, Warn, Error, Fatal, None). */
  readonly logLevel: LogLevel.LogLevel
  /**
   * LOG_FORMAT: `json` (one JSON object per line, its annotations — requestId, job — as fields; the
   * default in production) or `logfmt` (key=value, the default elsewhere).
   */
  readonly logFormat: "json" | "logfmt"
  /** How far to believe X-Forwarded-For (TRUST_PROXY): not at all, n proxy hops, or trusted networks. */
  readonly trustProxy: TrustProxy
  readonly defaultCountry: string
  readonly cdnBasePath: string
  readonly cdnDir: string
  /** The built player app (`vite build` output) served at `/`. */
  readonly staticDir: string
  /** The built back office (vite.backoffice.config.ts output) served at `/backoffice`. */
  readonly backofficeStaticDir: string
  /** Embeddable page of the registration tutorial (site-config.json `tutorialVideoUrl`). */
  readonly tutorialVideoUrl: string
  readonly blockedEmailDomains: ReadonlyArray<string>
  readonly supportEmail: string
  readonly productName: string
  readonly captchaEnabled: boolean
  /**
   * Whether `/statecharts` (the product owners' visualizer) is served (STATECHARTS=on|off); default
   * on, but off with NODE_ENV=production: players must not find a tool of the team's.
   */
  readonly statecharts: boolean
  /** Autoplay, turbo and the least time between rounds per jurisdiction (PLAY_RULES over the presets). */
  readonly playRules: PlayRulesTable
  /** altcha-lib v2 PBKDF2/SHA-256 cost (iterations per attempt). */
  readonly captchaCost: number
  /** HMAC secret of the captcha challenges; generated once and kept in `${dataDir}/captcha-secret`. */
  readonly captchaSecret: string
  /**
   * Bearer secret of the one operator endpoint left (`/api/operator/v1/backoffice/operators`: the
   * first admin's bootstrap by `npm run operator` when a server holds the embedded database; every
   * other operator call is the back-office API with an operator's token), from OPERATOR_SECRET; undefined ⇒ the server generates
   * one into `${dataDir}/operator-secret` when it starts (`persistentOperatorSecret`).
   */
  readonly operatorSecret: string | undefined
  /**
   * The operators the operator endpoints know, each with a secret of their own: the audit records
   * the operator whose secret authenticated the request, never a name the caller sends. From
   * OPERATOR_SECRETS (JSON `{ "<name>": "<secret>" }`), else OPERATOR_SECRET as one operator named
   * "operator"; empty ⇒ the server generates one secret for the operator "local"
   * (`${dataDir}/operator-secret`), which production refuses.
   */
  readonly operatorSecrets: ReadonlyArray<OperatorSecret>
  /** The variables left unset that the server fills in itself (refused in production). */
  readonly defaulted: ReadonlyArray<
    | "PUBLIC_URL"
    | "CAPTCHA_SECRET"
    | "OPERATOR_SECRETS"
    | "BACKOFFICE_TOTP_KEY"
    | "BACKOFFICE_ALLOW"
    | "SMTP_URL"
    | "DATABASE_URL"
  >
  /**
   * What was chosen explicitly where leaving the variable unset is refused in production: an open
   * back office, the embedded database. Production accepts them; the start banner repeats them.
   */
  readonly optedIn: ReadonlyArray<"BACKOFFICE_ALLOW=any" | "DATABASE_URL=embedded">
  /** Chain keys that are public test values (refused in production): one line each, what to set. */
  readonly publicTestKeys: ReadonlyArray<string>
  readonly sessionTtlHours: number
  readonly cookieSecure: boolean
  /**
   * BACKOFFICE_ALLOW: the addresses and CIDR networks (client IP as TRUST_PROXY resolves it) that
   * may reach the back office at all; empty = every address (unset, or `any`: chosen).
   */
  readonly backofficeAllow: ReadonlyArray<string>
  /**
   * METRICS_ALLOW: the addresses and CIDR networks (client IP as TRUST_PROXY resolves it) that may
   * read `GET /metrics`; everyone else gets 404. Empty = nobody. Default: loopback, but nobody in
   * production (the banner says so).
   */
  readonly metricsAllow: ReadonlyArray<string>
  /**
   * BACKOFFICE_URL: the back office's own origin (e.g. https://admin.casino.example), where alone it
   * and its API are served (by the Host header; server/static/hosts.ts); undefined ⇒ on the player
   * app's origin, at /backoffice.
   */
  readonly backofficeUrl: string | undefined
  /** A back-office session unused this long ends (BACKOFFICE_IDLE_MINUTES, 30; sliding). */
  readonly backofficeIdleMinutes: number
  /** A back-office session ends this long after its login, used or not (BACKOFFICE_SESSION_HOURS, 12). */
  readonly backofficeSessionHours: number
  /**
   * How often the staff's live stream re-checks its session, and sends a heartbeat
   * (BACKOFFICE_STREAM_CHECK_SECONDS, 25): a stream ends at most this long after its session.
   */
  readonly backofficeStreamCheckSeconds: number
  /** An operator API token lives this long unless its creator chose fewer days (BACKOFFICE_TOKEN_DAYS, 90). */
  readonly backofficeTokenDays: number
  /**
   * Key of the operators' TOTP secrets at rest (BACKOFFICE_TOTP_KEY, ≥ 32 characters); unset ⇒ 32
   * random bytes kept in `${dataDir}/backoffice-totp-key`. Every server of one database needs the same.
   */
  readonly backofficeTotpKey: string
  /** The back office's clock, milliseconds since the epoch (sessions, TOTP): `Date.now`; tests move it. */
  readonly backofficeClock: () => number
  /**
   * EUR cents one operator may adjust on one player alone over 24 hours (absolute values at each
   * adjustment's rate); the adjustment past it waits for a second operator's approval
   * (BACKOFFICE_ADJUST_APPROVAL_MINOR, 10000; docs/backoffice.md).
   */
  readonly backofficeAdjustApprovalMinor: number
  readonly smtpUrl: string | undefined
  readonly mailFrom: string
  readonly mailOutboxDir: string
  readonly resetTokenTtlMinutes: number
  readonly confirmTokenTtlHours: number
  readonly rateLimitScale: number
  /** Effective limits: defaults (or RATE_LIMITS JSON) with `max` already multiplied by `rateLimitScale`. */
  readonly rateLimits: RateLimits
  /** Deposit starts per player (30 per 10 minutes, × RATE_LIMIT_SCALE). */
  readonly depositStartLimit: RateLimit
  /** Analytics events per IP (120 per minute, × RATE_LIMIT_SCALE). */
  readonly analyticsLimit: RateLimit
  /** The card gateways the cascade offers, in order (PAYMENT_CARD_CASCADE). */
  readonly paymentCardCascade: ReadonlyArray<string>
  /** The card gateway not offered to visitors from the US (PAYMENT_US_EXCLUDED; empty = none). */
  readonly paymentUsExcluded: string | undefined
  /**
   * PAYMENT_GATEWAYS: JSON array of the payment gateways the casino uses (docs/payments-protocol.md);
   * a gateway not listed is not offered.
   */
  readonly paymentGateways: ReadonlyArray<GatewayConfig>
  /**
   * How the server reaches itself (notify URLs): INTERNAL_URL, else
   * `http://{HOST, or 127.0.0.1 for a wildcard HOST}:{PORT}`.
   */
  readonly internalUrl: string
  /** A deposit still `initiated` after this many minutes is expired (DEPOSIT_EXPIRY_MINUTES). */
  readonly depositExpiryMinutes: number
  /** Seconds between the deposit expiry sweeper's runs (DEPOSIT_SWEEP_SECONDS, 60). */
  readonly depositSweepSeconds: number
  /**
   * On SIGTERM, seconds between readiness turning 503 and the socket closing, for the proxy's
   * health checks to see it (DRAIN_SETTLE_SECONDS: 2 in production, 0 elsewhere).
   */
  readonly drainSettleSeconds: number
  /** The bound on the whole stop: past it the process exits at once (DRAIN_BOUND_SECONDS, 20). */
  readonly drainBoundSeconds: number
  /** Minutes between the casino's own ledger checks, once per cluster (LEDGER_CHECK_MINUTES, 60; 0: never). */
  readonly ledgerCheckMinutes: number
  /** Seconds a webhook signature stays acceptable (WEBHOOK_TOLERANCE_SECONDS, default 300). */
  readonly webhookToleranceSeconds: number
  /**
   * SETTLEMENT_BATCHING (default on): game bets and wins, and deposit completions, arriving
   * together settle in one transaction (docs/ledger.md#batched-settlement-game-wallet); off settles
   * each in its own.
   */
  readonly settlementBatching: boolean
  /** GAME_PROVIDERS: JSON array of the game integrations (docs/game-wallet-protocol.md). */
  readonly gameProviders: ReadonlyArray<GameProviderConfig>
  /** How often each integration's signed games list is fetched again (GAME_CATALOGUE_REFRESH_SECONDS, 300). */
  readonly gameCatalogueRefreshSeconds: number
  /** Real-money and demo game launches per player or visitor IP (60 per 10 minutes, × RATE_LIMIT_SCALE). */
  readonly gameLaunchLimit: RateLimit
  /** Withdraw requests per player (10 per 10 minutes, × RATE_LIMIT_SCALE). */
  readonly withdrawRequestLimit: RateLimit
  /** The most one withdrawal may be, in EUR cents at the currency's rate (WITHDRAW_MAX_EUR, 400). */
  readonly withdrawMaxEurCents: bigint
  /** The most a player may request per UTC day, in EUR cents (WITHDRAW_DAILY_EUR, 2000). */
  readonly withdrawDailyEurCents: bigint
  /** Seconds between the loyalty accrual job's runs (LOYALTY_ACCRUAL_SECONDS, 60): how late points follow bets. */
  readonly loyaltyAccrualSeconds: number
  /** Whether this process runs the loyalty jobs (accrual, cashback): true; tests that date bets run them by hand. */
  readonly loyaltyJobs: boolean
  /** Confirmations after which an EVM payout is paid (WITHDRAW_CONFIRMATIONS, 12). */
  readonly withdrawConfirmations: number
  /** Seconds between rounds of the payout loop: (re)send approved payouts, track sent ones (15). */
  readonly withdrawPayoutPollSeconds: number
  /**
   * ONRAMP_WIDGETS: JSON array of the Buy crypto widgets' credentials, one per widget id
   * (docs/onramp.md); a widget not listed is not offered.
   */
  readonly onrampWidgets: ReadonlyArray<OnrampWidgetConfig>
  /** EVM_RPC_URL: the Ethereum node or provider (JSON-RPC); unset ⇒ no EVM chain. */
  readonly evmRpcUrl: string | undefined
  /** EVM_CHAIN_ID: the chain id signed into payouts (default 1, mainnet). */
  readonly evmChainId: number
  /** EVM_USDT_CONTRACT: the USDT (ERC-20) contract (default: mainnet Tether USD). */
  readonly evmUsdtContract: string
  /**
   * CRYPTO_HOT_WALLET_KEY_ETH: the EVM hot wallet's private key (ETH and USDT payouts); undefined ⇒
   * no EVM payouts. A key of one of anvil's public dev accounts is refused with NODE_ENV=production.
   */
  readonly cryptoHotWalletKeyEth: string | undefined
  /** Crypto deposits: xpubs, confirmations, explorers, watcher (server/crypto/config.ts). */
  readonly crypto: CryptoConfig
  /** Live-support chat: the built-in one or Chatwoot (CHAT_PROVIDER, server/chat/config.ts). */
  readonly chat: ChatConfig
  /** Chat messages a player or visitor may send (20 per minute, × RATE_LIMIT_SCALE). */
  readonly chatSendLimit: RateLimit
}

export interface OperatorSecret {
  readonly name: string
  readonly secret: string
}

const OperatorSecrets = Schema.fromJsonString(
  Schema.Record(
    Schema.String.check(Schema.isPattern(/^[\p{L}\p{N}._@-]{1,100}$/u)),
    Schema.String.check(Schema.isMinLength(32)),
  ),
)
const decodeOperatorSecrets = Schema.decodeUnknownExit(OperatorSecrets)

/** A real Buy crypto widget (docs/onramp.md): its hosted page and its keys. */
export interface OnrampWidgetConfig {
  readonly id: "banxa" | "mercuryo" | "moonpay" | "transak"
  readonly baseUrl: string
  readonly apiKey: string
  readonly secretKey: string
  readonly webhookSecret: string
}

const OnrampWidgetOverrides = Schema.fromJsonString(
  Schema.Array(
    Schema.Struct({
      id: Schema.Literals(["banxa", "mercuryo", "moonpay", "transak"]),
      // http only for a sandbox on this machine; production requires https (checked in loadConfig).
      baseUrl: Schema.String.check(Schema.isPattern(/^https?:\/\/\S+$/)),
      apiKey: Schema.String.check(Schema.isMinLength(1)),
      secretKey: Schema.String.check(Schema.isMinLength(16)),
      webhookSecret: Schema.String.check(Schema.isMinLength(16)),
    }),
  ),
)
const decodeOnrampWidgets = Schema.decodeUnknownExit(OnrampWidgetOverrides)

/** One game integration: where its launch goes, where its games list is, and the protocol's two keys. */
export interface GameProviderConfig {
  readonly code: string
  readonly launchUrl: string
  /** Its signed games list (docs/game-wallet-protocol.md); default: the sibling `games` of launchUrl. */
  readonly gamesUrl: string
  /** Where free rounds are granted (docs/game-wallet-protocol.md); default: the sibling `freerounds`. */
  readonly freeRoundsUrl: string
  /** Signs the casino's calls to the provider (launch). */
  readonly casinoKey: string
  /** Signs the provider's wallet calls to the casino. */
  readonly walletSecret: string
}

const GameProviderOverrides = Schema.fromJsonString(
  Schema.Array(
    Schema.Struct({
      code: Schema.String.check(Schema.isPattern(/^[a-z0-9-]{2,30}$/)),
      launchUrl: Schema.String.check(Schema.isPattern(/^https?:\/\/\S+$/)),
      gamesUrl: Schema.optional(Schema.String.check(Schema.isPattern(/^https?:\/\/\S+$/))),
      freeRoundsUrl: Schema.optional(Schema.String.check(Schema.isPattern(/^https?:\/\/\S+$/))),
      casinoKey: Schema.String.check(Schema.isMinLength(16)),
      walletSecret: Schema.String.check(Schema.isMinLength(16)),
    }),
  ),
)
const decodeGameProviders = Schema.decodeUnknownExit(GameProviderOverrides)

/** The games list's default URL: the launch URL's sibling `games` (…/api/launch → …/api/games). */
export const gamesUrlFor = (launchUrl: string): string => new URL("games", launchUrl).toString()

/** A payment family of the protocol, or `bank`: a payout rail only (bank transfers out). */
export type GatewayFamily = "hosted-card" | "skrill" | "jeton" | "mifinity" | "bank"

export interface GatewayConfig {
  readonly code: string
  readonly family: GatewayFamily
  /** The provider's merchant API (server to server). */
  readonly baseUrl: string
  readonly merchantId: string
  readonly apiKey: string
  readonly webhookSecret: string
  /** mifinity: the widget page the player's browser frames (default `${baseUrl}/mifinity/widget`). */
  readonly widgetUrl: string | undefined
}

const HttpUrl = Schema.String.check(Schema.isPattern(/^https?:\/\/\S+$/))
const GatewayEntries = Schema.fromJsonString(
  Schema.Array(
    Schema.Struct({
      code: Schema.String.check(Schema.isPattern(/^[a-z0-9-]{2,30}$/)),
      family: Schema.Literals(["hosted-card", "skrill", "jeton", "mifinity", "bank"]),
      baseUrl: HttpUrl,
      merchantId: Schema.String.check(Schema.isMinLength(1)),
      apiKey: Schema.String.check(Schema.isMinLength(1)),
      webhookSecret: Schema.String.check(Schema.isMinLength(16)),
      widgetUrl: Schema.optional(HttpUrl),
    }),
  ),
)
const decodeGatewayEntries = Schema.decodeUnknownExit(GatewayEntries)

/** The card gateways known to the casino (the contract's list), for validating the cascade. */
export const knownCardGateways = cardGateways
export const defaultCardCascade = ["paystudio", "payweb", "brpay", "ikajo", "ems"] as const
export const defaultUsExcluded = "brpay"

export class AppConfig extends Context.Service<AppConfig, AppConfigShape>()("casino/server/AppConfig") {
  static layerFrom(shape: AppConfigShape): Layer.Layer<AppConfig> {
    return Layer.succeed(AppConfig, shape)
  }
}

export const defaultRateLimits: RateLimits = {
  signinPerIp: { max: 20, windowSeconds: 900 },
  signinPerEmail: { max: 5, windowSeconds: 900 },
  registerPerIp: { max: 10, windowSeconds: 3600 },
  forgotPerIp: { max: 10, windowSeconds: 3600 },
  forgotPerEmail: { max: 3, windowSeconds: 3600 },
  resendPerUser: { max: 3, windowSeconds: 3600 },
  errorLogPerIp: { max: 30, windowSeconds: 60 },
  documentUploadPerUser: { max: 20, windowSeconds: 3600 },
  couponPerIp: { max: 60, windowSeconds: 600 },
  chatConversationsPerIp: { max: 10, windowSeconds: 3600 },
  chatMessagesPerIp: { max: 60, windowSeconds: 600 },
}

export const defaultBlockedEmailDomains: ReadonlyArray<string> = [
  "blocked-one.example",
  "blocked-two.example",
]

/** Default captcha cost: PBKDF2/SHA-256 iterations per attempt (altcha-lib's documented example value). */
export const defaultCaptchaCost = 5_000

type Env = Record<string, string | undefined>

const fail = invalid
const str = text

const positiveNumber = (env: Env, name: string, def: number): number => {
  const v = str(env, name)
  if (v === undefined) return def
  const n = Number(v)
  if (!Number.isFinite(n) || n <= 0) return fail(name, v, "a positive number")
  return n
}

const list = (v: string): Array<string> =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")

const Limit = Schema.Struct({
  max: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  windowSeconds: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
})

/** RATE_LIMITS: a JSON object overriding some of the named limits; unknown names are refused. */
const RateLimitsOverride = Schema.fromJsonString(
  Schema.Struct({
    signinPerIp: Schema.optional(Limit),
    signinPerEmail: Schema.optional(Limit),
    registerPerIp: Schema.optional(Limit),
    forgotPerIp: Schema.optional(Limit),
    forgotPerEmail: Schema.optional(Limit),
    resendPerUser: Schema.optional(Limit),
    errorLogPerIp: Schema.optional(Limit),
    documentUploadPerUser: Schema.optional(Limit),
    couponPerIp: Schema.optional(Limit),
    chatConversationsPerIp: Schema.optional(Limit),
    chatMessagesPerIp: Schema.optional(Limit),
  }),
)

const decodeRateLimitsOverride = Schema.decodeUnknownExit(RateLimitsOverride, { onExcessProperty: "error" })

const parseRateLimits = (raw: string | undefined): RateLimits => {
  if (raw === undefined) return defaultRateLimits
  const decoded = decodeRateLimitsOverride(raw)
  if (Exit.isFailure(decoded)) {
    return fail(
      "RATE_LIMITS",
      raw,
      `a JSON object of { "max": int >= 1, "windowSeconds": int >= 1 } under the names ${Object.keys(defaultRateLimits).join(", ")}`,
    )
  }
  const override = decoded.value
  return {
    signinPerIp: override.signinPerIp ?? defaultRateLimits.signinPerIp,
    signinPerEmail: override.signinPerEmail ?? defaultRateLimits.signinPerEmail,
    registerPerIp: override.registerPerIp ?? defaultRateLimits.registerPerIp,
    forgotPerIp: override.forgotPerIp ?? defaultRateLimits.forgotPerIp,
    forgotPerEmail: override.forgotPerEmail ?? defaultRateLimits.forgotPerEmail,
    resendPerUser: override.resendPerUser ?? defaultRateLimits.resendPerUser,
    errorLogPerIp: override.errorLogPerIp ?? defaultRateLimits.errorLogPerIp,
    documentUploadPerUser: override.documentUploadPerUser ?? defaultRateLimits.documentUploadPerUser,
    couponPerIp: override.couponPerIp ?? defaultRateLimits.couponPerIp,
    chatConversationsPerIp: override.chatConversationsPerIp ?? defaultRateLimits.chatConversationsPerIp,
    chatMessagesPerIp: override.chatMessagesPerIp ?? defaultRateLimits.chatMessagesPerIp,
  }
}

const scaleLimit = (limit: RateLimit, scale: number): RateLimit => ({
  max: Math.max(1, Math.round(limit.max * scale)),
  windowSeconds: limit.windowSeconds,
})

export const scaleRateLimits = (limits: RateLimits, scale: number): RateLimits => ({
  signinPerIp: scaleLimit(limits.signinPerIp, scale),
  signinPerEmail: scaleLimit(limits.signinPerEmail, scale),
  registerPerIp: scaleLimit(limits.registerPerIp, scale),
  forgotPerIp: scaleLimit(limits.forgotPerIp, scale),
  forgotPerEmail: scaleLimit(limits.forgotPerEmail, scale),
  resendPerUser: scaleLimit(limits.resendPerUser, scale),
  errorLogPerIp: scaleLimit(limits.errorLogPerIp, scale),
  documentUploadPerUser: scaleLimit(limits.documentUploadPerUser, scale),
  couponPerIp: scaleLimit(limits.couponPerIp, scale),
  chatConversationsPerIp: scaleLimit(limits.chatConversationsPerIp, scale),
  chatMessagesPerIp: scaleLimit(limits.chatMessagesPerIp, scale),
})

/** Reads `${dataDir}/captcha-secret`, creating it (32 random bytes, hex, mode 0600) on first use. */
export const persistentCaptchaSecret = (dataDir: string): string =>
  persistentSecret(dataDir, "captcha-secret")

/** The file `npm run operator` reads the operator secret from when OPERATOR_SECRET is not set. */
export const operatorSecretFile = (dataDir: string): string => join(dataDir, "operator-secret")

/** Reads `${dataDir}/operator-secret`, creating it (32 random bytes, hex, mode 0600) on first use. */
export const persistentOperatorSecret = (dataDir: string): string =>
  persistentSecret(dataDir, "operator-secret")

/**
 * The address the server reaches itself at when INTERNAL_URL is unset: loopback when it listens on
 * every interface, else the very address it listens on (HOST=10.0.0.5 does not answer on
 * 127.0.0.1, and the providers' webhooks would find nobody).
 */
export const selfHostFor = (host: string): string => {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1"
  return host.includes(":") ? `[${host.replace(/^\[|\]$/g, "")}]` : host
}

/**
 * BACKOFFICE_URL's origin: an http(s) origin (no path) on a host that is not the player app's
 * (PUBLIC_URL, ALLOWED_ORIGINS): the two are told apart by the Host header.
 */
const backofficeOriginOf = (
  raw: string | undefined,
  publicUrl: string,
  allowedOrigins: ReadonlyArray<string>,
): string | undefined => {
  if (raw === undefined) return undefined
  const refuse = () =>
    fail(
      "BACKOFFICE_URL",
      raw,
      "an origin of its own such as https://admin.casino.example (not PUBLIC_URL's or ALLOWED_ORIGINS' host, no path)",
    )
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return refuse()
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return refuse()
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || url.username !== "") return refuse()
  const playerHosts = [publicUrl, ...allowedOrigins].map((o) => new URL(o).host)
  if (playerHosts.includes(url.host)) return refuse()
  return url.origin
}

/**
 * A comma-separated allow-list of IP addresses and CIDR networks (BACKOFFICE_ALLOW, METRICS_ALLOW),
 * checked by `proxy-addr`, the matcher the guards use on the client IP.
 */
const addressList = (name: string, raw: string, expected: string): Array<string> => {
  const entries = list(raw)
  try {
    proxyaddr.compile(entries)
  } catch {
    fail(name, raw, expected)
  }
  return entries
}

/** METRICS_ALLOW outside production when unset: this machine only. */
export const defaultMetricsAllow: ReadonlyArray<string> = ["127.0.0.0/8", "::1"]

/** Parses the environment. Throws `ConfigError` on a bad value. */
export const loadConfig = (env: Env): AppConfigShape => {
  const port = int(env, "PORT", 8080, 0, 65_535)
  const host = str(env, "HOST") ?? "0.0.0.0"
  const databaseUrl = postgresUrl(env, "DATABASE_URL")
  const dataDir = str(env, "DATA_DIR") ?? ".data"
  const publicUrlRaw = str(env, "PUBLIC_URL") ?? `http://localhost:${port}`
  originOf("PUBLIC_URL", publicUrlRaw)
  const publicUrl = publicUrlRaw.replace(/\/+$/, "")
  const originsRaw = str(env, "ALLOWED_ORIGINS")
  const allowedOrigins =
    originsRaw === undefined
      ? [originOf("PUBLIC_URL", publicUrl)]
      : list(originsRaw).map((o) => originOf("ALLOWED_ORIGINS", o))
  const frameOriginsRaw = str(env, "FRAME_ORIGINS")
  const frameOrigins =
    frameOriginsRaw === undefined ? [] : list(frameOriginsRaw).map((o) => originOf("FRAME_ORIGINS", o))
  const nodeEnv = str(env, "NODE_ENV") ?? "development"
  const logFormatRaw = str(env, "LOG_FORMAT") ?? (nodeEnv === "production" ? "json" : "logfmt")
  if (logFormatRaw !== "json" && logFormatRaw !== "logfmt") fail("LOG_FORMAT", logFormatRaw, "json, logfmt")
  const logFormat: "json" | "logfmt" = logFormatRaw === "json" ? "json" : "logfmt"
  const logLevelRaw = str(env, "LOG_LEVEL") ?? "Info"
  const logLevel = logLevels.find((l) => l.toLowerCase() === logLevelRaw.toLowerCase())
  if (logLevel === undefined) fail("LOG_LEVEL", logLevelRaw, logLevels.join(", "))
  const playRulesRead = parsePlayRules(str(env, "PLAY_RULES"))
  const playRules =
    "error" in playRulesRead
      ? fail("PLAY_RULES", str(env, "PLAY_RULES") ?? "", playRulesRead.error)
      : playRulesRead
  const defaultCountry = (str(env, "DEFAULT_COUNTRY") ?? "MT").toUpperCase()
  if (!/^[A-Z]{2}$/.test(defaultCountry))
    fail("DEFAULT_COUNTRY", defaultCountry, "an ISO 3166-1 alpha-2 code")
  const cdnBasePathRaw = str(env, "CDN_BASE_PATH") ?? "/cdn"
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(cdnBasePathRaw) || cdnBasePathRaw.includes("..")) {
    fail("CDN_BASE_PATH", cdnBasePathRaw, "an absolute URL path such as /cdn")
  }
  const cdnBasePath = cdnBasePathRaw.length > 1 ? cdnBasePathRaw.replace(/\/+$/, "") : cdnBasePathRaw
  if (cdnBasePath === "/") fail("CDN_BASE_PATH", cdnBasePathRaw, "a path other than /")
  const cdnDir = str(env, "CDN_DIR") ?? join(dataDir, "cdn")
  const tutorialVideoUrl = str(env, "TUTORIAL_VIDEO_URL") ?? `${cdnBasePath}/tutorial/index.html`
  if (!tutorialVideoUrl.startsWith("/") && !/^https:\/\//.test(tutorialVideoUrl)) {
    fail("TUTORIAL_VIDEO_URL", tutorialVideoUrl, "a path on this site or an https:// URL")
  }
  const blockedRaw = env.BLOCKED_EMAIL_DOMAINS
  const blockedEmailDomains =
    blockedRaw === undefined ? defaultBlockedEmailDomains : list(blockedRaw.toLowerCase())
  const captchaRaw = str(env, "CAPTCHA")
  let captchaEnabled = true
  if (captchaRaw !== undefined) {
    const l = captchaRaw.toLowerCase()
    if (l === "off") captchaEnabled = false
    else if (l !== "on") fail("CAPTCHA", captchaRaw, '"on" or "off"')
  }
  const captchaCost = int(env, "CAPTCHA_COST", defaultCaptchaCost, 1, 10_000_000)
  const operatorSecretRaw = str(env, "OPERATOR_SECRET")
  if (operatorSecretRaw !== undefined && operatorSecretRaw.length < 32) {
    fail("OPERATOR_SECRET", "(hidden)", "at least 32 characters")
  }
  const operatorSecretsRaw = str(env, "OPERATOR_SECRETS")
  let operatorSecrets: ReadonlyArray<OperatorSecret> =
    operatorSecretRaw === undefined ? [] : [{ name: "operator", secret: operatorSecretRaw }]
  if (operatorSecretsRaw !== undefined) {
    const decoded = decodeOperatorSecrets(operatorSecretsRaw)
    if (Exit.isFailure(decoded))
      return fail(
        "OPERATOR_SECRETS",
        "(hidden)",
        'a JSON object of { "<operator name>": "<secret of 32+ characters>" } (names: letters, digits, . _ @ -)',
      )
    operatorSecrets = Object.entries(decoded.value).map(([name, secret]) => ({ name, secret }))
    if (new Set(operatorSecrets.map((o) => o.secret)).size !== operatorSecrets.length)
      return fail("OPERATOR_SECRETS", "(hidden)", "a different secret for each operator")
  }
  const captchaSecretRaw = str(env, "CAPTCHA_SECRET")
  if (captchaSecretRaw !== undefined && captchaSecretRaw.length < 16) {
    fail("CAPTCHA_SECRET", "(hidden)", "at least 16 characters")
  }
  const rateLimitScale = positiveNumber(env, "RATE_LIMIT_SCALE", 1)
  const trustProxyRaw = str(env, "TRUST_PROXY")
  const trustProxy = parseTrustProxy(trustProxyRaw)
  if ("error" in trustProxy) return fail("TRUST_PROXY", trustProxyRaw ?? "", trustProxy.error)
  const backofficeAllowRaw = str(env, "BACKOFFICE_ALLOW")
  // `any`: every address, as unset, but chosen (production refuses it unset).
  const backofficeOpen = backofficeAllowRaw?.toLowerCase() === "any"
  const backofficeAllow =
    backofficeAllowRaw === undefined || backofficeOpen
      ? []
      : addressList(
          "BACKOFFICE_ALLOW",
          backofficeAllowRaw,
          "comma-separated IP addresses or CIDR networks, or any",
        )
  const metricsAllowRaw = str(env, "METRICS_ALLOW")
  // Unlike BACKOFFICE_ALLOW, an empty list is nobody: loopback by default, nobody in production.
  const metricsAllow =
    metricsAllowRaw !== undefined
      ? addressList("METRICS_ALLOW", metricsAllowRaw, "comma-separated IP addresses or CIDR networks")
      : nodeEnv === "production"
        ? []
        : defaultMetricsAllow
  const backofficeUrl = backofficeOriginOf(str(env, "BACKOFFICE_URL"), publicUrl, allowedOrigins)
  const backofficeTotpKeyRaw = str(env, "BACKOFFICE_TOTP_KEY")
  if (backofficeTotpKeyRaw !== undefined && backofficeTotpKeyRaw.length < 32)
    fail("BACKOFFICE_TOTP_KEY", "(hidden)", "at least 32 characters")
  const cascadeRaw = str(env, "PAYMENT_CARD_CASCADE")
  const paymentCardCascade =
    cascadeRaw === undefined ? [...defaultCardCascade] : list(cascadeRaw.toLowerCase())
  for (const g of paymentCardCascade) {
    if (!(knownCardGateways as ReadonlyArray<string>).includes(g))
      fail("PAYMENT_CARD_CASCADE", cascadeRaw ?? "", `card gateways among ${knownCardGateways.join(", ")}`)
  }
  const usExcludedRaw = env.PAYMENT_US_EXCLUDED
  const paymentUsExcluded =
    usExcludedRaw === undefined ? defaultUsExcluded : usExcludedRaw.trim().toLowerCase() || undefined
  if (
    paymentUsExcluded !== undefined &&
    !(knownCardGateways as ReadonlyArray<string>).includes(paymentUsExcluded)
  )
    fail("PAYMENT_US_EXCLUDED", paymentUsExcluded, `one of ${knownCardGateways.join(", ")} or empty`)
  const gatewaysRaw = str(env, "PAYMENT_GATEWAYS")
  let paymentGateways: ReadonlyArray<GatewayConfig> = []
  if (gatewaysRaw !== undefined) {
    const decoded = decodeGatewayEntries(gatewaysRaw)
    if (Exit.isFailure(decoded))
      return fail(
        "PAYMENT_GATEWAYS",
        "(hidden)",
        "a JSON array of { code, family, baseUrl, merchantId, apiKey, webhookSecret (16+ chars), widgetUrl? }",
      )
    const codes = decoded.value.map((g) => g.code)
    if (new Set(codes).size !== codes.length)
      return fail("PAYMENT_GATEWAYS", "(hidden)", "each gateway code once")
    const bank = decoded.value.find((g) => (g.family === "bank") !== (g.code === "bank"))
    if (bank !== undefined)
      return fail("PAYMENT_GATEWAYS", "(hidden)", `the bank payout rail as code "bank" of family "bank"`)
    // A test environment's keys (test_…) are refused in production with the rest (security/production.ts).
    paymentGateways = decoded.value.map((g) => ({
      ...g,
      baseUrl: g.baseUrl.replace(/\/+$/, ""),
      widgetUrl:
        g.family === "mifinity"
          ? (g.widgetUrl ?? `${g.baseUrl.replace(/\/+$/, "")}/mifinity/widget`)
          : undefined,
    }))
  }
  const internalRaw = str(env, "INTERNAL_URL") ?? `http://${selfHostFor(host)}:${port}`
  originOf("INTERNAL_URL", internalRaw)
  const gameProvidersRaw = str(env, "GAME_PROVIDERS")
  let gameProviders: ReadonlyArray<GameProviderConfig> = []
  if (gameProvidersRaw !== undefined) {
    const decoded = decodeGameProviders(gameProvidersRaw)
    if (Exit.isFailure(decoded))
      return fail(
        "GAME_PROVIDERS",
        "(hidden)",
        "a JSON array of { code, launchUrl, gamesUrl?, freeRoundsUrl?, casinoKey (16+ chars), walletSecret (16+ chars) }",
      )
    const codes = decoded.value.map((p) => p.code)
    if (new Set(codes).size !== codes.length)
      return fail("GAME_PROVIDERS", "(hidden)", "each integration code once")
    gameProviders = decoded.value.map((p) => ({
      ...p,
      gamesUrl: p.gamesUrl ?? gamesUrlFor(p.launchUrl),
      freeRoundsUrl: p.freeRoundsUrl ?? defaultFreeRoundsUrl(p.launchUrl),
    }))
  }
  const onrampWidgetsRaw = str(env, "ONRAMP_WIDGETS")
  let onrampWidgets: ReadonlyArray<OnrampWidgetConfig> = []
  if (onrampWidgetsRaw !== undefined) {
    const decoded = decodeOnrampWidgets(onrampWidgetsRaw)
    if (Exit.isFailure(decoded))
      return fail(
        "ONRAMP_WIDGETS",
        "(hidden)",
        "a JSON array of { id (banxa|mercuryo|moonpay|transak), baseUrl (https), apiKey, secretKey, webhookSecret (16+ chars) }",
      )
    // Plain-http pages and test keys are a sandbox's: refused in production (security/production.ts).
    onrampWidgets = decoded.value
  }
  const evmRpcUrl = str(env, "EVM_RPC_URL")
  if (evmRpcUrl !== undefined) originOf("EVM_RPC_URL", evmRpcUrl)
  const crypto = loadCryptoConfig(env, fail)
  const hotWalletKey = str(env, "CRYPTO_HOT_WALLET_KEY_ETH")
  if (hotWalletKey !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(hotWalletKey))
    fail("CRYPTO_HOT_WALLET_KEY_ETH", "(hidden)", "0x followed by 64 hex digits")
  // The public halves the world knows of test keys (security/publicTestKeys.ts): refused in production.
  const publicTestKeys = [
    ...(crypto.usesTestXpubs
      ? [
          "CRYPTO_XPUB_*: the public test mnemonic's account xpub: set your own account xpubs (anyone could spend these deposits)",
        ]
      : []),
    ...(hotWalletKey !== undefined && isPublicTestKey(hotWalletKey as `0x${string}`)
      ? ["CRYPTO_HOT_WALLET_KEY_ETH is a PUBLIC anvil dev account's key: set a private key of your own"]
      : []),
  ]
  const config: AppConfigShape = {
    port,
    host,
    databaseUrl,
    dataDir,
    publicUrl,
    allowedOrigins,
    frameOrigins,
    nodeEnv,
    logLevel: logLevel ?? "Info",
    logFormat,
    trustProxy,
    defaultCountry,
    cdnBasePath,
    cdnDir,
    staticDir: str(env, "STATIC_DIR") ?? fileURLToPath(new URL("../dist/app", import.meta.url)),
    backofficeStaticDir:
      str(env, "BACKOFFICE_STATIC_DIR") ?? fileURLToPath(new URL("../dist/backoffice", import.meta.url)),
    tutorialVideoUrl,
    blockedEmailDomains,
    supportEmail: str(env, "SUPPORT_EMAIL") ?? "support@casino.example",
    productName: str(env, "PRODUCT_NAME") ?? "Casino",
    captchaEnabled,
    statecharts: bool(env, "STATECHARTS", nodeEnv !== "production"),
    playRules,
    captchaCost,
    // Production never invents it (refused below): no file is written for a server that will not start.
    captchaSecret: captchaSecretRaw ?? (nodeEnv === "production" ? "" : persistentCaptchaSecret(dataDir)),
    operatorSecret: operatorSecretRaw,
    operatorSecrets,
    defaulted: [
      ...(str(env, "PUBLIC_URL") === undefined ? (["PUBLIC_URL"] as const) : []),
      ...(captchaSecretRaw === undefined ? (["CAPTCHA_SECRET"] as const) : []),
      ...(operatorSecrets.length === 0 ? (["OPERATOR_SECRETS"] as const) : []),
      ...(backofficeTotpKeyRaw === undefined ? (["BACKOFFICE_TOTP_KEY"] as const) : []),
      ...(backofficeAllowRaw === undefined ? (["BACKOFFICE_ALLOW"] as const) : []),
      ...(str(env, "SMTP_URL") === undefined ? (["SMTP_URL"] as const) : []),
      ...(str(env, "DATABASE_URL") === undefined ? (["DATABASE_URL"] as const) : []),
    ],
    optedIn: [
      ...(backofficeOpen ? (["BACKOFFICE_ALLOW=any"] as const) : []),
      ...(isEmbeddedDatabase(env, "DATABASE_URL") ? (["DATABASE_URL=embedded"] as const) : []),
    ],
    publicTestKeys,
    sessionTtlHours: int(env, "SESSION_TTL_HOURS", 720, 1, 24 * 365),
    cookieSecure: bool(env, "COOKIE_SECURE", nodeEnv === "production"),
    backofficeAllow,
    metricsAllow,
    backofficeUrl,
    backofficeIdleMinutes: int(env, "BACKOFFICE_IDLE_MINUTES", 30, 1, 24 * 60),
    backofficeSessionHours: int(env, "BACKOFFICE_SESSION_HOURS", 12, 1, 24 * 7),
    backofficeTokenDays: int(env, "BACKOFFICE_TOKEN_DAYS", 90, 1, 365),
    backofficeStreamCheckSeconds: int(env, "BACKOFFICE_STREAM_CHECK_SECONDS", 25, 1, 300),
    // Production never invents it (refused below): the key must outlive the machine, or every
    // operator's second factor is lost with it.
    backofficeTotpKey:
      backofficeTotpKeyRaw ??
      (nodeEnv === "production" ? "" : persistentSecret(dataDir, "backoffice-totp-key")),
    backofficeClock: Date.now,
    backofficeAdjustApprovalMinor: int(
      env,
      "BACKOFFICE_ADJUST_APPROVAL_MINOR",
      10_000,
      0,
      Number.MAX_SAFE_INTEGER,
    ),
    smtpUrl: str(env, "SMTP_URL"),
    mailFrom: str(env, "MAIL_FROM") ?? "Casino <no-reply@casino.example>",
    mailOutboxDir: str(env, "MAIL_OUTBOX_DIR") ?? join(dataDir, "outbox"),
    resetTokenTtlMinutes: int(env, "RESET_TOKEN_TTL_MINUTES", 60, 1, 60 * 24 * 7),
    confirmTokenTtlHours: int(env, "CONFIRM_TOKEN_TTL_HOURS", 48, 1, 24 * 90),
    rateLimitScale,
    rateLimits: scaleRateLimits(parseRateLimits(str(env, "RATE_LIMITS")), rateLimitScale),
    depositStartLimit: scaleLimit({ max: 30, windowSeconds: 600 }, rateLimitScale),
    analyticsLimit: scaleLimit({ max: 120, windowSeconds: 60 }, rateLimitScale),
    paymentCardCascade,
    paymentUsExcluded,
    paymentGateways,
    internalUrl: internalRaw.replace(/\/+$/, ""),
    depositExpiryMinutes: int(env, "DEPOSIT_EXPIRY_MINUTES", 60, 1, 24 * 60),
    depositSweepSeconds: int(env, "DEPOSIT_SWEEP_SECONDS", 60, 1, 3600),
    drainSettleSeconds: int(env, "DRAIN_SETTLE_SECONDS", nodeEnv === "production" ? 2 : 0, 0, 60),
    drainBoundSeconds: int(env, "DRAIN_BOUND_SECONDS", 20, 1, 600),
    ledgerCheckMinutes: int(env, "LEDGER_CHECK_MINUTES", 60, 0, 7 * 24 * 60),
    webhookToleranceSeconds: int(env, "WEBHOOK_TOLERANCE_SECONDS", 300, 1, 3600),
    settlementBatching: bool(env, "SETTLEMENT_BATCHING", true),
    gameProviders,
    gameCatalogueRefreshSeconds: int(env, "GAME_CATALOGUE_REFRESH_SECONDS", 300, 5, 86_400),
    gameLaunchLimit: scaleLimit({ max: 60, windowSeconds: 600 }, rateLimitScale),
    withdrawRequestLimit: scaleLimit({ max: 10, windowSeconds: 600 }, rateLimitScale),
    withdrawMaxEurCents: BigInt(int(env, "WITHDRAW_MAX_EUR", 400, 1, 10_000_000)) * 100n,
    withdrawDailyEurCents: BigInt(int(env, "WITHDRAW_DAILY_EUR", 2000, 1, 100_000_000)) * 100n,
    loyaltyAccrualSeconds: int(env, "LOYALTY_ACCRUAL_SECONDS", 60, 1, 3600),
    loyaltyJobs: true,
    withdrawConfirmations: int(env, "WITHDRAW_CONFIRMATIONS", 12, 1, 1000),
    withdrawPayoutPollSeconds: int(env, "WITHDRAW_PAYOUT_POLL_SECONDS", 15, 1, 3600),
    onrampWidgets,
    // The chain id and the USDT contract are parsed once, with the rest of the crypto settings
    // (server/crypto/config.ts).
    evmRpcUrl,
    evmChainId: crypto.evmChainId,
    evmUsdtContract: crypto.usdtContract,
    cryptoHotWalletKeyEth: hotWalletKey,
    crypto,
    chat: loadChatConfig(env),
    chatSendLimit: scaleLimit({ max: 20, windowSeconds: 60 }, rateLimitScale),
  }
  const problems = productionProblems(config)
  if (problems.length > 0)
    throw new ConfigError(
      `NODE_ENV=production refuses to start with what is only fit for a developer's machine:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    )
  return config
}
