/**
 * The profile form on a real actor with controlled doubles (spec sections 4, 5 and 8): read-only
 * fields, typing clears errors, only changed editable fields are sent, read-only after a save, the
 * toasts, the resend usable once per form session, the promo switch only in the full form, the
 * output a parent receives when the form finishes after saving (the deposit's completion step), and
 * the call aborted when the form is left.
 */
import { describe, expect, it } from "vitest"
import { createActor, createMachine, fromPromise } from "xstate"
import { resendConfirmationMachine } from "../../../machines/account/resendConfirmation.machine.ts"
import { transportError } from "../../../machines/flowFixtures.ts"
import { completeProfile, fixtureCountries, fixtureProfile } from "../../../machines/profile/fixtures.ts"
import {
  type LoadedForm,
  type ProfileFormInput,
  profileFormMachine,
} from "../../../machines/profile/profileForm.machine.ts"
import { promoEmailMachine } from "../../../machines/profile/promoEmail.machine.ts"
import type { TabOutput } from "../../../machines/profile/support.ts"
import { ProfileFieldLocked, Unauthenticated, ValidationFailed } from "../../../services/errors.ts"
import { ProfileMessages } from "../../../services/profile-rules.ts"
import type { Profile, UpdateProfilePayload } from "../../../services/profile-service.ts"
import { controlled, settle, toastRecorder } from "../account/doubles.ts"

/** The profile the server answers after the fixture's player saved phone, city and postal code. */
const savedProfile: Profile = {
  ...fixtureProfile,
  userDetails: {
    ...fixtureProfile.userDetails,
    phone: { phoneNumber: "21234567", dialingCode: "356" },
    city: "Valletta",
    zipCode: "VLT1117",
  },
}

const start = (input: ProfileFormInput = {}) => {
  const load = controlled<LoadedForm, unknown>()
  const save = controlled<Profile, UpdateProfilePayload>()
  const resend = controlled<{ message: string }, unknown>()
  const { toasts, toast } = toastRecorder()
  const changes: Array<string> = []
  const machine = profileFormMachine.provide({
    actors: {
      load: load.logic,
      save: save.logic,
      // The real resend machine, with its call replaced: its once-per-session rule is under test.
      resend: resendConfirmationMachine.provide({ actors: { resend: resend.logic }, actions: { toast } }),
      promo: promoEmailMachine.provide({
        actors: {
          readFlag: controlled<boolean, unknown>().logic,
          setFlag: controlled<boolean, boolean>().logic,
        },
        actions: { toast, announceChange: () => {} },
      }),
    },
    actions: { toast, announceChange: () => changes.push("ACCOUNT_CHANGED") },
  })
  const actor = createActor(machine, { input }).start()
  return { actor, load, save, resend, toasts, changes }
}

const loaded = async (profile: Profile = fixtureProfile, input: ProfileFormInput = {}) => {
  const started = start(input)
  started.load.last().resolve({ profile, countries: fixtureCountries })
  await settle()
  return started
}

type Started = Awaited<ReturnType<typeof loaded>>

const type = (actor: Started["actor"], input: Parameters<typeof change>[0], value: string) =>
  change(input, value, actor)
const change = (
  input: "zipCode" | "phoneNumber" | "dialingCode" | "city" | "dateOfBirth" | "firstName",
  value: string,
  actor: Started["actor"],
) => actor.send({ type: "CHANGE", input, value })

describe("profile form: what is shown", () => {
  it("comes back with filled fields read-only and the e-mail always read-only", async () => {
    const { actor } = await loaded()
    expect(actor.getSnapshot().context.readOnly).toEqual(["email", "firstName", "lastName"])
    const { actor: full } = await loaded(completeProfile)
    // Every field but the empty second address line; the phone as one read-only full number.
    expect(full.getSnapshot().context.readOnly).toEqual([
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
      "zipCode",
    ])
  })

  it("keeps the phone editable while only one of its parts exists", async () => {
    const half = {
      ...fixtureProfile,
      userDetails: { ...fixtureProfile.userDetails, phone: { phoneNumber: null, dialingCode: "356" } },
    }
    const { actor } = await loaded(half)
    expect(actor.getSnapshot().context.readOnly).not.toContain("phone")
    expect(actor.getSnapshot().context.inputs.dialingCode).toBe("356")
  })

  it("holds the promo switch only with every field shown, and the resend only while unconfirmed", async () => {
    const general = await loaded()
    expect(general.actor.getSnapshot().children.promo).toBeDefined()
    expect(general.actor.getSnapshot().children.resend).toBeDefined()
    const completion = await loaded(fixtureProfile, { fields: ["address", "zipCode", "phone"] })
    expect(completion.actor.getSnapshot().children.promo).toBeUndefined()
    // The e-mail is not among the fields asked for: no resend either.
    expect(completion.actor.getSnapshot().children.resend).toBeUndefined()
    const confirmed = await loaded({ ...fixtureProfile, confirmed: true })
    expect(confirmed.actor.getSnapshot().children.resend).toBeUndefined()
  })

  it("marks the missing shown fields when asked", async () => {
    const { actor } = await loaded(fixtureProfile, {
      fields: ["firstName", "city", "phone"],
      showMissing: true,
    })
    expect(actor.getSnapshot().context.missing).toEqual(["city", "phone"])
  })
})

