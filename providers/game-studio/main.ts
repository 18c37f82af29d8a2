/**
 * The game studio alone (`npm run provider -- studio`, or `node providers/game-studio/main.ts`):
 * its own variables (config.ts), its own port and storage; no casino in the process. The casino is
 * then told about it by configuration: GAME_PROVIDERS `{ code, launchUrl: <url>/studio/api/launch,
 * casinoKey, walletSecret }` with the keys derived from STUDIO_SECRET (credentials.ts), and
 * FRAME_ORIGINS naming its public origin when that is plain http.
 */
import { runMain } from "../../lib/main.ts"
import { freePort } from "../../lib/serve.ts"
import { loadStudioConfig } from "./config.ts"
import { STUDIO_CODE, studioCredentials } from "./credentials.ts"
import { startStudio } from "./server.ts"

// STUDIO_PORT=0: the default public URL names the port, so a free one is chosen first.
const env = { ...process.env }
if (env.STUDIO_PORT?.trim() === "0") env.STUDIO_PORT = String(await freePort())

runMain({
  name: "studio",
  config: () => loadStudioConfig(env),
  start: startStudio,
  describe: (config, studio) => [
    `listening on ${studio.url} (public URL ${config.publicUrl}, storage: ${
      config.databaseUrl === undefined
        ? `PGlite in ${config.dataDir}/pglite`
        : `PostgreSQL, schema ${config.schema}`
    }, wallet ${config.walletUrl})`,
    // Test keys only: a sandbox's keys are meant to be pasted into a local casino's configuration.
    ...(config.sandbox
      ? [
          `sandbox; the casino's GAME_PROVIDERS entry: ${JSON.stringify({
            code: STUDIO_CODE,
            launchUrl: `${studio.url}/studio/api/launch`,
            ...studioCredentials(config.secret, { sandbox: true }),
          })}`,
        ]
      : []),
  ],
})
