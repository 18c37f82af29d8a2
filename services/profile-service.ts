/**
 * profile-service (spec section 7): the schemas of the player's account — profile, verification
 * documents, sessions, promo e-mail, self-exclusion, responsible-gaming limits — and of the fund
 * (wallet) list. The group is `api/profile-service.ts`; the rules are `profile-rules.ts`.
 */
import { Schema } from "effect"
import { WinUnlockConfig } from "./bonus-service.ts"
import { limitPeriods, realityCheckIntervals, selfExclusionPeriods } from "./profile-rules.ts"

/** Text a player types: bounded, and without control characters (PostgreSQL cannot store NUL). */
const Text = (max: number) =>
  Schema.String.check(
    Schema.isMaxLength(max),
    Schema.isPattern(/^[^\p{Cc}\p{Cs}]*$/u, { message: "control characters are not allowed" }),
  )

/** The most a free-text profile field may carry on the wire; the field's own limit is a rule. */
const WireText = Text(256)

/** A moment, ISO 8601 in UTC ("2026-11-23T10:15:00Z"). */
const Instant = Schema.String

/** An amount in integer minor units (EUR cents here) as a decimal string: never a float. */
export const MinorUnits = Schema.String.check(
  Schema.isPattern(/^(0|[1-9]\d{0,17})$/, { message: "an amount in cents, digits only" }),
)

export const Profile = Schema.Struct({
  email: Schema.String,
  confirmed: Schema.Boolean,
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  receiveEmailPromo: Schema.Boolean,
  idVerification: Schema.Struct({ verified: Schema.Boolean }),
  billVerification: Schema.Struct({ verified: Schema.Boolean }),
  userDetails: Schema.Struct({
    phone: Schema.Struct({
      phoneNumber: Schema.NullOr(Schema.String),
      dialingCode: Schema.NullOr(Schema.String),
    }),
    address: Schema.NullOr(Schema.String),
    address2: Schema.NullOr(Schema.String),
    nickName: Schema.NullOr(Schema.String),
    zipCode: Schema.NullOr(Schema.String),
    country: Schema.NullOr(Schema.String),
    city: Schema.NullOr(Schema.String),
    state: Schema.NullOr(Schema.String),
    gender: Schema.NullOr(Schema.Literals(["FEMALE", "MALE"])),
    /** Unix seconds. */
    dateOfBirth: Schema.NullOr(Schema.Int),
    receiveEmailPromo: Schema.Boolean,
  }),
  /**
   * The sign-in before the current session (registration counts as the first), so a player
   * notices a stranger: when, from which IP, and that IP's country as an ISO 3166-1
   * alpha-2 code (DEFAULT_COUNTRY for private addresses). null: no earlier sign-in.
   */
  lastLogin: Schema.NullOr(Schema.Struct({ at: Instant, ip: Schema.String, country: Schema.String })),
})
export type Profile = typeof Profile.Type

/**
 * PUT /profile (spec section 3: the updatable fields, plus first and last name, which the general
 * tab shows and registration does not ask). An absent field is left as it is; a field that already
 * has a value cannot be changed (ProfileFieldLocked) — sending its current value is harmless.
 *
 * The schema only bounds what travels (`WireText`): the rules themselves (lengths of
 * `TextLimits`, gender, country, zip, phone, date of birth) are checked by the server with the
 * functions of profile-rules.ts, so a refused field comes back as `ValidationFailed` naming the
 * field with a message of `ProfileMessages`, not as a bare schema error.
 */
