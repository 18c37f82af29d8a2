/**
 * `npm run provider -- onramp`: the sandbox on-ramp alone, from its ONRAMP_SANDBOX_* variables
 * (config.ts). Prints its widgets' pages and the credentials to give a casino (ONRAMP_WIDGETS);
 * SIGINT / SIGTERM stop it.
 */
import { runMain } from "../../lib/main.ts"
import { onrampFamilies } from "../../services/onramp-rules.ts"
import { loadOnrampSandboxConfig } from "./config.ts"
import { sandboxWidgetCredentials } from "./credentials.ts"
import { startOnrampSandbox } from "./server.ts"

runMain({
  name: "onramp",
  config: () => loadOnrampSandboxConfig(process.env),
  start: startOnrampSandbox,
  describe: (config, server) => {
    // A kernel-chosen port is known only now.
    const publicUrl = config.port === 0 ? server.url : config.publicUrl
    // What a casino is configured with to offer these widgets (test keys: refused in production).
    const widgets = onrampFamilies.map((id) => ({
      id,
      ...sandboxWidgetCredentials(config.secret, id, publicUrl),
    }))
    return [
      `listening on ${server.url} (public URL ${publicUrl}, ${
        config.databaseUrl === undefined ? `PGlite in ${config.dataDir}/pglite` : `schema ${config.schema}`
      })`,
      `pays through ${config.chainsUrl ?? "(no ONRAMP_SANDBOX_CHAINS_URL: every purchase fails)"}`,
      `ONRAMP_WIDGETS='${JSON.stringify(widgets)}'`,
    ]
  },
})
