/**
 * The deposit dialog's shapes: its input (from the modal host), the order it builds and pays, and the
 * shapes of the calls. The dialog is machines/wallet/deposit.machine.ts.
 */
import type { Promotion } from "../../../services/bonus-service.ts"
import type { Currencies, SiteConfig } from "../../../services/cdn.ts"
import { MoneyMessages, type PaymentConfig } from "../../../services/money-rules.ts"
import type { Fund, Profile } from "../../../services/profile-service.ts"
import type {
  DepositMinimums,
  FiatPayment,
  GatewaySegment,
  TotalDeposits,
} from "../../../services/wallet-service.ts"
import type { AmountState } from "../support.ts"

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
