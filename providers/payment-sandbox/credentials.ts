/**
 * The merchant credentials the sandbox issues, per gateway code, derived from its secret — so a
 * merchant configured once keeps working across restarts, and nothing is stored:
 *
 *   apiKey        = "test_" + hex HMAC-SHA256(secret, "api:" + code)
 *   webhookSecret = "test_" + hex HMAC-SHA256(secret, "webhook:" + code)
 *
 * Both begin with `test_` (protocols/keys.ts): keys of a test environment, which a casino in
 * production refuses.
 */
import { createHmac } from "node:crypto"
import { TEST_KEY_PREFIX } from "../../protocols/keys.ts"

export interface SandboxCredentials {
  readonly apiKey: string
  readonly webhookSecret: string
}

export const deriveSandboxKey = (secret: string, purpose: "api" | "webhook", code: string): string =>
  `${TEST_KEY_PREFIX}${createHmac("sha256", secret).update(`${purpose}:${code}`).digest("hex")}`

export const sandboxCredentials = (secret: string, code: string): SandboxCredentials => ({
  apiKey: deriveSandboxKey(secret, "api", code),
  webhookSecret: deriveSandboxKey(secret, "webhook", code),
})
