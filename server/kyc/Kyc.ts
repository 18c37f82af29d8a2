/**
 * Verification documents (KYC): an identity document (ID) and a proof of address (BILL) per player.
 *
 * Player side: upload (JPEG, PNG or PDF by content, at most DOCUMENT_MAX_BYTES), see the status of
 * each kind — NONE, PENDING, APPROVED, REJECTED with the reviewer's reason — and the history. A new
 * upload is refused while one is PENDING (being reviewed) or APPROVED (DocumentLocked); after a
 * rejection the player uploads again. Approval makes `idVerification.verified` /
 * `billVerification.verified` true in the profile.
 *
 * Back-office side (the operator command and the back office's KYC queue — the same calls): list
 * the pending documents, read one's file, approve or reject one with a reason. Each decision is one
 * transaction with its `operator_audit` row; then the player is told by e-mail (either way, with
 * the reason of a rejection; a failed delivery is logged, the decision stands).
 *
 * Storage: the bytes live in the database (bytea) beside their metadata and SHA-256, so they share
 * its durability, backups and transactions, and every server process sees them (no shared disk
 * needed). No route returns them to a player; the back office's preview reads them (`file`).
 */
import { createHash } from "node:crypto"
import { Context, Data, Effect, Layer } from "effect"
import {
  DocumentLocked,
  DocumentTooLarge,
  DocumentUnsupported,
  type RateLimited,
} from "../../services/errors.ts"
import {
  DOCUMENT_MAX_BYTES,
  type DocumentStatus,
  type VerificationDocument,
} from "../../services/profile-service.ts"
import { AppConfig } from "../config.ts"
import { Mailer } from "../mail/Mailer.ts"
import { documentReviewedMail } from "../mail/templates.ts"
import { type AuditActor, actorFields, actorLabel, OperatorAudit } from "../operator/Audit.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { type DocumentKind, type DocumentRow, KycRepo, type PendingRow } from "./KycRepo.ts"
import { cleanFileName, type DocumentContentType, sniffDocument } from "./sniff.ts"

export type { DocumentKind } from "./KycRepo.ts"

export const KycMessages = {
  unsupported: "Upload a JPEG, PNG or PDF file: this file is none of them.",
  empty: "The file is empty.",
  tooLarge: `The file is larger than ${DOCUMENT_MAX_BYTES / (1024 * 1024)} MB.`,
  pending: "This document is being reviewed. You can upload a new one if it is rejected.",
  approved: "This document is already approved.",
} as const

/** Why a back-office decision cannot be made (the operator sees the message). */
export class KycReviewRefused extends Data.TaggedError("KycReviewRefused")<{
  readonly reason: "UnknownPlayer" | "NothingPending" | "ReasonRequired"
  readonly message: string
}> {}

export interface UploadedFile {
  readonly name: string
  readonly bytes: Uint8Array
}

export interface PendingDocument {
  readonly id: string
  readonly userId: string
  readonly email: string
  /** The player's full name. */
  readonly name: string
  readonly kind: DocumentKind
  readonly fileName: string
  readonly contentType: DocumentContentType
  readonly size: number
  readonly sha256: string
  readonly uploadedAt: string
}

export interface Review {
  readonly email: string
  readonly kind: DocumentKind
  /** Who decides, as recorded in the audit (e.g. "cli:ana@host", or a back-office operator). */
  readonly actor: AuditActor
  /** The document the decision is about (the back office decides one it showed): refused when it is not the pending one. */
  readonly documentId?: string
}

/** A document's stored file, for the back office's preview. */
export interface DocumentFile {
  readonly contentType: DocumentContentType
  readonly fileName: string
  readonly bytes: Uint8Array
}

export interface ReviewedDocument {
  readonly id: string
  readonly email: string
  readonly kind: DocumentKind
  readonly status: "APPROVED" | "REJECTED"
  readonly reason: string | null
  readonly reviewedAt: string
}

