/**
 * Money in: the schemas of the wallet, rate, deposit and analytics calls. The groups are
 * `api/wallet-service.ts`; the rules both sides apply are `money-rules.ts` (amounts, minimums, the
 * gateway gate, profile data per method) and `bonus-rules.ts` (the promotion tiers of section 9).
 *
 * Every amount on the wire is an integer in the currency's minor unit (`subunits_to_unit`: cents,
 * satoshi, wei) as a decimal string — never a float. A rate is an exact decimal string.
 */
import { Schema } from "effect"

/** A currency code as the currency list spells it (EUR, BTC, DOG, USDT). */
export const CurrencyCode = Schema.String.check(
  Schema.isPattern(/^[A-Z0-9]{2,10}$/, { message: "a currency code, e.g. EUR" }),
)

/** An amount in integer minor units of its currency, as a decimal string (at most 38 digits). */
export const Amount = Schema.String.check(
  Schema.isPattern(/^(0|[1-9]\d{0,37})$/, { message: "an amount in minor units, digits only" }),
)

/** A positive amount in minor units. */
export const PositiveAmount = Schema.String.check(
  Schema.isPattern(/^[1-9]\d{0,37}$/, { message: "a positive amount in minor units, digits only" }),
)

/**
 * An exact decimal (a rate): digits, optionally a point and up to 18 decimals. "1", "0.92",
 * "0.000000123". Parsed with `money-rules.parseDecimal`, never with `Number`.
 */
export const Decimal = Schema.String.check(
  Schema.isPattern(/^\d{1,20}(\.\d{1,18})?$/, { message: "an exact decimal, e.g. 0.92" }),
)

/** A moment, ISO 8601 in UTC. */
const Instant = Schema.String

/** Short free text a client sends (language tag, coupon). */
const Short = (max: number) =>
  Schema.String.check(
    Schema.isMaxLength(max),
    Schema.isPattern(/^[^\p{Cc}\p{Cs}]*$/u, { message: "control characters are not allowed" }),
  )

// ── wallets ──────────────────────────────────────────────────────────────────────────────────────

/** POST / PUT /profile/currency: add a wallet / make it the default. */
export const CurrencyPayload = Schema.Struct({ currency: CurrencyCode })
export type CurrencyPayload = typeof CurrencyPayload.Type

export const CurrencyParams = Schema.Struct({ currency: Schema.String })

/**
 * GET /rate/deposit/{currency} (the spec's deposit-minimums call, whose path it does not show):
 * what a deposit in this currency must reach, in its minor units, and what one whole unit is worth
 * in euros.
 */
export const DepositMinimums = Schema.Struct({
  currency: CurrencyCode,
  /** The smallest deposit that earns the promotion of its tier. */
  minPromotion: Amount,
  /** The smallest deposit accepted. */
  minDeposit: Amount,
  /** EUR per one whole unit of the currency ("1" for EUR). */
  eurRate: Decimal,
})
export type DepositMinimums = typeof DepositMinimums.Type

/**
 * GET /rate/limit/{currency}: the smallest withdrawal, in the currency's minor units; also the largest
 * one request may be and the daily cap (both configured in EUR, converted at the currency's rate).
 */
export const WithdrawLimits = Schema.Struct({
  currency: CurrencyCode,
  minWithdraw: Amount,
  maxWithdraw: Amount,
  dailyLimit: Amount,
})
export type WithdrawLimits = typeof WithdrawLimits.Type

// ── deposits ─────────────────────────────────────────────────────────────────────────────────────

/** The card gateways of `POST /profile/{gateway}/deposit` (spec section 7), mifinity aside. */
export const cardGateways = [
  "brpay",
  "paypound",
  "paystudio",
  "payweb",
  "ikajo",
  "pgpaytech",
  "devcode",
  "kluwp",
  "ems",
] as const
export type CardGateway = (typeof cardGateways)[number]

/** Every segment `POST /profile/{gateway}/deposit` takes: the card gateways and MiFinity. */
export const gatewaySegments = [...cardGateways, "mifinity"] as const
export type GatewaySegment = (typeof gatewaySegments)[number]

export const GatewayParams = Schema.Struct({ gateway: Schema.Literals(gatewaySegments) })

/** GET /profile/payment/gateways: the enabled card gateways, in cascade order. */
export const Gateways = Schema.Array(Schema.Literals(cardGateways))
export type Gateways = typeof Gateways.Type

/** POST /profile/{gateway}/deposit (mifinity also carries `language`). */
export const GatewayDepositPayload = Schema.Struct({
  amount: PositiveAmount,
  currency: CurrencyCode,
  promotionCoupon: Schema.optional(Schema.NullOr(Short(64))),
  language: Schema.optional(Short(16)),
})
export type GatewayDepositPayload = typeof GatewayDepositPayload.Type

/** POST /profile/skrill/deposit. `paymentMethods` narrows Skrill's page (e.g. "WLT"). */
export const SkrillDepositPayload = Schema.Struct({
  amount: PositiveAmount,
  currency: CurrencyCode,
  language: Short(16),
  paymentMethods: Schema.optional(Schema.NullOr(Short(64))),
  promotionCoupon: Schema.optional(Schema.NullOr(Short(64))),
})
export type SkrillDepositPayload = typeof SkrillDepositPayload.Type

export const jetonTypes = ["Checkout", "QR"] as const
export const JetonParams = Schema.Struct({ type: Schema.Literals(jetonTypes) })

/** POST /profile/jeton/{type}/deposit. */
export const JetonDepositPayload = Schema.Struct({
  email: Short(254),
  amount: PositiveAmount,
  currency: CurrencyCode,
  promotionCoupon: Schema.optional(Schema.NullOr(Short(64))),
  language: Short(16),
})
export type JetonDepositPayload = typeof JetonDepositPayload.Type

