/**
 * The SQL of verification documents: metadata in `verification_documents` (every upload, kept as
 * history), the bytes in `verification_document_files` (bytea, read by nothing that answers
 * players). Every function fails only with `SqlError`.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { DocumentContentType } from "./sniff.ts"

export type DocumentKind = "ID" | "BILL"
export type StoredStatus = "PENDING" | "APPROVED" | "REJECTED"

export interface DocumentRow {
  readonly id: string
  readonly userId: string
  readonly kind: DocumentKind
  readonly status: StoredStatus
  readonly reason: string | null
  readonly fileName: string
  readonly contentType: DocumentContentType
  readonly size: number
  readonly sha256: string
  readonly uploadedAt: Date
  readonly reviewedAt: Date | null
  readonly reviewedBy: string | null
}

export interface PendingRow extends DocumentRow {
  readonly email: string
  /** The player's full name. */
  readonly name: string
}

export interface NewDocument {
  readonly userId: string
  readonly kind: DocumentKind
  readonly fileName: string
  readonly contentType: DocumentContentType
  readonly sha256: string
  readonly content: Uint8Array
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface KycRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /** Locks the player's row until the transaction ends: one document decision per player at a time. */
  readonly lockPlayer: (userId: string) => Sql<void>
  /** Every document of the kind, newest first. */
  readonly history: (userId: string, kind: DocumentKind) => Sql<ReadonlyArray<DocumentRow>>
  readonly insert: (doc: NewDocument) => Sql<DocumentRow>
  readonly approvedKinds: (userId: string) => Sql<ReadonlyArray<DocumentKind>>
  readonly pending: () => Sql<ReadonlyArray<PendingRow>>
  /** One document (any status) with whose it is. */
  readonly findDocument: (documentId: string) => Sql<PendingRow | undefined>
  /** The stored bytes of a document. */
  readonly file: (documentId: string) => Sql<Uint8Array | undefined>
  readonly findPlayer: (email: string) => Sql<{ readonly id: string; readonly email: string } | undefined>
  /** The pending document of the kind, locked. */
  readonly pendingOf: (userId: string, kind: DocumentKind) => Sql<DocumentRow | undefined>
  readonly review: (
    documentId: string,
    decision: {
      readonly status: "APPROVED" | "REJECTED"
      readonly reason: string | null
      readonly by: string
    },
  ) => Sql<DocumentRow>
  /** The stored bytes' length and SHA-256, computed by the database (integrity check). */
  readonly storedDigest: (
    documentId: string,
  ) => Sql<{ readonly size: number; readonly sha256: string } | undefined>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const columns = sql`
    d.id, d.user_id AS "userId", d.kind, d.status, d.reason, d.file_name AS "fileName",
    d.content_type AS "contentType", d.size, d.sha256, d.uploaded_at AS "uploadedAt",
    d.reviewed_at AS "reviewedAt", d.reviewed_by AS "reviewedBy"
  `

  const lockPlayer = (userId: string) =>
    sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`.pipe(Effect.asVoid)

  const history = (userId: string, kind: DocumentKind) =>
    sql<DocumentRow>`
      SELECT ${columns} FROM verification_documents d
      WHERE d.user_id = ${userId} AND d.kind = ${kind}
      ORDER BY d.uploaded_at DESC, d.id DESC
    `

  const insert = (doc: NewDocument) =>
    Effect.gen(function* () {
      const rows = yield* sql<DocumentRow>`
        INSERT INTO verification_documents AS d (user_id, kind, status, file_name, content_type, size, sha256)
        VALUES (${doc.userId}, ${doc.kind}, 'PENDING', ${doc.fileName}, ${doc.contentType},
                ${doc.content.length}, ${doc.sha256})
        RETURNING ${columns}
      `
      const row = rows[0]
      if (row === undefined)
        return yield* Effect.die(new Error("INSERT verification_documents returned no row"))
      yield* sql`INSERT INTO verification_document_files (document_id, content) VALUES (${row.id}, ${doc.content})`
      return row
    })

  const approvedKinds = (userId: string) =>
    sql<{ readonly kind: DocumentKind }>`
      SELECT DISTINCT kind FROM verification_documents WHERE user_id = ${userId} AND status = 'APPROVED'
    `.pipe(Effect.map((rows) => rows.map((r) => r.kind)))

  const pending = () =>
    sql<PendingRow>`
      SELECT ${columns}, u.email, u.full_name AS name FROM verification_documents d JOIN users u ON u.id = d.user_id
      WHERE d.status = 'PENDING' ORDER BY d.uploaded_at, d.id
    `

  const findDocument = (documentId: string) =>
    sql<PendingRow>`
      SELECT ${columns}, u.email, u.full_name AS name FROM verification_documents d JOIN users u ON u.id = d.user_id
      WHERE d.id = ${documentId}
    `.pipe(Effect.map((rows) => rows[0]))

  const file = (documentId: string) =>
    sql<{ readonly content: Uint8Array }>`
      SELECT content FROM verification_document_files WHERE document_id = ${documentId}
    `.pipe(Effect.map((rows) => rows[0]?.content))

  const findPlayer = (email: string) =>
    sql<{ readonly id: string; readonly email: string }>`
      SELECT id, email FROM users WHERE lower(email) = lower(${email})
    `.pipe(Effect.map((rows) => rows[0]))

  const pendingOf = (userId: string, kind: DocumentKind) =>
    sql<DocumentRow>`
      SELECT ${columns} FROM verification_documents d
      WHERE d.user_id = ${userId} AND d.kind = ${kind} AND d.status = 'PENDING'
      FOR UPDATE
    `.pipe(Effect.map((rows) => rows[0]))

  const review = (
    documentId: string,
    decision: {
      readonly status: "APPROVED" | "REJECTED"
      readonly reason: string | null
      readonly by: string
    },
  ) =>
    Effect.gen(function* () {
      const rows = yield* sql<DocumentRow>`
        UPDATE verification_documents AS d
        SET status = ${decision.status}, reason = ${decision.reason}, reviewed_by = ${decision.by},
            reviewed_at = now()
        WHERE d.id = ${documentId} AND d.status = 'PENDING'
        RETURNING ${columns}
      `
      const row = rows[0]
      if (row === undefined) return yield* Effect.die(new Error(`document ${documentId} is not pending`))
      return row
    })

  const storedDigest = (documentId: string) =>
    sql<{ readonly size: number; readonly sha256: string }>`
      SELECT octet_length(content) AS size, encode(sha256(content), 'hex') AS sha256
      FROM verification_document_files WHERE document_id = ${documentId}
    `.pipe(Effect.map((rows) => rows[0]))

  return {
    transaction: sql.withTransaction,
    lockPlayer,
    history,
    insert,
    approvedKinds,
    pending,
    findDocument,
    file,
    findPlayer,
    pendingOf,
    review,
    storedDigest,
  } satisfies KycRepoShape
})

export class KycRepo extends Context.Service<KycRepo, KycRepoShape>()("casino/server/KycRepo") {
  static readonly layer = Layer.effect(KycRepo, make)
}
