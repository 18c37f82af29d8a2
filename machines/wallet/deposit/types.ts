/**
 * What the deposit dialog's machines hand each other: the dialog's input (from the modal host), the
 * order the amount step leaves and the payment step pays, each step's input and output, and the
 * shapes of the calls. The dialog is machines/wallet/deposit.machine.ts; its steps are beside this file.
 */
import type { Promotion } from "../../../services/bonus-service.ts"
import type { Currencies, SiteConfig } from "../../../services/cdn.ts"
import { type FiatMethod, MoneyMessages, type PaymentConfig } from "../../../services/money-rules.ts"
import type { ProfileField } from "../../../services/profile-rules.ts"
import type { Fund, Profile } from "../../../services/profile-service.ts"
import type {
  DepositMinimums,
  FiatPayment,
  GatewaySegment,
  TotalDeposits,
} from "../../../services/wallet-service.ts"
import type { AmountState, WalletOutput } from "../support.ts"

export type JetonTab = "Checkout" | "QR" | "Cash"

/** The payment whose frame just closed without a credit: the dialog reopens on its outcome. */
export interface DepositCheck {
  readonly depositId: string
  readonly currency: string
}

export interface DepositInput {
  readonly currencies: Currencies
  readonly siteConfig: SiteConfig
  /** The session's profile (what the methods need is checked against it). */
  readonly profile: Profile | null
  /** The session's wallets: the amount step starts in the default one's currency. */
  readonly fund: Fund | null
  /**
   * The payment whose frame just closed without a credit: the dialog reopens on its outcome
   * (declined with the reason, or expired) with Try again and Choose another method. Absent: a new deposit.
   */
  readonly check?: DepositCheck | null
}

/**
 * How the payment of a reopened dialog ended: its deposit, the minimums its retry needs, and the
 * profile as saved now (the host's copy predates a completion on the way; null: keep that copy).
 */
export interface PaymentOutcome {
  readonly deposit: FiatPayment | null
  readonly minimums: DepositMinimums | null
  readonly profile: Profile | null
}

/**
 * What the amount step loads once: the wallets, the completed deposits (the bonus tier) and the
 * offer for this deposit (null: none, the player opted out, or the offers could not be read).
 */
export interface DepositBasics {
  readonly fund: Fund
  readonly totals: TotalDeposits
  readonly offer: Promotion | null
}

/** Which of the basics failed, for the spec's message of each. */
export class BasicsFailed extends Error {
  readonly _tag = "BasicsFailed"
  readonly part: "fund" | "totals"
  override readonly cause: unknown
  constructor(part: "fund" | "totals", cause: unknown) {
    super(part === "fund" ? MoneyMessages.fundFailed : MoneyMessages.totalDepositsFailed)
    this.part = part
    this.cause = cause
  }
}

/** One deposit call, by method. */
export type PayRequest =
  | { readonly kind: "gateway"; readonly gateway: GatewaySegment; readonly body: PayBody }
  | { readonly kind: "skrill"; readonly body: PayBody }
  | { readonly kind: "jeton"; readonly tab: JetonTab; readonly body: PayBody; readonly email: string }

export interface PayBody {
  readonly amount: string
  readonly currency: string
  readonly promotionCoupon: string | null
  readonly language: string
}

/**
 * The deposit as the amount step leaves it and the payment step pays it: the amount in its currency
 * (with the minimums and the offer it was checked against), the bonus choice, and the cookie's copy.
 */
export interface DepositOrder extends AmountState {
  readonly couponOpen: boolean
  readonly coupon: string
  /** The player's choice on the amount step: take the offer with this deposit, or no bonus. */
  readonly takeBonus: boolean
  /** The payment_config cookie's copy: the amount as typed, the currency, the coupon, failed gateways. */
  readonly config: PaymentConfig
}

// ── The amount step (depositAmount.machine.ts) ────────────────────────────────────────────────

export interface AmountInput extends DepositOrder {
  /** The wallets as last known (read again as the step opens). */
  readonly fund: Fund | null
  /** Why the dialog came back to the amount step (a refused deposit, a wallet not added), or null. */
  readonly message: string | null
}

/**
 * The amount step's fields out of a larger context (the dialog's, or the step's own with its
 * bookkeeping): what the dialog hands the step and what the step hands back.
 */
export const amountFieldsOf = (context: AmountInput): AmountInput => ({
  currencies: context.currencies,
  currency: context.currency,
  amountText: context.amountText,
  minimums: context.minimums,
  depositCount: context.depositCount,
  offer: context.offer,
  couponOpen: context.couponOpen,
  coupon: context.coupon,
  takeBonus: context.takeBonus,
  config: context.config,
  fund: context.fund,
  message: context.message,
})

/** How the amount step ends: "Play with" passed, a crypto currency chosen, or the session is gone. */
export type AmountEnd = "play" | "crypto" | "sessionEnded"

export interface AmountOutput {
  readonly end: AmountEnd
  /** The step as the player left it: the dialog keeps it for the way back. */
  readonly step: AmountInput
  /** The crypto currency chosen (end "crypto"); null otherwise. */
  readonly cryptoCurrency: string | null
}

// ── The profile completion step (depositProfile.machine.ts) ───────────────────────────────────

export interface ProfileStepInput {
  readonly profile: Profile | null
  /** The method chosen: the fields it needs that the profile lacks are asked. */
  readonly method: FiatMethod | null
  /** The fields the server asked for instead (its ProfileIncomplete answer to a deposit call). */
  readonly fields: ReadonlyArray<ProfileField> | null
}

/** `complete`: nothing was missing, or the form saved (the profile as saved now). */
export type ProfileStepOutput =
  | { readonly type: "complete"; readonly profile: Profile | null }
  | { readonly type: "sessionEnded" }
  | { readonly type: "failed" }

// ── The method choice and the payment (depositPayment.machine.ts) ─────────────────────────────

export interface PaymentInput extends DepositOrder {
  readonly language: string
  readonly profile: Profile | null
  /** Try again with this method (a declined or expired payment); null: the player picks from the list. */
  readonly method: FiatMethod | null
  readonly jetonTab: JetonTab
  /** The message shown above the method list, or null. */
  readonly message: string | null
}

/** Where the payment step ends: the provider's page, the session gone, or back to the amount step. */
export type PaymentEnd =
  | Extract<WalletOutput, { readonly type: "frame" }>
  | { readonly type: "sessionEnded" }
  | { readonly type: "amount" }

export interface PaymentOutput {
  readonly end: PaymentEnd
  /** For the amount step: why the deposit was refused (limit, minimum), or null. */
  readonly message: string | null
  /** The profile as saved on the way (the completion step), for the next attempt. */
  readonly profile: Profile | null
  /** The cookie's copy with the gateways marked failed on the way. */
  readonly config: PaymentConfig
}
