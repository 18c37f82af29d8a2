/**
 * Entry point of the casino alone: `node server/main.ts`, as production runs it. Reads the
 * environment (docs/server.md), migrates, seeds, writes the CDN files, listens, and drains on
 * SIGINT / SIGTERM: readiness 503 and event streams told to reconnect at once, DRAIN_SETTLE_SECONDS
 * for the proxy to see it, then in-flight requests finish and the database closes — within
 * DRAIN_BOUND_SECONDS, or at once on a second signal. A bad configuration exits with status 2 and a
 * clear message (lib/main.ts).
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
  stop: (config, server) => server.drain(config.drainSettleSeconds * 1000),
  stopBoundMs: (config) => config.drainBoundSeconds * 1000,
})
