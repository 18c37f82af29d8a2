/**
 * The profile form's rules (spec sections 2, 4 and 5), on top of the shared `profile-rules.ts`:
 * what the player typed (one string per input), which fields the form still lets them fill, each
 * field's problem with its message, and the payload — only the editable fields the player filled,
 * converted to what the contract takes. Pure: the `profileForm` machine names them as guards and
 * actions; tests/property exercise them for all inputs.
 */
import { AccountMessages } from "./account-rules.ts"
import type { CountryCodes } from "./cdn.ts"
import {
  DATE_PLACEHOLDER,
  type Gender,
  genders,
  isPrintableText,
  isReadOnly,
  isValidPersonName,
  isValidZip,
  missingFields,
  type ProfileField,
  ProfileMessages,
  type ProfileValues,
  parseDateOfBirth,
  phoneMessage,
  splitPhone,
  TextLimits,
} from "./profile-rules.ts"
import type { Profile, UpdateProfilePayload } from "./profile-service.ts"

/** Messages the spec leaves open (docs/decisions.md). */
export const ProfileFormMessages = {
  /** Spec section 5 has it for the reset form; the profile form reuses it for a save with nothing typed. */
  nothingToSave: AccountMessages.resetNoEdits,
  textNotPrintable: "Please use letters, digits and punctuation only",
  loadFailed: "Your profile could not be loaded.",
} as const

/** The flat values the rules look at, from the contract's profile. */
export const profileValuesOf = (profile: Profile): ProfileValues => ({
  email: profile.email,
  firstName: profile.firstName,
  lastName: profile.lastName,
  nickName: profile.userDetails.nickName,
  dateOfBirth: profile.userDetails.dateOfBirth,
  gender: profile.userDetails.gender,
  country: profile.userDetails.country,
  phoneNumber: profile.userDetails.phone.phoneNumber,
  dialingCode: profile.userDetails.phone.dialingCode,
  city: profile.userDetails.city,
  state: profile.userDetails.state,
  address: profile.userDetails.address,
  address2: profile.userDetails.address2,
  zipCode: profile.userDetails.zipCode,
})

/** One input of the form: every field but the e-mail (always read-only); the phone is two inputs. */
export const inputNames = [
  "firstName",
  "lastName",
  "nickName",
  "dateOfBirth",
  "gender",
  "country",
  "phoneNumber",
  "dialingCode",
  "city",
  "state",
  "address",
  "address2",
  "zipCode",
] as const
export type InputName = (typeof inputNames)[number]
export type FormInputs = Readonly<Record<InputName, string>>

/** The field an input belongs to (what its error is shown under). */
export const fieldOfInput = (input: InputName): ProfileField =>
  input === "phoneNumber" || input === "dialingCode" ? "phone" : input

export const emptyInputs: FormInputs = {
  firstName: "",
  lastName: "",
  nickName: "",
  dateOfBirth: "",
  gender: "",
  country: "",
  phoneNumber: "",
  dialingCode: "",
  city: "",
  state: "",
  address: "",
  address2: "",
  zipCode: "",
}

/**
 * The inputs a form starts with: empty, except the parts of a phone that is only half stored (its
 * calling code, say), which the player completes.
 */
export const initialInputs = (values: ProfileValues): FormInputs => ({
  ...emptyInputs,
  phoneNumber: values.phoneNumber ?? "",
  dialingCode: values.dialingCode ?? "",
})

/** The shown fields the player may still fill (spec section 4: filled ones come back read-only). */
export const editableFields = (
  values: ProfileValues,
  fields: ReadonlyArray<ProfileField>,
): ReadonlyArray<ProfileField> => fields.filter((field) => !isReadOnly(values, field))

/** Whether the player typed something into this field (both phone inputs count as the phone). */
export const isFilled = (inputs: FormInputs, field: ProfileField): boolean => {
  switch (field) {
    case "email":
      return false
    case "phone":
      return inputs.phoneNumber.trim() !== ""
    default:
      return inputs[field].trim() !== ""
  }
}

export interface FormRules {
  readonly fields: ReadonlyArray<ProfileField>
  /** The profile-completion step (deposits): every missing shown field is required. */
  readonly requireMissing: boolean
  readonly countries: CountryCodes
}

const isGender = (text: string): text is Gender => genders.some((g) => g === text)

