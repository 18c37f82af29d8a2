/**
 * Handlers of the verification-document endpoints (GET/POST …/profile/id-verification and
 * …/profile/bill-verification). The multipart body is read by the contract's `DocumentUpload`
 * (one part `file`, size limits while reading, the part persisted to a temporary file for the
 * request); its bytes go to `Kyc.upload`, which decides by content.
 */
import { readFile } from "node:fs/promises"
import { Effect } from "effect"
import { type HttpServerRequest, HttpServerResponse, type Multipart } from "effect/http"
import { DOCUMENT_MAX_BYTES } from "../../services/profile-service.ts"
import type { ProfileHandlers } from "../profile/handlers.ts"
import type { BodyLimit } from "../security/middleware.ts"
import { requireSession } from "../users/auth.ts"
import { Sessions } from "../users/Sessions.ts"
import { type DocumentKind, Kyc, KycMessages } from "./Kyc.ts"

const P = "/profile-service/api/v1/profile"

/**
 * The upload routes' body limit at the edge: the document plus room for the multipart framing
 * (the contract's `maxTotalSize`). Too large — declared or found while reading — is the contract's
 * `DocumentTooLarge` (413), so the browser gets the typed error, never a 500.
 */
export const documentUploadBodyLimit: BodyLimit = {
  paths: [`${P}/id-verification`, `${P}/bill-verification`],
  maxBytes: DOCUMENT_MAX_BYTES + 65_536,
  tooLarge: () =>
    HttpServerResponse.jsonUnsafe(
      { _tag: "DocumentTooLarge", message: KycMessages.tooLarge, maxBytes: DOCUMENT_MAX_BYTES },
      // The rest of an oversized body is not read: the connection closes after the answer.
      { status: 413, headers: { "cache-control": "no-store", connection: "close" } },
    ),
  expectedMediaType: "multipart/form-data with one part named file",
}

const readUpload = (file: Multipart.PersistedFile) =>
  Effect.promise(async () => ({ name: file.name, bytes: new Uint8Array(await readFile(file.path)) }))

export const kycHandlers = Effect.gen(function* () {
  const kyc = yield* Kyc
  const sessions = yield* Sessions

  const upload = (
    kind: DocumentKind,
    request: HttpServerRequest.HttpServerRequest,
    file: Multipart.PersistedFile,
  ) =>
    Effect.gen(function* () {
      const session = yield* requireSession(sessions, request)
      return yield* kyc.upload(session.user.id, kind, yield* readUpload(file))
    })

  return {
    getIdVerification: Effect.fn("http.profile.getIdVerification")(function* ({ request }) {
      const session = yield* requireSession(sessions, request)
      return yield* kyc.document(session.user.id, "ID")
    }),
    uploadIdVerification: Effect.fn("http.profile.uploadIdVerification")(function* ({ request, payload }) {
      return yield* upload("ID", request, payload.file)
    }),
    getBillVerification: Effect.fn("http.profile.getBillVerification")(function* ({ request }) {
      const session = yield* requireSession(sessions, request)
      return yield* kyc.document(session.user.id, "BILL")
    }),
    uploadBillVerification: Effect.fn("http.profile.uploadBillVerification")(function* ({
      request,
      payload,
    }) {
      return yield* upload("BILL", request, payload.file)
    }),
  } satisfies ProfileHandlers<
    "getIdVerification" | "uploadIdVerification" | "getBillVerification" | "uploadBillVerification"
  >
})
