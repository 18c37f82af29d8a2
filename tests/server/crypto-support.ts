/**
 * What a casino test configures to offer crypto without starting the parties: the xpubs of the
 * public test mnemonic (the chains party's, providers/chains/testKeys.ts) and the four Buy crypto
 * widgets with the on-ramp sandbox's test credentials (providers/onramp-sandbox/credentials.ts)
 * on a page address nobody serves. Tests that need the chains or the on-ramp themselves start
 * them beside the casino (`parties: ["chains"]`).
 */

import type { RunningChains } from "../../providers/chains/server.ts"
import { testXpubs } from "../../providers/chains/testKeys.ts"
import { sandboxWidgetCredentials } from "../../providers/onramp-sandbox/credentials.ts"
import { onrampFamilies } from "../../services/onramp-rules.ts"

/** CRYPTO_XPUB_* of every network. */
export const testXpubEnv: Readonly<Record<string, string>> = {
  CRYPTO_XPUB_BTC: testXpubs.bitcoin,
  CRYPTO_XPUB_LTC: testXpubs.litecoin,
  CRYPTO_XPUB_DOGE: testXpubs.dogecoin,
  CRYPTO_XPUB_ETH: testXpubs.ethereum,
}

export const testOnrampSecret = "onramp-test-secret-0123456789abcdef0123456789"

/** ONRAMP_WIDGETS for the four widgets of an on-ramp sandbox at `baseUrl`. */
export const testWidgetsEnv = (baseUrl = "http://127.0.0.1:9"): Readonly<Record<string, string>> => ({
  ONRAMP_WIDGETS: JSON.stringify(
    onrampFamilies.map((id) => ({ id, ...sandboxWidgetCredentials(testOnrampSecret, id, baseUrl) })),
  ),
})

/** The chains party a test started beside the casino (`parties: ["chains"]`): mine, pay, reorg. */
export const chainsOf = (server: { readonly parties: ReadonlyMap<string, { readonly handle: unknown }> }) => {
  const chains = server.parties.get("chains")?.handle
  if (chains === undefined) throw new Error('start the server with parties: ["chains"]')
  return chains as RunningChains
}
