/**
 * The configured payment gateways (docs/payments-protocol.md, "Configuration"): exactly the entries
 * of PAYMENT_GATEWAYS, each { code, family, baseUrl, merchantId, apiKey, webhookSecret, widgetUrl }.
 * A gateway without an entry is not offered: not in the card cascade, and a deposit to it is
 * refused as unavailable. The `bank` entry is the bank-transfer payout rail.
 *
 * Also the card cascade a visitor is offered: PAYMENT_CARD_CASCADE in order, minus
 * PAYMENT_US_EXCLUDED for a visitor whose IP resolves to the US, minus the gateways not configured.
 */
import { Context, Effect, Layer } from "effect"
import { cardGateways } from "../../services/wallet-service.ts"
import { AppConfig, type GatewayConfig, type GatewayFamily } from "../config.ts"

export type Family = GatewayFamily
/** The families a deposit can be made with (bank is a payout rail only). */
export type PaymentFamily = Exclude<Family, "bank">
export type Gateway = GatewayConfig

export const isPaymentGateway = (g: Gateway): g is Gateway & { readonly family: PaymentFamily } =>
  g.family !== "bank"

export interface GatewaysShape {
  /** The configured gateway of that code, or undefined (unknown or not configured). */
  readonly byCode: (code: string) => Gateway | undefined
  /** The configured card gateways for a visitor from `country` (ISO alpha-2), in cascade order. */
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
      const all = new Map(config.paymentGateways.map((g) => [g.code, g] as const))
      const isCard = (code: string) => all.get(code)?.family === "hosted-card"
      const missing = [...cardGateways, "skrill", "jeton", "mifinity", "bank"].filter((c) => !all.has(c))
      if (missing.length > 0)
        yield* Effect.logInfo(
          `payment gateways not configured (no PAYMENT_GATEWAYS entry), not offered: ${missing.join(", ")}`,
        )
      const cascade = config.paymentCardCascade.filter(isCard)
      if (cascade.length === 0)
        yield* Effect.logInfo("no card gateway of PAYMENT_CARD_CASCADE is configured: card deposits are off")
      return {
        byCode: (code) => all.get(code),
        cardCascade: (country) => cascadeFor(cascade, config.paymentUsExcluded, country),
      } satisfies GatewaysShape
    }),
  )
}
