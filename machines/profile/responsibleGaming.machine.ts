/**
 * The responsible-gaming tab (beyond the spec: what UKGC/MGA licensees must offer): deposit
 * limits per day, week and month in euros — shown with what is left now and with a pending raise and
 * when it applies (a decrease applies at once, a raise after 24 hours: the server decides) — and the
 * reality-check interval (or off). Only what changed is sent. Self-exclusion is its own machine,
 * started here with the current exclusion; when it ends with `selfExcluded` so does this tab.
 */
import { Effect } from "effect"
import { match } from "ts-pattern"
import { assign, sendParent, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { profileClient } from "../../services/clients/profile.ts"
import { Unauthenticated, ValidationFailed } from "../../services/errors.ts"
import { notify } from "../../services/notify.ts"
import { type LimitPeriod, ProfileMessages } from "../../services/profile-rules.ts"
import type { ResponsibleGaming, UpdateResponsibleGamingPayload } from "../../services/profile-service.ts"
import {
  invalidLimits,
  isEmptyPayload,
  type LimitInputs,
  limitInputsOf,
  ResponsibleGamingMessages,
  responsibleGamingPayload,
} from "../../services/responsible-gaming.ts"
import { clientFailureClasses, failureFrom, type ToastParams } from "../flowSupport.ts"
import { selfExclusionMachine } from "./selfExclusion.machine.ts"
import { isSessionGone, sessionEnded, type TabOutput } from "./support.ts"

export interface LoadedSettings {
  readonly settings: ResponsibleGaming
  /** When they were read (epoch ms), from the clock of the call: the self-exclusion offer counts from it. */
  readonly readAt: number
}

export type RealityCheckMinutes = ResponsibleGaming["realityCheckMinutes"]

export interface ResponsibleGamingContext {
  readonly settings: ResponsibleGaming | null
  readonly readAt: number
  readonly inputs: LimitInputs
  readonly realityCheckMinutes: RealityCheckMinutes
  readonly errors: Partial<Record<LimitPeriod | "form", string>>
  readonly outcome: TabOutput
}

export type ResponsibleGamingEvent =
  | { readonly type: "CHANGE_LIMIT"; readonly period: LimitPeriod; readonly value: string }
  | { readonly type: "SET_REALITY_CHECK"; readonly minutes: RealityCheckMinutes }
  | { readonly type: "SAVE" }
  | { readonly type: "RETRY" }

export const limitsFailure = failureFrom([Unauthenticated, ValidationFailed, ...clientFailureClasses])
export type LimitsFailure = ReturnType<typeof limitsFailure>

const failureMessage = (failure: LimitsFailure): string =>
  match(failure)
    .with({ _tag: "ValidationFailed" }, (e) => e.message)
    .with(
      { _tag: "Unauthenticated" },
      { _tag: "ClientError" },
      { _tag: "SchemaError" },
      { _tag: "UnexpectedError" },
      () => ResponsibleGamingMessages.saveFailed,
    )
    .exhaustive()

/** A save that left a raise waiting says when it applies (a raise waits 24 hours). */
export const hasPendingChange = (settings: ResponsibleGaming): boolean =>
  settings.depositLimits.daily.pending !== null ||
  settings.depositLimits.weekly.pending !== null ||
  settings.depositLimits.monthly.pending !== null

const noInputs: LimitInputs = { daily: "", weekly: "", monthly: "" }

const payloadOf = (context: ResponsibleGamingContext): UpdateResponsibleGamingPayload =>
  context.settings === null
    ? {}
    : responsibleGamingPayload(context.settings, context.inputs, context.realityCheckMinutes)

export const responsibleGamingMachine = setup({
  types: {
    context: {} as ResponsibleGamingContext,
    events: {} as ResponsibleGamingEvent,
    output: {} as TabOutput,
  },
  actors: {
    load: fromEffect(() =>
      Effect.gen(function* () {
        const settings = yield* profileClient.getResponsibleGaming()
        const loaded: LoadedSettings = { settings, readAt: Date.now() }
        return loaded
      }),
    ),
    save: fromEffect((payload: UpdateResponsibleGamingPayload) =>
      Effect.gen(function* () {
        return yield* profileClient.updateResponsibleGaming({ payload })
      }),
    ),
    selfExclusion: selfExclusionMachine,
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => isSessionGone(params.error),
    hasInvalidLimit: ({ context }) => invalidLimits(context.inputs).length > 0,
    nothingChanged: ({ context }) => isEmptyPayload(payloadOf(context)),
    leavesRaisePending: (_, params: { settings: ResponsibleGaming }) => hasPendingChange(params.settings),
    isSelfExcluded: (_, params: { output: TabOutput }) => params.output.type === "selfExcluded",
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    /** Tells the parent the settings changed (the session's reality check reads them again). */
    announceChange: sendParent({ type: "ACCOUNT_CHANGED" }),
    useLoaded: assign((_, params: { loaded: LoadedSettings }) => ({
      settings: params.loaded.settings,
      readAt: params.loaded.readAt,
      inputs: limitInputsOf(params.loaded.settings),
      realityCheckMinutes: params.loaded.settings.realityCheckMinutes,
      errors: {},
    })),
    useSaved: assign((_, params: { settings: ResponsibleGaming }) => ({
      settings: params.settings,
      inputs: limitInputsOf(params.settings),
      realityCheckMinutes: params.settings.realityCheckMinutes,
      errors: {},
    })),
    changeLimit: assign(({ context }, params: { period: LimitPeriod; value: string }) => ({
      inputs: { ...context.inputs, [params.period]: params.value },
      errors: {},
    })),
    setRealityCheck: assign((_, params: { minutes: RealityCheckMinutes }) => ({
      realityCheckMinutes: params.minutes,
      errors: {},
    })),
    showInvalidLimits: assign(({ context }) => ({
      errors: Object.fromEntries(
        invalidLimits(context.inputs).map((period) => [period, ResponsibleGamingMessages.limitInvalid]),
      ),
    })),
    showNothingChanged: assign({ errors: { form: ResponsibleGamingMessages.nothingChanged } }),
    showFailure: assign((_, params: { failure: LimitsFailure }) => ({
      errors: { form: failureMessage(params.failure) },
    })),
    markExcluded: assign({ outcome: { type: "selfExcluded" } }),
  },
}).createMachine({
  id: "responsibleGaming",
  context: {
    settings: null,
    readAt: 0,
    inputs: noInputs,
    realityCheckMinutes: null,
    errors: {},
    outcome: sessionEnded,
  },
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
      invoke: {
        id: "selfExclusion",
        src: "selfExclusion",
        input: ({ context }) => ({ current: context.settings?.selfExclusion ?? null, now: context.readAt }),
        onDone: [
          {
            guard: { type: "isSelfExcluded", params: ({ event }) => ({ output: event.output }) },
            target: "excluded",
            actions: "markExcluded",
          },
          { target: "sessionEnded" },
        ],
        onError: "loadFailed",
      },
      initial: "editing",
      states: {
        editing: {
          on: {
            CHANGE_LIMIT: {
              actions: {
                type: "changeLimit",
                params: ({ event }) => ({ period: event.period, value: event.value }),
              },
            },
            SET_REALITY_CHECK: {
              actions: { type: "setRealityCheck", params: ({ event }) => ({ minutes: event.minutes }) },
            },
            SAVE: [
              { guard: "hasInvalidLimit", actions: "showInvalidLimits" },
              { guard: "nothingChanged", actions: "showNothingChanged" },
              { target: "saving" },
            ],
          },
        },
        saving: {
          invoke: {
            id: "save",
            src: "save",
            input: ({ context }) => payloadOf(context),
            onDone: [
              {
                guard: { type: "leavesRaisePending", params: ({ event }) => ({ settings: event.output }) },
                target: "editing",
                actions: [
                  { type: "useSaved", params: ({ event }) => ({ settings: event.output }) },
                  {
                    type: "toast",
                    params: {
                      kind: "success",
                      message: `${ResponsibleGamingMessages.saved}. ${ProfileMessages.limitIncreaseDelayed}`,
                    },
                  },
                  "announceChange",
                ],
              },
              {
                target: "editing",
                actions: [
                  { type: "useSaved", params: ({ event }) => ({ settings: event.output }) },
                  { type: "toast", params: { kind: "success", message: ResponsibleGamingMessages.saved } },
                  "announceChange",
                ],
              },
            ],
            onError: [
              {
                guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
                target: "#responsibleGaming.sessionEnded",
              },
              {
                target: "editing",
                actions: {
                  type: "showFailure",
                  params: ({ event }) => ({ failure: limitsFailure(event.error) }),
                },
              },
            ],
          },
        },
      },
    },
    excluded: { type: "final" },
    sessionEnded: { type: "final" },
  },
})
