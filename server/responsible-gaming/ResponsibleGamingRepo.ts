/**
 * The SQL of responsible gaming: deposit limits and their pending changes, the reality-check
 * setting and each session's last answer to a reminder (`sessions.reality_check_ack_at`), and the
 * self-exclusion columns of `users` with their history. Times come from the database clock
 * (`now()`). Every function fails only with `SqlError`.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { LimitPeriod } from "../../services/profile-rules.ts"

export interface LimitRow {
  readonly period: LimitPeriod
  /** EUR cents as a decimal string. */
  readonly amount: string
}

export interface PendingLimitRow {
  readonly period: LimitPeriod
  /** null: the limit is being removed. */
  readonly amount: string | null
  readonly effectiveAt: Date
}

export interface ExclusionRow {
  /** The database's clock, read in the same statement. */
  readonly now: Date
  readonly until: Date | null
  readonly kind: string | null
  readonly period: string | null
}

/** A live session's reality check: its sign-in, its last "Continue playing", and the clock. */
export interface RealityCheckRow {
  readonly signedInAt: Date
  readonly acknowledgedAt: Date | null
  readonly now: Date
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface ResponsibleGamingRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /** The database clock. */
  readonly now: () => Sql<Date>
  readonly lockPlayer: (userId: string) => Sql<void>
  /** Applies every pending change whose time has come (the lazy half of "after 24 hours"). */
  readonly applyDueChanges: (userId: string) => Sql<void>
  readonly limits: (userId: string) => Sql<ReadonlyArray<LimitRow>>
  readonly pendingChanges: (userId: string) => Sql<ReadonlyArray<PendingLimitRow>>
  /** Sets (or, with null, removes) a limit now and drops any pending change of that period. */
  readonly setLimitNow: (userId: string, period: LimitPeriod, amount: bigint | null) => Sql<void>
  /** Records a change that applies `delayMs` from now (replacing an earlier pending one). */
  readonly setPendingChange: (
    userId: string,
    period: LimitPeriod,
    amount: bigint | null,
    delayMs: number,
  ) => Sql<void>
  readonly cancelPendingChange: (userId: string, period: LimitPeriod) => Sql<void>
  readonly realityCheck: (userId: string) => Sql<number | null>
  readonly setRealityCheck: (userId: string, minutes: number | null) => Sql<void>
  /** The session's reality check; undefined when it is no live session of `userId`. */
  readonly realityCheckSession: (userId: string, sessionId: string) => Sql<RealityCheckRow | undefined>
  /** Records `now()` as the session's answer to a reminder; undefined as above (nothing written). */
  readonly acknowledgeRealityCheck: (userId: string, sessionId: string) => Sql<RealityCheckRow | undefined>
  /** The exclusion columns and the clock; `forUpdate` locks the row until the transaction ends. */
  readonly exclusion: (userId: string, forUpdate: boolean) => Sql<ExclusionRow | undefined>
  readonly setExclusion: (
    userId: string,
    exclusion: {
      readonly period: string
      readonly kind: string
      readonly startsAt: Date
      readonly until: Date | null
    },
  ) => Sql<void>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const now = () =>
    sql<{ readonly now: Date }>`SELECT now() AS now`.pipe(
      Effect.flatMap((rows) =>
        rows[0] === undefined
          ? Effect.die(new Error("SELECT now() returned no row"))
          : Effect.succeed(rows[0].now),
      ),
    )

