/**
 * How the casino turns the games list an integration publishes (docs/game-wallet-protocol.md,
 * "Games list"; its wire schema is protocols/game-wallet/games-list.ts) into the rows of its
 * catalogue tables.
 *
 * The casino knows no title of its own: each integration's list arrives signed over the protocol
 * (Integrations.catalogue) and is upserted under that integration's code (Games, GamesRepo).
 * Ids are namespaced per integration so that two providers publishing the same ids (two instances
 * of the studio, say) never collide: `{code}-{id}` — except for the integration `studio`, whose ids
 * are kept as published (they are what favorites, rounds and links already name).
 */
import type { GameKind, GamesList } from "../../protocols/game-wallet/games-list.ts"

export type CatalogueKind = GameKind

/**
 * The integration code whose ids are kept as published, not namespaced: the game studio's titles
 * were listed under their own ids before integrations were namespaced, and players' favorites,
 * rounds and links name them so.
 */
export const UNPREFIXED_INTEGRATION = "studio"

/** Every pool starts at (and is topped up to) 1,000.00 EUR from the house: the casino's decision. */
export const JACKPOT_SEED_EUR = 100_000n

/** A game as the casino's catalogue holds it (ids already namespaced, bet limits as bigint). */
export interface CatalogueGame {
  readonly id: string
  readonly launchId: string
  readonly name: string
  readonly brand: string
  /** The GAME_PROVIDERS code whose wallet calls settle it. */
  readonly integration: string
  readonly category: string
  readonly kind: CatalogueKind
  readonly volatility: "low" | "medium" | "high"
  readonly tags: ReadonlyArray<string>
  readonly isNew: boolean
  readonly featured: boolean
  /** The progressive jackpot its bets feed and can win (the casino's id), or null. */
  readonly jackpotId: string | null
  /** Bet limits in EUR cents. */
  readonly minBetEur: bigint
  readonly maxBetEur: bigint
  readonly demo: boolean
  /** Exact theoretical RTP with two decimals, rounded down ("96.12"). */
  readonly rtp: string
  /**
   * The provider's tile art: a path when it is served from the casino's own origin, the URL when
   * the casino's pages may show images from there (https, or a provider origin the operator lists);
   * else absent, and the casino draws one.
   */
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

/** The casino's id of a provider's game or jackpot id: `{code}-{id}`, `studio`'s kept as is. */
export const casinoId = (integration: string, providerId: string): string =>
  integration === UNPREFIXED_INTEGRATION ? providerId : `${integration}-${providerId}`

const idPattern = /^[a-z0-9][a-z0-9-]{0,63}$/

/**
 * A decoded list as catalogue rows of `integration`: ids namespaced, art kept when the casino's
 * pages may show it (`imageOrigins`: the casino's own origin, kept as a path, and the provider
 * origins its CSP allows; an https image always), else the casino draws a tile. Titles that do not fit (an id too long once namespaced, an unknown
 * category or jackpot, max below min, a repeated id) are left out and named in `skipped`.
 */
export const toCatalogue = (
  integration: string,
  list: GamesList,
  casinoOrigin: string,
  imageOrigins: ReadonlyArray<string> = [],
): { readonly catalogue: Catalogue; readonly skipped: ReadonlyArray<string> } => {
  const skipped: Array<string> = []
  const categories = new Map(list.categories.map((c) => [c.slug, c] as const))
  const jackpots = new Map(
    list.jackpots.flatMap((j) => {
      const id = casinoId(integration, j.id)
      return idPattern.test(id) ? [[j.id, { id, name: j.name, seedEur: JACKPOT_SEED_EUR }] as const] : []
    }),
  )
  const seen = new Set<string>()
  const games: Array<CatalogueGame> = []
  for (const g of list.games) {
    const id = casinoId(integration, g.id)
    const min = BigInt(g.minBetEur)
    const max = BigInt(g.maxBetEur)
    const jackpot = g.jackpotId === null ? null : jackpots.get(g.jackpotId)
    const why = !idPattern.test(id)
      ? "id too long"
      : seen.has(id)
        ? "id repeated"
        : !categories.has(g.category)
          ? `unknown category ${g.category}`
          : jackpot === undefined
            ? `unknown jackpot ${g.jackpotId}`
            : max < min
              ? "maxBetEur below minBetEur"
              : undefined
    if (why !== undefined) {
      skipped.push(`${g.id}: ${why}`)
      continue
    }
    seen.add(id)
    const image = g.image === undefined ? undefined : new URL(g.image)
    games.push({
      id,
      launchId: g.launchId,
      name: g.name,
      brand: g.brand,
      integration,
      category: g.category,
      kind: g.kind,
      volatility: g.volatility,
      tags: g.tags,
      isNew: g.isNew,
      featured: g.featured,
      jackpotId: jackpot?.id ?? null,
      minBetEur: min,
      maxBetEur: max,
      demo: g.demo,
      rtp: g.rtp,
      ...(image === undefined
        ? {}
        : image.origin === casinoOrigin
          ? { image: image.pathname }
          : image.protocol === "https:" || imageOrigins.includes(image.origin)
            ? { image: image.href }
            : {}),
    })
  }
  return {
    catalogue: {
      games,
      categories: [...categories.values()].map((c) => ({ slug: c.slug, name: c.name, order: c.order })),
      jackpots: [...jackpots.values()],
    },
    skipped,
  }
}
