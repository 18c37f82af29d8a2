/**
 * The payment sandbox alone: `npm run provider -- payments` (or `node providers/payment-sandbox/main.ts`).
 * Reads its own variables (PAYMENT_SANDBOX_*, docs/payment-sandbox.md), migrates its own storage,
 * listens, prints where; SIGINT / SIGTERM stop it gracefully. A bad variable exits with status 2.
 * A casino is then pointed at it with PAYMENT_GATEWAYS (base URL `<its URL>/sandbox-pay`, the
 * test_ keys credentials.ts derives from its secret).
 */
import { join } from "node:path"
import { runMain } from "../../lib/main.ts"
import { freePort } from "../../lib/serve.ts"
import { loadPaymentSandboxConfig } from "./config.ts"
import { startPaymentSandbox } from "./server.ts"

// PAYMENT_SANDBOX_PORT=0: its pages' public URL names the port, so a free one is chosen first.
const env = { ...process.env }
if (env.PAYMENT_SANDBOX_PORT?.trim() === "0") env.PAYMENT_SANDBOX_PORT = String(await freePort())

runMain({
  name: "payment-sandbox",
  config: () => loadPaymentSandboxConfig(env),
  start: startPaymentSandbox,
  describe: (config, server) => [
    `listening on ${server.url} (public URL ${config.publicUrl}, storage: ${
      config.databaseUrl === undefined
        ? `embedded PGlite in ${join(config.dataDir, "pglite")}`
        : `PostgreSQL, schema ${config.schema}`
    })`,
    `merchant base URL ${server.url}/sandbox-pay; keys derive from ${
      process.env.PAYMENT_SANDBOX_SECRET?.trim() ? "PAYMENT_SANDBOX_SECRET" : join(config.dataDir, "secret")
    }`,
  ],
})