  const lockPlayer = (userId: string) =>
    sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`.pipe(Effect.asVoid)

  const applyDueChanges = (userId: string) =>
    sql`
      WITH due AS (
        DELETE FROM deposit_limit_changes
        WHERE user_id = ${userId} AND effective_at <= now()
        RETURNING user_id, period, amount, effective_at
      ),
      removed AS (
        DELETE FROM deposit_limits l USING due
        WHERE l.user_id = due.user_id AND l.period = due.period AND due.amount IS NULL
        RETURNING l.period
      ),
      upserted AS (
        INSERT INTO deposit_limits (user_id, period, amount, updated_at)
        SELECT user_id, period, amount, effective_at FROM due WHERE amount IS NOT NULL
        ON CONFLICT (user_id, period) DO UPDATE SET amount = EXCLUDED.amount, updated_at = EXCLUDED.updated_at
        RETURNING period
      )
      SELECT (SELECT count(*) FROM removed) + (SELECT count(*) FROM upserted) AS applied
    `.pipe(Effect.asVoid)

  const limits = (userId: string) =>
    sql<LimitRow>`SELECT period, amount::text AS amount FROM deposit_limits WHERE user_id = ${userId}`

  const pendingChanges = (userId: string) =>
    sql<PendingLimitRow>`
      SELECT period, amount::text AS amount, effective_at AS "effectiveAt"
      FROM deposit_limit_changes WHERE user_id = ${userId}
    `

  const cancelPendingChange = (userId: string, period: LimitPeriod) =>
    sql`DELETE FROM deposit_limit_changes WHERE user_id = ${userId} AND period = ${period}`.pipe(
      Effect.asVoid,
    )

  const setLimitNow = (userId: string, period: LimitPeriod, amount: bigint | null) =>
    Effect.gen(function* () {
      yield* cancelPendingChange(userId, period)
      if (amount === null) {
        yield* sql`DELETE FROM deposit_limits WHERE user_id = ${userId} AND period = ${period}`
      } else {
        yield* sql`
          INSERT INTO deposit_limits (user_id, period, amount) VALUES (${userId}, ${period}, ${amount.toString()}::numeric)
          ON CONFLICT (user_id, period) DO UPDATE SET amount = EXCLUDED.amount, updated_at = now()
        `
      }
    })

  const setPendingChange = (userId: string, period: LimitPeriod, amount: bigint | null, delayMs: number) =>
    sql`
      INSERT INTO deposit_limit_changes (user_id, period, amount, effective_at)
      VALUES (${userId}, ${period}, ${amount === null ? null : amount.toString()}::numeric,
              now() + make_interval(secs => ${delayMs / 1000}::double precision))
      ON CONFLICT (user_id, period) DO UPDATE
      SET amount = EXCLUDED.amount, requested_at = now(), effective_at = EXCLUDED.effective_at
    `.pipe(Effect.asVoid)

  const realityCheck = (userId: string) =>
    sql<{ readonly minutes: number | null }>`
      SELECT reality_check_minutes AS minutes FROM users WHERE id = ${userId}
    `.pipe(Effect.map((rows) => rows[0]?.minutes ?? null))

  const setRealityCheck = (userId: string, minutes: number | null) =>
    sql`UPDATE users SET reality_check_minutes = ${minutes} WHERE id = ${userId}`.pipe(Effect.asVoid)

  const realityCheckSession = (userId: string, sessionId: string) =>
    sql<RealityCheckRow>`
      SELECT created_at AS "signedInAt", reality_check_ack_at AS "acknowledgedAt", now() AS now
      FROM sessions
      WHERE id = ${sessionId} AND user_id = ${userId} AND revoked_at IS NULL AND expires_at > now()
    `.pipe(Effect.map((rows) => rows[0]))

  const acknowledgeRealityCheck = (userId: string, sessionId: string) =>
    sql<RealityCheckRow>`
      UPDATE sessions SET reality_check_ack_at = now()
      WHERE id = ${sessionId} AND user_id = ${userId} AND revoked_at IS NULL AND expires_at > now()
      RETURNING created_at AS "signedInAt", reality_check_ack_at AS "acknowledgedAt", now() AS now
    `.pipe(Effect.map((rows) => rows[0]))

  const exclusion = (userId: string, forUpdate: boolean) =>
    (forUpdate
      ? sql<ExclusionRow>`
          SELECT now() AS now, self_exclusion_until AS until, self_exclusion_kind AS kind,
                 self_exclusion_period AS period
          FROM users WHERE id = ${userId} FOR UPDATE
        `
      : sql<ExclusionRow>`
          SELECT now() AS now, self_exclusion_until AS until, self_exclusion_kind AS kind,
                 self_exclusion_period AS period
          FROM users WHERE id = ${userId}
        `
    ).pipe(Effect.map((rows) => rows[0]))

  const setExclusion = (
    userId: string,
    e: {
      readonly period: string
      readonly kind: string
      readonly startsAt: Date
      readonly until: Date | null
    },
  ) =>
    Effect.gen(function* () {
      yield* sql`
        UPDATE users SET self_exclusion_until = ${e.until}, self_exclusion_kind = ${e.kind},
                         self_exclusion_period = ${e.period}
        WHERE id = ${userId}
      `
      yield* sql`
        INSERT INTO self_exclusions (user_id, period, kind, starts_at, until)
        VALUES (${userId}, ${e.period}, ${e.kind}, ${e.startsAt}, ${e.until})
      `
    })

  return {
    transaction: sql.withTransaction,
    now,
    lockPlayer,
    applyDueChanges,
    limits,
    pendingChanges,
    setLimitNow,
    setPendingChange,
    cancelPendingChange,
    realityCheck,
    setRealityCheck,
    realityCheckSession,
    acknowledgeRealityCheck,
    exclusion,
    setExclusion,
  } satisfies ResponsibleGamingRepoShape
})

export class ResponsibleGamingRepo extends Context.Service<
  ResponsibleGamingRepo,
  ResponsibleGamingRepoShape
>()("casino/server/ResponsibleGamingRepo") {
  static readonly layer = Layer.effect(ResponsibleGamingRepo, make)
}
