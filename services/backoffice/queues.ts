/**
 * Schemas of the back office's two review queues: the KYC documents awaiting a decision and the
 * withdrawals awaiting one, with the counts the dashboard shows. Browser-safe.
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { Withdrawal } from "../cashout-service.ts"
import { StoredText } from "./text.ts"

const Uuid = StoredText(64)

/** A rejection's reason, read by the player (KYC) or kept on the withdrawal: 1–500 characters. */
export const Reason = StoredText(500, 1)

// ── KYC ─────────────────────────────────────────────────────────────────────────────────────

export const documentKinds = ["identity", "address"] as const
export const DocumentKind = Schema.Literals(documentKinds)
export type DocumentKind = typeof DocumentKind.Type

export const documentContentTypes = ["image/jpeg", "image/png", "application/pdf"] as const

/** A document waiting for review, with whose it is. */
export const KycDocument = Schema.Struct({
  id: Schema.String,
  playerId: Schema.String,
  email: Schema.String,
  name: Schema.String,
  kind: DocumentKind,
  fileName: Schema.String,
  contentType: Schema.Literals(documentContentTypes),
  size: Schema.Number,
  sha256: Schema.String,
  uploadedAt: Schema.String,
})
export type KycDocument = typeof KycDocument.Type

/** Oldest first; `count` is every waiting document (the list may be capped). */
export const KycQueue = Schema.Struct({ documents: Schema.Array(KycDocument), count: Schema.Number })

export const KycDocumentParams = Schema.Struct({ id: Uuid })

export const KycRejectPayload = Schema.Struct({ reason: Reason })

/** The decision as recorded; the player's Verification tab shows the same status and reason. */
export const KycDecision = Schema.Struct({
  id: Schema.String,
  playerId: Schema.String,
  email: Schema.String,
  kind: DocumentKind,
  status: Schema.Literals(["APPROVED", "REJECTED"]),
  reason: Schema.NullOr(Schema.String),
  reviewedAt: Schema.String,
})
export type KycDecision = typeof KycDecision.Type

/** The body of the preview; the real type is in its `content-type` header (see DocumentFile). */
export const DocumentBytes = Schema.Uint8Array.pipe(
  HttpApiSchema.asUint8Array({ contentType: "application/octet-stream" }),
)

/**
 * The stored file of a document, for the preview: the bytes as uploaded, with the content type
 * the upload was recognised as (by its signature, never by its name), shown inline, never sniffed
 * by the browser and sandboxed (it is what a player uploaded).
 */
export const DocumentFile = HttpApiSchema.WithHeaders(DocumentBytes, {
  "content-type": Schema.Literals(documentContentTypes),
  "content-disposition": Schema.String,
  "x-content-type-options": Schema.Literal("nosniff"),
  "content-security-policy": Schema.String,
  "cache-control": Schema.String,
})

// ── Withdrawals ─────────────────────────────────────────────────────────────────────────────

/** A withdrawal as an officer sees it: the player's, and the provider that pays it. */
export const QueuedWithdrawal = Schema.Struct({
  ...Withdrawal.fields,
  userId: Schema.String,
  email: Schema.String,
  provider: Schema.String,
  providerReference: Schema.NullOr(Schema.String),
})
export type QueuedWithdrawal = typeof QueuedWithdrawal.Type

/** Waiting for a decision (`requested`), oldest first; `count` is all of them. */
export const WithdrawalQueue = Schema.Struct({
  withdrawals: Schema.Array(QueuedWithdrawal),
  count: Schema.Number,
})

export const WithdrawalQueueQuery = Schema.Struct({
  /** 1–200; 100 when absent. */
  limit: Schema.optional(
    Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 })),
  ),
})

export const WithdrawalParams = Schema.Struct({ id: Uuid })

export const WithdrawalRejectPayload = Schema.Struct({ reason: Reason })

/** A manual crypto payout's transaction (BTC/LTC/DOGE, no hot wallet). */
export const MarkSentPayload = Schema.Struct({ txHash: StoredText(200) })

/** What an officer reads beside a withdrawal (amounts: minor units as decimal strings). */
export const RiskContext = Schema.Struct({
  userId: Schema.String,
  email: Schema.String,
  registeredAt: Schema.String,
  accountAgeDays: Schema.Number,
  kyc: Schema.Struct({
    id: Schema.String,
    bill: Schema.String,
    verified: Schema.Boolean,
  }),
  totals: Schema.Array(
    Schema.Struct({
      currency: Schema.String,
      deposited: Schema.String,
      deposits: Schema.Number,
      withdrawn: Schema.String,
      withdrawals: Schema.Number,
    }),
  ),
  bonus: Schema.Struct({
    active: Schema.Boolean,
    wageringOpen: Schema.Boolean,
    bonuses: Schema.Array(
      Schema.Struct({
        id: Schema.String,
        name: Schema.String,
        currency: Schema.String,
        amount: Schema.String,
        balance: Schema.String,
        wageringRequired: Schema.String,
        wagered: Schema.String,
        expiresAt: Schema.String,
      }),
    ),
  }),
  countries: Schema.Array(
    Schema.Struct({
      country: Schema.NullOr(Schema.String),
      sessions: Schema.Number,
      lastSeenAt: Schema.String,
    }),
  ),
})

export const WithdrawalDetail = Schema.Struct({
  withdrawal: QueuedWithdrawal,
  /** Null only for a player who no longer exists. */
  risk: Schema.NullOr(RiskContext),
})

// ── Both ────────────────────────────────────────────────────────────────────────────────────

/** How many wait in each queue (the dashboard). */
export const QueueCounts = Schema.Struct({ kyc: Schema.Number, withdrawals: Schema.Number })
