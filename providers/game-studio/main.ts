/**
 * The game studio alone (`npm run provider -- studio`, or `node providers/game-studio/main.ts`):
 * its own variables (config.ts), its own port and storage; no casino in the process. The casino is
 * then told about it by configuration: GAME_PROVIDERS `{ code, launchUrl: <url>/studio/api/launch,
 * casinoKey, walletSecret }` with the keys derived from STUDIO_SECRET (credentials.ts), and
 * FRAME_ORIGINS naming its public origin when that is plain http.
 */
import { createServer } from "node:net"
import { loadStudioConfig } from "./config.ts"
import { STUDIO_CODE, studioCredentials } from "./credentials.ts"
import { startStudio } from "./server.ts"

/** A free port, for STUDIO_PORT=0: the default public URL names the port, so it is chosen first. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const main = async (): Promise<void> => {
  const env = { ...process.env }
  if (env.STUDIO_PORT?.trim() === "0") env.STUDIO_PORT = String(await freePort())
  const config = loadStudioConfig(env)
  const studio = await startStudio(config)
  const storage =
    config.databaseUrl === undefined
      ? `PGlite in ${config.dataDir}/pglite`
      : `PostgreSQL, schema ${config.schema}`
  console.log(
    `studio: listening on ${studio.url} (public URL ${config.publicUrl}, storage: ${storage}, wallet ${config.walletUrl})`,
  )
  if (config.sandbox) {
    // Test keys only: a sandbox's keys are meant to be pasted into a local casino's configuration.
    const keys = studioCredentials(config.secret, { sandbox: true })
    console.log(
      `studio: sandbox; the casino's GAME_PROVIDERS entry: ${JSON.stringify({
        code: STUDIO_CODE,
        launchUrl: `${studio.url}/studio/api/launch`,
        ...keys,
      })}`,
    )
  }

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1)
    stopping = true
    console.log(`studio: ${signal} received, shutting down`)
    studio.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("studio: error while stopping", error)
        process.exit(1)
      },
    )
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}

main().catch((error: unknown) => {
  console.error(`studio: failed to start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
