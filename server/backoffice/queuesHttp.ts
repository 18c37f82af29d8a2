/**
 * Handlers of the review queues (services/backoffice/api/queues.ts): the KYC documents and the
 * withdrawals waiting for an officer's decision, and their counts. The decisions are the services'
 * own (`Kyc.approve/reject`, the same the operator command calls; `Withdrawals.approve/reject/
 * markSent/markPaid`, server/withdrawals/operatorActions.ts): here only the operator becomes the
 * actor (`backoffice:<e-mail>`, with its account and address on the audit row) and the services'
 * refusals become the contract's errors.
 */
import { Effect } from "effect"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { BackofficeApi } from "../../services/backoffice/api.ts"
import { BadInput, DecisionRefused, DocumentNotFound } from "../../services/backoffice/errors.ts"
import { CurrentOperator } from "../../services/backoffice/middleware.ts"
import type { DocumentKind, KycDocument } from "../../services/backoffice/queues.ts"
import {
  Kyc,
  type KycReviewRefused,
  type PendingDocument,
  type DocumentKind as StoredKind,
} from "../kyc/Kyc.ts"
import { type OperatorError, riskContextView, Withdrawals } from "../withdrawals/Withdrawals.ts"
import { actorOf } from "./Backoffice.ts"

const kindOf = (kind: StoredKind): DocumentKind => (kind === "ID" ? "identity" : "address")

const documentView = (d: PendingDocument): KycDocument => ({
  id: d.id,
  playerId: d.userId,
  email: d.email,
  name: d.name,
  kind: kindOf(d.kind),
  fileName: d.fileName,
  contentType: d.contentType,
  size: d.size,
  sha256: d.sha256,
  uploadedAt: d.uploadedAt,
})

const documentNotFound = () => new DocumentNotFound({ message: "No verification document has this id." })

/** The KYC service's refusals of an approval as the contract's errors. */
const approvalRefusal = (e: KycReviewRefused) =>
  e.reason === "UnknownPlayer" ? documentNotFound() : new DecisionRefused({ message: e.message })

/** …and of a rejection (its reason is checked there too: printable, not only spaces). */
const rejectionRefusal = (e: KycReviewRefused) =>
  e.reason === "ReasonRequired" ? new BadInput({ message: e.message }) : approvalRefusal(e)

/** The withdrawal service's refusals as the contract's errors (not found passes as it is). */
const withdrawalRefusal = (e: OperatorError) =>
  e._tag === "WithdrawalNotFound"
    ? e
    : e._tag === "WithdrawalMoveRefused"
      ? new DecisionRefused({ message: e.message })
      : new BadInput({ message: e.message })

/**
 * A file name for `Content-Disposition`: an ASCII fallback (RFC 6266 `filename`) and the
 * UTF-8 original (`filename*`, RFC 8187); nothing a header could be split or quoted out with.
 */
