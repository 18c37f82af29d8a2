/**
 * The SQL of the games module's lobby side (tables of migration 0031): the catalogue and its
 * upsert from each integration's games list, sections from real rounds, winners, favorites, bet history, launch sessions. The
 * seamless wallet's SQL is in WalletRepo.ts. Amounts cross as decimal strings, never numbers.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { Catalogue } from "./catalogue.ts"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface GameRow {
  readonly id: string
  readonly launchId: string
  readonly name: string
  readonly brand: string
  readonly integration: string
  readonly category: string
  readonly kind: "dice" | "crash" | "mines" | "plinko" | "roulette" | "slot"
  readonly volatility: "low" | "medium" | "high"
  readonly rtp: string
  readonly image: string
  readonly isNew: boolean
  readonly featured: boolean
  readonly demo: boolean
  readonly jackpotId: string | null
  readonly tags: ReadonlyArray<string>
  readonly minBetEur: string
  readonly maxBetEur: string
}

export interface CategoryRow {
  readonly slug: string
  readonly name: string
  readonly order: number
}

export interface JackpotPoolRow {
  readonly id: string
  readonly name: string
  readonly seedEur: string
  readonly lastWonAt: Date | null
  readonly currency: string | null
  readonly amount: string | null
}

export interface WinnerRow {
  readonly name: string
  readonly gameId: string
  readonly gameName: string
  readonly amount: string
  readonly currency: string
  readonly amountInEur: string
  readonly at: Date
}

export interface BetRow {
  readonly roundId: string
  readonly gameId: string
  readonly gameName: string
  readonly provider: string
  readonly currency: string
  readonly bet: string
  readonly win: string
  readonly status: "open" | "settled" | "rolled-back"
  readonly at: Date
  readonly roundNumber: number
}

/** One of a player's rounds with the integration that played it (the verifier's lookup). */
export interface PlayerRoundRow extends BetRow {
  readonly integration: string
}

export interface NewGameSession {
  readonly tokenHash: string
  readonly userId: string
  readonly casinoSessionId: string
  readonly currency: string
  readonly gameId: string
  readonly integration: string
  readonly ttlHours: number
}

export interface GamesRepoShape {
  /**
   * Upserts one integration's list: its categories, jackpots and games (sorted from `sortBase`);
   * that integration's games no longer listed go inactive. Other integrations' rows are untouched.
   */
  readonly syncCatalogue: (
    integration: string,
    sortBase: number,
    catalogue: Catalogue,
    imageOf: (game: Catalogue["games"][number]) => string,
  ) => Sql<void>
  /** The integrations with active games stored (a restart serves them before its first fetch). */
  readonly storedIntegrations: () => Sql<ReadonlyArray<string>>
  /** The lobby: active games an operator has not disabled, in the operator's order else the studio's. */
  readonly games: () => Sql<ReadonlyArray<GameRow>>
  readonly categories: () => Sql<ReadonlyArray<CategoryRow>>
  /** Game ids by real rounds (not rolled back) since `since`, most first. */
  readonly topGameIds: (since: Date) => Sql<ReadonlyArray<string>>
  readonly jackpotPools: () => Sql<ReadonlyArray<JackpotPoolRow>>
  /** Currencies with a rate, enabled, in the list's order. */
  readonly currencies: () => Sql<ReadonlyArray<string>>
  readonly latestWinners: (limit: number) => Sql<ReadonlyArray<WinnerRow>>
  readonly topWinners: (since: Date, limit: number) => Sql<ReadonlyArray<WinnerRow>>
  readonly favoriteIds: (userId: string) => Sql<ReadonlyArray<string>>
  readonly addFavorite: (userId: string, gameId: string) => Sql<void>
  readonly removeFavorite: (userId: string, gameId: string) => Sql<void>
  readonly betHistory: (q: {
    readonly userId: string
    readonly from: Date
    readonly to: Date
    readonly brand: string | undefined
    readonly size: number
    readonly page: number
  }) => Sql<{ readonly rows: ReadonlyArray<BetRow>; readonly total: number }>
  readonly betBrands: (userId: string) => Sql<ReadonlyArray<string>>
  /** The player's round with this provider round id (any integration's; the latest), or undefined. */
  readonly playerRound: (userId: string, roundId: string) => Sql<PlayerRoundRow | undefined>
  readonly createSession: (s: NewGameSession) => Sql<void>
  /** The name a game may greet the player with: the nickname, else null. */
  readonly nickname: (userId: string) => Sql<string | null>
  /** The country of the player's profile (their jurisdiction), null while the profile has none. */
  readonly profileCountry: (userId: string) => Sql<string | null>
  /** The player's wallet currencies, the default first. */
  readonly walletCurrencies: (userId: string) => Sql<ReadonlyArray<{ currency: string; isDefault: boolean }>>
}

