/**
 * Profile and responsible-gaming rules (spec sections 3, 4, 5 and 9): which fields a
 * player may still fill, the date of birth, postal code and phone rules, the profile data each
 * deposit method needs, self-exclusion periods and deposit limits. Pure: the profile form and the
 * responsible-gaming views use them as named guards, the server re-checks with the same functions,
 * and tests/property exercise them. Phone numbers are parsed with libphonenumber-js on both sides
 * (the same metadata, so both sides agree on every number).
 */
import { getCountries, getCountryCallingCode, parsePhoneNumberWithError } from "libphonenumber-js/min"

// ── Messages (spec section 8 verbatim, and the ones the spec leaves open: docs/decisions.md) ──
export const ProfileMessages = {
  saved: "Profile saved",
  saveFailed: "Profile save failed!!!",
  subscribed: "You are subscribed",
  unsubscribed: "You are unsubscribed",
  required: "required",
  zipTooLong: "Postal code is at most 7 characters",
  dateOfBirthRange: "Date of birth must be between 1900-01-01 and 2005-12-31",
  phoneNotANumber: "Please enter the phone number in digits",
  phoneTooShort: "This phone number is too short",
  phoneTooLong: "This phone number is too long",
  phoneInvalidCountry: "Choose the country calling code of this number",
  phoneInvalid: "This phone number is not valid for the chosen calling code",
  fieldLocked: "This detail is already set; contact support to change it",
  genderInvalid: "Choose Female or Male",
  countryUnknown: "Choose a country from the list",
  textTooLong: (max: number) => `At most ${max} characters`,
  zipInvalid: "Use letters, digits, spaces and hyphens only",
  nameInvalid: "Use letters only (spaces, hyphens and apostrophes between them are fine)",
  phoneIncomplete: "Enter both the country calling code and the number",
  limitTooSmall: "A deposit limit must be at least 1.00 EUR",
  limitTooLarge: "A deposit limit must be at most 10,000,000.00 EUR",
  limitOrder: (lower: string, higher: string) =>
    `The ${lower} limit cannot be higher than the ${higher} limit`,
  exclusionConfirm: "You will be signed out everywhere and cannot sign in until the period ends.",
  exclusionNotShortened: "Your current exclusion ends later; it cannot be shortened.",
  limitIncreaseDelayed: "An increase takes effect after 24 hours.",
} as const

// ── Fields ─────────────────────────────────────────────────────────────────────────────────
/** The general tab's fields (spec section 2), in the order the form shows them. */
export const profileFields = [
  "email",
  "firstName",
  "lastName",
  "nickName",
  "dateOfBirth",
  "gender",
  "country",
  "phone",
  "city",
  "state",
  "address",
  "address2",
  "zipCode",
] as const
export type ProfileField = (typeof profileFields)[number]

/** The values the rules look at; `dateOfBirth` in unix seconds (spec section 3). */
export interface ProfileValues {
  readonly email: string
  readonly firstName: string | null
  readonly lastName: string | null
  readonly nickName: string | null
  readonly dateOfBirth: number | null
  readonly gender: Gender | null
  readonly country: string | null
  readonly phoneNumber: string | null
  readonly dialingCode: string | null
  readonly city: string | null
  readonly state: string | null
  readonly address: string | null
  readonly address2: string | null
  readonly zipCode: string | null
}

const filled = (value: string | number | null): boolean =>
  value !== null && (typeof value === "number" || value.trim() !== "")

/** Whether the profile already has a value for this field (both phone parts for `phone`). */
export const hasValue = (profile: ProfileValues, field: ProfileField): boolean => {
  switch (field) {
    case "phone":
      return filled(profile.phoneNumber) && filled(profile.dialingCode)
    default:
      return filled(profile[field])
  }
}

/**
 * Spec section 4: fields that already have a value come back read-only; the e-mail always is.
 * Phone is read-only (shown as the full number) when both its parts exist.
 */
export const isReadOnly = (profile: ProfileValues, field: ProfileField): boolean =>
  field === "email" || hasValue(profile, field)

