/**
 * The one piece the casino and the studio share besides docs/game-wallet-protocol.md: how the
 * studio integration's keys derive from the studio secret.
 *
 *   casinoKey    = hex HMAC-SHA256(secret, "casino:studio")   casino → studio (launch)
 *   walletSecret = hex HMAC-SHA256(secret, "wallet:studio")   studio → casino (seamless wallet)
 *
 * The secret is STUDIO_SECRET when set, else a random one generated once into `studio_settings`
 * (key 'secret'): two processes on one database derive the same keys (insert-if-absent, then read).
 */
import { createHmac, randomBytes } from "node:crypto"
import { Effect } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export interface StudioCredentials {
  readonly casinoKey: string
  readonly walletSecret: string
}

export const STUDIO_CODE = "studio"

export const studioCredentials = (secret: string): StudioCredentials => ({
  casinoKey: createHmac("sha256", secret).update(`casino:${STUDIO_CODE}`).digest("hex"),
  walletSecret: createHmac("sha256", secret).update(`wallet:${STUDIO_CODE}`).digest("hex"),
})

/** The studio secret: the configured one, else the database's (created on first use). */
export const studioSecret = (
  configured: string | undefined,
): Effect.Effect<string, SqlError.SqlError, SqlClient.SqlClient> =>
  configured !== undefined
    ? Effect.succeed(configured)
    : Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const generated = randomBytes(32).toString("hex")
        yield* sql`INSERT INTO studio_settings (key, value) VALUES ('secret', ${generated})
                   ON CONFLICT (key) DO NOTHING`
        const rows = yield* sql<{ value: string }>`SELECT value FROM studio_settings WHERE key = 'secret'`
        return rows[0]?.value ?? generated
      })
