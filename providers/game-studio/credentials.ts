/**
 * The studio's two integration keys (docs/game-wallet-protocol.md), derived from its secret so that
 * every instance on one secret agrees without storing them:
 *
 *   casinoKey    = hex HMAC-SHA256(secret, "casino:studio")   casino → studio (launch, games list)
 *   walletSecret = hex HMAC-SHA256(secret, "wallet:studio")   studio → casino (wallet calls, list answer)
 *
 * A sandbox studio (its test environment, STUDIO_SANDBOX) issues them with the `test_` prefix
 * (protocols/keys.ts): a casino in production refuses such keys. The operator gives both keys to
 * the casino (GAME_PROVIDERS); the composition root does it for the local sandbox.
 */
import { createHmac } from "node:crypto"
import { TEST_KEY_PREFIX } from "../../protocols/keys.ts"

export interface StudioCredentials {
  readonly casinoKey: string
  readonly walletSecret: string
}

/** The integration code the studio's keys are derived for (and a casino usually names it by). */
export const STUDIO_CODE = "studio"

export const studioCredentials = (
  secret: string,
  options: { readonly sandbox: boolean },
): StudioCredentials => {
  const prefix = options.sandbox ? TEST_KEY_PREFIX : ""
  const derive = (purpose: string) =>
    `${prefix}${createHmac("sha256", secret).update(`${purpose}:${STUDIO_CODE}`).digest("hex")}`
  return { casinoKey: derive("casino"), walletSecret: derive("wallet") }
}