export interface KycShape {
  readonly document: (userId: string, kind: DocumentKind) => Effect.Effect<VerificationDocument>
  readonly upload: (
    userId: string,
    kind: DocumentKind,
    file: UploadedFile,
  ) => Effect.Effect<
    VerificationDocument,
    DocumentUnsupported | DocumentTooLarge | DocumentLocked | RateLimited
  >
  readonly verified: (userId: string) => Effect.Effect<{ readonly id: boolean; readonly bill: boolean }>
  // ── back office ──
  readonly pending: () => Effect.Effect<ReadonlyArray<PendingDocument>>
  /** One document with whose it is, whatever its status; undefined for an unknown (or malformed) id. */
  readonly byId: (
    documentId: string,
  ) => Effect.Effect<(PendingDocument & { readonly status: string }) | undefined>
  /** A document's bytes as stored; undefined for an unknown (or malformed) id. */
  readonly file: (documentId: string) => Effect.Effect<DocumentFile | undefined>
  readonly documentsOf: (
    email: string,
  ) => Effect.Effect<
    { readonly email: string; readonly id: VerificationDocument; readonly bill: VerificationDocument },
    KycReviewRefused
  >
  readonly approve: (review: Review) => Effect.Effect<ReviewedDocument, KycReviewRefused>
  readonly reject: (
    review: Review & { readonly reason: string },
  ) => Effect.Effect<ReviewedDocument, KycReviewRefused>
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString())