export const inlineDisposition = (fileName: string): string => {
  const ascii = fileName.replace(/[^A-Za-z0-9._ -]/g, "_").slice(0, 128) || "document"
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/**
 * What a preview of user-uploaded content may do: nothing. `sandbox` gives the document a unique
 * origin without scripts, forms or plugins' access to the back office; nothing is fetched.
 */
export const DOCUMENT_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'"

/** `{ kyc, withdrawals }`: how many wait in each queue (the dashboard). */
export const queueCounts = Effect.gen(function* () {
  const kyc = yield* Kyc
  const withdrawals = yield* Withdrawals
  return { kyc: (yield* kyc.pending()).length, withdrawals: yield* withdrawals.pendingCount() }
})

const KycHandlers = HttpApiBuilder.group(
  BackofficeApi,
  "kyc",
  Effect.fn(function* (handlers) {
    const kyc = yield* Kyc

    /** The pending document of this id, else the contract's refusal. */
    const pendingDocument = (id: string) =>
      Effect.gen(function* () {
        const doc = yield* kyc.byId(id)
        if (doc === undefined) return yield* documentNotFound()
        if (doc.status !== "PENDING")
          return yield* new DecisionRefused({
            message: `This document is ${doc.status.toLowerCase()} already: it is not waiting for a decision.`,
          })
        return doc
      })

    const decision = (
      doc: PendingDocument,
      reviewed: { status: "APPROVED" | "REJECTED"; reason: string | null; reviewedAt: string },
    ) => ({
      id: doc.id,
      playerId: doc.userId,
      email: doc.email,
      kind: kindOf(doc.kind),
      status: reviewed.status,
      reason: reviewed.reason,
      reviewedAt: reviewed.reviewedAt,
    })

    return handlers
      .handle("kycQueue", () =>
        Effect.map(kyc.pending(), (docs) => ({ documents: docs.map(documentView), count: docs.length })),
      )
      .handle("kycFile", ({ params }) =>
        Effect.gen(function* () {
          const file = yield* kyc.file(params.id)
          if (file === undefined) return yield* documentNotFound()
          return HttpApiSchema.withHeaders({
            body: file.bytes,
            headers: {
              "content-type": file.contentType,
              "content-disposition": inlineDisposition(file.fileName),
              "x-content-type-options": "nosniff" as const,
              "content-security-policy": DOCUMENT_CSP,
              "cache-control": "private, no-store",
            },
          })
        }),
      )
      .handle("kycApprove", ({ params }) =>
        Effect.gen(function* () {
          const doc = yield* pendingDocument(params.id)
          const reviewed = yield* kyc
            .approve({
              email: doc.email,
              kind: doc.kind,
              actor: actorOf(yield* CurrentOperator),
              documentId: doc.id,
            })
            .pipe(Effect.mapError(approvalRefusal))
          return decision(doc, reviewed)
        }),
      )
      .handle("kycReject", ({ params, payload }) =>
        Effect.gen(function* () {
          const doc = yield* pendingDocument(params.id)
          const reviewed = yield* kyc
            .reject({
              email: doc.email,
              kind: doc.kind,
              reason: payload.reason,
              actor: actorOf(yield* CurrentOperator),
              documentId: doc.id,
            })
            .pipe(Effect.mapError(rejectionRefusal))
          return decision(doc, reviewed)
        }),
      )
  }),
)

const WithdrawalsHandlers = HttpApiBuilder.group(
  BackofficeApi,
  "withdrawals",
  Effect.fn(function* (handlers) {
    const withdrawals = yield* Withdrawals
    const actor = Effect.gen(function* () {
      return actorOf(yield* CurrentOperator)
    })
    return handlers
      .handle("withdrawalQueue", ({ query }) =>
        Effect.gen(function* () {
          const list = yield* withdrawals.queue(query.limit ?? 100)
          return { withdrawals: list, count: yield* withdrawals.pendingCount() }
        }),
      )
      .handle("withdrawal", ({ params }) =>
        Effect.gen(function* () {
          const withdrawal = yield* withdrawals.one(params.id)
          const risk = yield* withdrawals.riskContext(withdrawal.userId)
          return { withdrawal, risk: risk === undefined ? null : riskContextView(risk) }
        }),
      )
      .handle("withdrawalApprove", ({ params }) =>
        Effect.flatMap(actor, (a) => withdrawals.approve(params.id, a)).pipe(
          Effect.mapError(withdrawalRefusal),
        ),
      )
      .handle("withdrawalReject", ({ params, payload }) =>
        Effect.flatMap(actor, (a) => withdrawals.reject(params.id, a, payload.reason)).pipe(
          Effect.mapError(withdrawalRefusal),
        ),
      )
      .handle("withdrawalMarkSent", ({ params, payload }) =>
        Effect.flatMap(actor, (a) => withdrawals.markSent(params.id, a, payload.txHash)).pipe(
          Effect.mapError(withdrawalRefusal),
        ),
      )
      .handle("withdrawalMarkPaid", ({ params }) =>
        Effect.flatMap(actor, (a) => withdrawals.markPaid(params.id, a)).pipe(
          Effect.mapError(withdrawalRefusal),
        ),
      )
  }),
)

const QueuesHandlers = HttpApiBuilder.group(BackofficeApi, "queues", (handlers) =>
  Effect.gen(function* () {
    const kyc = yield* Kyc
    const withdrawals = yield* Withdrawals
    return handlers.handle("queueCounts", () =>
      queueCounts.pipe(Effect.provideService(Kyc, kyc), Effect.provideService(Withdrawals, withdrawals)),
    )
  }),
)

/** The queues' handler layers, for `backofficeApiRoutes` (./http.ts). */
export const queuesHandlers = [KycHandlers, WithdrawalsHandlers, QueuesHandlers] as const
