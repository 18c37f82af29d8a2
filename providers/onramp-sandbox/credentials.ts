/**
 * The keys this sandbox issues for each widget it plays (docs/onramp.md), derived from its secret:
 * `hex HMAC-SHA256(secret, purpose + ":" + widget)`. Every key says it is a test key: `test_…`
 * (protocols/keys.ts) where the family's protocol takes a free-form key, and the public key MoonPay
 * and Transak put in the widget's URL is `pk_test_…`, which is what those providers' own test keys
 * look like. A casino in production refuses them.
 */
import { createHmac } from "node:crypto"
import { TEST_KEY_PREFIX } from "../../protocols/keys.ts"
import type { WidgetCredentials } from "../../protocols/onramp/index.ts"
import type { OnrampFamily } from "../../services/onramp-rules.ts"

/** Where the widgets' pages are, under the sandbox's public URL. */
export const ONRAMP_SANDBOX_PREFIX = "/sandbox-onramp"

const derive = (secret: string, purpose: string, widget: OnrampFamily) =>
  createHmac("sha256", secret).update(`${purpose}:${widget}`).digest("hex")

/** A widget's credentials; its page is `${publicUrl}/sandbox-onramp/<widget>`. */
export const sandboxWidgetCredentials = (
  secret: string,
  widget: OnrampFamily,
  publicUrl: string,
): WidgetCredentials => {
  // The public key carried in the URL: short, like the providers' own.
  const key = derive(secret, "api", widget).slice(0, 24)
  return {
    baseUrl: `${publicUrl.replace(/\/+$/, "")}${ONRAMP_SANDBOX_PREFIX}/${widget}`,
    apiKey:
      widget === "moonpay" || widget === "transak"
        ? `pk_${TEST_KEY_PREFIX}${key}`
        : `${TEST_KEY_PREFIX}${key}`,
    secretKey: `${TEST_KEY_PREFIX}${derive(secret, "secret", widget)}`,
    webhookSecret: `${TEST_KEY_PREFIX}${derive(secret, "webhook", widget)}`,
  }
}
