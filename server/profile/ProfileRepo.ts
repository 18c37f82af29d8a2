/**
 * The SQL of the profile module: the profile columns of `users` (read, read locked, one UPDATE),
 * the country list check, the promo flag, the welcome-offer claim, unsubscribe links (only their
 * SHA-256) and the wallet list (balances from the ledger: a wallet's id is its ledger account's). Every function fails only with `SqlError`.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { ProfileColumns } from "./update.ts"

export interface ProfileRow {
  readonly email: string
  readonly confirmed: boolean
  readonly firstName: string | null
  readonly lastName: string | null
  readonly receiveEmailPromo: boolean
  readonly nickName: string | null
  readonly phoneNumber: string | null
  readonly dialingCode: string | null
  readonly address: string | null
  readonly address2: string | null
  readonly zipCode: string | null
  readonly country: string | null
  readonly city: string | null
  readonly state: string | null
  readonly gender: string | null
  /** Unix seconds of the date (UTC midnight). */
  readonly dateOfBirth: number | null
  readonly avatar: string | null
}

export interface FundRow {
  readonly currency: string
  readonly isDefault: boolean
  readonly balance: string
  readonly bonusBalance: string
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface ProfileRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  readonly find: (userId: string) => Sql<ProfileRow | undefined>
  /** The row, locked until the transaction ends (`FOR UPDATE`): concurrent updates queue behind it. */
  readonly findForUpdate: (userId: string) => Sql<ProfileRow | undefined>
  readonly update: (userId: string, columns: ProfileColumns) => Sql<void>
  readonly countryExists: (code: string) => Sql<boolean>
  readonly setReceiveEmail: (userId: string, receive: boolean) => Sql<void>
  /**
   * Marks the welcome offer sent when it is due (confirmed e-mail, promo mail accepted, never sent)
   * and returns the address; undefined when it is not due. Atomic: it is claimed once.
   */
  readonly claimWelcomeOffer: (userId: string) => Sql<string | undefined>
  readonly insertUnsubscribeLink: (userId: string, tokenHash: string) => Sql<void>
  /** Uses a link (idempotent): clears the player's promo flag; the address, or undefined for an unknown link. */
  readonly unsubscribe: (tokenHash: string) => Sql<string | undefined>
  readonly fund: (userId: string) => Sql<ReadonlyArray<FundRow>>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const columns = sql`
    email, (confirmed_at IS NOT NULL) AS confirmed, first_name AS "firstName", last_name AS "lastName",
    receive_email_promo AS "receiveEmailPromo", nick_name AS "nickName", phone_number AS "phoneNumber",
    dialing_code AS "dialingCode", address, address2, zip_code AS "zipCode", country, city, state, gender,
    extract(epoch FROM date_of_birth::timestamp AT TIME ZONE 'UTC')::float8 AS "dateOfBirth", avatar
  `

  const normalize = (row: ProfileRow | undefined): ProfileRow | undefined =>
    row === undefined
      ? undefined
      : { ...row, dateOfBirth: row.dateOfBirth === null ? null : Math.floor(row.dateOfBirth) }

  const find = (userId: string) =>
    sql<ProfileRow>`SELECT ${columns} FROM users WHERE id = ${userId}`.pipe(
      Effect.map((r) => normalize(r[0])),
    )

  const findForUpdate = (userId: string) =>
    sql<ProfileRow>`SELECT ${columns} FROM users WHERE id = ${userId} FOR UPDATE`.pipe(
      Effect.map((r) => normalize(r[0])),
    )

  const update = (userId: string, changes: ProfileColumns) =>
    Object.keys(changes).length === 0
      ? Effect.void
      : sql`UPDATE users SET ${sql.update({ ...changes })} WHERE id = ${userId}`.pipe(Effect.asVoid)

  const countryExists = (code: string) =>
    sql`SELECT 1 AS found FROM countries WHERE code = ${code}`.pipe(Effect.map((rows) => rows.length > 0))

  const setReceiveEmail = (userId: string, receive: boolean) =>
    sql`UPDATE users SET receive_email_promo = ${receive} WHERE id = ${userId}`.pipe(Effect.asVoid)

  const claimWelcomeOffer = (userId: string) =>
    sql<{ readonly email: string }>`
      UPDATE users SET welcome_offer_sent_at = now()
      WHERE id = ${userId} AND welcome_offer_sent_at IS NULL AND receive_email_promo
        AND confirmed_at IS NOT NULL
      RETURNING email
    `.pipe(Effect.map((rows) => rows[0]?.email))

  const insertUnsubscribeLink = (userId: string, tokenHash: string) =>
    sql`INSERT INTO unsubscribe_links (token_hash, user_id) VALUES (${tokenHash}, ${userId})`.pipe(
      Effect.asVoid,
    )

  const unsubscribe = (tokenHash: string) =>
    sql<{ readonly email: string }>`
      WITH link AS (
        UPDATE unsubscribe_links SET used_at = coalesce(used_at, now())
        WHERE token_hash = ${tokenHash}
        RETURNING user_id
      )
      UPDATE users SET receive_email_promo = false
      FROM link WHERE users.id = link.user_id
      RETURNING users.email
    `.pipe(Effect.map((rows) => rows[0]?.email))

  const fund = (userId: string) =>
    sql<FundRow>`
      SELECT w.currency, w.is_default AS "isDefault", a.balance::text AS balance,
             coalesce(b.balance, 0)::text AS "bonusBalance"
      FROM wallets w JOIN ledger_accounts a ON a.id = w.id
      LEFT JOIN ledger_accounts b ON b.kind = 'player_bonus' AND b.user_id = w.user_id AND b.currency = w.currency
      WHERE w.user_id = ${userId}
      ORDER BY w.is_default DESC, w.currency
    `

  return {
    transaction: sql.withTransaction,
    find,
    findForUpdate,
    update,
    countryExists,
    setReceiveEmail,
    claimWelcomeOffer,
    insertUnsubscribeLink,
    unsubscribe,
    fund,
  } satisfies ProfileRepoShape
})

export class ProfileRepo extends Context.Service<ProfileRepo, ProfileRepoShape>()(
  "casino/server/ProfileRepo",
) {
  static readonly layer = Layer.effect(ProfileRepo, make)
}