describe("profile form: checks before the call", () => {
  it("says so when nothing was typed, and sends nothing", async () => {
    const { actor, save } = await loaded()
    actor.send({ type: "SAVE" })
    expect(actor.getSnapshot().context.errors).toEqual({ form: "Please update values before continue" })
    expect(save.calls).toHaveLength(0)
  })

  it("shows each field's problem (the phone is required) and clears them when the player types", async () => {
    const { actor, save } = await loaded()
    type(actor, "zipCode", "VLT 11170")
    type(actor, "dateOfBirth", "2010-01-01")
    actor.send({ type: "SAVE" })
    expect(actor.getSnapshot().context.errors).toEqual({
      zipCode: ProfileMessages.zipTooLong,
      dateOfBirth: ProfileMessages.dateOfBirthRange,
      phone: ProfileMessages.required,
    })
    expect(save.calls).toHaveLength(0)
    type(actor, "zipCode", "VLT1117")
    expect(actor.getSnapshot().context.errors).toEqual({})
    type(actor, "phoneNumber", "2123 4567")
    actor.send({ type: "SAVE" })
    expect(actor.getSnapshot().context.errors).toEqual({
      dateOfBirth: ProfileMessages.dateOfBirthRange,
      phone: ProfileMessages.phoneInvalidCountry,
    })
  })

  it("requires every missing shown field in the completion step", async () => {
    const { actor, save } = await loaded(fixtureProfile, { fields: ["city", "zipCode"], showMissing: true })
    type(actor, "city", "Valletta")
    actor.send({ type: "SAVE" })
    expect(actor.getSnapshot().context.errors).toEqual({ zipCode: ProfileMessages.required })
    expect(save.calls).toHaveLength(0)
  })
})

describe("profile form: saving", () => {
  const fillValid = (actor: Started["actor"]) => {
    type(actor, "phoneNumber", "2123 4567")
    type(actor, "dialingCode", "356")
    type(actor, "city", " Valletta ")
    type(actor, "zipCode", "VLT1117")
  }

  it("sends only the changed, editable fields, converted", async () => {
    const { actor, save } = await loaded()
    fillValid(actor)
    // Typed into a read-only field by a stale view: never sent.
    type(actor, "firstName", "Augusta")
    actor.send({ type: "SAVE" })
    expect(actor.getSnapshot().matches({ ready: { form: "saving" } })).toBe(true)
    expect(save.last().input).toEqual({
      phoneNumber: "21234567",
      dialingCode: "356",
      city: "Valletta",
      zipCode: "VLT1117",
    })
  })

  it("comes back read-only after a save, toasts 'Profile saved' and tells the parent", async () => {
    const { actor, save, toasts, changes } = await loaded()
    fillValid(actor)
    actor.send({ type: "SAVE" })
    save.last().resolve(savedProfile)
    await settle()
    const c = actor.getSnapshot().context
    expect(actor.getSnapshot().matches({ ready: { form: "editing" } })).toBe(true)
    expect(c.readOnly).toEqual(expect.arrayContaining(["phone", "city", "zipCode"]))
    expect(c.inputs.city).toBe("")
    expect(toasts).toEqual([{ kind: "success", message: "Profile saved" }])
    expect(changes).toEqual(["ACCOUNT_CHANGED"])
    // Nothing left to send for those fields: a second save says so.
    actor.send({ type: "SAVE" })
    expect(actor.getSnapshot().context.errors).toEqual({ form: "Please update values before continue" })
  })

  it("toasts 'Profile save failed!!!' and shows the server's reason under its field", async () => {
    const { actor, save, toasts } = await loaded()
    fillValid(actor)
    actor.send({ type: "SAVE" })
    save
      .last()
      .reject(
        new ValidationFailed({ message: "Use letters, digits, spaces and hyphens only", field: "zipCode" }),
      )
    await settle()
    expect(actor.getSnapshot().context.errors).toEqual({
      zipCode: "Use letters, digits, spaces and hyphens only",
    })
    expect(toasts).toEqual([{ kind: "error", message: "Profile save failed!!!" }])
    // The typed values stay for another try.
    expect(actor.getSnapshot().context.inputs.city).toBe(" Valletta ")

    actor.send({ type: "SAVE" })
    save
      .last()
      .reject(new ProfileFieldLocked({ message: "Already set", fields: ["phoneNumber", "dialingCode"] }))
    await settle()
    expect(actor.getSnapshot().context.errors).toEqual({ phone: ProfileMessages.fieldLocked })

    actor.send({ type: "SAVE" })
    save.last().reject(transportError())
    await settle()
    expect(actor.getSnapshot().context.errors).toEqual({ form: ProfileMessages.saveFailed })
    expect(toasts.filter((t) => t.kind === "error")).toHaveLength(3)
  })

  it("ends with sessionEnded when the session is gone", async () => {
    const { actor, save } = await loaded()
    fillValid(actor)
    actor.send({ type: "SAVE" })
    save.last().reject(new Unauthenticated({ message: "expired" }))
    await settle()
    expect(actor.getSnapshot().output).toEqual({ type: "sessionEnded" })
  })

  it("aborts the save when the form is left", async () => {
    const { actor, save } = await loaded()
    fillValid(actor)
    actor.send({ type: "SAVE" })
    actor.stop()
    expect(save.last().signal.aborted).toBe(true)
  })
})

