/**
 * The built-in sandbox's credentials, derived the same way on both sides (docs/payments-protocol.md):
 * apiKey = HMAC-SHA256(SANDBOX_SECRET, "api:" + code), webhookSecret = HMAC-SHA256(…, "webhook:" +
 * code), hex. SANDBOX_SECRET comes from the environment, else it is generated once and kept in
 * `sandbox_settings` (key 'secret') so every server process on one database agrees.
 *
 * The protocol names this module as shared and owned by the sandbox's side; this is the casino
 * side's copy of the same derivation (identical contract) — on merge, keep one.
 */
import { createHmac, randomBytes } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export interface SandboxCredentials {
  readonly apiKey: string
  readonly webhookSecret: string
}

export const deriveSandboxCredentials = (secret: string, code: string): SandboxCredentials => ({
  apiKey: createHmac("sha256", secret).update(`api:${code}`).digest("hex"),
  webhookSecret: createHmac("sha256", secret).update(`webhook:${code}`).digest("hex"),
})

/** The sandbox secret: the environment's, else the database's (created once, race-free). */
export const sandboxSecret = (fromEnv: string | undefined) =>
  Effect.gen(function* () {
    if (fromEnv !== undefined) return fromEnv
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      INSERT INTO sandbox_settings (key, value) VALUES ('secret', ${randomBytes(32).toString("hex")})
      ON CONFLICT (key) DO NOTHING
    `
    const rows = yield* sql<{
      readonly value: string
    }>`SELECT value FROM sandbox_settings WHERE key = 'secret'`
    const value = rows[0]?.value
    if (value === undefined) return yield* Effect.die(new Error("sandbox_settings has no secret"))
    return value
  })
