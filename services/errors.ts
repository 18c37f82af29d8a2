/**
 * Wire errors of the contract: one tagged class per row of the spec's error catalogue (section 8)
 * that the server can cause. The status lives on the class, so the server answers it and the
 * derived client decodes the same class back (`Effect.catchTag` works on both sides).
 */
import { Schema } from "effect"

/** No valid session cookie. */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()(
  "Unauthenticated",
  { message: Schema.String },
  { httpApiStatus: 401 },
) {}

/** Sign-in with a wrong e-mail or password (spec: 'Either username or password is incorrect'). */
export class InvalidCredentials extends Schema.TaggedError<InvalidCredentials>()(
  "InvalidCredentials",
  { message: Schema.String },
  { httpApiStatus: 401 },
) {}

/** A locked account, or an e-mail of a blocked domain at sign-in (spec: status 423). */
export class AccountLocked extends Schema.TaggedError<AccountLocked>()(
  "AccountLocked",
  { message: Schema.String },
  { httpApiStatus: 423 },
) {}

/** An active self-exclusion or cool-off period (spec: status 451). `until` is ISO-8601, null = indefinite. */
export class SelfExcluded extends Schema.TaggedError<SelfExcluded>()(
  "SelfExcluded",
  { message: Schema.String, until: Schema.NullOr(Schema.String) },
  { httpApiStatus: 451 },
) {}

/** The request comes from a country on the restricted list. */
export class CountryRestricted extends Schema.TaggedError<CountryRestricted>()(
  "CountryRestricted",
  { message: Schema.String, isoCode: Schema.String },
  { httpApiStatus: 403 },
) {}

/** The captcha payload is missing, wrong, expired or already used. */
export class CaptchaFailed extends Schema.TaggedError<CaptchaFailed>()(
  "CaptchaFailed",
  { message: Schema.String, reason: Schema.Literals(["missing", "invalid", "expired", "replayed"]) },
  { httpApiStatus: 400 },
) {}

/** Too many attempts; the server also sends a `Retry-After` header with the same number. */
export class RateLimited extends Schema.TaggedError<RateLimited>()(
  "RateLimited",
  { message: Schema.String, retryAfterSeconds: Schema.Int },
  { httpApiStatus: 429 },
) {}

/** Registration with an e-mail that already has an account (spec: 409). */
export class EmailTaken extends Schema.TaggedError<EmailTaken>()(
  "EmailTaken",
  { message: Schema.String },
  { httpApiStatus: 409 },
) {}

/** Registration with an e-mail of a blocked domain (spec: 'Something went wrong contact support'). */
export class RegistrationRefused extends Schema.TaggedError<RegistrationRefused>()(
  "RegistrationRefused",
  { message: Schema.String },
  { httpApiStatus: 403 },
) {}

/** A payload that passed the schema but breaks a business rule (spec: 'Registration is not complete…'). */
export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()(
  "ValidationFailed",
  { message: Schema.String, field: Schema.String },
  { httpApiStatus: 400 },
) {}

/** A new password that is too short or one of the last five (spec's server message). */
export class PasswordRejected extends Schema.TaggedError<PasswordRejected>()(
  "PasswordRejected",
  { message: Schema.String },
  { httpApiStatus: 400 },
) {}

/** change-password with a wrong current password. */
export class IncorrectPassword extends Schema.TaggedError<IncorrectPassword>()(
  "IncorrectPassword",
  { message: Schema.String },
  { httpApiStatus: 403 },
) {}

/** A reset or confirmation token that is unknown, used or expired (all look the same on purpose). */
export class InvalidToken extends Schema.TaggedError<InvalidToken>()(
  "InvalidToken",
  { message: Schema.String },
  { httpApiStatus: 410 },
) {}

/** Resend of the confirmation mail for an account that is already confirmed. */
export class AlreadyConfirmed extends Schema.TaggedError<AlreadyConfirmed>()(
  "AlreadyConfirmed",
  { message: Schema.String },
  { httpApiStatus: 409 },
) {}

/** A profile field that already has a value cannot be changed by the player (spec section 4). */
export class ProfileFieldLocked extends Schema.TaggedError<ProfileFieldLocked>()(
  "ProfileFieldLocked",
  { message: Schema.String, fields: Schema.Array(Schema.String) },
  { httpApiStatus: 409 },
) {}

/** A verification upload that is not a JPEG, PNG or PDF by its content (whatever its name says). */
export class DocumentUnsupported extends Schema.TaggedError<DocumentUnsupported>()(
  "DocumentUnsupported",
  { message: Schema.String },
  { httpApiStatus: 415 },
) {}