/** The player's view of one kind: the latest upload and the history, newest first. */
export const toVerificationDocument = (
  kind: DocumentKind,
  rows: ReadonlyArray<DocumentRow>,
): VerificationDocument => {
  const latest = rows[0]
  const status: DocumentStatus = latest?.status ?? "NONE"
  return {
    kind,
    status,
    reason: latest?.reason ?? null,
    fileName: latest?.fileName ?? null,
    contentType: latest?.contentType ?? null,
    size: latest?.size ?? null,
    uploadedAt: iso(latest?.uploadedAt ?? null),
    reviewedAt: iso(latest?.reviewedAt ?? null),
    history: rows.map((r) => ({
      id: r.id,
      status: r.status,
      reason: r.reason,
      fileName: r.fileName,
      uploadedAt: r.uploadedAt.toISOString(),
      reviewedAt: iso(r.reviewedAt),
    })),
  }
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Longest rejection reason kept (the player reads it). */
export const REASON_MAX_LENGTH = 500

const make = Effect.gen(function* () {
  const repo = yield* KycRepo
  const audit = yield* OperatorAudit
  const limiter = yield* RateLimiter
  const config = yield* AppConfig
  const mailer = yield* Mailer
  const mailContext = { productName: config.productName, supportEmail: config.supportEmail }

  const document = Effect.fn("Kyc.document")(function* (userId: string, kind: DocumentKind) {
    const rows = yield* repo.history(userId, kind).pipe(Effect.orDie)
    return toVerificationDocument(kind, rows)
  })

  const upload = Effect.fn("Kyc.upload")(function* (userId: string, kind: DocumentKind, file: UploadedFile) {
    yield* limiter.consume(`kyc-upload:user:${userId}`, config.rateLimits.documentUploadPerUser)
    if (file.bytes.length > DOCUMENT_MAX_BYTES) {
      return yield* new DocumentTooLarge({ message: KycMessages.tooLarge, maxBytes: DOCUMENT_MAX_BYTES })
    }
    if (file.bytes.length === 0) return yield* new DocumentUnsupported({ message: KycMessages.empty })
    const contentType = sniffDocument(file.bytes)
    if (contentType === undefined) return yield* new DocumentUnsupported({ message: KycMessages.unsupported })
    const sha256 = createHash("sha256").update(file.bytes).digest("hex")
    const rows = yield* repo
      .transaction(
        Effect.gen(function* () {
          yield* repo.lockPlayer(userId)
          const before = yield* repo.history(userId, kind)
          const latest = before[0]
          if (latest !== undefined && (latest.status === "PENDING" || latest.status === "APPROVED")) {
            return yield* new DocumentLocked({
              message: latest.status === "PENDING" ? KycMessages.pending : KycMessages.approved,
              status: latest.status,
            })
          }
          const row = yield* repo.insert({
            userId,
            kind,
            fileName: cleanFileName(file.name, contentType),
            contentType,
            sha256,
            content: file.bytes,
          })
          return [row, ...before]
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
    return toVerificationDocument(kind, rows)
  })

  const verified = Effect.fn("Kyc.verified")(function* (userId: string) {
    const kinds = yield* repo.approvedKinds(userId).pipe(Effect.orDie)
    return { id: kinds.includes("ID"), bill: kinds.includes("BILL") }
  })

  const pendingOf = (r: PendingRow): PendingDocument => ({
    id: r.id,
    userId: r.userId,
    email: r.email,
    name: r.name,
    kind: r.kind,
    fileName: r.fileName,
    contentType: r.contentType,
    size: r.size,
    sha256: r.sha256,
    uploadedAt: r.uploadedAt.toISOString(),
  })

  const byId = Effect.fn("Kyc.byId")(function* (documentId: string) {
    if (!uuidPattern.test(documentId)) return undefined
    const row = yield* repo.findDocument(documentId).pipe(Effect.orDie)
    return row === undefined ? undefined : { ...pendingOf(row), status: row.status }
  })

  const file = Effect.fn("Kyc.file")(function* (documentId: string) {
    if (!uuidPattern.test(documentId)) return undefined
    const row = yield* repo.findDocument(documentId).pipe(Effect.orDie)
    if (row === undefined) return undefined
    const bytes = yield* repo.file(documentId).pipe(Effect.orDie)
    if (bytes === undefined) return undefined
    return { contentType: row.contentType, fileName: row.fileName, bytes } satisfies DocumentFile
  })

  const pending = Effect.fn("Kyc.pending")(function* () {
    const rows = yield* repo.pending().pipe(Effect.orDie)
    return rows.map(pendingOf)
  })

  const findPlayer = (email: string) =>
    repo.findPlayer(email.trim()).pipe(
      Effect.orDie,
      Effect.flatMap((player) =>
        player === undefined
          ? Effect.fail(
              new KycReviewRefused({
                reason: "UnknownPlayer",
                message: `No player has the e-mail ${email}.`,
              }),
            )
          : Effect.succeed(player),
      ),
    )

  const documentsOf = Effect.fn("Kyc.documentsOf")(function* (email: string) {
    const player = yield* findPlayer(email)
    return {
      email: player.email,
      id: yield* document(player.id, "ID"),
      bill: yield* document(player.id, "BILL"),
    }
  })

  const decide = (review: Review, status: "APPROVED" | "REJECTED", reason: string | null) =>
    Effect.gen(function* () {
      const player = yield* findPlayer(review.email)
      const row = yield* repo
        .transaction(
          Effect.gen(function* () {
            yield* repo.lockPlayer(player.id)
            const doc = yield* repo.pendingOf(player.id, review.kind)
            if (doc === undefined || (review.documentId !== undefined && doc.id !== review.documentId)) {
              return yield* new KycReviewRefused({
                reason: "NothingPending",
                message: `${player.email} has no ${review.kind === "ID" ? "identity" : "proof-of-address"} document waiting for review.`,
              })
            }
            const reviewed = yield* repo.review(doc.id, { status, reason, by: actorLabel(review.actor) })
            yield* audit.record({
              ...actorFields(review.actor),
              action: status === "APPROVED" ? "kyc.approve" : "kyc.reject",
              userId: player.id,
              subject: doc.id,
              details: { kind: review.kind, email: player.email, sha256: doc.sha256, reason },
              before: { status: doc.status, reason: doc.reason },
              after: { status: reviewed.status, reason: reviewed.reason },
            })
            return reviewed
          }),
        )
        .pipe(Effect.catchTag("SqlError", Effect.die))
      // After the commit: the player hears of the decision either way. A failed delivery does
      // not undo it (the Verification tab shows it too); it is logged.
      yield* mailer
        .send(
          documentReviewedMail(
            mailContext,
            player.email,
            { kind: row.kind, status, reason: row.reason },
            `${config.publicUrl}/profile/verification`,
          ),
        )
        .pipe(
          Effect.catchCause((cause) =>
            Effect.logError(`kyc: the ${status} e-mail to ${player.email} failed`, cause),
          ),
        )
      return {
        id: row.id,
        email: player.email,
        kind: row.kind,
        status,
        reason: row.reason,
        reviewedAt: (row.reviewedAt ?? new Date()).toISOString(),
      } satisfies ReviewedDocument
    })

  const approve = Effect.fn("Kyc.approve")(function* (review: Review) {
    return yield* decide(review, "APPROVED", null)
  })

  const reject = Effect.fn("Kyc.reject")(function* (review: Review & { readonly reason: string }) {
    const reason = review.reason.trim()
    if (reason === "" || reason.length > REASON_MAX_LENGTH || /[\p{Cc}\p{Cs}]/u.test(reason)) {
      return yield* new KycReviewRefused({
        reason: "ReasonRequired",
        message: `A rejection needs a reason the player can act on (1 to ${REASON_MAX_LENGTH} printable characters).`,
      })
    }
    return yield* decide(review, "REJECTED", reason)
  })

  return { document, upload, verified, pending, byId, file, documentsOf, approve, reject } satisfies KycShape
})

export class Kyc extends Context.Service<Kyc, KycShape>()("casino/server/Kyc") {
  /** Needs SqlClient, AppConfig, RateLimiter, OperatorAudit and Mailer. */
  static readonly layer = Layer.effect(Kyc, make).pipe(Layer.provide(KycRepo.layer))
}
