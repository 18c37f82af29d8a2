/**
 * The configured payment gateways (docs/payments-protocol.md, "Configuration"): every card gateway of
 * the contract plus skrill, jeton and mifinity, each { code, family, baseUrl, merchantId, apiKey,
 * webhookSecret }. PAYMENT_GATEWAYS overrides them one by one; the others point at the built-in
 * sandbox (`{INTERNAL_URL}/sandbox-pay`, credentials derived from the sandbox secret).
 *
 * Also the card cascade a visitor is offered: PAYMENT_CARD_CASCADE in order, minus
 * PAYMENT_US_EXCLUDED for a visitor whose IP resolves to the US.
 */
import { Context, Effect, Layer } from "effect"
import { cardGateways } from "../../services/wallet-service.ts"
import { AppConfig, type GatewayOverride } from "../config.ts"
import { sandboxCredentials, sandboxSecret } from "./sandboxCredentials.ts"

export type Family = GatewayOverride["family"]
export type Gateway = GatewayOverride

export const ewalletGateways = { skrill: "skrill", jeton: "jeton", mifinity: "mifinity" } as const

export interface GatewaysShape {
  /** The gateway of that code, or undefined for a code the casino does not know. */
  readonly byCode: (code: string) => Gateway | undefined
  /** The enabled card gateways for a visitor from `country` (ISO alpha-2), in cascade order. */
  readonly cardCascade: (country: string) => ReadonlyArray<string>
}

export const cascadeFor = (
  cascade: ReadonlyArray<string>,
  usExcluded: string | undefined,
  country: string,
): ReadonlyArray<string> =>
  country.toUpperCase() === "US" ? cascade.filter((g) => g !== usExcluded) : cascade

export class Gateways extends Context.Service<Gateways, GatewaysShape>()("casino/server/Gateways") {
  static readonly layer = Layer.effect(
    Gateways,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const overrides = new Map(config.paymentGateways.map((g) => [g.code, g] as const))
      const families: ReadonlyArray<readonly [string, Family]> = [
        ...cardGateways.map((code) => [code, "hosted-card"] as const),
        ["skrill", "skrill"],
        ["jeton", "jeton"],
        ["mifinity", "mifinity"],
      ]
      // Only read (or create) the sandbox secret when some gateway still uses the sandbox.
      const needsSandbox = families.some(([code]) => !overrides.has(code))
      const secret = needsSandbox ? yield* sandboxSecret(config.sandboxSecret).pipe(Effect.orDie) : ""
      const all = new Map<string, Gateway>()
      for (const [code, family] of families) {
        const own = overrides.get(code)
        all.set(
          code,
          own ?? {
            code,
            family,
            baseUrl: `${config.internalUrl}/sandbox-pay`,
            merchantId: code,
            ...sandboxCredentials(secret, code),
          },
        )
      }
      if (needsSandbox && !config.sandboxPayments) {
        yield* Effect.logWarning(
          "SANDBOX_PAYMENTS=off but some gateways have no PAYMENT_GATEWAYS entry: they point at a sandbox that is not served",
        )
      }
      return {
        byCode: (code) => all.get(code),
        cardCascade: (country) => cascadeFor(config.paymentCardCascade, config.paymentUsExcluded, country),
      } satisfies GatewaysShape
    }),
  )
}
