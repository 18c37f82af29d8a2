/**
 * Realistic answers of the game calls for the games machines' models and actor tests: a catalogue
 * of 30 games over four brands and four segments, sections, jackpots, winners, favorites, a skin,
 * the CDN's recommended list, a launch, bet history.
 */
import type { RecommendedGames } from "../../services/cdn.ts"
import type {
  BetHistory,
  FavoriteGames,
  Game,
  Games,
  GamesAndCategories,
  Jackpots,
  SkinConfiguration,
  Winners,
} from "../../services/game-service.ts"

const brands = ["Lumen Play", "Red Comet", "Odd Owl", "Northern Reels"] as const
const segments = [
  { slug: "slots", name: "Slots", order: 1 },
  { slug: "table", name: "Table games", order: 2 },
  { slug: "crash", name: "Crash", order: 3 },
  { slug: "instant", name: "Instant", order: 4 },
] as const
const kinds = ["slot", "roulette", "crash", "dice"] as const

export const fixtureGame = (n: number): Game => {
  const segment = segments[n % segments.length] ?? segments[0]
  return {
    id: `game-${n}`,
    launchId: `studio-game-${n}`,
    name: n === 0 ? "Aurora Reels" : `Game ${n}`,
    provider: brands[n % brands.length] ?? brands[0],
    category: segment.slug,
    kind: kinds[n % kinds.length] ?? "slot",
    imageId: `game-${n}`,
    image: `/games/art/game-${n}.svg`,
    rtp: "96.12",
    volatility: n % 3 === 0 ? "high" : n % 3 === 1 ? "medium" : "low",
    demo: n !== 5,
    jackpot: n % 7 === 0,
    isNew: n < 4,
    featured: n % 5 === 0,
    tags: n === 0 ? ["northern lights", "cluster"] : ["classic"],
  }
}

export const fixtureGames: Games = Array.from({ length: 30 }, (_, n) => fixtureGame(n))

export const fixtureCatalogue: GamesAndCategories = {
  currency: "EUR",
  games: fixtureGames,
  categories: segments,
  betLimits: Object.fromEntries(fixtureGames.map((g) => [g.id, { min: "10", max: "10000" }])),
}

export const fixtureJackpots: Jackpots = [
  {
    id: "comet",
    name: "Comet Jackpot",
    currency: "EUR",
    amount: "123456",
    gameIds: ["game-0", "game-7"],
    lastWonAt: null,
  },
]

export const fixtureWinners: Winners = [
  {
    player: "Ma***a",
    gameId: "game-1",
    gameName: "Game 1",
    amount: "2500",
    currency: "EUR",
    amountInEur: "2500",
    at: "2026-11-23T10:00:00.000Z",
  },
]

export const fixtureFavorites: FavoriteGames = [
  { id: "game-2", launchId: "studio-game-2", category: "crash", name: "Game 2", provider: "Odd Owl" },
]

export const fixtureSkin: SkinConfiguration = {
  productName: "Casino",
  sections: ["new", "top", "featured", "jackpot", "recommended", "favorites", "all"],
  pageSize: 12,
  accent: "#7c5cff",
}

export const fixtureRecommended: RecommendedGames = [
  { id: "game-3", name: "Game 3", provider: "Northern Reels", category: "instant" },
  { id: "gone-game", name: "Gone", provider: "Nobody", category: "slots" },
]

export const fixtureBetHistory: BetHistory = {
  content: [
    {
      roundId: "r-1",
      gameId: "game-1",
      gameName: "Game 1",
      provider: "Red Comet",
      currency: "EUR",
      bet: "100",
      win: "250",
      status: "settled",
      at: "2026-11-23T10:00:00.000Z",
      roundNumber: 3,
    },
  ],
  page: 0,
  size: 20,
  totalElements: 41,
  totalPages: 3,
}