/** A verification upload above the size limit. */
export class DocumentTooLarge extends Schema.TaggedError<DocumentTooLarge>()(
  "DocumentTooLarge",
  { message: Schema.String, maxBytes: Schema.Int },
  { httpApiStatus: 413 },
) {}

/** A new upload of a document that is already approved, or still waiting for review. */
export class DocumentLocked extends Schema.TaggedError<DocumentLocked>()(
  "DocumentLocked",
  { message: Schema.String, status: Schema.Literals(["PENDING", "APPROVED"]) },
  { httpApiStatus: 409 },
) {}

/** A session id that is not one of the caller's live sessions (never says whose it is). */
export class SessionNotFound extends Schema.TaggedError<SessionNotFound>()(
  "SessionNotFound",
  { message: Schema.String },
  { httpApiStatus: 404 },
) {}

/** A self-exclusion may be extended, never shortened: `until` is the current end (null = permanent). */
export class ExclusionNotShortened extends Schema.TaggedError<ExclusionNotShortened>()(
  "ExclusionNotShortened",
  { message: Schema.String, until: Schema.NullOr(Schema.String) },
  { httpApiStatus: 409 },
) {}

/** An unsubscribe link that is unknown (links of deleted accounts included). */
export class UnsubscribeLinkInvalid extends Schema.TaggedError<UnsubscribeLinkInvalid>()(
  "UnsubscribeLinkInvalid",
  { message: Schema.String },
  { httpApiStatus: 404 },
) {}

// ── money in ──────────────────────────────────────────────────────────────────────────

/** A currency the casino does not offer (or not for this call: a crypto code on a fiat method). */
export class CurrencyNotSupported extends Schema.TaggedError<CurrencyNotSupported>()(
  "CurrencyNotSupported",
  { message: Schema.String, currency: Schema.String },
  { httpApiStatus: 400 },
) {}

/** Adding a wallet the player already has. */
export class WalletExists extends Schema.TaggedError<WalletExists>()(
  "WalletExists",
  { message: Schema.String, currency: Schema.String },
  { httpApiStatus: 409 },
) {}

/** Making a currency the default (or depositing in it) without a wallet in it. */
export class WalletNotFound extends Schema.TaggedError<WalletNotFound>()(
  "WalletNotFound",
  { message: Schema.String, currency: Schema.String },
  { httpApiStatus: 404 },
) {}

/** A deposit below the currency's minDeposit, or below the 10 EUR gateway gate. Amounts in minor units. */
export class DepositBelowMinimum extends Schema.TaggedError<DepositBelowMinimum>()(
  "DepositBelowMinimum",
  { message: Schema.String, minimum: Schema.String, currency: Schema.String },
  { httpApiStatus: 422 },
) {}

/** A deposit above what the player's own deposit limit still allows; `remaining` in EUR cents. */
export class DepositLimitExceeded extends Schema.TaggedError<DepositLimitExceeded>()(
  "DepositLimitExceeded",
  { message: Schema.String, remaining: Schema.String },
  { httpApiStatus: 422 },
) {}

/** The method needs profile fields the player has not filled in yet (spec section 5). */
export class ProfileIncomplete extends Schema.TaggedError<ProfileIncomplete>()(
  "ProfileIncomplete",
  { message: Schema.String, fields: Schema.Array(Schema.String) },
  { httpApiStatus: 409 },
) {}

/**
 * The gateway refused to start this payment (down, amount or country rules) or is not enabled for
 * this player: the cascade marks it 'Failed to process' and tries the next one.
 */
export class GatewayUnavailable extends Schema.TaggedError<GatewayUnavailable>()(
  "GatewayUnavailable",
  { message: Schema.String, gateway: Schema.String },
  { httpApiStatus: 502 },
) {}

/** A signed-in player with an active self-exclusion cannot pay in (sign-in refuses them anyway). */
export class PaymentsBlocked extends Schema.TaggedError<PaymentsBlocked>()(
  "PaymentsBlocked",
  { message: Schema.String },
  { httpApiStatus: 403 },
) {}

// ── games ─────────────────────────────────────────────────────────────────────────────

/** A game id (or favorite) the catalogue does not have, or a launch whose fields do not match it. */
export class GameNotFound extends Schema.TaggedError<GameNotFound>()(
  "GameNotFound",
  { message: Schema.String, id: Schema.String },
  { httpApiStatus: 404 },
) {}

