/**
 * `npm run provider -- onramp`: the sandbox on-ramp alone, from its ONRAMP_SANDBOX_* variables
 * (config.ts). Prints its widgets' pages and the credentials to give a casino (ONRAMP_WIDGETS);
 * SIGINT / SIGTERM stop it.
 */
import { onrampFamilies } from "../../services/onramp-rules.ts"
import { loadOnrampSandboxConfig } from "./config.ts"
import { sandboxWidgetCredentials } from "./credentials.ts"
import { startOnrampSandbox } from "./server.ts"

const config = (() => {
  try {
    return loadOnrampSandboxConfig(process.env)
  } catch (error) {
    console.error(`onramp: configuration error: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(2)
  }
})()

const server = await startOnrampSandbox(config).catch((error: unknown) => {
  console.error(`onramp: failed to start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
const storage =
  config.databaseUrl === undefined ? `PGlite in ${config.dataDir}/pglite` : `schema ${config.schema}`
// A kernel-chosen port is known only now.
const publicUrl = config.port === 0 ? server.url : config.publicUrl
console.log(`onramp: listening on ${server.url} (public URL ${publicUrl}, ${storage})`)
console.log(
  `onramp: pays through ${config.chainsUrl ?? "(no ONRAMP_SANDBOX_CHAINS_URL: every purchase fails)"}`,
)
// What a casino is configured with to offer these widgets (test keys: refused in production).
const widgets = onrampFamilies.map((id) => ({
  id,
  ...sandboxWidgetCredentials(config.secret, id, publicUrl),
}))
console.log(`onramp: ONRAMP_WIDGETS='${JSON.stringify(widgets)}'`)

let stopping = false
const stop = (signal: NodeJS.Signals) => {
  if (stopping) process.exit(1)
  stopping = true
  console.log(`onramp: ${signal} received, stopping`)
  server.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error("onramp: error while stopping", error)
      process.exit(1)
    },
  )
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
