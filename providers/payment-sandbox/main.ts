/**
 * The payment sandbox alone: `npm run provider -- payments` (or `node providers/payment-sandbox/main.ts`).
 * Reads its own variables (PAYMENT_SANDBOX_*, docs/payment-sandbox.md), migrates its own storage,
 * listens, prints where; SIGINT / SIGTERM stop it gracefully. A bad variable exits with status 2.
 * A casino is then pointed at it with PAYMENT_GATEWAYS (base URL `<its URL>/sandbox-pay`, the
 * test_ keys credentials.ts derives from its secret).
 */
import { join } from "node:path"
import { loadPaymentSandboxConfig, type PaymentSandboxConfig } from "./config.ts"
import { startPaymentSandbox } from "./server.ts"

const explain = (error: unknown): string => {
  const messages: Array<string> = []
  let current: unknown = error
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message !== "" && !messages.includes(current.message)) messages.push(current.message)
    current = current.cause
  }
  return messages.length === 0 ? String(error) : messages.join(": ")
}

const main = async (): Promise<void> => {
  let config: PaymentSandboxConfig
  try {
    config = loadPaymentSandboxConfig(process.env)
  } catch (error) {
    console.error(`payment-sandbox: configuration error: ${explain(error)}`)
    process.exit(2)
  }
  const server = await startPaymentSandbox(config)
  const storage =
    config.databaseUrl === undefined
      ? `embedded PGlite in ${join(config.dataDir, "pglite")}`
      : `PostgreSQL, schema ${config.schema}`
  console.log(
    `payment-sandbox: listening on ${server.url} (public URL ${config.publicUrl}, storage: ${storage})`,
  )
  console.log(
    `payment-sandbox: merchant base URL ${server.url}/sandbox-pay; keys derive from ` +
      (process.env.PAYMENT_SANDBOX_SECRET?.trim()
        ? "PAYMENT_SANDBOX_SECRET"
        : join(config.dataDir, "secret")),
  )

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1)
    stopping = true
    console.log(`payment-sandbox: ${signal} received, shutting down`)
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`payment-sandbox: error while stopping: ${explain(error)}`)
        process.exit(1)
      },
    )
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}

main().catch((error: unknown) => {
  console.error(`payment-sandbox: failed to start: ${explain(error)}`)
  process.exit(1)
})
