/**
 * The Buy crypto tab's widgets for a player's deposit address (spec section 9; docs/onramp.md): each
 * widget's tier (fee, time, verification threshold) and the address its frame opens — the family's
 * hosted URL carrying the currency and the address, signed where the real protocol signs it. Only
 * the widgets ONRAMP_WIDGETS configures are offered (locally: the on-ramp sandbox's four).
 */

import { onrampAdapters } from "../../protocols/onramp/index.ts"
import type { BuyCryptoWidget, CryptoCurrency } from "../../services/crypto-service.ts"
import { onrampWidgets } from "../../services/onramp-rules.ts"
import type { AppConfigShape } from "../config.ts"
import { widgetCredentials } from "./onramp/index.ts"

export const buyCryptoWidgets = (
  config: AppConfigShape,
  currency: CryptoCurrency,
  address: string,
): ReadonlyArray<BuyCryptoWidget> =>
  onrampWidgets.flatMap((w) => {
    const creds = widgetCredentials(config, w.id)
    if (creds === undefined) return []
    return [
      {
        id: w.id,
        name: w.name,
        feeBps: w.tier.feeBps,
        etaMinutes: w.tier.etaMinutes,
        verificationAboveEur: w.tier.verificationAboveEur,
        url: onrampAdapters[w.id].launchUrl(creds, { currency, address }),
      },
    ]
  })

/** The spec's `banxaCheckoutIframe`: the Banxa widget's frame address, or null when it is not offered. */
export const banxaCheckoutIframe = (widgets: ReadonlyArray<BuyCryptoWidget>): string | null =>
  widgets.find((w) => w.id === "banxa")?.url ?? null
