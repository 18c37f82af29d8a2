/**
 * The payment gateways' sandbox beside the casino (providers/payment-sandbox/): its own port
 * (the casino's + 1 unless SANDBOX_PAYMENTS_PORT says), its storage under `${DATA_DIR}/payments`
 * (or its schema `payment_sandbox` on DATABASE_URL), its pages framed by the casino's origins. The
 * casino is told about it as about real gateways: one PAYMENT_GATEWAYS entry per gateway — every
 * card gateway of the contract, skrill, jeton, mifinity and the bank payout rail — with the test_
 * keys the sandbox derives from its secret.
 */
import { join } from "node:path"
import {
  loadPaymentSandboxConfig,
  type PaymentSandboxConfig,
} from "../../providers/payment-sandbox/config.ts"
import { type SandboxCredentials, sandboxCredentials } from "../../providers/payment-sandbox/credentials.ts"
import { type PaymentSandboxServer, startPaymentSandbox } from "../../providers/payment-sandbox/server.ts"
import { cardGateways } from "../../services/wallet-service.ts"
import { framingOrigins, type LocalContext, type Party, publicUrlOf } from "../party.ts"

export interface PaymentsHandle {
  readonly config: PaymentSandboxConfig
  readonly server: PaymentSandboxServer
  /** Its secret: the control endpoint's bearer, and what every merchant key derives from. */
  readonly secret: string
  /** The merchant credentials of a gateway code (test_ keys). */
  readonly credentials: (code: string) => SandboxCredentials
}

/** What PAYMENT_GATEWAYS holds for one gateway (docs/payments-protocol.md, "Configuration"). */
export interface GatewayEntry {
  readonly code: string
  readonly family: "hosted-card" | "skrill" | "jeton" | "mifinity" | "bank"
  readonly baseUrl: string
  readonly merchantId: string
  readonly apiKey: string
  readonly webhookSecret: string
  readonly widgetUrl?: string
}

/** Every gateway the casino can use, pointed at a sandbox reached at `url` (server to server) and `publicUrl` (browsers). */
export const sandboxGateways = (
  url: string,
  publicUrl: string,
  credentials: (code: string) => SandboxCredentials,
): ReadonlyArray<GatewayEntry> => {
  const baseUrl = `${url}/sandbox-pay`
  const entry = (code: string, family: GatewayEntry["family"]): GatewayEntry => ({
    code,
    family,
    baseUrl,
    merchantId: code,
    ...credentials(code),
  })
  return [
    ...cardGateways.map((code) => entry(code, "hosted-card")),
    entry("skrill", "skrill"),
    entry("jeton", "jeton"),
    // The widget is framed by the player's browser: the sandbox's public address.
    { ...entry("mifinity", "mifinity"), widgetUrl: `${publicUrl}/sandbox-pay/mifinity/widget` },
    entry("bank", "bank"),
  ]
}

/** The sandbox's own variables, from the context (a PAYMENT_SANDBOX_* the user set wins for its secret, rules and public URL). */
export const sandboxEnv = (context: LocalContext, port: number): Record<string, string | undefined> => ({
  PAYMENT_SANDBOX_PORT: String(port),
  PAYMENT_SANDBOX_HOST: context.host,
  PAYMENT_SANDBOX_PUBLIC_URL: context.env.PAYMENT_SANDBOX_PUBLIC_URL ?? publicUrlOf(context, port),
  PAYMENT_SANDBOX_DATABASE_URL: context.databaseUrl,
  PAYMENT_SANDBOX_DATA_DIR: join(context.dataDir, "payments"),
  PAYMENT_SANDBOX_SECRET: context.env.PAYMENT_SANDBOX_SECRET,
  PAYMENT_SANDBOX_FRAME_ANCESTORS: framingOrigins(context).join(","),
  PAYMENT_SANDBOX_LOG_LEVEL: context.env.PAYMENT_SANDBOX_LOG_LEVEL ?? context.logLevel,
  PAYMENT_SANDBOX_NODE_ENV: context.nodeEnv,
  PAYMENT_SANDBOX_GATEWAY_RULES: context.env.PAYMENT_SANDBOX_GATEWAY_RULES,
})

export const payments: Party<PaymentsHandle> = {
  name: "payments",
  switch: "SANDBOX_PAYMENTS",
  defaultPort: (casinoPort) => casinoPort + 1,
  start: async (context, port) => {
    // Its pages' addresses name its port: a kernel-chosen one is chosen now.
    const config = loadPaymentSandboxConfig(sandboxEnv(context, port))
    const server = await startPaymentSandbox(config)
    const credentials = (code: string) => sandboxCredentials(config.secret, code)
    return {
      name: "payments",
      url: server.url,
      publicUrl: config.publicUrl,
      casinoEnv: {
        PAYMENT_GATEWAYS: JSON.stringify(sandboxGateways(server.url, config.publicUrl, credentials)),
      },
      handle: { config, server, secret: config.secret, credentials },
      close: server.close,
    }
  },
}
