/**
 * Entry point of the casino alone: `node server/main.ts`, as production runs it. Reads the
 * environment (docs/server.md), migrates, seeds, writes the CDN files, listens, and shuts down
 * gracefully on SIGINT / SIGTERM (in-flight requests finish, the database closes). A bad
 * configuration exits with status 2 and a clear message (lib/main.ts).
 */
import { runMain } from "../lib/main.ts"
import { makeServer } from "./app.ts"
import { loadConfig } from "./config.ts"
import { startBanner } from "./security/production.ts"

runMain({
  name: "casino",
  config: () => loadConfig(process.env),
  start: makeServer,
  describe: (config, server) => startBanner(config, server.url),
})
