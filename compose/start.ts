/**
 * `npm start`: the casino with a sandbox of every outside party beside it (compose/local.ts), in one
 * process, each on its own port with its own storage under DATA_DIR. A bad configuration exits with
 * status 2 and one line saying what to set; SIGINT / SIGTERM stop everything gracefully.
 */
import { ConfigError } from "../server/config.ts"
import { inSandboxMode, SANDBOX_MODE } from "../server/security/production.ts"
import { startLocal } from "./local.ts"

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
  const stack = await startLocal(process.env)
  const { config } = stack
  const database =
    config.databaseUrl === undefined ? `embedded PGlite in ${config.dataDir}/pglite` : "PostgreSQL"
  if (inSandboxMode(config)) console.log(`casino: ${SANDBOX_MODE}`)
  console.log(
    `casino: listening on ${stack.casino.url} (public URL ${config.publicUrl}, database: ${database})`,
  )
  for (const party of stack.parties.values()) {
    console.log(
      `sandbox ${party.name}: ${party.publicUrl} (a test environment: nothing it takes or pays is real)`,
    )
  }

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
    stack.close().then(
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

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`casino: configuration error: ${error.message}`)
    process.exit(2)
  }
  console.error(`casino: failed to start: ${explain(error)}`)
  if (process.env.LOG_LEVEL?.toLowerCase() === "debug") console.error(error)
  process.exit(1)
})
