/**
 * The SQL of operators' API tokens (0080_operator_api_tokens.sql). No rules here: who may create,
 * see or end a token is decided by ./ApiTokens.ts.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { OperatorRow } from "./OperatorsRepo.ts"

export interface TokenRow {
  readonly id: string
  readonly operator_id: string
  readonly name: string
  readonly created_at: Date
  readonly expires_at: Date
  readonly last_used_at: Date | null
  readonly last_used_ip: string | null
  readonly revoked_at: Date | null
}

export type LiveTokenRow = OperatorRow & {
  readonly token_id: string
  readonly token_name: string
  readonly last_used_at: Date | null
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

const tokenColumns = "id, operator_id, name, created_at, expires_at, last_used_at, last_used_ip, revoked_at"

export interface ApiTokensRepoShape {
  readonly insert: (input: {
    readonly tokenHash: string
    readonly operatorId: string
    readonly name: string
    readonly nowIso: string
    readonly expiresIso: string
  }) => Sql<TokenRow | undefined>
  /** The operator's tokens, live ones first, newest first. */
  readonly listOf: (operatorId: string) => Sql<ReadonlyArray<TokenRow>>
  readonly find: (id: string) => Sql<TokenRow | undefined>
  /** Ends a live token; none when it was not live. */
  readonly revoke: (id: string, nowIso: string) => Sql<TokenRow | undefined>
  readonly revokeAllOf: (operatorId: string, nowIso: string) => Sql<number>
  /** A live token of an enabled operator, with its operator. */
  readonly findLive: (tokenHash: string, nowIso: string) => Sql<LiveTokenRow | undefined>
  readonly touch: (id: string, nowIso: string, ip: string) => Sql<void>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const repo: ApiTokensRepoShape = {
    insert: (t) =>
      sql<TokenRow>`
        INSERT INTO backoffice_api_tokens (token_hash, operator_id, name, created_at, expires_at)
        VALUES (${t.tokenHash}, ${t.operatorId}, ${t.name}, ${t.nowIso}::timestamptz, ${t.expiresIso}::timestamptz)
        RETURNING ${sql.literal(tokenColumns)}
      `.pipe(Effect.map((rows) => rows[0])),
    listOf: (operatorId) =>
      sql<TokenRow>`
        SELECT ${sql.literal(tokenColumns)} FROM backoffice_api_tokens
        WHERE operator_id = ${operatorId}
        ORDER BY revoked_at IS NOT NULL, created_at DESC
      `,
    find: (id) =>
      sql<TokenRow>`SELECT ${sql.literal(tokenColumns)} FROM backoffice_api_tokens WHERE id = ${id}`.pipe(
        Effect.map((rows) => rows[0]),
      ),
    revoke: (id, nowIso) =>
      sql<TokenRow>`
        UPDATE backoffice_api_tokens SET revoked_at = ${nowIso}::timestamptz
        WHERE id = ${id} AND revoked_at IS NULL
        RETURNING ${sql.literal(tokenColumns)}
      `.pipe(Effect.map((rows) => rows[0])),
    revokeAllOf: (operatorId, nowIso) =>
      sql<{ readonly id: string }>`
        UPDATE backoffice_api_tokens SET revoked_at = ${nowIso}::timestamptz
        WHERE operator_id = ${operatorId} AND revoked_at IS NULL
        RETURNING id
      `.pipe(Effect.map((rows) => rows.length)),
    findLive: (tokenHash, nowIso) =>
      sql<LiveTokenRow>`
        SELECT t.id AS token_id, t.name AS token_name, t.last_used_at,
               o.id, o.email, o.name, o.role, o.totp_enrolled, o.disabled,
               o.must_change_password, o.created_at, o.updated_at
        FROM backoffice_api_tokens t JOIN backoffice_operators o ON o.id = t.operator_id
        WHERE t.token_hash = ${tokenHash} AND t.revoked_at IS NULL
          AND t.expires_at > ${nowIso}::timestamptz AND NOT o.disabled
      `.pipe(Effect.map((rows) => rows[0])),
    touch: (id, nowIso, ip) =>
      sql`
        UPDATE backoffice_api_tokens SET last_used_at = ${nowIso}::timestamptz, last_used_ip = ${ip}
        WHERE id = ${id}
      `.pipe(Effect.asVoid),
  }
  return repo
})

export class ApiTokensRepo extends Context.Service<ApiTokensRepo, ApiTokensRepoShape>()(
  "casino/server/backoffice/ApiTokensRepo",
) {
  static readonly layer = Layer.effect(ApiTokensRepo, make)
}
