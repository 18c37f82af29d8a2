/**
 * E-mail verification resend (spec sections 4 and 8): usable once per form session — after one
 * attempt, whatever its outcome, the link is inactive. Success and failure are toasts with the
 * spec's texts.
 */
import { Effect } from "effect"
import { setup } from "xstate"
import { fromEffect } from "../services/bridge.ts"
import { ApiClient } from "../services/client.ts"
import { notify, type ToastKind } from "../services/notify.ts"
import { Messages } from "../services/rules.ts"

export const resendConfirmation = Effect.gen(function* () {
  const api = yield* ApiClient
  return yield* api.user.resendConfirmation()
})

export const resendConfirmationMachine = setup({
  types: {
    events: {} as { readonly type: "RESEND" },
  },
  actors: {
    resend: fromEffect(() => resendConfirmation),
  },
  actions: {
    toast: (_, params: { kind: ToastKind; message: string }) => notify(params.kind, params.message),
  },
}).createMachine({
  id: "resendConfirmation",
  initial: "idle",
  states: {
    idle: {
      on: { RESEND: "sending" },
    },
    sending: {
      invoke: {
        id: "resend",
        src: "resend",
        onDone: {
          target: "used",
          actions: { type: "toast", params: { kind: "success", message: Messages.resendSuccess } },
        },
        // Spec: every failure (already sent, rate limited, already confirmed) reads the same.
        onError: {
          target: "used",
          actions: { type: "toast", params: { kind: "error", message: Messages.resendFailure } },
        },
      },
    },
    used: {},
  },
})
