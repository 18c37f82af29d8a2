/**
 * E-mail verification resend (spec sections 4 and 8): usable once per form session — after one
 * attempt, whatever its outcome, the link is inactive. Success and failure are toasts with the
 * spec's texts.
 */

import { Effect } from "effect"
import { setup } from "xstate"
import { AccountMessages } from "../../services/account-rules.ts"
import { fromEffect } from "../../services/bridge.ts"
import { userClient } from "../../services/clients/user.ts"
import { notify, type ToastKind } from "../../services/notify.ts"

export const resendConfirmation = Effect.gen(function* () {
  return yield* userClient.resendConfirmation()
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
          actions: { type: "toast", params: { kind: "success", message: AccountMessages.resendSuccess } },
        },
        // Spec: every failure (already sent, rate limited, already confirmed) reads the same.
        onError: {
          target: "used",
          actions: { type: "toast", params: { kind: "error", message: AccountMessages.resendFailure } },
        },
      },
    },
    used: {},
  },
})
