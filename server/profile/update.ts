/**
 * PUT /profile as a pure plan: from the stored profile and the payload, either the columns to
 * write, the fields the player may not change (read-only rule), or the first field that breaks a
 * rule — with the rules and messages of services/profile-rules.ts, the same functions the form
 * uses. The service runs it on the row it holds locked and writes the plan in one UPDATE, so a
 * refused request writes nothing.
 *
 * - A field that has a value is read-only: a different value (or clearing it) is refused with
 *   every such field listed; sending the value it already has is harmless. E-mail is not in the
 *   payload at all.
 * - Text is trimmed; an empty text means "no value" (so it changes nothing on an empty field).
 * - Phone: the two parts travel together; a missing part falls back to the stored one; what the
 *   player typed is split by `splitPhone` (libphonenumber-js) and stored as calling code + national
 *   number. A stored phone counts as the same when the typed one splits to the same parts.
 * - Avatar is not a profile field of the form and stays changeable; receiveEmailPromo is the switch.
 */
import {
  genders,
  hasValue,
  isDateOfBirthInRange,
  isValidPersonName,
  isValidZip,
  type ProfileField,
  ProfileMessages,
  type ProfileValues,
  phoneMessage,
  splitPhone,
  TextLimits,
  unixToIsoDate,
} from "../../services/profile-rules.ts"
import type { UpdateProfilePayload } from "../../services/profile-service.ts"

/** Columns of `users` PUT /profile may write. */
export interface ProfileColumns {
  first_name?: string | null
  last_name?: string | null
  nick_name?: string | null
  /** "yyyy-mm-dd" */
  date_of_birth?: string | null
  gender?: string | null
  country?: string | null
  city?: string | null
  state?: string | null
  address?: string | null
  address2?: string | null
  zip_code?: string | null
  phone_number?: string | null
  dialing_code?: string | null
  avatar?: string | null
  receive_email_promo?: boolean
}

export interface StoredProfile extends ProfileValues {
  readonly avatar: string | null
  readonly receiveEmailPromo: boolean
}

export type ProfilePlan =
  | { readonly _tag: "Locked"; readonly fields: ReadonlyArray<ProfileField> }
  | { readonly _tag: "Invalid"; readonly field: string; readonly message: string }
  | { readonly _tag: "Write"; readonly columns: ProfileColumns }

/** Trimmed text, with "" (and absent/null) meaning no value. */
const text = (value: string | null | undefined): string | null => {
  if (value === null || value === undefined) return null
  const t = value.trim()
  return t === "" ? null : t
}

type TextField = "firstName" | "lastName" | "nickName" | "city" | "state" | "address" | "address2" | "zipCode"

type TextColumn =
  | "first_name"
  | "last_name"
  | "nick_name"
  | "city"
  | "state"
  | "address"
  | "address2"
  | "zip_code"

const textColumns: Readonly<Record<TextField, TextColumn>> = {
  firstName: "first_name",
  lastName: "last_name",
  nickName: "nick_name",
  city: "city",
  state: "state",
  address: "address",
  address2: "address2",
  zipCode: "zip_code",
}

/** The rule of one text field; undefined when the value is acceptable. */
const textProblem = (field: TextField, value: string): string | undefined => {
  const max = TextLimits[field]
  switch (field) {
    case "firstName":
    case "lastName":
      if (value.length > max) return ProfileMessages.textTooLong(max)
      return isValidPersonName(value) ? undefined : ProfileMessages.nameInvalid
    case "zipCode":
      if (value.length > max) return ProfileMessages.zipTooLong
      return isValidZip(value) ? undefined : ProfileMessages.zipInvalid
    default:
      return value.length > max ? ProfileMessages.textTooLong(max) : undefined
  }
}

/**
 * @param countryKnown whether the (upper-cased) country of the payload is in the `countries` table;
 *   undefined when the payload names no country.
 */
export const planProfileUpdate = (
  stored: StoredProfile,
  payload: UpdateProfilePayload,
  countryKnown: boolean | undefined,
): ProfilePlan => {
  const locked: Array<ProfileField> = []
  const problems: Array<{ field: string; message: string }> = []
  const columns: ProfileColumns = {}

  /** Applies the read-only rule to one field; returns true when the new value should be validated and written. */
  const consider = (field: ProfileField, next: string | number | null, current: string | number | null) => {
    if (next === current) return false
    if (hasValue(stored, field)) {
      locked.push(field)
      return false
    }
    return next !== null
  }

  for (const field of Object.keys(textColumns) as Array<TextField>) {
    if (!(field in payload)) continue
    const next = text(payload[field])
    if (!consider(field, next, stored[field]) || next === null) continue
    const problem = textProblem(field, next)
    if (problem !== undefined) problems.push({ field, message: problem })
    else columns[textColumns[field]] = next
  }

  if ("dateOfBirth" in payload) {
    const next = payload.dateOfBirth ?? null
    if (consider("dateOfBirth", next, stored.dateOfBirth) && next !== null) {
      if (isDateOfBirthInRange(next)) columns.date_of_birth = unixToIsoDate(next)
      else problems.push({ field: "dateOfBirth", message: ProfileMessages.dateOfBirthRange })
    }
  }

  if ("gender" in payload) {
    const next = text(payload.gender)?.toUpperCase() ?? null
    if (consider("gender", next, stored.gender) && next !== null) {
      const gender = genders.find((g) => g === next)
      if (gender !== undefined) columns.gender = gender
      else problems.push({ field: "gender", message: ProfileMessages.genderInvalid })
    }
  }

  if ("country" in payload) {
    const next = text(payload.country)?.toUpperCase() ?? null
    if (consider("country", next, stored.country) && next !== null) {
      if (/^[A-Z]{2}$/.test(next) && countryKnown === true) columns.country = next
      else problems.push({ field: "country", message: ProfileMessages.countryUnknown })
    }
  }

  if ("phoneNumber" in payload || "dialingCode" in payload) {
    const typed = "phoneNumber" in payload ? text(payload.phoneNumber) : stored.phoneNumber
    const code = "dialingCode" in payload ? text(payload.dialingCode) : stored.dialingCode
    if (hasValue(stored, "phone")) {
      // Read-only: only the same number (in any spelling) is accepted.
      const same =
        typed !== null &&
        code !== null &&
        (() => {
          const split = splitPhone(typed, code)
          return (
            typeof split !== "string" &&
            split.phoneNumber === stored.phoneNumber &&
            split.dialingCode === stored.dialingCode?.replace(/^\+/, "")
          )
        })()
      if (!same) locked.push("phone")
    } else if (typed !== null || code !== null) {
      if (typed === null) problems.push({ field: "phoneNumber", message: ProfileMessages.phoneIncomplete })
      else if (code === null)
        problems.push({ field: "dialingCode", message: ProfileMessages.phoneIncomplete })
      else {
        const split = splitPhone(typed, code)
        if (typeof split === "string") problems.push({ field: "phoneNumber", message: phoneMessage(split) })
        else {
          columns.phone_number = split.phoneNumber
          columns.dialing_code = split.dialingCode
        }
      }
    }
  }

  if ("avatar" in payload) {
    const next = text(payload.avatar)
    if (next !== stored.avatar) columns.avatar = next
  }

  if (payload.receiveEmailPromo !== undefined && payload.receiveEmailPromo !== stored.receiveEmailPromo) {
    columns.receive_email_promo = payload.receiveEmailPromo
  }

  if (locked.length > 0) return { _tag: "Locked", fields: locked }
  const first = problems[0]
  if (first !== undefined) return { _tag: "Invalid", field: first.field, message: first.message }
  return { _tag: "Write", columns }
}
