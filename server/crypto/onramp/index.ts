/**
 * The Buy crypto widget adapters by family, and each widget's credentials: derived from the on-ramp
 * sandbox secret while the sandbox plays every provider (ONRAMP_SANDBOX), or configured per widget
 * (ONRAMP_WIDGETS) for a real provider. docs/onramp.md.
 */
import type { OnrampFamily } from "../../../services/onramp-rules.ts"
import type { AppConfigShape } from "../../config.ts"
import { banxa } from "./banxa.ts"
import { hmacHex, type OnrampAdapter, type WidgetCredentials } from "./family.ts"
import { mercuryo } from "./mercuryo.ts"
import { moonpay } from "./moonpay.ts"
import { transak } from "./transak.ts"

export type { OnrampAdapter, WidgetCredentials } from "./family.ts"

export const onrampAdapters: Readonly<Record<OnrampFamily, OnrampAdapter>> = {
  banxa,
  mercuryo,
  moonpay,
  transak,
}

/** Where the sandbox on-ramp lives under the casino's origin. */
export const ONRAMP_SANDBOX_PREFIX = "/sandbox-onramp"

/**
 * A sandbox widget's credentials: each key = hex HMAC-SHA256(ONRAMP sandbox secret, purpose + ":" +
 * widget). The widget's page is `${publicUrl}/sandbox-onramp/<widget>` (what the player's frame opens).
 */
export const sandboxWidgetCredentials = (
  secret: string,
  widget: OnrampFamily,
  publicUrl: string,
): WidgetCredentials => ({
  baseUrl: `${publicUrl.replace(/\/+$/, "")}${ONRAMP_SANDBOX_PREFIX}/${widget}`,
  // A public key: shorter, like the providers' pk_… keys.
  apiKey: `pk_sandbox_${hmacHex(secret, `api:${widget}`).slice(0, 24)}`,
  secretKey: hmacHex(secret, `secret:${widget}`),
  webhookSecret: hmacHex(secret, `webhook:${widget}`),
})

/**
 * The widget's credentials under this configuration: a configured real provider, else the sandbox's
 * while the sandbox on-ramp runs, else none (the widget is not offered).
 */
export const widgetCredentials = (
  config: AppConfigShape,
  widget: OnrampFamily,
): WidgetCredentials | undefined =>
  config.onrampWidgets.find((w) => w.id === widget) ??
  (config.onrampSandbox ? sandboxWidgetCredentials(config.onrampSecret, widget, config.publicUrl) : undefined)