/** Real-money play refused: self-excluded, or no wallet in a currency the game takes. */
export class PlayBlocked extends Schema.TaggedError<PlayBlocked>()(
  "PlayBlocked",
  { message: Schema.String, reason: Schema.Literals(["excluded", "currency", "demo-only"]) },
  { httpApiStatus: 403 },
) {}

/** A round id that is not one of the caller's rounds (never says whose it is). */
export class RoundNotFound extends Schema.TaggedError<RoundNotFound>()(
  "RoundNotFound",
  { message: Schema.String, roundId: Schema.String },
  { httpApiStatus: 404 },
) {}

/** The game's provider did not answer the launch: try again later. */
export class GameUnavailable extends Schema.TaggedError<GameUnavailable>()(
  "GameUnavailable",
  { message: Schema.String, provider: Schema.String },
  { httpApiStatus: 503 },
) {}

// ── crypto deposits and money out ──────────────────────────────────────────

/** A withdrawal before the player's identity and address documents are both verified (spec section 6). */
export class VerificationRequired extends Schema.TaggedError<VerificationRequired>()(
  "VerificationRequired",
  { message: Schema.String },
  { httpApiStatus: 403 },
) {}

/** A withdrawal below minWithdraw or above the per-request maximum. Amounts in minor units. */
export class WithdrawAmountOutOfRange extends Schema.TaggedError<WithdrawAmountOutOfRange>()(
  "WithdrawAmountOutOfRange",
  { message: Schema.String, minimum: Schema.String, maximum: Schema.String, currency: Schema.String },
  { httpApiStatus: 422 },
) {}

/** A withdrawal above what the daily cap still allows today (UTC); `remaining` in minor units. */
export class WithdrawDailyLimitReached extends Schema.TaggedError<WithdrawDailyLimitReached>()(
  "WithdrawDailyLimitReached",
  { message: Schema.String, remaining: Schema.String, currency: Schema.String },
  { httpApiStatus: 422 },
) {}

/** A withdrawal above the withdrawable amount (spec: the not-enough-money message). */
export class NotEnoughMoney extends Schema.TaggedError<NotEnoughMoney>()(
  "NotEnoughMoney",
  { message: Schema.String, withdrawable: Schema.String, currency: Schema.String },
  { httpApiStatus: 409 },
) {}

/** A payout address that is not valid for the currency's chain (format or checksum). */
export class InvalidAddress extends Schema.TaggedError<InvalidAddress>()(
  "InvalidAddress",
  { message: Schema.String, currency: Schema.String },
  { httpApiStatus: 422 },
) {}

/** A withdrawal id the player (or operator) does not have, or one not in a state the action needs. */
export class WithdrawalNotFound extends Schema.TaggedError<WithdrawalNotFound>()(
  "WithdrawalNotFound",
  { message: Schema.String, id: Schema.String },
  { httpApiStatus: 404 },
) {}

/** A promotion or bonus id the player cannot act on: unknown, or not theirs. */
export class PromotionNotFound extends Schema.TaggedError<PromotionNotFound>()(
  "PromotionNotFound",
  { message: Schema.String, id: Schema.String },
  { httpApiStatus: 404 },
) {}

/**
 * A bonus code that grants nothing now, with the reason the player is told: unknown, not started or
 * ended, used up, already used by this player, not for this currency, or not for this deposit.
 */
export class CouponRejected extends Schema.TaggedError<CouponRejected>()(
  "CouponRejected",
  {
    message: Schema.String,
    reason: Schema.Literals(["unknown", "expired", "used-up", "already-used", "currency", "not-eligible"]),
  },
  { httpApiStatus: 422 },
) {}

/** An offer the player may not take now (another bonus is active in that currency, or offers are off). */
export class PromotionUnavailable extends Schema.TaggedError<PromotionUnavailable>()(
  "PromotionUnavailable",
  { message: Schema.String, id: Schema.String },
  { httpApiStatus: 409 },
) {}

/**
 * A withdrawal in a currency with an active bonus, not confirmed: cashing out forfeits the bonus
 * (its bonus money, `bonusBalance` in minor units, goes back to the casino). The player confirms
 * by sending the request again with `forfeitBonus: true`.
 */
export class BonusForfeitRequired extends Schema.TaggedError<BonusForfeitRequired>()(
  "BonusForfeitRequired",
  {
    message: Schema.String,
    currency: Schema.String,
    bonusId: Schema.String,
    name: Schema.String,
    bonusBalance: Schema.String,
  },
  { httpApiStatus: 409 },
) {}
