/**
 * Self-exclusion (spec section 7: PUT …/profile/self-exclude): the player picks a period —
 * a short time-out or a long exclusion, as regulated operators offer them — reads what happens
 * (`ProfileMessages.exclusionConfirm`) and confirms. The account is then signed out everywhere
 * (the machine ends with `selfExcluded`; the area sends the shell home and re-checks the session).
 * Only periods that end later than an active exclusion are offered: it is never shortened.
 */
import { Effect } from "effect"
import { assign, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { profileClient } from "../../services/clients/profile.ts"
import { ExclusionNotShortened } from "../../services/errors.ts"
import { notify } from "../../services/notify.ts"
import { ProfileMessages, type SelfExclusionPeriod } from "../../services/profile-rules.ts"
import type { ResponsibleGaming } from "../../services/profile-service.ts"
import { offeredExclusionPeriods, ResponsibleGamingMessages } from "../../services/responsible-gaming.ts"
import type { ToastParams } from "../flowSupport.ts"
import { isSessionGone, sessionEnded, type TabOutput } from "./support.ts"

export interface SelfExclusionInput {
  readonly current: ResponsibleGaming["selfExclusion"]
  /** When the settings were read (epoch ms): the offered periods are counted from it. */
  readonly now: number
}

export interface SelfExclusionContext {
  readonly offered: ReadonlyArray<SelfExclusionPeriod>
  readonly chosen: SelfExclusionPeriod | null
  readonly error: string | null
  readonly outcome: TabOutput
}

export type SelfExclusionEvent =
  | { readonly type: "CHOOSE"; readonly period: SelfExclusionPeriod }
  | { readonly type: "CONFIRM" }
  | { readonly type: "CANCEL" }

export const selfExclusionMachine = setup({
  types: {
    input: {} as SelfExclusionInput,
    context: {} as SelfExclusionContext,
    events: {} as SelfExclusionEvent,
    output: {} as TabOutput,
  },
  actors: {
    exclude: fromEffect((selfExcludePeriod: SelfExclusionPeriod) =>
      Effect.gen(function* () {
        return yield* profileClient.selfExclude({ payload: { selfExcludePeriod } })
      }),
    ),
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => isSessionGone(params.error),
    isNotShortened: (_, params: { error: unknown }) => params.error instanceof ExclusionNotShortened,
    isOffered: ({ context }, params: { period: SelfExclusionPeriod }) =>
      context.offered.includes(params.period),
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    choose: assign((_, params: { period: SelfExclusionPeriod }) => ({ chosen: params.period, error: null })),
    unchoose: assign({ chosen: null }),
    showError: assign((_, params: { message: string }) => ({ chosen: null, error: params.message })),
    markExcluded: assign({ outcome: { type: "selfExcluded" } }),
  },
}).createMachine({
  id: "selfExclusion",
  context: ({ input }) => ({
    offered: offeredExclusionPeriods(input.current, input.now),
    chosen: null,
    error: null,
    outcome: sessionEnded,
  }),
  initial: "choosing",
  output: ({ context }) => context.outcome,
  states: {
    choosing: {
      on: {
        CHOOSE: {
          guard: { type: "isOffered", params: ({ event }) => ({ period: event.period }) },
          target: "confirming",
          actions: { type: "choose", params: ({ event }) => ({ period: event.period }) },
        },
      },
    },
    /** Says what happens (signed out everywhere, no sign-in until the end) before anything is sent. */
    confirming: {
      on: {
        CONFIRM: "excluding",
        CANCEL: { target: "choosing", actions: "unchoose" },
      },
    },
    excluding: {
      invoke: {
        id: "exclude",
        src: "exclude",
        // `confirming` is entered only with a period chosen.
        input: ({ context }) => context.chosen ?? "24h",
        onDone: {
          target: "excluded",
          actions: [
            "markExcluded",
            { type: "toast", params: { kind: "info", message: ResponsibleGamingMessages.excluded } },
          ],
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            guard: { type: "isNotShortened", params: ({ event }) => ({ error: event.error }) },
            target: "choosing",
            actions: { type: "showError", params: { message: ProfileMessages.exclusionNotShortened } },
          },
          {
            target: "choosing",
            actions: { type: "showError", params: { message: ResponsibleGamingMessages.excludeFailed } },
          },
        ],
      },
    },
    excluded: { type: "final" },
    sessionEnded: { type: "final" },
  },
})
