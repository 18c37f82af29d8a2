/**
 * View of machines/profile/profileForm.machine.ts: the general tab, and the deposit's
 * profile-completion step (the same view on the same machine, with the fields its input names).
 * Read-only fields, the missing-info marks, errors and the payload are the machine's; this only
 * projects them and sends what the player types.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { resendConfirmationMachine } from "../../machines/account/resendConfirmation.machine.ts"
import type { profileFormMachine } from "../../machines/profile/profileForm.machine.ts"
import type { promoEmailMachine } from "../../machines/profile/promoEmail.machine.ts"
import type { CountryCodes } from "../../services/cdn.ts"
import type { InputName } from "../../services/profile-form.ts"
import { ProfileFormMessages } from "../../services/profile-form.ts"
import {
  DateOfBirthBounds,
  fullPhone,
  genderLabel,
  genders,
  type ProfileField,
  TextLimits,
  unixToIsoDate,
} from "../../services/profile-rules.ts"
import type { Profile } from "../../services/profile-service.ts"
import { Spinner } from "../components/Spinner.tsx"
import { Field, invalidProps, LoadFailed, PromoSwitch, ReadOnlyField } from "./fields.tsx"

type FormActor = ActorRefFrom<typeof profileFormMachine>

const labels: Record<ProfileField, string> = {
  email: "Email",
  firstName: "First name",
  lastName: "Last name",
  nickName: "Nickname",
  dateOfBirth: "Date of birth",
  gender: "Gender",
  country: "Country",
  phone: "Phone",
  city: "City",
  state: "State / region",
  address: "Address",
  address2: "Address (line 2)",
  zipCode: "Postal code",
}

const autoCompletes: Partial<Record<InputName, string>> = {
  firstName: "given-name",
  lastName: "family-name",
  nickName: "nickname",
  dateOfBirth: "bday",
  country: "country",
  phoneNumber: "tel-national",
  city: "address-level2",
  state: "address-level1",
  address: "address-line1",
  address2: "address-line2",
  zipCode: "postal-code",
}

/** The value a read-only field shows. */
const shownValue = (profile: Profile, field: ProfileField, countries: CountryCodes): string => {
  const d = profile.userDetails
  switch (field) {
    case "email":
      return profile.email
    case "firstName":
      return profile.firstName ?? ""
    case "lastName":
      return profile.lastName ?? ""
    case "dateOfBirth":
      return d.dateOfBirth === null ? "" : unixToIsoDate(d.dateOfBirth)
    case "gender":
      return d.gender === null ? "" : genderLabel(d.gender)
    case "country":
      return countries.find((c) => c.code === d.country)?.name ?? d.country ?? ""
    case "phone":
      return d.phone.phoneNumber !== null && d.phone.dialingCode !== null
        ? fullPhone({ phoneNumber: d.phone.phoneNumber, dialingCode: d.phone.dialingCode })
        : ""
    default:
      return d[field] ?? ""
  }
}

const ResendLink = ({ actor }: { actor: ActorRefFrom<typeof resendConfirmationMachine> }) => {
  const state = useSelector(actor, (s) => s.value)
  return (
    <button
      type="button"
      className="link-button"
      disabled={state !== "idle"}
      aria-disabled={state !== "idle"}
      onClick={() => actor.send({ type: "RESEND" })}
    >
      {state === "sending" ? "Sending…" : "Resend the verification link"}
    </button>
  )
}

const Promo = ({ actor }: { actor: ActorRefFrom<typeof promoEmailMachine> }) => {
  const subscribed = useSelector(actor, (s) => s.context.subscribed)
  const busy = useSelector(actor, (s) => !s.matches("ready"))
  return (
    <PromoSwitch
      id="profile-promo"
      subscribed={subscribed === true}
      busy={busy}
      onToggle={() => actor.send({ type: "TOGGLE" })}
    />
  )
}