describe("profile form: the verification resend", () => {
  it("may be used once per form session, whatever the outcome, a save included", async () => {
    const { actor, resend, save, toasts } = await loaded()
    const child = actor.getSnapshot().children.resend
    if (child === undefined) throw new Error("no resend child")
    child.send({ type: "RESEND" })
    resend.last().resolve({ message: "sent" })
    await settle()
    expect(toasts).toEqual([{ kind: "success", message: "A verification link has been sent to your email." }])
    child.send({ type: "RESEND" })
    expect(resend.calls).toHaveLength(1)
    // A save does not start a new form session.
    type(actor, "phoneNumber", "21234567")
    type(actor, "dialingCode", "356")
    actor.send({ type: "SAVE" })
    save.last().resolve(savedProfile)
    await settle()
    expect(actor.getSnapshot().children.resend).toBe(child)
    actor.getSnapshot().children.resend?.send({ type: "RESEND" })
    expect(resend.calls).toHaveLength(1)
  })

  it("turns inactive after a failed attempt too, with the spec's other toast", async () => {
    const { actor, resend, toasts } = await loaded()
    actor.getSnapshot().children.resend?.send({ type: "RESEND" })
    resend.last().reject(transportError())
    await settle()
    expect(toasts).toEqual([
      { kind: "error", message: "A verification link has already been sent to your email." },
    ])
    actor.getSnapshot().children.resend?.send({ type: "RESEND" })
    expect(resend.calls).toHaveLength(1)
  })
})

describe("profile form: invoked by a parent (the deposit's completion step)", () => {
  it("finishes after saving and hands the saved profile to the parent", async () => {
    const load = fromPromise<LoadedForm>(async () => ({
      profile: fixtureProfile,
      countries: fixtureCountries,
    }))
    const sent: Array<UpdateProfilePayload> = []
    const save = fromPromise<Profile, UpdateProfilePayload>(async ({ input }) => {
      sent.push(input)
      return savedProfile
    })
    const outputs: Array<TabOutput> = []
    const parent = createMachine({
      id: "deposit",
      initial: "completing",
      states: {
        completing: {
          invoke: {
            id: "profileForm",
            src: profileFormMachine.provide({
              actors: { load, save },
              actions: { toast: () => {}, announceChange: () => {} },
            }),
            input: { fields: ["phone", "city", "zipCode"], showMissing: true, finishOnSave: true },
            onDone: {
              target: "paying",
              actions: ({ event }) => outputs.push(event.output),
            },
          },
        },
        paying: {},
      },
    })
    const deposit = createActor(parent).start()
    await settle()
    const form = deposit.getSnapshot().children.profileForm
    if (form === undefined) throw new Error("the form did not start")
    form.send({ type: "CHANGE", input: "phoneNumber", value: "21234567" })
    form.send({ type: "CHANGE", input: "dialingCode", value: "356" })
    form.send({ type: "CHANGE", input: "city", value: "Valletta" })
    form.send({ type: "CHANGE", input: "zipCode", value: "VLT1117" })
    form.send({ type: "SAVE" })
    await settle()
    expect(sent).toEqual([
      { phoneNumber: "21234567", dialingCode: "356", city: "Valletta", zipCode: "VLT1117" },
    ])
    expect(deposit.getSnapshot().value).toBe("paying")
    expect(outputs).toEqual([{ type: "saved", profile: savedProfile }])
  })
})