export const UpdateProfilePayload = Schema.Struct({
  firstName: Schema.optional(Schema.NullOr(WireText)),
  lastName: Schema.optional(Schema.NullOr(WireText)),
  nickName: Schema.optional(Schema.NullOr(WireText)),
  /** Unix seconds of a UTC midnight, 1900-01-01 … 2005-12-31; null for the picker's placeholder. */
  dateOfBirth: Schema.optional(Schema.NullOr(Schema.Int)),
  /** "FEMALE" or "MALE" (`genders`). */
  gender: Schema.optional(Schema.NullOr(WireText)),
  /** Stored as given (an avatar id or URL); not part of the profile answer yet. */
  avatar: Schema.optional(Schema.NullOr(WireText)),
  /** ISO 3166-1 alpha-2 code of a country of the country-code list. */
  country: Schema.optional(Schema.NullOr(WireText)),
  city: Schema.optional(Schema.NullOr(WireText)),
  state: Schema.optional(Schema.NullOr(WireText)),
  /** What the player typed; with `dialingCode` ("356" or "+356"), split and checked by `splitPhone`. */
  phoneNumber: Schema.optional(Schema.NullOr(WireText)),
  dialingCode: Schema.optional(Schema.NullOr(WireText)),
  receiveEmailPromo: Schema.optional(Schema.Boolean),
  address: Schema.optional(Schema.NullOr(WireText)),
  address2: Schema.optional(Schema.NullOr(WireText)),
  zipCode: Schema.optional(Schema.NullOr(WireText)),
})
export type UpdateProfilePayload = typeof UpdateProfilePayload.Type

/** PUT /profile/receive-email: the promo e-mail switch, set (not flipped) so a retry is harmless. */
export const ReceiveEmailPayload = Schema.Struct({ receiveEmailPromo: Schema.Boolean })
export const ReceiveEmailResult = Schema.Struct({ receiveEmailPromo: Schema.Boolean })

/** DELETE /profile/unsubscribe/{id}: the unguessable id of a promo mail's unsubscribe link. */
export const UnsubscribeParams = Schema.Struct({ id: Text(128) })
export const UnsubscribeResult = Schema.Struct({ message: Schema.String, email: Schema.String })

// ── Verification documents ──────────────────────────────────────────────────────────────────
export const DocumentStatus = Schema.Literals(["NONE", "PENDING", "APPROVED", "REJECTED"])
export type DocumentStatus = typeof DocumentStatus.Type

/** GET/POST /profile/id-verification and /profile/bill-verification: the latest upload and its review. */
export const VerificationDocument = Schema.Struct({
  kind: Schema.Literals(["ID", "BILL"]),
  status: DocumentStatus,
  /** Set when REJECTED: what the player must do about it. */
  reason: Schema.NullOr(Schema.String),
  fileName: Schema.NullOr(Schema.String),
  /** image/jpeg, image/png or application/pdf, as detected from the content. */
  contentType: Schema.NullOr(Schema.String),
  size: Schema.NullOr(Schema.Int),
  uploadedAt: Schema.NullOr(Instant),
  reviewedAt: Schema.NullOr(Instant),
  /** The whole history, newest first (a rejected upload stays listed with its reason). */
  history: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      status: DocumentStatus,
      reason: Schema.NullOr(Schema.String),
      fileName: Schema.String,
      uploadedAt: Instant,
      reviewedAt: Schema.NullOr(Instant),
    }),
  ),
})
export type VerificationDocument = typeof VerificationDocument.Type

/** The upload limit of a verification document (also enforced while reading the request). */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024

// ── Sessions ────────────────────────────────────────────────────────────────────────────────
export const PlayerSession = Schema.Struct({
  id: Schema.String,
  /** e.g. "Chrome 131 on Linux", from the user agent. */
  browser: Schema.String,
  ip: Schema.String,
  /** ISO 3166-1 alpha-2 code of the IP at sign-in (DEFAULT_COUNTRY for private addresses). */
  country: Schema.String,
  createdAt: Instant,
  lastSeenAt: Instant,
  /** The session of the device that asks. */
  current: Schema.Boolean,
})
export type PlayerSession = typeof PlayerSession.Type
export const PlayerSessions = Schema.Array(PlayerSession)
export const SessionParams = Schema.Struct({ id: Text(64) })

