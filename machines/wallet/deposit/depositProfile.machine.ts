/**
 * The deposit dialog's profile completion step (spec section 5): the fields the chosen method needs
 * that the profile lacks — or the fields the server named in its ProfileIncomplete answer — are
 * asked with the profile form of the account area (INVOKED with exactly those fields, it finishes
 * on save). Nothing missing: the step ends at once. A save is announced to the dialog
 * (ACCOUNT_CHANGED: the session reads its copy of the profile again) and the step ends with the
 * profile as saved. BACK is the payment step's (it leaves this state and so stops this step).
 *
 * Invoked by machines/wallet/deposit/depositPayment.machine.ts before each payment.
 */
import { assign, sendParent, setup } from "xstate"
import type { ProfileField } from "../../../services/profile-rules.ts"
import type { Profile } from "../../../services/profile-service.ts"
import { profileFormMachine } from "../../profile/profileForm.machine.ts"
import type { AccountChanged, TabOutput } from "../../profile/support.ts"
import { missingFor } from "./rules.ts"
import type { ProfileStepInput, ProfileStepOutput } from "./types.ts"

export interface ProfileStepContext {
  readonly profile: Profile | null
  /** The fields the form shows: the server's list, else the method's missing ones. */
  readonly missing: ReadonlyArray<ProfileField>
  readonly outcome: ProfileStepOutput
}

export const depositProfileMachine = setup({
  types: {
    input: {} as ProfileStepInput,
    context: {} as ProfileStepContext,
    events: {} as AccountChanged,
    output: {} as ProfileStepOutput,
    children: {} as { completeProfile: "completeProfile" },
  },
  actors: { completeProfile: profileFormMachine },
  guards: {
    nothingMissing: ({ context }) => context.missing.length === 0,
    profileSaved: (_, params: { output: TabOutput }) => params.output.type === "saved",
  },
  actions: {
    /** The profile form saved (or its promo switch changed): the session's copy is read again. */
    announceChange: sendParent({ type: "ACCOUNT_CHANGED" }),
    complete: assign(({ context }, params: { output: TabOutput | null }) => {
      const profile = params.output?.type === "saved" ? params.output.profile : context.profile
      return { profile, outcome: { type: "complete" as const, profile } }
    }),
    endSession: assign({ outcome: { type: "sessionEnded" } as const }),
    fail: assign({ outcome: { type: "failed" } as const }),
  },
}).createMachine({
  id: "depositProfile",
  context: ({ input }) => ({
    profile: input.profile,
    missing: input.fields ?? (input.method === null ? [] : missingFor(input.profile, input.method)),
    outcome: { type: "failed" },
  }),
  initial: "checking",
  output: ({ context }) => context.outcome,
  on: {
    // From the form's promo switch: relayed to the dialog.
    ACCOUNT_CHANGED: { actions: "announceChange" },
  },
  states: {
    checking: {
      always: [
        {
          guard: "nothingMissing",
          target: "complete",
          actions: { type: "complete", params: { output: null } },
        },
        { target: "completing" },
      ],
    },
    /** The profile form of the account issue, with exactly the missing fields (spec section 4). */
    completing: {
      invoke: {
        id: "completeProfile",
        src: "completeProfile",
        input: ({ context }) => ({ fields: context.missing, showMissing: true, finishOnSave: true }),
        onDone: [
          {
            guard: { type: "profileSaved", params: ({ event }) => ({ output: event.output }) },
            target: "complete",
            actions: [
              { type: "complete", params: ({ event }) => ({ output: event.output }) },
              "announceChange",
            ],
          },
          { target: "sessionEnded", actions: "endSession" },
        ],
        onError: { target: "failed", actions: "fail" },
      },
    },
    complete: { type: "final" },
    sessionEnded: { type: "final" },
    /** The form crashed: the payment step says the deposit failed. */
    failed: { type: "final" },
  },
})
