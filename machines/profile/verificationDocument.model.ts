/**
 * Generated-path model of machines/profile/verificationDocument.machine.ts (the identity document):
 * the status loads (none, or waiting for review), fails or finds the session gone; the player picks
 * a file of the wrong type, one too large, then a good one, and uploads; every outcome of the upload.
 */

import {
  DocumentLocked,
  DocumentTooLarge,
  DocumentUnsupported,
  RateLimited,
  Unauthenticated,
} from "../../services/errors.ts"
import { DOCUMENT_MAX_BYTES } from "../../services/profile-service.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { noDocument, pendingDocument } from "./fixtures.ts"
import { verificationDocumentMachine } from "./verificationDocument.machine.ts"

const gone = new Unauthenticated({ message: "Session expired" })
const jpeg = {
  name: "passport.jpg",
  type: "image/jpeg",
  size: 4,
  blob: new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])]),
}
const text = { name: "notes.txt", type: "text/plain", size: 10, blob: new Blob(["not a scan"]) }
/** Described as larger than the limit (the bytes are never read before the check). */
const huge = { name: "scan.png", type: "image/png", size: DOCUMENT_MAX_BYTES + 1, blob: new Blob([]) }

export const model = defineModel({
  name: "verificationDocument",
  machine: verificationDocumentMachine.provide({ actions: { toast: () => {} } }),
  input: { kind: "ID" },
  events: (snapshot) => {
    const c = snapshot.context
    return [
      { type: "xstate.done.actor.load", output: noDocument("ID") },
      { type: "xstate.done.actor.load", output: pendingDocument("ID") },
      { type: "xstate.error.actor.load", error: transportError() },
      { type: "xstate.error.actor.load", error: gone },
      { type: "RETRY" },
      ...(c.error === null && c.file === null ? [{ type: "CHOOSE", file: text } as const] : []),
      ...(c.error !== null && c.file === null ? [{ type: "CHOOSE", file: huge } as const] : []),
      { type: "CHOOSE", file: jpeg },
      { type: "UPLOAD" },
      { type: "xstate.done.actor.upload", output: pendingDocument("ID") },
      {
        type: "xstate.error.actor.upload",
        error: new DocumentUnsupported({ message: "Not a JPEG, PNG or PDF" }),
      },
      {
        type: "xstate.error.actor.upload",
        error: new DocumentTooLarge({ message: "Too large", maxBytes: DOCUMENT_MAX_BYTES }),
      },
      {
        type: "xstate.error.actor.upload",
        error: new DocumentLocked({ message: "Your document is waiting for review", status: "PENDING" }),
      },
      {
        type: "xstate.error.actor.upload",
        error: new RateLimited({ message: "Slow down", retryAfterSeconds: 60 }),
      },
      { type: "xstate.error.actor.upload", error: transportError() },
      { type: "xstate.error.actor.upload", error: gone },
    ]
  },
  projectContext: (snapshot) => ({
    status: snapshot.context.document?.status ?? null,
    file: snapshot.context.file?.name ?? null,
    error: snapshot.context.error,
  }),
})
