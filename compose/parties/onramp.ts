/**
 * The sandbox on-ramp beside the casino (providers/onramp-sandbox/): the four Buy crypto widgets'
 * pages on its own port, its orders in its own storage (`${DATA_DIR}/onramp`, or schema
 * onramp_sandbox), paying through the sandbox chains' faucet when they run (without them it starts,
 * and every purchase fails with its "chain could not be reached" message). The casino is told the
 * four widgets as an operator would configure real ones: ONRAMP_WIDGETS with the sandbox's test keys.
 */
import { join } from "node:path"
import { loadOnrampSandboxConfig } from "../../providers/onramp-sandbox/config.ts"
import { sandboxWidgetCredentials } from "../../providers/onramp-sandbox/credentials.ts"
import { type OnrampSandboxServer, startOnrampSandbox } from "../../providers/onramp-sandbox/server.ts"
import { onrampCallbackPath } from "../../server/crypto/onramp/callbacksHttp.ts"
import { onrampFamilies } from "../../services/onramp-rules.ts"
import { framingOrigins, type Party, publicUrlOf } from "../party.ts"

const set = (v: string | undefined): string | undefined =>
  v === undefined || v.trim() === "" ? undefined : v.trim()

export const onrampParty: Party<OnrampSandboxServer> = {
  name: "onramp",
  switch: "ONRAMP_SANDBOX",
  defaultPort: (casinoPort) => casinoPort + 2,
  start: async (context, port, started) => {
    const env = context.env
    const config = loadOnrampSandboxConfig({
      ONRAMP_SANDBOX_PORT: String(port),
      ONRAMP_SANDBOX_HOST: context.host,
      ONRAMP_SANDBOX_PUBLIC_URL: publicUrlOf(context, port),
      ONRAMP_SANDBOX_DATABASE_URL: context.databaseUrl,
      ONRAMP_SANDBOX_DATA_DIR: join(context.dataDir, "onramp"),
      ONRAMP_SANDBOX_SECRET: set(env.ONRAMP_SANDBOX_SECRET),
      ONRAMP_SANDBOX_FRAME_ANCESTORS: framingOrigins(context).join(","),
      ONRAMP_SANDBOX_CALLBACK_URL: `${context.casino.internalUrl}${onrampCallbackPath("{widget}")}`,
      ONRAMP_SANDBOX_CHAINS_URL: started.get("chains")?.url,
      ONRAMP_SANDBOX_PRICES: set(env.ONRAMP_SANDBOX_PRICES),
      ONRAMP_SANDBOX_LOG_LEVEL: context.logLevel,
      ONRAMP_SANDBOX_NODE_ENV: context.nodeEnv,
    })
    const server = await startOnrampSandbox(config)
    const publicUrl = port === 0 ? publicUrlOf(context, Number(new URL(server.url).port)) : config.publicUrl
    const widgets = onrampFamilies.map((id) => ({
      id,
      ...sandboxWidgetCredentials(config.secret, id, publicUrl),
    }))
    return {
      name: "onramp",
      url: server.url,
      publicUrl,
      casinoEnv: { ONRAMP_WIDGETS: JSON.stringify(widgets) },
      handle: server,
      close: server.close,
    }
  },
}
