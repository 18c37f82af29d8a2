/**
 * A service's process, the same for the casino and every party run alone: the configuration read
 * first (a bad one exits with status 2 and one line), then the service started and its lines
 * printed; SIGINT / SIGTERM stop it gracefully (a second signal, or the bound — 10 s unless the
 * service says otherwise — ends the process at once).
 */
import { ConfigError } from "./env.ts"

/** The most specific message of an error and its causes. */
export const explain = (error: unknown): string => {
  const messages: Array<string> = []
  let current: unknown = error
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message !== "" && !messages.includes(current.message)) messages.push(current.message)
    current = current.cause
  }
  return messages.length === 0 ? String(error) : messages.join(": ")
}

export interface MainOptions<C, S extends { readonly close: () => Promise<void> }> {
  /** Prefixes every line ("casino", "payment-sandbox"…). */
  readonly name: string
  readonly config: () => C
  readonly start: (config: C) => Promise<S>
  /** What to print once it runs: where it listens, its storage, its mode. */
  readonly describe: (config: C, started: S) => ReadonlyArray<string>
  /** How it stops on a signal (the casino drains first); `close` when absent. */
  readonly stop?: (config: C, started: S) => Promise<void>
  /** The bound on stopping, in ms (10 s when absent): past it the process exits at once. */
  readonly stopBoundMs?: (config: C) => number
}

export const runMain = <C, S extends { readonly close: () => Promise<void> }>(
  options: MainOptions<C, S>,
): void => {
  const { name } = options
  const fail = (error: unknown): never => {
    if (error instanceof ConfigError) {
      console.error(`${name}: configuration error: ${error.message}`)
      process.exit(2)
    }
    console.error(`${name}: failed to start: ${explain(error)}`)
    if (process.env.LOG_LEVEL?.toLowerCase() === "debug") console.error(error)
    process.exit(1)
  }
  const main = async () => {
    const config = options.config()
    const started = await options.start(config)
    for (const line of options.describe(config, started)) console.log(`${name}: ${line}`)
    let stopping = false
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        console.error(`${name}: ${signal} again, exiting now`)
        process.exit(1)
      }
      stopping = true
      console.log(`${name}: ${signal} received, shutting down`)
      const bound = options.stopBoundMs?.(config) ?? 10_000
      const force = setTimeout(() => {
        console.error(`${name}: shutdown took longer than ${bound / 1000} s, exiting`)
        process.exit(1)
      }, bound)
      force.unref()
      const ending = options.stop === undefined ? started.close() : options.stop(config, started)
      ending.then(
        () => {
          console.log(`${name}: stopped`)
          process.exit(0)
        },
        (error: unknown) => {
          console.error(`${name}: error while stopping: ${explain(error)}`)
          process.exit(1)
        },
      )
    }
    process.on("SIGINT", stop)
    process.on("SIGTERM", stop)
  }
  main().catch(fail)
}
