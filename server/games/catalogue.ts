/**
 * What the casino's catalogue tables are seeded from at every start (GamesRepo.seedCatalogue).
 *
 * The studio's catalogue (services/games/catalogue.ts, the pure game math of the studio helper) is
 * the source of truth for its titles. Until the casino is wired to it, this module carries the same
 * shape (`CatalogueGame`, a subset of the studio's `GameDefinition` plus the two things only the
 * casino needs: the integration code and the exact RTP text) and a fixture list built from it, so
 * the lobby, the tests and the bench have a real-sized catalogue (44 titles, 4 brands, 5 segments).
 */
export const gameKinds = ["dice", "crash", "mines", "plinko", "roulette", "slot"] as const
export type CatalogueKind = (typeof gameKinds)[number]

export interface CatalogueGame {
  readonly id: string
  readonly launchId: string
  readonly name: string
  readonly brand: string
  /** The GAME_PROVIDERS code whose wallet calls settle it ("studio" for the in-house studio). */
  readonly integration: string
  readonly category: string
  readonly kind: CatalogueKind
  readonly volatility: "low" | "medium" | "high"
  readonly tags: ReadonlyArray<string>
  readonly isNew: boolean
  readonly featured: boolean
  /** The progressive jackpot its bets feed and can win, or null. */
  readonly jackpotId: string | null
  /** Bet limits in EUR cents. */
  readonly minBetEur: bigint
  readonly maxBetEur: bigint
  readonly demo: boolean
  /** Exact theoretical RTP with two decimals, rounded down ("96.12"). */
  readonly rtp: string
  /** The tile's URL when the provider serves its own art; else the casino's generated one. */
  readonly image?: string
}

export interface CatalogueCategory {
  readonly slug: string
  readonly name: string
  readonly order: number
}

export interface CatalogueJackpot {
  readonly id: string
  readonly name: string
  /** What the pool starts with, and is topped up to after a win, in EUR cents (from the house). */
  readonly seedEur: bigint
}

export interface Catalogue {
  readonly games: ReadonlyArray<CatalogueGame>
  readonly categories: ReadonlyArray<CatalogueCategory>
  readonly jackpots: ReadonlyArray<CatalogueJackpot>
}

import {
  categories as studioCategories,
  catalogue as studioGames,
  jackpots as studioJackpots,
} from "../../services/games/catalogue.ts"
import { rtpPercent } from "../../services/games/rtp.ts"

export const STUDIO = "studio"

/** The one progressive pool of the studio's jackpot titles (decision: one pool, per currency). */
export const STUDIO_JACKPOT: CatalogueJackpot = {
  id: "studio-mega",
  name: "Studio Mega Jackpot",
  seedEur: 100_000n,
}

const brands = ["Lumen Play", "Red Comet", "Odd Owl", "Northern Reels"] as const

const categories: ReadonlyArray<CatalogueCategory> = [
  { slug: "slots", name: "Slots", order: 1 },
  { slug: "table", name: "Table games", order: 2 },
  { slug: "crash", name: "Crash", order: 3 },
  { slug: "instant", name: "Instant win", order: 4 },
  { slug: "jackpot", name: "Jackpot games", order: 5 },
]

const themes = [
  "Aurora",
  "Ember",
  "Tidal",
  "Comet",
  "Jade",
  "Mirage",
  "Nova",
  "Orchid",
  "Pharaoh",
  "Quartz",
  "Raven",
] as const

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")

const kindSetup: Readonly<
  Record<CatalogueKind, { category: string; label: string; rtp: string; min: bigint; max: bigint }>
> = {
  slot: { category: "slots", label: "Reels", rtp: "96.10", min: 10n, max: 10_000n },
  dice: { category: "instant", label: "Dice", rtp: "99.00", min: 10n, max: 50_000n },
  mines: { category: "instant", label: "Mines", rtp: "99.00", min: 10n, max: 20_000n },
  plinko: { category: "instant", label: "Plinko", rtp: "98.90", min: 10n, max: 20_000n },
  crash: { category: "crash", label: "Rocket", rtp: "99.00", min: 10n, max: 50_000n },
  roulette: { category: "table", label: "Roulette", rtp: "97.29", min: 10n, max: 100_000n },
}

/** 44 titles: every kind under every brand, slots many times over, four jackpot slots. */
const fixtureGames = (): ReadonlyArray<CatalogueGame> => {
  const out: Array<CatalogueGame> = []
  const kinds: ReadonlyArray<CatalogueKind> = [
    "slot",
    "slot",
    "slot",
    "slot",
    "slot",
    "dice",
    "crash",
    "mines",
    "plinko",
    "roulette",
    "slot",
  ]
  brands.forEach((brand, b) => {
    kinds.forEach((kind, k) => {
      const setup = kindSetup[kind]
      const theme = themes[(k + b * 3) % themes.length] ?? "Aurora"
      const name = `${theme} ${setup.label}${kind === "slot" ? ` ${b + 1}${k}` : ""}`
      const id = slug(`${brand.split(" ")[0]} ${name}`)
      const jackpot = kind === "slot" && k === kinds.length - 1
      out.push({
        id,
        launchId: id,
        name,
        brand,
        integration: STUDIO,
        category: jackpot ? "jackpot" : setup.category,
        kind,
        volatility: (["low", "medium", "high"] as const)[(k + b) % 3] ?? "medium",
        tags: [theme.toLowerCase(), kind, brand.toLowerCase()],
        isNew: k % 4 === 1,
        featured: k % 5 === 0,
        jackpotId: jackpot ? STUDIO_JACKPOT.id : null,
        minBetEur: setup.min,
        maxBetEur: setup.max,
        demo: true,
        rtp: setup.rtp,
      })
    })
  })
  return out
}

/** Every pool starts at (and is topped up to) 1,000.00 EUR (the protocol's example). */
export const JACKPOT_SEED_EUR = 100_000n

/**
 * The studio's catalogue (services/games/catalogue.ts) as the casino seeds it: integration `studio`,
 * the exact RTP computed once at start, the studio's own tile art (`/studio/art/{imageId}.svg`).
 */
export const studioCatalogue = (): Catalogue => ({
  games: studioGames.map((d) => ({
    id: d.id,
    launchId: d.launchId,
    name: d.name,
    brand: d.brand,
    integration: STUDIO,
    category: d.category,
    kind: d.kind,
    volatility: d.volatility,
    tags: d.tags,
    isNew: d.isNew,
    featured: d.featured,
    jackpotId: d.jackpot?.id ?? null,
    minBetEur: d.minBetEur,
    maxBetEur: d.maxBetEur,
    demo: d.demo,
    rtp: rtpPercent(d),
    image: `/studio/art/${d.imageId}.svg`,
  })),
  categories: studioCategories,
  jackpots: studioJackpots.map((j) => ({ id: j.id, name: j.name, seedEur: JACKPOT_SEED_EUR })),
})

export const fixtureCatalogue: Catalogue = {
  games: fixtureGames(),
  categories,
  jackpots: [STUDIO_JACKPOT],
}
