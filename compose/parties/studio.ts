/**
 * The game studio's sandbox beside the casino (providers/game-studio/, docs/game-studio.md): its own
 * port (the casino's + 3), its storage under `${DATA_DIR}/studio` (its PGlite, its generated secret)
 * or the schema game_studio on DATABASE_URL, its pages framed by the casino's origins. The casino is
 * told about it as about any game provider: one GAME_PROVIDERS entry with the test keys derived from
 * the studio's secret (a GAME_PROVIDERS the user set wins, whole).
 */
import { join } from "node:path"
import { loadStudioConfig, type StudioConfig } from "../../providers/game-studio/config.ts"
import {
  STUDIO_CODE,
  type StudioCredentials,
  studioCredentials,
} from "../../providers/game-studio/credentials.ts"
import { type StudioServer, startStudio } from "../../providers/game-studio/server.ts"
import { framingOrigins, type Party, publicUrlOf } from "../party.ts"

export interface StudioHandle {
  readonly server: StudioServer
  readonly config: StudioConfig
  readonly keys: StudioCredentials
}

/** The casino's GAME_PROVIDERS entry for a studio listening at `url` (loopback: the casino calls it). */
export const studioProviderEntry = (url: string, keys: StudioCredentials) => ({
  code: STUDIO_CODE,
  launchUrl: `${url}/studio/api/launch`,
  gamesUrl: `${url}/studio/api/games`,
  casinoKey: keys.casinoKey,
  walletSecret: keys.walletSecret,
})

export const studioParty: Party<StudioHandle> = {
  name: "studio",
  switch: "STUDIO",
  defaultPort: (casinoPort) => casinoPort + 3,
  start: async (context, port) => {
    const own = Object.fromEntries(Object.entries(context.env).filter(([k]) => k.startsWith("STUDIO_")))
    const config = loadStudioConfig({
      NODE_ENV: context.nodeEnv,
      STUDIO_HOST: context.host,
      STUDIO_PUBLIC_URL: publicUrlOf(context, port),
      STUDIO_DATA_DIR: join(context.dataDir, "studio"),
      STUDIO_DATABASE_URL: context.databaseUrl,
      STUDIO_WALLET_URL: `${context.casino.internalUrl}/api/games/wallet/${STUDIO_CODE}`,
      STUDIO_FRAME_ANCESTORS: framingOrigins(context).join(","),
      STUDIO_LOG_LEVEL: context.logLevel,
      // The studio's own variables the user set (its secret, its public URL…) win…
      ...own,
      // …but its port is the one the composition root chose (STUDIO_PORT included).
      STUDIO_PORT: String(port),
    })
    const server = await startStudio(config)
    const keys = studioCredentials(config.secret, { sandbox: config.sandbox })
    return {
      name: "studio",
      url: server.url,
      publicUrl: config.publicUrl,
      casinoEnv: { GAME_PROVIDERS: JSON.stringify([studioProviderEntry(server.url, keys)]) },
      handle: { server, config, keys },
      close: () => server.close(),
    }
  },
}