/** Text limits of the free-text fields (the database has the same CHECKs). */
export const TextLimits = {
  firstName: 50,
  lastName: 50,
  nickName: 32,
  city: 64,
  state: 64,
  address: 128,
  address2: 128,
  zipCode: 7,
} as const

// ── Date of birth ───────────────────────────────────────────────────────────────────────────
/** Spec section 5: the date picker is bounded 1900-01-01 to 2005-12-31. */
export const DateOfBirthBounds = { min: "1900-01-01", max: "2005-12-31" } as const
/** The picker's placeholder; sent as null (spec section 5). */
export const DATE_PLACEHOLDER = "yyyy-mm-dd"

const DAY_SECONDS = 86_400

const isoDateToUnix = (iso: string): number | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  if (match === null) return null
  const [, y, m, d] = match
  const ms = Date.UTC(Number(y), Number(m) - 1, Number(d))
  // Reject dates JavaScript would roll over (2001-02-30 → March).
  if (new Date(ms).toISOString().slice(0, 10) !== iso) return null
  return ms / 1000
}

/** unix seconds (a UTC midnight) → "yyyy-mm-dd". */
export const unixToIsoDate = (seconds: number): string =>
  new Date(Math.floor(seconds / DAY_SECONDS) * DAY_SECONDS * 1000).toISOString().slice(0, 10)

export type DateOfBirthInput = { readonly _tag: "Empty" } | { readonly _tag: "Date"; readonly unix: number }

/**
 * The picker's text → what is sent: the placeholder or an empty field is `null` (spec), a real
 * date is its UTC midnight in unix seconds; anything else (not a date, out of bounds) is refused.
 */
export const parseDateOfBirth = (text: string): DateOfBirthInput | "invalid" => {
  const trimmed = text.trim()
  if (trimmed === "" || trimmed === DATE_PLACEHOLDER) return { _tag: "Empty" }
  const unix = isoDateToUnix(trimmed)
  if (unix === null || !isDateOfBirthInRange(unix)) return "invalid"
  return { _tag: "Date", unix }
}

export const isDateOfBirthInRange = (unix: number): boolean => {
  const min = isoDateToUnix(DateOfBirthBounds.min) ?? 0
  const max = isoDateToUnix(DateOfBirthBounds.max) ?? 0
  return Number.isInteger(unix) && unix % DAY_SECONDS === 0 && unix >= min && unix <= max
}

// ── Names ───────────────────────────────────────────────────────────────────────────────────
/**
 * First or last name: letters of any script (with their combining marks), single spaces, hyphens
 * or apostrophes between them ("Jean-Luc", "O'Brien", "van der Berg"), 1 to 50 characters.
 */
