/**
 * The SQL of the back office's players group (tables of 0002/0003 users and sessions, 0010 ledger,
 * 0077 notes and adjustments, 0082 their EUR value and the operators' `role_since`). No rules
 * here: ./Players.ts decides; a function that must run in the caller's transaction says so.
 * Amounts cross as decimal strings (numeric read as text).
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export type KycStateRow = "verified" | "pending" | "rejected" | "none"

export interface SummaryRow {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly country: string | null
  readonly locked: boolean
  readonly registeredAt: Date
  readonly kyc: KycStateRow
}

export interface ProfileRow extends SummaryRow {
  readonly firstName: string | null
  readonly lastName: string | null
  readonly nickName: string | null
  readonly phoneNumber: string | null
  readonly dialingCode: string | null
  readonly city: string | null
  readonly address: string | null
  readonly zipCode: string | null
  readonly dateOfBirth: string | null
  readonly gender: string | null
  readonly language: string
  readonly currency: string
  readonly confirmed: boolean
  readonly lockedAt: Date | null
  readonly lockedReason: string | null
}

export interface WalletRow {
  readonly currency: string
  readonly isDefault: boolean
  readonly cash: string
  readonly bonus: string
  readonly freeSpins: string
}

export interface LedgerLineRow {
  readonly id: string
  readonly transactionId: string
  readonly kind: string
  readonly account: string
  readonly currency: string
  readonly amount: string
  readonly at: Date
}

export interface SessionRow {
  readonly id: string
  readonly ip: string | null
  readonly country: string | null
  readonly userAgent: string | null
  readonly createdAt: Date
  readonly lastSeenAt: Date
  readonly active: boolean
}

export interface SelfExclusionRow {
  readonly period: string
  readonly kind: string
  readonly startsAt: Date
  readonly until: Date | null
}

export interface NoteRow {
  readonly id: string
  readonly body: string
  readonly operatorEmail: string
  readonly at: Date
}

export interface LockRow {
  readonly id: string
  readonly email: string
  readonly lockedAt: Date | null
  readonly lockedReason: string | null
}

export interface AdjustmentRow {
  readonly id: string
  readonly idempotencyKey: string
  readonly playerId: string
  readonly playerEmail: string
  readonly currency: string
  readonly amount: string
  readonly reason: string
  readonly status: "pending" | "posted" | "rejected"
  readonly needsApproval: boolean
  readonly requestedById: string
  readonly requestedBy: string
  readonly requestedAt: Date
  readonly decidedBy: string | null
  readonly decidedAt: Date | null
  readonly decisionReason: string | null
  readonly transactionId: string | null
}

export interface NewAdjustment {
  readonly idempotencyKey: string
  readonly userId: string
  readonly currency: string
  readonly amount: bigint
  readonly reason: string
  readonly needsApproval: boolean
  /** Its absolute value in EUR cents at the request's rate; null when no rate is known. */
  readonly eurCents: bigint | null
  readonly operatorId: string
  readonly operatorEmail: string
}

export interface PlayersRepoShape {
  readonly withTransaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /**
   * Players whose e-mail starts with `emailPrefix`, whose name contains `namePart`, whose id is
   * `id`, or whose phone digits contain `phoneDigits` (each only when given); newest first.
   */
  readonly search: (q: {
    readonly emailPrefix: string
    readonly namePart: string
    readonly id: string | null
    readonly phoneDigits: string | null
    readonly limit: number
  }) => Sql<ReadonlyArray<SummaryRow>>
  readonly profile: (userId: string) => Sql<ProfileRow | undefined>
  /** Whether a player has this id (without reading the profile). */
  readonly playerExists: (userId: string) => Sql<boolean>
  readonly wallets: (userId: string) => Sql<ReadonlyArray<WalletRow>>
  readonly ledgerLines: (userId: string, limit: number) => Sql<ReadonlyArray<LedgerLineRow>>
  readonly sessions: (userId: string, limit: number) => Sql<ReadonlyArray<SessionRow>>
  readonly selfExclusions: (userId: string, limit: number) => Sql<ReadonlyArray<SelfExclusionRow>>
  readonly notes: (userId: string, limit: number) => Sql<ReadonlyArray<NoteRow>>
  /** In the caller's transaction: the player's lock state, the row locked. */
  readonly lockRow: (userId: string) => Sql<LockRow | undefined>
  /** In the caller's transaction. A lock keeps its first time; the reason is the latest. */
  readonly setLocked: (userId: string, reason: string | null) => Sql<void>
  /** How many live sessions the player has (what a sign-out or lock ends). */
  readonly liveSessions: (userId: string) => Sql<number>
  readonly insertNote: (n: {
    readonly userId: string
    readonly operatorId: string
    readonly operatorEmail: string
    readonly body: string
  }) => Sql<NoteRow>
  readonly currencyExists: (code: string) => Sql<boolean>
  /**
   * In the caller's transaction: the EUR cents of what `operatorId` adjusted on `userId` without a
   * second operator (posted at once) in the last `hours` hours, by the database's clock.
   */
  readonly soloEurCents: (q: {
    readonly userId: string
    readonly operatorId: string
    readonly hours: number
  }) => Sql<bigint>
  /**
   * Whether the operator has held their current role (enabled) since strictly before the
   * adjustment was requested (`role_since`, kept by 0082's trigger); false for an unknown one.
   */
  readonly heldRoleBefore: (operatorId: string, adjustmentId: string) => Sql<boolean>
  /** The new adjustment (pending), or undefined when its idempotency key exists already. */
  readonly insertAdjustment: (a: NewAdjustment) => Sql<AdjustmentRow | undefined>
  readonly adjustmentByKey: (key: string) => Sql<AdjustmentRow | undefined>
  /** In the caller's transaction: the adjustment, its row locked. */
  readonly lockAdjustment: (id: string) => Sql<AdjustmentRow | undefined>
  readonly markPosted: (a: {
    readonly id: string
    readonly transactionId: string
    readonly operatorId: string | null
    readonly operatorEmail: string | null
  }) => Sql<AdjustmentRow>
  readonly markRejected: (a: {
    readonly id: string
    readonly operatorId: string
    readonly operatorEmail: string
    readonly reason: string
  }) => Sql<AdjustmentRow>
  readonly adjustments: (q: {
    readonly userId: string | null
    readonly status: string | null
    readonly limit: number
  }) => Sql<ReadonlyArray<AdjustmentRow>>
}

