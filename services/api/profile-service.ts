/**
 * profile-service (spec section 7): the player's account — profile, wallets, verification
 * documents, sessions, promo e-mail, self-exclusion — and the responsible-gaming limits (beyond
 * the spec: `/profile/responsible-gaming`) with each session's answer to the reality check
 * (`/profile/reality-check`). Paths are the spec's, verbatim. The server
 * implements this group; the browser's client (`services/clients/profile.ts`) is generated from it.
 */
import { Schema } from "effect"
import { Multipart } from "effect/http"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  DocumentLocked,
  DocumentTooLarge,
  DocumentUnsupported,
  ExclusionNotShortened,
  ProfileFieldLocked,
  RateLimited,
  SessionNotFound,
  Unauthenticated,
  UnsubscribeLinkInvalid,
  ValidationFailed,
} from "../errors.ts"
import {
  DOCUMENT_MAX_BYTES,
  Fund,
  PlayerSessions,
  Profile,
  RealityCheckSession,
  ReceiveEmailPayload,
  ReceiveEmailResult,
  ResponsibleGaming,
  SelfExcludePayload,
  SelfExclusion,
  SessionParams,
  UnsubscribeParams,
  UnsubscribeResult,
  UpdateProfilePayload,
  UpdateResponsibleGamingPayload,
  VerificationDocument,
} from "../profile-service.ts"

/**
 * One file, read within the size limit (a larger upload is refused while it is being read). The
 * multipart reader counts a part's own headers into `maxFileSize`, so it gets 4 KiB of room; the
 * exact limit of the file itself (DOCUMENT_MAX_BYTES) is the server's check.
 */
const DocumentUpload = Schema.Struct({ file: Multipart.SingleFileSchema }).pipe(
  HttpApiSchema.asMultipart({
    maxParts: 4,
    maxFileSize: DOCUMENT_MAX_BYTES + 4_096,
    maxTotalSize: DOCUMENT_MAX_BYTES + 65_536,
  }),
)

const uploadErrors = [
  Unauthenticated,
  DocumentUnsupported,
  DocumentTooLarge,
  DocumentLocked,
  RateLimited,
] as const

export class ProfileServiceApi extends HttpApiGroup.make("profile")
  .add(
    HttpApiEndpoint.get("getProfile", "/profile", { success: Profile, error: [Unauthenticated] }),
    HttpApiEndpoint.put("updateProfile", "/profile", {
      payload: UpdateProfilePayload,
      success: Profile,
      error: [Unauthenticated, ValidationFailed, ProfileFieldLocked],
    }),
    HttpApiEndpoint.get("getFund", "/profile/currency", { success: Fund, error: [Unauthenticated] }),
    HttpApiEndpoint.put("setReceiveEmail", "/profile/receive-email", {
      payload: ReceiveEmailPayload,
      success: ReceiveEmailResult,
      error: [Unauthenticated],
    }),
    // The link in every promotional mail: works without signing in.
    HttpApiEndpoint.delete("unsubscribe", "/profile/unsubscribe/:id", {
      params: UnsubscribeParams,
      success: UnsubscribeResult,
      error: [UnsubscribeLinkInvalid],
    }),
    // RFC 8058 one-click unsubscribe (`List-Unsubscribe-Post`): mail clients POST to the same URL.
    HttpApiEndpoint.post("unsubscribeOneClick", "/profile/unsubscribe/:id", {
      params: UnsubscribeParams,
      success: UnsubscribeResult,
      error: [UnsubscribeLinkInvalid],
    }),
    HttpApiEndpoint.get("getIdVerification", "/profile/id-verification", {
      success: VerificationDocument,
      error: [Unauthenticated],
    }),
    HttpApiEndpoint.post("uploadIdVerification", "/profile/id-verification", {
      payload: DocumentUpload,
      success: VerificationDocument,
      error: uploadErrors,
    }),
    HttpApiEndpoint.get("getBillVerification", "/profile/bill-verification", {
      success: VerificationDocument,
      error: [Unauthenticated],
    }),
    HttpApiEndpoint.post("uploadBillVerification", "/profile/bill-verification", {
      payload: DocumentUpload,
      success: VerificationDocument,
      error: uploadErrors,
    }),
    HttpApiEndpoint.get("listSessions", "/profile/session", {
      success: PlayerSessions,
      error: [Unauthenticated],
    }),
    HttpApiEndpoint.delete("revokeSession", "/profile/session/:id", {
      params: SessionParams,
      success: HttpApiSchema.NoContent,
      error: [Unauthenticated, SessionNotFound],
    }),
    HttpApiEndpoint.put("selfExclude", "/profile/self-exclude", {
      payload: SelfExcludePayload,
      success: SelfExclusion,
      error: [Unauthenticated, ExclusionNotShortened],
    }),
    HttpApiEndpoint.get("getResponsibleGaming", "/profile/responsible-gaming", {
      success: ResponsibleGaming,
      error: [Unauthenticated],
    }),
    HttpApiEndpoint.put("updateResponsibleGaming", "/profile/responsible-gaming", {
      payload: UpdateResponsibleGamingPayload,
      success: ResponsibleGaming,
      error: [Unauthenticated, ValidationFailed],
    }),
    // The reality check of the session that asks: its sign-in and its last "Continue playing".
    HttpApiEndpoint.get("getRealityCheck", "/profile/reality-check", {
      success: RealityCheckSession,
      error: [Unauthenticated],
    }),
    // "Continue playing": the server records its own clock as this session's answer (no body).
    HttpApiEndpoint.put("acknowledgeRealityCheck", "/profile/reality-check", {
      success: RealityCheckSession,
      error: [Unauthenticated],
    }),
  )
  .prefix("/profile-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "profile-service",
      description:
        "The player's account: profile, wallets, verification documents, sessions, promo e-mail, " +
        "self-exclusion and responsible-gaming limits.",
    }),
  ) {}
