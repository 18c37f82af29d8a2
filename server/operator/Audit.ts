/**
 * The operator audit trail (`operator_audit`): who did what, when, to which player. Every back-office
 * action (today: approving or rejecting verification documents) writes one row in the same
 * transaction as the action itself, so an action without its audit row cannot exist.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export interface AuditEntry {
  /** Who: the operator's name as the command or the back office states it (e.g. "cli:ana@host"). */
  readonly actor: string
  /** What, e.g. "kyc.approve". */
  readonly action: string
  readonly userId: string | null
  /** The object acted on, e.g. a document id. */
  readonly subject: string | null
  readonly details: Readonly<Record<string, string | number | boolean | null>>
  /** A back-office operator's account, and where the request came from (absent for the CLI). */
  readonly operatorId?: string | null
  readonly operatorEmail?: string | null
  readonly ip?: string | null
  /** The object as it was and as it is after the change (JSON), when the action changes one. */
  readonly before?: unknown
  readonly after?: unknown
}

/**
 * Who acts, as a service takes it: a name (the CLI's "cli:ana@host"), or a back-office operator
 * with its account and the request's address.
 */
export type AuditActor =
  | string
  | {
      readonly label: string
      readonly operatorId: string | null
      readonly email: string | null
      readonly ip: string | null
    }

/** The name recorded as `actor` (and as `reviewed_by`, a timeline step's author…). */
export const actorLabel = (actor: AuditActor): string => (typeof actor === "string" ? actor : actor.label)

/** The audit row's who-fields of an actor. */
export const actorFields = (
  actor: AuditActor,
): Pick<AuditEntry, "actor" | "operatorId" | "operatorEmail" | "ip"> =>
  typeof actor === "string"
    ? { actor }
    : { actor: actor.label, operatorId: actor.operatorId, operatorEmail: actor.email, ip: actor.ip }

export interface AuditRow extends AuditEntry {
  readonly id: string
  readonly at: Date
}

export interface OperatorAuditShape {
  readonly record: (entry: AuditEntry) => Effect.Effect<void, SqlError.SqlError>
  /** The latest entries, newest first. */
  readonly latest: (limit: number) => Effect.Effect<ReadonlyArray<AuditRow>, SqlError.SqlError>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value))
  const record = (entry: AuditEntry) =>
    sql`
      INSERT INTO operator_audit (actor, action, user_id, subject, details, operator_id, operator_email, ip, before, after)
      VALUES (${entry.actor.slice(0, 200)}, ${entry.action}, ${entry.userId}, ${entry.subject},
              ${JSON.stringify(entry.details)}::jsonb, ${entry.operatorId ?? null}, ${entry.operatorEmail ?? null},
              ${entry.ip ?? null}, ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb)
    `.pipe(Effect.asVoid)
  // ORDER BY names the table's column: the text alias `id` would sort "9" before "10".
  const latest = (limit: number) =>
    sql<AuditRow>`
      SELECT id::text AS id, at, actor, action, user_id AS "userId", subject, details
      FROM operator_audit ORDER BY operator_audit.id DESC LIMIT ${limit}
    `
  return { record, latest } satisfies OperatorAuditShape
})

export class OperatorAudit extends Context.Service<OperatorAudit, OperatorAuditShape>()(
  "casino/server/OperatorAudit",
) {
  static readonly layer = Layer.effect(OperatorAudit, make)
}
