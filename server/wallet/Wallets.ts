/**
 * The player's wallets: add one in a currency of the list (enabled), make one the default. A wallet
 * IS the player's cash account of the ledger (same id; the row of `ledger_accounts` holds the
 * balance, opened by the wallets trigger of migration 0010), so adding a wallet never touches money.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrencyNotSupported, WalletExists, WalletNotFound } from "../../services/errors.ts"

export const WalletMessages = {
  notSupported: (currency: string) => `${currency} is not a currency you can hold here.`,
  exists: (currency: string) => `You already have a ${currency} wallet.`,
  notFound: (currency: string) => `You have no ${currency} wallet.`,
} as const

export interface WalletRow {
  readonly id: string
  readonly currency: string
  readonly isDefault: boolean
}

export interface WalletsShape {
  readonly add: (userId: string, currency: string) => Effect.Effect<void, CurrencyNotSupported | WalletExists>
  readonly setDefault: (userId: string, currency: string) => Effect.Effect<void, WalletNotFound>
  readonly find: (userId: string, currency: string) => Effect.Effect<WalletRow | undefined>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const find = (userId: string, currency: string) =>
    sql<WalletRow>`
      SELECT id::text AS id, currency, is_default AS "isDefault" FROM wallets
      WHERE user_id = ${userId} AND currency = ${currency}
    `.pipe(
      Effect.map((rows) => rows[0]),
      Effect.orDie,
    )

  const add = Effect.fn("Wallets.add")(function* (userId: string, currency: string) {
    const known = yield* sql<{ readonly enabled: boolean }>`
      SELECT enabled FROM currencies WHERE code = ${currency}
    `.pipe(Effect.orDie)
    if (known[0]?.enabled !== true)
      return yield* new CurrencyNotSupported({ message: WalletMessages.notSupported(currency), currency })
    // The UNIQUE (user_id, currency) decides between two concurrent adds: no check-then-insert race.
    const inserted = yield* sql`
      INSERT INTO wallets (user_id, currency, is_default) VALUES (${userId}, ${currency}, false)
      ON CONFLICT (user_id, currency) DO NOTHING
      RETURNING id
    `.pipe(Effect.orDie)
    if (inserted.length === 0)
      return yield* new WalletExists({ message: WalletMessages.exists(currency), currency })
  })

  const setDefault = Effect.fn("Wallets.setDefault")(function* (userId: string, currency: string) {
    yield* sql
      .withTransaction(
        Effect.gen(function* () {
          // The player's wallets locked together: two concurrent switches queue, one default remains.
          const wallets = yield* sql<WalletRow>`
            SELECT id::text AS id, currency, is_default AS "isDefault" FROM wallets
            WHERE user_id = ${userId} ORDER BY id FOR UPDATE
          `
          const target = wallets.find((w) => w.currency === currency)
          if (target === undefined)
            return yield* new WalletNotFound({ message: WalletMessages.notFound(currency), currency })
          if (target.isDefault) return
          // Two statements: the partial unique index (one default per player) is checked per row.
          yield* sql`UPDATE wallets SET is_default = false WHERE user_id = ${userId} AND is_default`
          yield* sql`UPDATE wallets SET is_default = true WHERE id = ${target.id}`
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  })

  return { add, setDefault, find } satisfies WalletsShape
})

export class Wallets extends Context.Service<Wallets, WalletsShape>()("casino/server/Wallets") {
  static readonly layer = Layer.effect(Wallets, make)
}
