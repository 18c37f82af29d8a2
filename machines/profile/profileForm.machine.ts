/**
 * The profile form (spec sections 2, 4, 5 and 8): the general tab, and — invoked by another flow with
 * `input` — the deposit's profile-completion step. ONE statechart for both:
 *
 * - `fields`: the fields to show, in form order (default: every field of the general tab);
 * - `showMissing`: mark the shown fields the profile lacks and require them;
 * - `finishOnSave`: end after a successful save with `{ type: "saved", profile }` as output — the
 *   spec's "callback after saving": the parent receives the saved profile.
 *
 * Filled fields come back read-only, the e-mail always is; the phone is read-only as the full number
 * when both its parts exist. Typing clears the errors; only changed, editable fields are sent.
 * "Profile saved" / "Profile save failed!!!" are toasts. While the e-mail is unconfirmed the form
 * offers the verification resend once per form session (the `resendConfirmation` machine); with
 * every field shown it holds the promo e-mail switch (the `promoEmail` machine). A 401 ends the form
 * with `sessionEnded`.
 */
import { Effect } from "effect"
import { match } from "ts-pattern"
import { assign, sendParent, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import type { CountryCodes } from "../../services/cdn.ts"
import { profileClient } from "../../services/clients/profile.ts"
import { ProfileFieldLocked, Unauthenticated, ValidationFailed } from "../../services/errors.ts"
import { notify } from "../../services/notify.ts"
import {
  emptyInputs,
  type FormInputs,
  fieldOfInput,
  formProblems,
  type InputName,
  initialInputs,
  inputNames,
  nothingFilled,
  ProfileFormMessages,
  profilePayload,
  profileValuesOf,
} from "../../services/profile-form.ts"
import { countryCodesQuery, profileQuery } from "../../services/profile-queries.ts"
import {
  isReadOnly,
  missingFields,
  type ProfileField,
  ProfileMessages,
  profileFields,
} from "../../services/profile-rules.ts"
import type { Profile, UpdateProfilePayload } from "../../services/profile-service.ts"
import { resendConfirmationMachine } from "../account/resendConfirmation.machine.ts"
import { clientFailureClasses, failureFrom, type ToastParams } from "../flowSupport.ts"
import { promoEmailMachine } from "./promoEmail.machine.ts"
import { sessionEnded, type TabOutput } from "./support.ts"

export interface ProfileFormInput {
  /** The fields to show, in form order; default: every field of the general tab (and the promo switch). */
  readonly fields?: ReadonlyArray<ProfileField>
  /** Mark the shown fields the profile lacks, and require them (the deposit's completion step). */
  readonly showMissing?: boolean
  /** End after a successful save, with the saved profile as the output. */
  readonly finishOnSave?: boolean
}

export type FormErrors = Partial<Record<ProfileField | "form", string>>

export interface ProfileFormContext {
  readonly fields: ReadonlyArray<ProfileField>
  readonly showMissing: boolean
  readonly finishOnSave: boolean
  /** The promo switch is part of the full general tab only. */
  readonly showPromo: boolean
  readonly profile: Profile | null
  readonly countries: CountryCodes
  /** Derived from the profile (spec section 4): shown read-only, never sent. */
  readonly readOnly: ReadonlyArray<ProfileField>
  /** Shown fields the profile lacks (the missing-info indicators, when asked for). */
  readonly missing: ReadonlyArray<ProfileField>
  readonly inputs: FormInputs
  readonly errors: FormErrors
  readonly submitted: boolean
  readonly outcome: TabOutput
}

export type ProfileFormEvent =
  | { readonly type: "CHANGE"; readonly input: InputName; readonly value: string }
  | { readonly type: "SAVE" }
  | { readonly type: "RETRY" }
  | { readonly type: "ACCOUNT_CHANGED" }

export interface LoadedForm {
  readonly profile: Profile
  readonly countries: CountryCodes
}

export const saveFailure = failureFrom([
  Unauthenticated,
  ValidationFailed,
  ProfileFieldLocked,
  ...clientFailureClasses,
])
export type SaveFailure = ReturnType<typeof saveFailure>

const isInputName = (name: string): name is InputName => inputNames.some((n) => n === name)

/** Where a refused save is shown: under the fields the server names, or above the button. */
export const saveFailureErrors = (failure: SaveFailure): FormErrors =>
  match(failure)
    .with({ _tag: "ProfileFieldLocked" }, (e): FormErrors => {
      const errors: FormErrors = {}
      for (const name of e.fields) {
        if (isInputName(name)) errors[fieldOfInput(name)] = ProfileMessages.fieldLocked
      }
      return Object.keys(errors).length > 0 ? errors : { form: ProfileMessages.fieldLocked }
    })
    .with(
      { _tag: "ValidationFailed" },
      (e): FormErrors =>
        isInputName(e.field) ? { [fieldOfInput(e.field)]: e.message } : { form: e.message },
    )
    .with(
      { _tag: "Unauthenticated" },
      { _tag: "ClientError" },
      { _tag: "SchemaError" },
      { _tag: "UnexpectedError" },
      (): FormErrors => ({ form: ProfileMessages.saveFailed }),
    )
    .exhaustive()

const derived = (profile: Profile, fields: ReadonlyArray<ProfileField>) => {
  const values = profileValuesOf(profile)
  return {
    profile,
    readOnly: fields.filter((field) => isReadOnly(values, field)),
    missing: missingFields(values, fields),
    inputs: initialInputs(values),
  }
}

const rulesOf = (context: ProfileFormContext) => ({
  fields: context.fields,
  requireMissing: context.showMissing,
  countries: context.countries,
})

export const profileFormMachine = setup({
  types: {
    input: {} as ProfileFormInput,
    context: {} as ProfileFormContext,
    events: {} as ProfileFormEvent,
    output: {} as TabOutput,
  },
  actors: {
    load: fromEffect(() =>
      Effect.gen(function* () {
        const [profile, countries] = yield* Effect.all([profileQuery.read, countryCodesQuery.read], {
          concurrency: "unbounded",
        })
        const loaded: LoadedForm = { profile, countries }
        return loaded
      }),
    ),
    save: fromEffect((payload: UpdateProfilePayload) =>
      Effect.gen(function* () {
        // The answer is the saved profile: kept as the one just read.
        return yield* Effect.tap(profileClient.updateProfile({ payload }), profileQuery.set)
      }),
    ),
    promo: promoEmailMachine,
    resend: resendConfirmationMachine,
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => params.error instanceof Unauthenticated,
    nothingFilled: ({ context }) =>
      context.profile === null ||
      nothingFilled(profileValuesOf(context.profile), context.inputs, context.fields),
    hasProblems: ({ context }) =>
      context.profile !== null &&
      Object.keys(formProblems(profileValuesOf(context.profile), context.inputs, rulesOf(context))).length >
        0,
    finishesOnSave: ({ context }) => context.finishOnSave,
    showsPromo: ({ context }) => context.showPromo,
    offersResend: ({ context }) =>
      context.profile !== null && !context.profile.confirmed && context.fields.includes("email"),
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    /** Tells the parent the account changed (the session's copy of the profile is refreshed). */
    announceChange: sendParent({ type: "ACCOUNT_CHANGED" }),
    useLoaded: assign(({ context }, params: { loaded: LoadedForm }) => ({
      ...derived(params.loaded.profile, context.fields),
      countries: params.loaded.countries,
      errors: {},
    })),
    useSaved: assign(({ context }, params: { profile: Profile }) => ({
      ...derived(params.profile, context.fields),
      errors: {},
      submitted: false,
      outcome: { type: "saved" as const, profile: params.profile },
    })),
    change: assign(({ context }, params: { input: InputName; value: string }) => ({
      inputs: { ...context.inputs, [params.input]: params.value },
      // Spec section 4: typing clears the errors.
      errors: {},
    })),
    markSubmitted: assign({ submitted: true }),
    showNothingToSave: assign({ errors: { form: ProfileFormMessages.nothingToSave } }),
    showProblems: assign(({ context }) => ({
      errors:
        context.profile === null
          ? {}
          : formProblems(profileValuesOf(context.profile), context.inputs, rulesOf(context)),
    })),
    showSaveFailure: assign((_, params: { failure: SaveFailure }) => ({
      errors: saveFailureErrors(params.failure),
    })),
    endSession: assign({ outcome: sessionEnded }),
  },
}).createMachine({
  id: "profileForm",
  context: ({ input }) => ({
    fields: input.fields ?? profileFields,
    showMissing: input.showMissing ?? false,
    finishOnSave: input.finishOnSave ?? false,
    showPromo: input.fields === undefined,
    profile: null,
    countries: [],
    readOnly: [],
    missing: [],
    inputs: emptyInputs,
    errors: {},
    submitted: false,
    outcome: sessionEnded,
  }),
  initial: "loading",
  output: ({ context }) => context.outcome,
  states: {
    loading: {
      invoke: {
        id: "load",
        src: "load",
        onDone: {
          target: "ready",
          actions: { type: "useLoaded", params: ({ event }) => ({ loaded: event.output }) },
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          { target: "loadFailed" },
        ],
      },
    },
    loadFailed: {
      on: { RETRY: "loading" },
    },
    ready: {
      type: "parallel",
      on: {
        // From the promo switch: the account changed; the parent refreshes the session's copy.
        ACCOUNT_CHANGED: { actions: "announceChange" },
      },
      states: {
        form: {
          initial: "editing",
          states: {
            editing: {
              on: {
                CHANGE: {
                  actions: {
                    type: "change",
                    params: ({ event }) => ({ input: event.input, value: event.value }),
                  },
                },
                SAVE: [
                  { guard: "nothingFilled", actions: ["markSubmitted", "showNothingToSave"] },
                  { guard: "hasProblems", actions: ["markSubmitted", "showProblems"] },
                  { target: "saving", actions: "markSubmitted" },
                ],
              },
            },
            saving: {
              invoke: {
                id: "save",
                src: "save",
                input: ({ context }) =>
                  context.profile === null
                    ? {}
                    : profilePayload(profileValuesOf(context.profile), context.inputs, context.fields),
                onDone: [
                  {
                    guard: "finishesOnSave",
                    target: "#profileForm.saved",
                    actions: [
                      { type: "useSaved", params: ({ event }) => ({ profile: event.output }) },
                      { type: "toast", params: { kind: "success", message: ProfileMessages.saved } },
                    ],
                  },
                  {
                    target: "editing",
                    actions: [
                      { type: "useSaved", params: ({ event }) => ({ profile: event.output }) },
                      { type: "toast", params: { kind: "success", message: ProfileMessages.saved } },
                      "announceChange",
                    ],
                  },
                ],
                onError: [
                  {
                    guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
                    target: "#profileForm.sessionEnded",
                  },
                  {
                    target: "editing",
                    actions: [
                      {
                        type: "showSaveFailure",
                        params: ({ event }) => ({ failure: saveFailure(event.error) }),
                      },
                      { type: "toast", params: { kind: "error", message: ProfileMessages.saveFailed } },
                    ],
                  },
                ],
              },
            },
          },
        },
        promo: {
          initial: "start",
          states: {
            start: { always: [{ guard: "showsPromo", target: "shown" }, { target: "hidden" }] },
            shown: {
              invoke: {
                id: "promo",
                src: "promo",
                input: ({ context }) => ({ subscribed: context.profile?.receiveEmailPromo ?? null }),
                // The switch ends only when its call found the session gone.
                onDone: "#profileForm.sessionEnded",
                onError: "hidden",
              },
            },
            hidden: {},
          },
        },
        resend: {
          initial: "start",
          states: {
            start: { always: [{ guard: "offersResend", target: "offered" }, { target: "hidden" }] },
            /** Once per form session: the child turns inactive after its one attempt. */
            offered: {
              invoke: { id: "resend", src: "resend", onError: "hidden" },
            },
            hidden: {},
          },
        },
      },
    },
    saved: { type: "final" },
    sessionEnded: { type: "final", entry: "endSession" },
  },
})
