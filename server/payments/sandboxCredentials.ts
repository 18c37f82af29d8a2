/**
 * The one piece the casino's payment adapters and the sandbox provider share (docs/payments-protocol.md,
 * "Configuration"): how a sandbox gateway's merchant credentials derive from the sandbox secret.
 *
 *   apiKey        = hex HMAC-SHA256(SANDBOX_SECRET, "api:" + code)
 *   webhookSecret = hex HMAC-SHA256(SANDBOX_SECRET, "webhook:" + code)
 *
 * The secret is SANDBOX_SECRET when set, else a random one generated once into the database table
 * `sandbox_settings` (key 'secret'): two server processes on one database derive the same keys.
 * Both sides call `sandboxSecret`; the first caller creates it (insert-if-absent, then read: a race
 * between two processes leaves one value).
 */
import { createHmac, randomBytes } from "node:crypto"
import { Effect } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export interface SandboxCredentials {
  readonly apiKey: string
  readonly webhookSecret: string
}

export const deriveSandboxKey = (secret: string, purpose: "api" | "webhook", code: string): string =>
  createHmac("sha256", secret).update(`${purpose}:${code}`).digest("hex")

export const sandboxCredentials = (secret: string, code: string): SandboxCredentials => ({
  apiKey: deriveSandboxKey(secret, "api", code),
  webhookSecret: deriveSandboxKey(secret, "webhook", code),
})

/** The sandbox secret: the configured one, else the database's (created on first use). */
export const sandboxSecret = (
  configured: string | undefined,
): Effect.Effect<string, SqlError.SqlError, SqlClient.SqlClient> =>
  configured !== undefined
    ? Effect.succeed(configured)
    : Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const generated = randomBytes(32).toString("hex")
        yield* sql`INSERT INTO sandbox_settings (key, value) VALUES ('secret', ${generated})
                   ON CONFLICT (key) DO NOTHING`
        const rows = yield* sql<{ value: string }>`SELECT value FROM sandbox_settings WHERE key = 'secret'`
        const stored = rows[0]?.value
        // The row was inserted just above or by a concurrent process; it is never deleted.
        return stored ?? generated
      })
