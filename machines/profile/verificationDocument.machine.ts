/**
 * One verification document (spec: /profile/verification, linked from cashout): its status
 * (none, waiting for review, approved, rejected with the reason) and history, and its upload — a
 * JPEG, PNG or PDF within `DOCUMENT_MAX_BYTES`, checked here before sending (clear messages) and by
 * its content on the server. A document waiting for review or approved cannot be replaced. The
 * verification tab runs one for the identity document and one for the proof of address.
 */
import { Effect } from "effect"
import { match } from "ts-pattern"
import { assign, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { profileClient } from "../../services/clients/profile.ts"
import {
  type ChosenFile,
  canUploadDocument,
  type DocumentKind,
  DocumentMessages,
  documentMessage,
  documentProblem,
} from "../../services/documents.ts"
import {
  DocumentLocked,
  DocumentTooLarge,
  DocumentUnsupported,
  RateLimited,
  Unauthenticated,
} from "../../services/errors.ts"
import { notify } from "../../services/notify.ts"
import type { VerificationDocument } from "../../services/profile-service.ts"
import { Messages } from "../../services/rules.ts"
import { clientFailureClasses, failureFrom, type ToastParams } from "../flowSupport.ts"
import { isSessionGone, sessionEnded, type TabOutput } from "./support.ts"

export interface VerificationDocumentInput {
  readonly kind: DocumentKind
}

export interface VerificationDocumentContext {
  readonly kind: DocumentKind
  readonly document: VerificationDocument | null
  /** Whether a (new) file may be uploaded: none yet, or the last one was rejected. */
  readonly uploadable: boolean
  /** The file the player chose and that passed the checks, until it is uploaded. */
  readonly file: ChosenDocument | null
  readonly error: string | null
}

/** A chosen file: what the browser says about it, and its bytes. */
export interface ChosenDocument extends ChosenFile {
  readonly blob: Blob
}

export type VerificationDocumentEvent =
  | { readonly type: "CHOOSE"; readonly file: ChosenDocument }
  | { readonly type: "UPLOAD" }
  | { readonly type: "RETRY" }

export const uploadFailure = failureFrom([
  Unauthenticated,
  DocumentUnsupported,
  DocumentTooLarge,
  DocumentLocked,
  RateLimited,
  ...clientFailureClasses,
])
export type UploadFailure = ReturnType<typeof uploadFailure>

/** What the player reads after a refused upload. */
export const uploadFailureMessage = (failure: UploadFailure): string =>
  match(failure)
    .with({ _tag: "DocumentUnsupported" }, () => DocumentMessages.type)
    .with({ _tag: "DocumentTooLarge" }, () => DocumentMessages.tooLarge)
    .with({ _tag: "DocumentLocked" }, (e) => e.message)
    .with({ _tag: "RateLimited" }, (e) => Messages.tooManyAttempts(e.retryAfterSeconds))
    .with(
      { _tag: "Unauthenticated" },
      { _tag: "ClientError" },
      { _tag: "SchemaError" },
      { _tag: "UnexpectedError" },
      () => DocumentMessages.uploadFailed,
    )
    .exhaustive()

export const verificationDocumentMachine = setup({
  types: {
    input: {} as VerificationDocumentInput,
    context: {} as VerificationDocumentContext,
    events: {} as VerificationDocumentEvent,
    output: {} as TabOutput,
  },
  actors: {
    load: fromEffect((kind: DocumentKind) =>
      Effect.gen(function* () {
        return kind === "ID"
          ? yield* profileClient.getIdVerification()
          : yield* profileClient.getBillVerification()
      }),
    ),
    upload: fromEffect((input: { readonly kind: DocumentKind; readonly file: ChosenDocument }) =>
      Effect.gen(function* () {
        // Multipart: the browser writes the boundary; the server reads the one `file` part.
        const payload = new FormData()
        payload.append("file", input.file.blob, input.file.name)
        return input.kind === "ID"
          ? yield* profileClient.uploadIdVerification({ payload })
          : yield* profileClient.uploadBillVerification({ payload })
      }),
    ),
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => isSessionGone(params.error),
    isLocked: ({ context }) => !context.uploadable,
    hasProblem: (_, params: { file: ChosenDocument }) => documentProblem(params.file) !== null,
    noFileChosen: ({ context }) => context.file === null,
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    useDocument: assign((_, params: { document: VerificationDocument }) => ({
      document: params.document,
      uploadable: canUploadDocument(params.document.status),
      file: null,
      error: null,
    })),
    refuseFile: assign((_, params: { file: ChosenDocument }) => {
      const problem = documentProblem(params.file)
      return { file: null, error: problem === null ? null : documentMessage(problem) }
    }),
    keepFile: assign((_, params: { file: ChosenDocument }) => ({ file: params.file, error: null })),
    askForFile: assign({ error: DocumentMessages.type }),
    showUploadFailure: assign((_, params: { failure: UploadFailure }) => ({
      error: uploadFailureMessage(params.failure),
    })),
  },
}).createMachine({
  id: "verificationDocument",
  context: ({ input }) => ({ kind: input.kind, document: null, uploadable: false, file: null, error: null }),
  initial: "loading",
  output: () => sessionEnded,
  states: {
    loading: {
      invoke: {
        id: "load",
        src: "load",
        input: ({ context }) => context.kind,
        onDone: {
          target: "ready",
          actions: { type: "useDocument", params: ({ event }) => ({ document: event.output }) },
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
      on: {
        CHOOSE: [
          // The picker is not offered then; a stale event changes nothing.
          { guard: "isLocked" },
          {
            guard: { type: "hasProblem", params: ({ event }) => ({ file: event.file }) },
            actions: { type: "refuseFile", params: ({ event }) => ({ file: event.file }) },
          },
          { actions: { type: "keepFile", params: ({ event }) => ({ file: event.file }) } },
        ],
        UPLOAD: [
          { guard: "isLocked" },
          { guard: "noFileChosen", actions: "askForFile" },
          { target: "uploading" },
        ],
      },
    },
    uploading: {
      invoke: {
        id: "upload",
        src: "upload",
        input: ({ context }) => ({
          kind: context.kind,
          // `uploading` is entered only with a chosen file (the noFileChosen guard).
          file: context.file ?? { name: "", type: "", size: 0, blob: new Blob([]) },
        }),
        onDone: {
          target: "ready",
          actions: [
            { type: "useDocument", params: ({ event }) => ({ document: event.output }) },
            { type: "toast", params: { kind: "success", message: DocumentMessages.uploaded } },
          ],
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            target: "ready",
            actions: {
              type: "showUploadFailure",
              params: ({ event }) => ({ failure: uploadFailure(event.error) }),
            },
          },
        ],
      },
    },
    sessionEnded: { type: "final" },
  },
})
