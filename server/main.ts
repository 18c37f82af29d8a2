/**
 * Entry point: `node server/main.ts`. Reads the environment (docs/server.md), migrates, seeds,
 * writes the CDN files, listens, and shuts down gracefully on SIGINT / SIGTERM (in-flight requests
 * finish, the database closes). A bad configuration exits with status 2 and a clear message.
 */
import { makeServer } from "./app.ts"
import { ConfigError, loadConfig } from "./config.ts"
import { inSandboxMode, SANDBOX_MODE } from "./security/production.ts"

const main = async (): Promise<void> => {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`casino: configuration error: ${error.message}`)
      process.exit(2)
    }
    throw error
  }
  const server = await makeServer(config)
  const database =
    config.databaseUrl === undefined ? `embedded PGlite in ${config.dataDir}/pglite` : "PostgreSQL"
  if (inSandboxMode(config)) console.log(`casino: ${SANDBOX_MODE}`)
  console.log(`casino: listening on ${server.url} (public URL ${config.publicUrl}, database: ${database})`)

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      console.error(`casino: ${signal} again, exiting now`)
      process.exit(1)
    }
    stopping = true
    console.log(`casino: ${signal} received, shutting down`)
    const force = setTimeout(() => {
      console.error("casino: shutdown took longer than 10 s, exiting")
      process.exit(1)
    }, 10_000)
    force.unref()
    server.close().then(
      () => {
        console.log("casino: stopped")
        process.exit(0)
      },
      (error: unknown) => {
        console.error("casino: error while stopping", error)
        process.exit(1)
      },
    )
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}

/** The most specific message of an error and its causes. */
const explain = (error: unknown): string => {
  const messages: Array<string> = []
  let current: unknown = error
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message !== "" && !messages.includes(current.message)) messages.push(current.message)
    current = current.cause
  }
  return messages.length === 0 ? String(error) : messages.join(": ")
}

main().catch((error: unknown) => {
  console.error(`casino: failed to start: ${explain(error)}`)
  if (process.env.LOG_LEVEL?.toLowerCase() === "debug") console.error(error)
  process.exit(1)
})