/** The problem of one filled field's input, or null. */
export const fieldProblem = (field: ProfileField, inputs: FormInputs, rules: FormRules): string | null => {
  switch (field) {
    case "email":
      return null
    case "phone": {
      const split = splitPhone(inputs.phoneNumber, inputs.dialingCode)
      return typeof split === "string" ? phoneMessage(split) : null
    }
    case "dateOfBirth":
      return parseDateOfBirth(inputs.dateOfBirth) === "invalid" ? ProfileMessages.dateOfBirthRange : null
    case "gender":
      return isGender(inputs.gender) ? null : ProfileMessages.genderInvalid
    case "country":
      return rules.countries.some((c) => c.code === inputs.country) ? null : ProfileMessages.countryUnknown
    case "zipCode": {
      const zip = inputs.zipCode.trim()
      if (zip.length > TextLimits.zipCode) return ProfileMessages.zipTooLong
      return isValidZip(zip) ? null : ProfileMessages.zipInvalid
    }
    default: {
      // The server's rules, with its messages (server/profile/update.ts).
      const text = inputs[field].trim()
      if (text.length > TextLimits[field]) return ProfileMessages.textTooLong(TextLimits[field])
      if ((field === "firstName" || field === "lastName") && !isValidPersonName(text))
        return ProfileMessages.nameInvalid
      return isPrintableText(text) ? null : ProfileFormMessages.textNotPrintable
    }
  }
}

/**
 * Every problem of the form, by field. Required first: the phone whenever it can be filled (spec
 * section 5: "Phone is required"), and in the completion step every missing shown field; then each
 * filled field's own rule. An empty result means the form may be sent.
 */
export const formProblems = (
  values: ProfileValues,
  inputs: FormInputs,
  rules: FormRules,
): Partial<Record<ProfileField, string>> => {
  const editable = editableFields(values, rules.fields)
  const required = new Set<ProfileField>(rules.requireMissing ? missingFields(values, rules.fields) : [])
  if (editable.includes("phone")) required.add("phone")
  const problems: Partial<Record<ProfileField, string>> = {}
  for (const field of editable) {
    if (!isFilled(inputs, field)) {
      if (required.has(field)) problems[field] = ProfileMessages.required
      continue
    }
    const problem = fieldProblem(field, inputs, rules)
    if (problem !== null) problems[field] = problem
  }
  return problems
}

/** Whether a save would send nothing: no editable field was filled. */
export const nothingFilled = (
  values: ProfileValues,
  inputs: FormInputs,
  fields: ReadonlyArray<ProfileField>,
): boolean => !editableFields(values, fields).some((field) => isFilled(inputs, field))

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * What a save sends: only the editable shown fields the player filled, trimmed and converted — the
 * date as unix seconds (the picker's `yyyy-mm-dd` placeholder as null, spec section 5), the country
 * as its code, the phone split into national number and calling code. Call it only when
 * `formProblems` found none.
 */
export const profilePayload = (
  values: ProfileValues,
  inputs: FormInputs,
  fields: ReadonlyArray<ProfileField>,
): UpdateProfilePayload => {
  const payload: Mutable<UpdateProfilePayload> = {}
  for (const field of editableFields(values, fields)) {
    switch (field) {
      case "email":
        break
      case "dateOfBirth": {
        const parsed = parseDateOfBirth(inputs.dateOfBirth)
        if (inputs.dateOfBirth.trim() === DATE_PLACEHOLDER) payload.dateOfBirth = null
        else if (parsed !== "invalid" && parsed._tag === "Date") payload.dateOfBirth = parsed.unix
        break
      }
      case "gender":
        if (isGender(inputs.gender)) payload.gender = inputs.gender
        break
      case "phone": {
        if (!isFilled(inputs, "phone")) break
        const split = splitPhone(inputs.phoneNumber, inputs.dialingCode)
        if (typeof split !== "string") {
          payload.phoneNumber = split.phoneNumber
          payload.dialingCode = split.dialingCode
        }
        break
      }
      default:
        if (isFilled(inputs, field)) payload[field] = inputs[field].trim()
    }
  }
  return payload
}

/** The promo e-mail switch (spec sections 4 and 8): the toasts after the server answered. */
export const PromoMessages = {
  subscribed: ProfileMessages.subscribed,
  unsubscribed: ProfileMessages.unsubscribed,
  failed: "Your choice could not be saved. Please try again.",
} as const