// Both documents approved: verified; else one waiting: pending; else a refusal: rejected.
const kycState = `
  CASE
    WHEN (SELECT count(DISTINCT d.kind) FROM verification_documents d
          WHERE d.user_id = u.id AND d.status = 'APPROVED') = 2 THEN 'verified'
    WHEN EXISTS (SELECT 1 FROM verification_documents d WHERE d.user_id = u.id AND d.status = 'PENDING')
      THEN 'pending'
    WHEN EXISTS (SELECT 1 FROM verification_documents d WHERE d.user_id = u.id AND d.status = 'REJECTED')
      THEN 'rejected'
    ELSE 'none'
  END`

const adjustmentColumns = `
  b.id::text AS id, b.idempotency_key AS "idempotencyKey", b.user_id::text AS "playerId",
  u.email AS "playerEmail", b.currency, b.amount::text AS amount, b.reason, b.status,
  b.needs_approval AS "needsApproval", b.requested_by::text AS "requestedById",
  b.requested_by_email AS "requestedBy", b.requested_at AS "requestedAt",
  b.decided_by_email AS "decidedBy", b.decided_at AS "decidedAt", b.decision_reason AS "decisionReason",
  b.transaction_id::text AS "transactionId"`

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const first = <A>(rows: ReadonlyArray<A>, what: string): Effect.Effect<A> => {
    const row = rows[0]
    return row === undefined ? Effect.die(new Error(`${what} returned no row`)) : Effect.succeed(row)
  }

  const search: PlayersRepoShape["search"] = (q) =>
    sql<SummaryRow>`
      SELECT u.id::text AS id, u.email, u.full_name AS name, u.country,
             (u.locked_at IS NOT NULL) AS locked, u.created_at AS "registeredAt",
             ${sql.literal(kycState)} AS kyc
      FROM users u
      WHERE lower(u.email) LIKE ${q.emailPrefix} || '%'
         OR u.full_name ILIKE '%' || ${q.namePart} || '%'
         OR (coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) ILIKE '%' || ${q.namePart} || '%'
         OR (${q.id}::text IS NOT NULL AND u.id::text = ${q.id}::text)
         OR (${q.phoneDigits}::text IS NOT NULL AND
             regexp_replace(coalesce(u.dialing_code, '') || coalesce(u.phone_number, ''), '[^0-9]', '', 'g')
               LIKE '%' || ${q.phoneDigits}::text || '%')
      ORDER BY u.created_at DESC, u.id
      LIMIT ${q.limit}
    `

  const profile = (userId: string) =>
    sql<ProfileRow>`
      SELECT u.id::text AS id, u.email, u.full_name AS name, u.country,
             (u.locked_at IS NOT NULL) AS locked, u.created_at AS "registeredAt",
             ${sql.literal(kycState)} AS kyc,
             u.first_name AS "firstName", u.last_name AS "lastName", u.nick_name AS "nickName",
             u.phone_number AS "phoneNumber", u.dialing_code AS "dialingCode", u.city, u.address,
             u.zip_code AS "zipCode", u.date_of_birth::text AS "dateOfBirth", u.gender, u.language,
             u.currency, (u.confirmed_at IS NOT NULL) AS confirmed, u.locked_at AS "lockedAt",
             u.locked_reason AS "lockedReason"
      FROM users u WHERE u.id = ${userId}::uuid
    `.pipe(Effect.map((rows) => rows[0]))

  const wallets = (userId: string) =>
    sql<WalletRow>`
      SELECT w.currency, w.is_default AS "isDefault", cash.balance::text AS cash,
             coalesce(bonus.balance, 0)::text AS bonus, coalesce(spins.balance, 0)::text AS "freeSpins"
      FROM wallets w
      JOIN ledger_accounts cash ON cash.id = w.id
      LEFT JOIN ledger_accounts bonus
        ON bonus.user_id = w.user_id AND bonus.currency = w.currency AND bonus.kind = 'player_bonus'
      LEFT JOIN ledger_accounts spins
        ON spins.user_id = w.user_id AND spins.currency = w.currency AND spins.kind = 'player_free_spins'
      WHERE w.user_id = ${userId}::uuid
      ORDER BY w.is_default DESC, w.currency
    `

  const ledgerLines = (userId: string, limit: number) =>
    sql<LedgerLineRow>`
      SELECT e.id::text AS id, t.id::text AS "transactionId", t.kind, a.kind AS account, e.currency,
             e.amount::text AS amount, t.created_at AS at
      FROM ledger_entries e
      JOIN ledger_accounts a ON a.id = e.account_id
      JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE a.user_id = ${userId}::uuid
      ORDER BY e.id DESC LIMIT ${limit}
    `

  const sessions = (userId: string, limit: number) =>
    sql<SessionRow>`
      SELECT id::text AS id, ip, country, user_agent AS "userAgent", created_at AS "createdAt",
             last_seen_at AS "lastSeenAt", (revoked_at IS NULL AND expires_at > now()) AS active
      FROM sessions WHERE user_id = ${userId}::uuid
      ORDER BY created_at DESC, id LIMIT ${limit}
    `

  const selfExclusions = (userId: string, limit: number) =>
    sql<SelfExclusionRow>`
      SELECT period, kind, starts_at AS "startsAt", until
      FROM self_exclusions WHERE user_id = ${userId}::uuid ORDER BY id DESC LIMIT ${limit}
    `

  const notes = (userId: string, limit: number) =>
    sql<NoteRow>`
      SELECT id::text AS id, body, operator_email AS "operatorEmail", created_at AS at
      FROM player_notes WHERE user_id = ${userId}::uuid ORDER BY id DESC LIMIT ${limit}
    `

  const lockRow = (userId: string) =>
    sql<LockRow>`
      SELECT id::text AS id, email, locked_at AS "lockedAt", locked_reason AS "lockedReason"
      FROM users WHERE id = ${userId}::uuid FOR UPDATE
    `.pipe(Effect.map((rows) => rows[0]))

  const setLocked = (userId: string, reason: string | null) =>
    (reason === null
      ? sql`UPDATE users SET locked_at = NULL, locked_reason = NULL WHERE id = ${userId}::uuid`
      : sql`
          UPDATE users SET locked_at = coalesce(locked_at, now()), locked_reason = ${reason}
          WHERE id = ${userId}::uuid
        `
    ).pipe(Effect.asVoid)

  const liveSessions = (userId: string) =>
    sql<{ readonly n: number }>`
      SELECT count(*)::int AS n FROM sessions
      WHERE user_id = ${userId}::uuid AND revoked_at IS NULL AND expires_at > now()
    `.pipe(Effect.map((rows) => rows[0]?.n ?? 0))

  const insertNote: PlayersRepoShape["insertNote"] = (n) =>
    sql<NoteRow>`
      INSERT INTO player_notes (user_id, operator_id, operator_email, body)
      VALUES (${n.userId}::uuid, ${n.operatorId}::uuid, ${n.operatorEmail}, ${n.body})
      RETURNING id::text AS id, body, operator_email AS "operatorEmail", created_at AS at
    `.pipe(Effect.flatMap((rows) => first(rows, "INSERT player_notes")))

  const playerExists = (userId: string) =>
    sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM users WHERE id = ${userId}::uuid`.pipe(
      Effect.map((rows) => (rows[0]?.n ?? 0) > 0),
    )

  const currencyExists = (code: string) =>
    sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM currencies WHERE code = ${code}`.pipe(
      Effect.map((rows) => (rows[0]?.n ?? 0) > 0),
    )

  const byId = (id: string, lock: boolean) =>
    sql<AdjustmentRow>`
      SELECT ${sql.literal(adjustmentColumns)}
      FROM balance_adjustments b JOIN users u ON u.id = b.user_id
      WHERE b.id = ${id}::uuid ${sql.literal(lock ? "FOR UPDATE OF b" : "")}
    `.pipe(Effect.map((rows) => rows[0]))

  const insertAdjustment = (a: NewAdjustment) =>
    Effect.gen(function* () {
      const inserted = yield* sql<{ readonly id: string }>`
        INSERT INTO balance_adjustments (idempotency_key, user_id, currency, amount, reason, needs_approval,
                                         eur_cents, status, requested_by, requested_by_email)
        VALUES (${a.idempotencyKey}, ${a.userId}::uuid, ${a.currency}, ${a.amount.toString()}::numeric,
                ${a.reason}, ${a.needsApproval}, ${a.eurCents?.toString() ?? null}::numeric, 'pending',
                ${a.operatorId}::uuid, ${a.operatorEmail})
        ON CONFLICT (idempotency_key) DO NOTHING
        RETURNING id::text AS id
      `
      const id = inserted[0]?.id
      return id === undefined ? undefined : yield* byId(id, false)
    })

  const soloEurCents: PlayersRepoShape["soloEurCents"] = (q) =>
    sql<{ readonly total: string }>`
      SELECT coalesce(sum(eur_cents), 0)::text AS total FROM balance_adjustments
      WHERE user_id = ${q.userId}::uuid AND requested_by = ${q.operatorId}::uuid AND NOT needs_approval
        AND status = 'posted' AND requested_at > now() - make_interval(hours => ${q.hours}::int)
    `.pipe(Effect.map((rows) => BigInt(rows[0]?.total ?? "0")))

  const heldRoleBefore = (operatorId: string, adjustmentId: string) =>
    sql<{ readonly held: boolean }>`
      SELECT (o.role_since < b.requested_at) AS held
      FROM backoffice_operators o, balance_adjustments b
      WHERE o.id = ${operatorId}::uuid AND b.id = ${adjustmentId}::uuid
    `.pipe(Effect.map((rows) => rows[0]?.held === true))

  const adjustmentByKey = (key: string) =>
    sql<AdjustmentRow>`
      SELECT ${sql.literal(adjustmentColumns)}
      FROM balance_adjustments b JOIN users u ON u.id = b.user_id
      WHERE b.idempotency_key = ${key}
    `.pipe(Effect.map((rows) => rows[0]))

  const markPosted: PlayersRepoShape["markPosted"] = (a) =>
    sql`
      UPDATE balance_adjustments
      SET status = 'posted', transaction_id = ${a.transactionId}::uuid, decided_at = now(),
          decided_by = ${a.operatorId}::uuid, decided_by_email = ${a.operatorEmail}
      WHERE id = ${a.id}::uuid
    `.pipe(
      Effect.andThen(byId(a.id, false)),
      Effect.flatMap((row) =>
        row === undefined ? Effect.die(new Error("adjustment vanished")) : Effect.succeed(row),
      ),
    )

  const markRejected: PlayersRepoShape["markRejected"] = (a) =>
    sql`
      UPDATE balance_adjustments
      SET status = 'rejected', decision_reason = ${a.reason}, decided_at = now(),
          decided_by = ${a.operatorId}::uuid, decided_by_email = ${a.operatorEmail}
      WHERE id = ${a.id}::uuid
    `.pipe(
      Effect.andThen(byId(a.id, false)),
      Effect.flatMap((row) =>
        row === undefined ? Effect.die(new Error("adjustment vanished")) : Effect.succeed(row),
      ),
    )

  const adjustments: PlayersRepoShape["adjustments"] = (q) =>
    sql<AdjustmentRow>`
      SELECT ${sql.literal(adjustmentColumns)}
      FROM balance_adjustments b JOIN users u ON u.id = b.user_id
      WHERE (${q.userId}::uuid IS NULL OR b.user_id = ${q.userId}::uuid)
        AND (${q.status}::text IS NULL OR b.status = ${q.status}::text)
      ORDER BY b.requested_at DESC, b.id LIMIT ${q.limit}
    `

  return {
    withTransaction: (effect) => sql.withTransaction(effect),
    search,
    profile,
    playerExists,
    wallets,
    ledgerLines,
    sessions,
    selfExclusions,
    notes,
    lockRow,
    setLocked,
    liveSessions,
    insertNote,
    currencyExists,
    soloEurCents,
    heldRoleBefore,
    insertAdjustment,
    adjustmentByKey,
    lockAdjustment: (id) => byId(id, true),
    markPosted,
    markRejected,
    adjustments,
  } satisfies PlayersRepoShape
})

export class PlayersRepo extends Context.Service<PlayersRepo, PlayersRepoShape>()(
  "casino/server/backoffice/PlayersRepo",
) {
  static readonly layer = Layer.effect(PlayersRepo, make)
}