export const isValidPersonName = (name: string): boolean => {
  const n = name.trim()
  return (
    n.length > 0 && n.length <= TextLimits.firstName && /^[\p{L}\p{M}]+(?:[ '’-][\p{L}\p{M}]+)*$/u.test(n)
  )
}

// ── Postal code, gender, text ───────────────────────────────────────────────────────────────
export const isValidZip = (zip: string): boolean => {
  const z = zip.trim()
  return z.length > 0 && z.length <= TextLimits.zipCode && /^[\p{L}\p{N} -]+$/u.test(z)
}

export const genders = ["FEMALE", "MALE"] as const
export type Gender = (typeof genders)[number]
export const genderLabel = (gender: Gender): string => (gender === "FEMALE" ? "Female" : "Male")

/** Printable text without control characters (PostgreSQL cannot store NUL). */
export const isPrintableText = (text: string): boolean => !/[\p{Cc}\p{Cs}]/u.test(text)

// ── Phone ───────────────────────────────────────────────────────────────────────────────────
export type PhoneProblem = "NOT_A_NUMBER" | "TOO_SHORT" | "TOO_LONG" | "INVALID_COUNTRY" | "INVALID"

export interface SplitPhone {
  /** Country calling code without "+", e.g. "356". */
  readonly dialingCode: string
  /** The national significant number, digits only. */
  readonly phoneNumber: string
}

/**
 * Spec section 5: the phone is stored split into national number and calling code. Parses what the
 * player typed with the calling code they chose; a number typed with its own "+code" wins. The
 * national number is read with the chosen country's own rules (a trunk "0" is dropped where the
 * country uses one — UK "07911…" — and kept where it belongs to the number — Italy "06…", Congo
 * "06…"); a leading 0 typed where the country has no trunk prefix (Malta "0 2123 4567") is forgiven.
 */
let callingCodes: ReadonlySet<string> | undefined
const isCallingCode = (code: string): boolean => {
  callingCodes ??= new Set(getCountries().map((country) => getCountryCallingCode(country)))
  return callingCodes.has(code)
}

export const splitPhone = (typed: string, dialingCode: string): SplitPhone | PhoneProblem => {
  const digits = typed.trim()
  if (digits === "") return "NOT_A_NUMBER"
  if (!/^[+\d][\d\s().-]*$/.test(digits)) return "NOT_A_NUMBER"
  const code = dialingCode.replace(/^\+/, "")
  if (!digits.startsWith("+") && !isCallingCode(code)) return "INVALID_COUNTRY"
  const parse = (text: string) =>
    text.startsWith("+")
      ? parsePhoneNumberWithError(text)
      : parsePhoneNumberWithError(text, { defaultCallingCode: code })
  try {
    let parsed = parse(digits)
    if (!parsed.isValid() && /^0/.test(digits)) {
      const withoutZeros = parse(`+${code}${digits.replace(/^0+/, "")}`)
      if (withoutZeros.isValid()) parsed = withoutZeros
    }
    if (!parsed.isValid()) return "INVALID"
    return { dialingCode: parsed.countryCallingCode, phoneNumber: parsed.nationalNumber }
  } catch (error) {
    const message = error instanceof Error ? error.message : ""
    if (message === "TOO_SHORT" || message === "TOO_LONG" || message === "INVALID_COUNTRY") return message
    return "NOT_A_NUMBER"
  }
}

export const phoneMessage = (problem: PhoneProblem): string => {
  switch (problem) {
    case "NOT_A_NUMBER":
      return ProfileMessages.phoneNotANumber
    case "TOO_SHORT":
      return ProfileMessages.phoneTooShort
    case "TOO_LONG":
      return ProfileMessages.phoneTooLong
    case "INVALID_COUNTRY":
      return ProfileMessages.phoneInvalidCountry
    case "INVALID":
      return ProfileMessages.phoneInvalid
  }
}

/** The read-only display of a stored phone: "+356 21234567". */
export const fullPhone = (phone: SplitPhone): string => `+${phone.dialingCode} ${phone.phoneNumber}`

// ── Profile data per deposit method (spec section 5) ────────────────────────────────────────
export type DepositMethodKind = "card" | "ewalletOne" | "ewalletTwo"

/** What a method needs beyond the fields: a confirmed e-mail (`confirmed`) is checked apart. */
export const requiredProfileFields = (method: DepositMethodKind): ReadonlyArray<ProfileField> => {
  switch (method) {
    case "card":
      return ["address", "zipCode", "country", "city", "state", "phone"]
    case "ewalletOne":
      return [
        "address",
        "email",
        "zipCode",
        "country",
        "city",
        "firstName",
        "lastName",
        "gender",
        "dateOfBirth",
      ]
    case "ewalletTwo":
      return [
        "address",
        "email",
        "zipCode",
        "country",
        "city",
        "firstName",
        "lastName",
        "gender",
        "dateOfBirth",
        "phone",
      ]
  }
}

/** The fields of `needed` the profile does not have yet (what the completion form shows). */
export const missingFields = (
  profile: ProfileValues,
  needed: ReadonlyArray<ProfileField>,
): ReadonlyArray<ProfileField> => needed.filter((field) => !hasValue(profile, field))

// ── Self-exclusion (what a regulated operator offers) ─────────────────────────────
/**
 * Time-outs (a short break) and self-exclusion (long), as UKGC and MGA licensees offer them.
 * `null` days: permanent. The server computes the end from its own clock.
 */
export const SelfExclusionPeriods = {
  "24h": { days: 1, kind: "timeout", label: "24 hours" },
  "7d": { days: 7, kind: "timeout", label: "1 week" },
  "30d": { days: 30, kind: "timeout", label: "1 month" },
  "42d": { days: 42, kind: "timeout", label: "6 weeks" },
  "6m": { days: 183, kind: "exclusion", label: "6 months" },
  "1y": { days: 365, kind: "exclusion", label: "1 year" },
  "5y": { days: 1826, kind: "exclusion", label: "5 years" },
  permanent: { days: null, kind: "exclusion", label: "Permanently" },
} as const
export type SelfExclusionPeriod = keyof typeof SelfExclusionPeriods
export const selfExclusionPeriods = Object.keys(SelfExclusionPeriods) as ReadonlyArray<SelfExclusionPeriod>

/** The end of an exclusion chosen at `nowMs` (epoch ms), or null for permanent. */
export const exclusionEnd = (period: SelfExclusionPeriod, nowMs: number): number | null => {
  const days = SelfExclusionPeriods[period].days
  return days === null ? null : nowMs + days * DAY_SECONDS * 1000
}

/**
 * A new exclusion may only extend the current one (never shorten it). `currentUntilMs`:
 * undefined = no active exclusion, null = permanent.
 */
export const extendsExclusion = (
  currentUntilMs: number | null | undefined,
  newUntilMs: number | null,
): boolean => {
  if (currentUntilMs === undefined) return true
  if (currentUntilMs === null) return false
  return newUntilMs === null || newUntilMs > currentUntilMs
}

// ── Deposit limits and the reality check (beyond the spec: UKGC / MGA duties) ─────
export const limitPeriods = ["daily", "weekly", "monthly"] as const
export type LimitPeriod = (typeof limitPeriods)[number]

/** A raise of a limit waits this long (cooling-off for increases); a decrease applies at once. */
export const LIMIT_INCREASE_DELAY_MS = 24 * 60 * 60 * 1000

/**
 * When a requested limit takes effect. `current`/`requested` in EUR cents, `null` = no limit.
 * Lowering (or setting a first limit) is immediate; raising or removing one waits 24 hours.
 */
export const limitChangeEffectiveAt = (
  current: bigint | null,
  requested: bigint | null,
  nowMs: number,
): number => {
  const lowers = requested !== null && (current === null || requested <= current)
  return lowers ? nowMs : nowMs + LIMIT_INCREASE_DELAY_MS
}

/** What may still be deposited under one limit, given what was deposited in its window. */
export const remainingUnder = (limit: bigint | null, deposited: bigint): bigint | null => {
  if (limit === null) return null
  const left = limit - deposited
  return left > 0n ? left : 0n
}

/** The tightest of several remainders (`null` = unlimited). */
export const tightest = (remainders: ReadonlyArray<bigint | null>): bigint | null =>
  remainders.reduce<bigint | null>((min, r) => (r === null ? min : min === null || r < min ? r : min), null)

/** The smallest and largest deposit limit a player may set, in EUR cents. */
export const DepositLimitBounds = { min: 100n, max: 1_000_000_000n } as const

export const isDepositLimitInBounds = (cents: bigint): boolean =>
  cents >= DepositLimitBounds.min && cents <= DepositLimitBounds.max

/**
 * The limits of a shorter period may not exceed those of a longer one (daily ≤ weekly ≤ monthly;
 * `null` = no limit). Checked on the limits as they will stand once every change applies; returns
 * the first pair out of order.
 */
export const limitOrderProblem = (
  limits: Readonly<Record<LimitPeriod, bigint | null>>,
): { readonly lower: LimitPeriod; readonly higher: LimitPeriod } | undefined => {
  const pairs: ReadonlyArray<readonly [LimitPeriod, LimitPeriod]> = [
    ["daily", "weekly"],
    ["weekly", "monthly"],
    ["daily", "monthly"],
  ]
  for (const [lower, higher] of pairs) {
    const a = limits[lower]
    const b = limits[higher]
    if (a !== null && b !== null && a > b) return { lower, higher }
  }
  return undefined
}

/** Reality check reminders: every N minutes of play (the player's choice), or off. */
export const realityCheckIntervals = [15, 30, 45, 60, 90, 120] as const