export const ProfileFormView = ({ actor, saveLabel = "Save" }: { actor: FormActor; saveLabel?: string }) => {
  const status = useSelector(actor, (s) =>
    s.matches("loading") ? "loading" : s.matches("loadFailed") ? "loadFailed" : "ready",
  )
  const profile = useSelector(actor, (s) => s.context.profile)
  const fields = useSelector(actor, (s) => s.context.fields)
  const readOnly = useSelector(actor, (s) => s.context.readOnly)
  const missing = useSelector(actor, (s) => s.context.missing)
  const showMissing = useSelector(actor, (s) => s.context.showMissing)
  const countries = useSelector(actor, (s) => s.context.countries)
  const inputs = useSelector(actor, (s) => s.context.inputs)
  const errors = useSelector(actor, (s) => s.context.errors)
  const saving = useSelector(actor, (s) => s.matches({ ready: { form: "saving" } }))
  const children = useSelector(actor, (s) => s.children)
  const resend = children.resend as ActorRefFrom<typeof resendConfirmationMachine> | undefined
  const promo = children.promo as ActorRefFrom<typeof promoEmailMachine> | undefined

  if (status === "loading") return <Spinner label="Loading your profile" />
  if (status === "loadFailed" || profile === null)
    return (
      <LoadFailed message={ProfileFormMessages.loadFailed} onRetry={() => actor.send({ type: "RETRY" })} />
    )

  const change = (input: InputName) => (value: string) => actor.send({ type: "CHANGE", input, value })
  const isMissing = (field: ProfileField) => showMissing && missing.includes(field)
  const id = (name: string) => `profile-${name}`

  const control = (field: ProfileField) => {
    if (readOnly.includes(field)) {
      return (
        <ReadOnlyField
          key={field}
          id={id(field)}
          label={labels[field]}
          value={shownValue(profile, field, countries)}
          aside={
            field === "email" ? (
              profile.confirmed ? (
                <span className="badge">Confirmed</span>
              ) : (
                <span className="profile__unconfirmed">
                  <span className="badge badge--warning">Not confirmed</span>
                  {resend ? <ResendLink actor={resend} /> : null}
                </span>
              )
            ) : null
          }
        />
      )
    }
    const error = errors[field]
    switch (field) {
      case "dateOfBirth":
        return (
          <Field key={field} id={id(field)} label={labels[field]} error={error} missing={isMissing(field)}>
            <input
              id={id(field)}
              name={id(field)}
              type="date"
              className="input"
              min={DateOfBirthBounds.min}
              max={DateOfBirthBounds.max}
              autoComplete={autoCompletes.dateOfBirth}
              value={inputs.dateOfBirth}
              onChange={(e) => change("dateOfBirth")(e.currentTarget.value)}
              {...invalidProps(id(field), error)}
            />
          </Field>
        )
      case "gender":
        return (
          <Field key={field} id={id(field)} label={labels[field]} error={error} missing={isMissing(field)}>
            <select
              id={id(field)}
              name={id(field)}
              className="input"
              value={inputs.gender}
              onChange={(e) => change("gender")(e.currentTarget.value)}
              {...invalidProps(id(field), error)}
            >
              <option value="">Choose</option>
              {genders.map((g) => (
                <option key={g} value={g}>
                  {genderLabel(g)}
                </option>
              ))}
            </select>
          </Field>
        )
      case "country":
        return (
          <Field key={field} id={id(field)} label={labels[field]} error={error} missing={isMissing(field)}>
            <select
              id={id(field)}
              name={id(field)}
              className="input"
              autoComplete={autoCompletes.country}
              value={inputs.country}
              onChange={(e) => change("country")(e.currentTarget.value)}
              {...invalidProps(id(field), error)}
            >
              <option value="">Choose a country</option>
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
        )
      case "phone":
        return (
          <Field
            key={field}
            id={id("phone")}
            label={labels.phone}
            error={error}
            required
            missing={isMissing(field)}
            hint={<p className="field__hint">Your number without the leading 0, e.g. 2123 4567.</p>}
          >
            <div className="profile__phone">
              <select
                aria-label="Calling code"
                name={id("dialingCode")}
                className="input profile__calling-code"
                value={inputs.dialingCode}
                onChange={(e) => change("dialingCode")(e.currentTarget.value)}
                {...invalidProps(id("phone"), error)}
              >
                <option value="">Code</option>
                {countries.map((c) => (
                  <option key={c.code} value={c.dialingCode}>
                    +{c.dialingCode} {c.name}
                  </option>
                ))}
              </select>
              <input
                id={id("phone")}
                name={id("phoneNumber")}
                type="tel"
                inputMode="tel"
                className="input"
                autoComplete={autoCompletes.phoneNumber}
                maxLength={20}
                value={inputs.phoneNumber}
                onChange={(e) => change("phoneNumber")(e.currentTarget.value)}
                {...invalidProps(id("phone"), error)}
              />
            </div>
          </Field>
        )
      case "email":
        return null
      default:
        return (
          <Field key={field} id={id(field)} label={labels[field]} error={error} missing={isMissing(field)}>
            <input
              id={id(field)}
              name={id(field)}
              type="text"
              className="input"
              autoComplete={autoCompletes[field]}
              maxLength={TextLimits[field]}
              value={inputs[field]}
              onChange={(e) => change(field)(e.currentTarget.value)}
              {...invalidProps(id(field), error)}
            />
          </Field>
        )
    }
  }

  return (
    <form
      className="profile-form"
      aria-label="Profile"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        actor.send({ type: "SAVE" })
      }}
    >
      <fieldset className="flows__fieldset profile-form__grid" disabled={saving}>
        {fields.map(control)}
      </fieldset>
      {promo ? <Promo actor={promo} /> : null}
      {errors.form ? (
        <p className="form-error" role="alert">
          {errors.form}
        </p>
      ) : null}
      <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving}>
        {saving ? "Saving…" : saveLabel}
      </button>
    </form>
  )
}