const gameColumns = `g.id, g.launch_id AS "launchId", g.name, g.brand, g.integration, g.category, g.kind,
  g.volatility, g.rtp, g.image, g.is_new AS "isNew", coalesce(g.featured_override, g.featured) AS featured, g.demo, g.jackpot_id AS "jackpotId",
  g.tags, g.min_bet_eur::text AS "minBetEur", g.max_bet_eur::text AS "maxBetEur"`

/** A winner's display name: nickname, else first name, else the first word of the full name. */
const winnerColumns = `coalesce(nullif(u.nick_name, ''), nullif(u.first_name, ''), split_part(u.full_name, ' ', 1)) AS name,
  r.game_id AS "gameId", g.name AS "gameName", r.win_total::text AS amount, r.currency,
  floor(r.win_total * cr.eur_rate * 100 / c.subunits_to_unit)::text AS "amountInEur", r.updated_at AS at`

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const gameCols = sql.literal(gameColumns)
  const winnerCols = sql.literal(winnerColumns)

  const syncCatalogue: GamesRepoShape["syncCatalogue"] = (integration, sortBase, catalogue, imageOf) =>
    sql.withTransaction(
      Effect.gen(function* () {
        // Two servers (or two integrations' lists) write one after the other.
        yield* sql`SELECT pg_advisory_xact_lock(310031)`
        for (const c of catalogue.categories)
          yield* sql`
            INSERT INTO game_categories (slug, name, sort) VALUES (${c.slug}, ${c.name}, ${c.order})
            ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, sort = EXCLUDED.sort
          `
        for (const j of catalogue.jackpots)
          yield* sql`
            INSERT INTO jackpots (id, name, seed_eur) VALUES (${j.id}, ${j.name}, ${j.seedEur.toString()}::numeric)
            ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, seed_eur = EXCLUDED.seed_eur
          `
        // In one transaction: readers see the old list or the new one, never a gap.
        yield* sql`UPDATE games SET active = false WHERE integration = ${integration}`
        let sort = sortBase
        for (const g of catalogue.games) {
          sort++
          yield* sql`
            INSERT INTO games (id, launch_id, name, brand, integration, category, kind, volatility, rtp,
                               image, is_new, featured, demo, jackpot_id, tags, min_bet_eur, max_bet_eur,
                               sort, active)
            VALUES (${g.id}, ${g.launchId}, ${g.name}, ${g.brand}, ${g.integration}, ${g.category}, ${g.kind},
                    ${g.volatility}, ${g.rtp}, ${imageOf(g)}, ${g.isNew}, ${g.featured}, ${g.demo},
                    ${g.jackpotId}, ${JSON.stringify(g.tags)}::jsonb, ${g.minBetEur.toString()}::numeric,
                    ${g.maxBetEur.toString()}::numeric, ${sort}, true)
            ON CONFLICT (id) DO UPDATE SET
              launch_id = EXCLUDED.launch_id, name = EXCLUDED.name, brand = EXCLUDED.brand,
              integration = EXCLUDED.integration, category = EXCLUDED.category, kind = EXCLUDED.kind,
              volatility = EXCLUDED.volatility, rtp = EXCLUDED.rtp, image = EXCLUDED.image,
              is_new = EXCLUDED.is_new, featured = EXCLUDED.featured, demo = EXCLUDED.demo,
              jackpot_id = EXCLUDED.jackpot_id, tags = EXCLUDED.tags, min_bet_eur = EXCLUDED.min_bet_eur,
              max_bet_eur = EXCLUDED.max_bet_eur, sort = EXCLUDED.sort, active = true
            WHERE games.integration = EXCLUDED.integration
          `
        }
      }),
    )

  const storedIntegrations = () =>
    sql<{ readonly integration: string }>`SELECT DISTINCT integration FROM games WHERE active`.pipe(
      Effect.map((rows) => rows.map((r) => r.integration)),
    )

  const games = () =>
    sql<GameRow>`SELECT ${gameCols} FROM games g
        WHERE g.active AND g.enabled ORDER BY coalesce(g.sort_override, g.sort), g.sort, g.id`.pipe(
      Effect.map((rows) =>
        rows.map((r) => ({
          ...r,
          // jsonb arrives parsed from postgres.js, as text from some drivers.
          tags: typeof r.tags === "string" ? (JSON.parse(r.tags) as ReadonlyArray<string>) : r.tags,
        })),
      ),
    )

  const categories = () =>
    sql<CategoryRow>`SELECT slug, name, sort AS "order" FROM game_categories ORDER BY sort, slug`

  const topGameIds = (since: Date) =>
    sql<{ readonly gameId: string }>`
      SELECT game_id AS "gameId" FROM game_rounds
      WHERE created_at >= ${since} AND status <> 'rolled-back'
      GROUP BY game_id ORDER BY count(*) DESC, game_id
    `.pipe(Effect.map((rows) => rows.map((r) => r.gameId)))

  const jackpotPools = () =>
    sql<JackpotPoolRow>`
      SELECT j.id, j.name, j.seed_eur::text AS "seedEur", j.last_won_at AS "lastWonAt",
             a.currency, a.balance::text AS amount
      FROM jackpots j
      LEFT JOIN ledger_accounts a ON a.kind = 'jackpot_pool' AND a.code = j.id
      LEFT JOIN currencies c ON c.code = a.currency
      ORDER BY j.id, c.sort_order, a.currency
    `

  const currencies = () =>
    sql<{ readonly code: string }>`
      SELECT c.code FROM currencies c JOIN currency_rates r ON r.currency = c.code
      WHERE c.enabled ORDER BY c.sort_order, c.code
    `.pipe(Effect.map((rows) => rows.map((r) => r.code)))

  const latestWinners = (limit: number) =>
    sql<WinnerRow>`
      SELECT ${winnerCols}
      FROM game_rounds r
      JOIN users u ON u.id = r.user_id
      JOIN games g ON g.id = r.game_id
      JOIN currencies c ON c.code = r.currency
      JOIN currency_rates cr ON cr.currency = r.currency
      WHERE r.win_total > 0 AND r.status = 'settled'
      ORDER BY r.updated_at DESC, r.id DESC
      LIMIT ${limit}
    `

  const topWinners = (since: Date, limit: number) =>
    sql<WinnerRow>`
      SELECT ${winnerCols}
      FROM game_rounds r
      JOIN users u ON u.id = r.user_id
      JOIN games g ON g.id = r.game_id
      JOIN currencies c ON c.code = r.currency
      JOIN currency_rates cr ON cr.currency = r.currency
      WHERE r.win_total > 0 AND r.status = 'settled' AND r.updated_at >= ${since}
      ORDER BY r.win_total * cr.eur_rate / c.subunits_to_unit DESC, r.id DESC
      LIMIT ${limit}
    `

  const favoriteIds = (userId: string) =>
    sql<{ readonly gameId: string }>`
      SELECT f.game_id AS "gameId" FROM favorite_games f JOIN games g ON g.id = f.game_id
      WHERE f.user_id = ${userId} AND g.active ORDER BY f.created_at, f.game_id
    `.pipe(Effect.map((rows) => rows.map((r) => r.gameId)))

  const addFavorite = (userId: string, gameId: string) =>
    sql`
      INSERT INTO favorite_games (user_id, game_id) VALUES (${userId}, ${gameId})
      ON CONFLICT (user_id, game_id) DO NOTHING
    `.pipe(Effect.asVoid)

  const removeFavorite = (userId: string, gameId: string) =>
    sql`DELETE FROM favorite_games WHERE user_id = ${userId} AND game_id = ${gameId}`.pipe(Effect.asVoid)

  const betHistory: GamesRepoShape["betHistory"] = (q) =>
    Effect.gen(function* () {
      const brand = q.brand ?? null
      // The round number counts every round of the player in that game, not only the page's.
      const rows = yield* sql<Omit<BetRow, "roundNumber"> & { readonly n: string; readonly total: string }>`
        SELECT r.round_id AS "roundId", r.game_id AS "gameId", g.name AS "gameName", g.brand AS provider,
               r.currency, r.bet_total::text AS bet, r.win_total::text AS win, r.status,
               r.created_at AS at, r.n::text AS n, count(*) OVER ()::text AS total
        FROM (
          SELECT x.*, row_number() OVER (PARTITION BY x.game_id ORDER BY x.created_at, x.id) AS n
          FROM game_rounds x WHERE x.user_id = ${q.userId}
        ) r JOIN games g ON g.id = r.game_id
        WHERE r.created_at >= ${q.from} AND r.created_at < ${q.to}
          AND (${brand}::text IS NULL OR g.brand = ${brand}::text)
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${q.size} OFFSET ${q.page * q.size}
      `
      let total = Number(rows[0]?.total ?? "0")
      if (rows.length === 0 && q.page > 0) {
        // Past the last page: the count still tells the client how many there are.
        const counted = yield* sql<{ readonly total: string }>`
          SELECT count(*)::text AS total FROM game_rounds r JOIN games g ON g.id = r.game_id
          WHERE r.user_id = ${q.userId} AND r.created_at >= ${q.from} AND r.created_at < ${q.to}
            AND (${brand}::text IS NULL OR g.brand = ${brand}::text)
        `
        total = Number(counted[0]?.total ?? "0")
      }
      return { rows: rows.map(({ total: _, n, ...row }) => ({ ...row, roundNumber: Number(n) })), total }
    })

  const betBrands = (userId: string) =>
    sql<{ readonly brand: string }>`
      SELECT DISTINCT g.brand FROM game_rounds r JOIN games g ON g.id = r.game_id
      WHERE r.user_id = ${userId} ORDER BY g.brand
    `.pipe(Effect.map((rows) => rows.map((r) => r.brand)))

  const playerRound = (userId: string, roundId: string) =>
    sql<Omit<PlayerRoundRow, "roundNumber"> & { readonly n: string }>`
      SELECT r.round_id AS "roundId", r.game_id AS "gameId", g.name AS "gameName", g.brand AS provider,
             r.currency, r.bet_total::text AS bet, r.win_total::text AS win, r.status,
             r.created_at AS at, r.integration, r.n::text AS n
      FROM (
        SELECT x.*, row_number() OVER (PARTITION BY x.game_id ORDER BY x.created_at, x.id) AS n
        FROM game_rounds x WHERE x.user_id = ${userId}
      ) r JOIN games g ON g.id = r.game_id
      WHERE r.round_id = ${roundId}
      ORDER BY r.created_at DESC LIMIT 1
    `.pipe(
      Effect.map((rows) => {
        const row = rows[0]
        if (row === undefined) return undefined
        const { n, ...rest } = row
        return { ...rest, roundNumber: Number(n) }
      }),
    )

  const createSession = (s: NewGameSession) =>
    sql`
      INSERT INTO game_sessions (token_hash, user_id, casino_session_id, currency, game_id, integration, expires_at)
      VALUES (${s.tokenHash}, ${s.userId}, ${s.casinoSessionId}, ${s.currency}, ${s.gameId}, ${s.integration},
              now() + make_interval(hours => ${s.ttlHours}))
    `.pipe(Effect.asVoid)

  const walletCurrencies = (userId: string) =>
    sql<{ readonly currency: string; readonly isDefault: boolean }>`
      SELECT currency, is_default AS "isDefault" FROM wallets WHERE user_id = ${userId}
      ORDER BY is_default DESC, created_at
    `

  const nickname = (userId: string) =>
    sql<{ readonly nick: string | null }>`SELECT nick_name AS nick FROM users WHERE id = ${userId}`.pipe(
      Effect.map((rows) => rows[0]?.nick ?? null),
    )

  const profileCountry = (userId: string) =>
    sql<{ readonly country: string | null }>`SELECT country FROM users WHERE id = ${userId}`.pipe(
      Effect.map((rows) => rows[0]?.country ?? null),
    )

  return {
    nickname,
    profileCountry,
    syncCatalogue,
    storedIntegrations,
    games,
    categories,
    topGameIds,
    jackpotPools,
    currencies,
    latestWinners,
    topWinners,
    favoriteIds,
    addFavorite,
    removeFavorite,
    betHistory,
    betBrands,
    playerRound,
    createSession,
    walletCurrencies,
  } satisfies GamesRepoShape
})

export class GamesRepo extends Context.Service<GamesRepo, GamesRepoShape>()("casino/server/GamesRepo") {
  static readonly layer = Layer.effect(GamesRepo, make)
}