/** POST /profile/jeton/cash/deposit. */
export const JetonCashDepositPayload = Schema.Struct({
  amount: PositiveAmount,
  currency: CurrencyCode,
  promotionCoupon: Schema.optional(Schema.NullOr(Short(64))),
  language: Short(16),
})
export type JetonCashDepositPayload = typeof JetonCashDepositPayload.Type

/**
 * What a deposit call answers (spec: "redirectUrl, qr, initializationToken"): the page to open in
 * the iframe modal, or a QR payload, or a token for MiFinity's embedded widget. `depositId` names
 * the deposit in the history and in the server's push events.
 */
export const DepositResponse = Schema.Struct({
  depositId: Schema.String,
  redirectUrl: Schema.NullOr(Schema.String),
  qr: Schema.NullOr(Schema.String),
  initializationToken: Schema.NullOr(Schema.String),
})
export type DepositResponse = typeof DepositResponse.Type

export const depositStatuses = ["initiated", "pending", "completed", "failed", "expired"] as const
export type DepositStatus = (typeof depositStatuses)[number]

export const depositMethods = ["card", "skrill", "jeton", "jeton-cash", "mifinity"] as const
export type DepositMethod = (typeof depositMethods)[number]

/** One completed deposit, for the bonus tier (its count) and the responsible-gaming totals. */
export const CompletedDeposit = Schema.Struct({
  id: Schema.String,
  amount: Amount,
  currency: CurrencyCode,
  /** The amount in EUR cents at the rate of the day it was credited. */
  amountInEur: Amount,
  completedAt: Instant,
})

/** GET /profile/payment/total-deposits: "a deposits list; its length drives the bonus tier". */
export const TotalDeposits = Schema.Struct({ deposits: Schema.Array(CompletedDeposit) })
export type TotalDeposits = typeof TotalDeposits.Type

export const historyTypes = ["deposit", "withdraw"] as const
export const HistoryParams = Schema.Struct({ type: Schema.Literals(historyTypes) })

/** `from` / `to`: calendar days (yyyy-mm-dd, UTC), both inclusive; absent = the last 30 days. */
export const HistoryQuery = Schema.Struct({
  from: Schema.optional(Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/))),
  to: Schema.optional(Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/))),
})
export type HistoryQuery = typeof HistoryQuery.Type

/** GET /profile/fiat/{type}: one payment of the player, newest first. */
export const FiatPayment = Schema.Struct({
  id: Schema.String,
  method: Schema.Literals(depositMethods),
  /** The gateway or e-wallet that carried it (a card gateway's code, "skrill", …). */
  provider: Schema.String,
  amount: Amount,
  currency: CurrencyCode,
  status: Schema.Literals(depositStatuses),
  /** Why a payment failed, in the provider's words when it gave any. */
  reason: Schema.NullOr(Schema.String),
  createdAt: Instant,
  updatedAt: Instant,
})
export type FiatPayment = typeof FiatPayment.Type
export const FiatHistory = Schema.Array(FiatPayment)
export type FiatHistory = typeof FiatHistory.Type

// ── analytics ────────────────────────────────────────────────────────────────────────────────────

/** POST /api/analytics/events: the casino's own first-party event store (spec: deposit method clicks). */
export const analyticsEventNames = ["deposit_method_click"] as const
export const AnalyticsEvent = Schema.Struct({
  name: Schema.Literals(analyticsEventNames),
  /** Flat string properties, e.g. { method: "card", currency: "EUR" }. */
  properties: Schema.Record(Schema.String.check(Schema.isMaxLength(40)), Short(120)).check(
    Schema.isMaxProperties(10),
  ),
})
export type AnalyticsEvent = typeof AnalyticsEvent.Type

// ── push events (GET /api/events, server-sent) ───────────────────────────────────────────────────

/**
 * What the server pushes to a signed-in player's open pages (one SSE stream per page): a wallet's
 * new balance, and a deposit's new status. Encoded as the `data:` of an event named by `type`.
 */
export const PlayerEvent = Schema.Union([
  // `bonusBalance`: the wallet's bonus money, sent when it changed (a bet or win with a bonus, a
  // grant, a forfeit or conversion); absent: unchanged.
  Schema.Struct({
    type: Schema.Literal("balance"),
    currency: CurrencyCode,
    balance: Amount,
    bonusBalance: Schema.optional(Amount),
  }),
  Schema.Struct({
    type: Schema.Literal("deposit"),
    depositId: Schema.String,
    status: Schema.Literals(depositStatuses),
    amount: Amount,
    currency: CurrencyCode,
  }),
  // Crypto deposits: a transfer to the player's address, seen, confirming, credited.
  Schema.Struct({
    type: Schema.Literal("cryptoDeposit"),
    id: Schema.String,
    currency: CurrencyCode,
    txHash: Schema.String,
    amount: Amount,
    confirmations: Schema.Int,
    requiredConfirmations: Schema.Int,
    status: Schema.String,
  }),
  // Money out: a withdrawal moved to a new status.
  Schema.Struct({
    type: Schema.Literal("withdrawal"),
    id: Schema.String,
    currency: CurrencyCode,
    amount: Amount,
    status: Schema.String,
  }),
  // The reality check: a page of this player answered a reminder. The answer is kept per
  // sign-in, so the player's other pages read their own session's state again rather than trust this.
  Schema.Struct({ type: Schema.Literal("realityCheck"), acknowledgedAt: Schema.String }),
  // Loyalty: the player reached a higher level (docs/loyalty.md); the page says so in a toast.
  Schema.Struct({ type: Schema.Literal("loyalty"), level: Schema.Int, name: Schema.String }),
])
export type PlayerEvent = typeof PlayerEvent.Type