// ── Self-exclusion ──────────────────────────────────────────────────────────────────────────
export const SelfExcludePayload = Schema.Struct({ selfExcludePeriod: Schema.Literals(selfExclusionPeriods) })
export const SelfExclusion = Schema.Struct({
  period: Schema.Literals(selfExclusionPeriods),
  /** null: permanent. */
  until: Schema.NullOr(Instant),
})

// ── Responsible gaming: deposit limits and the reality check ──────────────────────────────
const Limit = Schema.Struct({
  /** EUR cents; null = no limit. */
  amount: Schema.NullOr(MinorUnits),
  /** A raised (or removed) limit waits 24 hours: what will apply, and from when. */
  pending: Schema.NullOr(Schema.Struct({ amount: Schema.NullOr(MinorUnits), effectiveAt: Instant })),
  /** Deposited in the current window (EUR cents) and what is left under this limit. */
  used: MinorUnits,
  remaining: Schema.NullOr(MinorUnits),
})

export const ResponsibleGaming = Schema.Struct({
  currency: Schema.Literal("EUR"),
  depositLimits: Schema.Struct({ daily: Limit, weekly: Limit, monthly: Limit }),
  /** The tightest of the three, now (null = no limit): what the deposit flow allows. */
  remainingDeposit: Schema.NullOr(MinorUnits),
  /** Minutes between reality-check reminders; null = off. */
  realityCheckMinutes: Schema.NullOr(Schema.Literals(realityCheckIntervals)),
  selfExclusion: Schema.NullOr(SelfExclusion),
})
export type ResponsibleGaming = typeof ResponsibleGaming.Type

/**
 * The reality check of the session that asks (`GET`/`PUT …/profile/reality-check`): when it began,
 * when it last answered a reminder "Continue playing" (null: never; the PUT records the server's
 * own `now`), and the server's clock at the answer, so the browser can place both moments on its
 * own clock. The interval is `realityCheckMinutes` of the settings above.
 */
export const RealityCheckSession = Schema.Struct({
  signedInAt: Instant,
  acknowledgedAt: Schema.NullOr(Instant),
  now: Instant,
})
export type RealityCheckSession = typeof RealityCheckSession.Type

/** Absent: unchanged; null: no limit (removing one waits 24 hours, like a raise). */
export const UpdateResponsibleGamingPayload = Schema.Struct({
  depositLimits: Schema.optional(
    Schema.Struct({
      daily: Schema.optional(Schema.NullOr(MinorUnits)),
      weekly: Schema.optional(Schema.NullOr(MinorUnits)),
      monthly: Schema.optional(Schema.NullOr(MinorUnits)),
    }),
  ),
  realityCheckMinutes: Schema.optional(Schema.NullOr(Schema.Literals(realityCheckIntervals))),
})
export type UpdateResponsibleGamingPayload = typeof UpdateResponsibleGamingPayload.Type

export const LimitPeriodSchema = Schema.Literals(limitPeriods)

export const FundEntry = Schema.Struct({
  currency: Schema.String,
  default: Schema.Boolean,
  /** Integer minor units of the currency (see `subunits_to_unit`), as a decimal string. Never a float. */
  balance: Schema.String,
  /**
   * The wallet's bonus money (minor units): not withdrawable, played after the cash balance, converted
   * to cash once its wagering is met. Beyond the spec's fields; absent means 0.
   */
  bonusBalance: Schema.optional(Schema.String),
  /**
   * Free-spin winnings held for a deposit to unlock (docs/bonuses.md, "The free-spin wallet"); null
   * when there are none waiting in this currency.
   */
  freeSpinWallet: Schema.NullOr(
    Schema.Struct({
      winUnlockConfig: Schema.NullOr(WinUnlockConfig),
      /** The winnings held now, minor units. Beyond the spec's fields; absent means 0. */
      balance: Schema.optional(Schema.String),
    }),
  ),
})
export type FundEntry = typeof FundEntry.Type

export const Fund = Schema.Array(FundEntry)
export type Fund = typeof Fund.Type
