/**
 * The game studio as a provider that stands alone (docs/game-studio.md, "Running it"), on PGlite and
 * PostgreSQL: it starts by itself on its own storage with its own migrations; beside the casino
 * (compose/parties/studio.ts) the casino's database holds none of its tables, the casino knows it
 * only as a GAME_PROVIDERS entry with `test_` keys, lists its games from its signed list, and
 * frames its pages from the studio's own origin; its pages allow the casino's origin as framer.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import type { StudioHandle } from "../../compose/parties/studio.ts"
import { TEST_KEY_PREFIX } from "../../protocols/keys.ts"
import type { GamesAndCategories } from "../../services/game-service.ts"
import { type StudioTest, startStudio } from "./game-studio-harness.ts"
import { GAMES, launchBody } from "./games-support.ts"
import { describeBackends, queryThrough, type TestServer } from "./harness.ts"
import { Browser } from "./users-support.ts"

const studioTables = [
  "studio_crash_bets",
  "studio_crash_chains",
  "studio_crash_games",
  "studio_free_rounds",
  "studio_outbox",
  "studio_rounds",
  "studio_seeds",
  "studio_seen_signatures",
  "studio_sessions",
] as const

const tablesIn = "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1"

describeBackends("game studio apart", ({ backend, start }) => {
  let alone: StudioTest
  let server: TestServer
  beforeAll(async () => {
    alone = await startStudio(backend)
    server = await start({ captchaEnabled: false }, { parties: ["studio"], env: { RATE_LIMIT_SCALE: "100" } })
  }, 120_000)
  afterAll(async () => {
    await alone?.close()
    await server?.close()
  })

  it("starts alone on its own storage, migrated by its own migrations", async () => {
    const [where] = await alone.query<{ schema: string }>("SELECT current_schema() AS schema")
    // PostgreSQL: its schema on the shared server; PGlite: its own database, nobody else's.
    expect(where?.schema).toBe(backend === "postgres" ? "game_studio" : "public")
    const tables = await alone.query<{ name: string }>(tablesIn, [where?.schema])
    expect(tables.map((t) => t.name).sort()).toEqual(["schema_migrations", ...studioTables])
    const migrations = await alone.query<{ id: number; name: string }>(
      "SELECT migration_id AS id, name FROM schema_migrations ORDER BY migration_id",
    )
    expect(migrations).toEqual([
      { id: 1, name: "studio" },
      { id: 2, name: "seen_signatures" },
      { id: 3, name: "free_rounds" },
      { id: 4, name: "crash" },
      { id: 5, name: "play_rules" },
      { id: 6, name: "mines_steps" },
    ])
    if (backend === "postgres") expect(await alone.query<{ name: string }>(tablesIn, ["public"])).toEqual([])
    // It answers the protocol by itself: a signed games list, once its RTPs are computed.
    expect((await fetch(`${alone.url}/studio/art/neon-koi.svg`)).status).toBe(200)
  })

  it("beside the casino: the casino's database has none of its tables, its own storage has them", async () => {
    const studio = server.parties.get("studio")?.handle as StudioHandle | undefined
    if (studio === undefined) throw new Error("the studio did not start beside the casino")
    const casinoTables = await server.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'studio\\_%'",
    )
    expect(casinoTables).toEqual([])
    // Its storage: `${DATA_DIR}/studio` (PGlite) or the schema game_studio of the casino's PostgreSQL.
    expect(studio.config.dataDir).toBe(`${server.dataDir}/studio`)
    expect(studio.config.databaseUrl).toBe(server.config.databaseUrl)
    const query = queryThrough(studio.server.run)
    const [where] = await query<{ schema: string }>("SELECT current_schema() AS schema")
    const own = await query<{ name: string }>(tablesIn, [where?.schema])
    expect(own.map((t) => t.name)).toEqual(expect.arrayContaining([...studioTables]))
    if (backend === "postgres") {
      expect(where?.schema).toBe("game_studio")
      const seen = await server.query<{ name: string }>(tablesIn, ["game_studio"])
      expect(seen.map((t) => t.name)).toEqual(expect.arrayContaining([...studioTables]))
    }
  })

  it("is one GAME_PROVIDERS entry to the casino, with test_ keys, on its own port and origin", async () => {
    const party = server.parties.get("studio")
    const studio = party?.handle as StudioHandle | undefined
    if (party === undefined || studio === undefined) throw new Error("no studio")
    expect(studio.config.sandbox).toBe(true)
    expect(studio.keys.casinoKey.startsWith(TEST_KEY_PREFIX)).toBe(true)
    expect(studio.keys.walletSecret.startsWith(TEST_KEY_PREFIX)).toBe(true)
    expect(server.config.gameProviders).toEqual([
      {
        code: "studio",
        launchUrl: `${party.url}/studio/api/launch`,
        gamesUrl: `${party.url}/studio/api/games`,
        // The casino's default (the launch URL's sibling `freerounds`) is the studio's grant route.
        freeRoundsUrl: `${party.url}/studio/api/freerounds`,
        casinoKey: studio.keys.casinoKey,
        walletSecret: studio.keys.walletSecret,
      },
    ])
    expect(new URL(party.url).port).not.toBe(new URL(server.url).port)
    expect(studio.config.walletUrl).toBe(`${server.config.internalUrl}/api/games/wallet/studio`)
    // The casino's pages may frame the studio's origin; the studio's pages allow the casino as framer.
    const studioOrigin = new URL(party.publicUrl).origin
    expect(server.config.frameOrigins).toContain(studioOrigin)
    expect(studio.config.frameAncestors).toContain(new URL(server.config.publicUrl).origin)

    // The lobby lists the studio's games, taken from its signed list.
    const lobby = (await new Browser(server).get(`${GAMES}/games-and-categories/EUR`))
      .body as GamesAndCategories
    expect(lobby.games.length).toBeGreaterThanOrEqual(40)
    const dice = lobby.games.find((g) => g.id === "dice-classic")
    if (dice === undefined) throw new Error("no dice in the lobby")
    // A launch answers the studio's page on the studio's own origin, framable by the casino.
    const launched = await new Browser(server).post(`${GAMES}/game`, launchBody(dice, true))
    expect(launched.status).toBe(200)
    const url = String((launched.body as { url: string }).url)
    expect(url.startsWith(`${studioOrigin}/studio/play/`)).toBe(true)
    const page = await fetch(url.replace(studioOrigin, party.url))
    expect(page.status).toBe(200)
    expect(page.headers.get("content-security-policy")).toContain(
      `frame-ancestors 'self' ${new URL(server.config.publicUrl).origin}`,
    )
    expect(await page.text()).toContain(">Sandbox</span>")
  })
})
