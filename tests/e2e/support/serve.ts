/**
 * Child process started by the e2e global setup: the real casino server (server/app.ts
 * `makeServer`) configured from the environment, printing one READY line with its URL.
 */
import { makeServer } from "../../../server/app.ts"
import { loadConfig } from "../../../server/config.ts"

const server = await makeServer(loadConfig(process.env))
process.stdout.write(`E2E_SERVER_READY ${server.url}\n`)

const stop = (): void => {
  server.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`close failed: ${String(error)}\n`)
      process.exit(1)
    },
  )
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
