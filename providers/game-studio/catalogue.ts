/**
 * The studio's games list as it publishes it to casinos (docs/game-wallet-protocol.md, "Games list"):
 * its titles (services/games/catalogue.ts, the studio's own definition), with the exact RTP
 * (services/games/rtp.ts) and the absolute URL of each tile (`{PUBLIC_URL}/studio/art/{imageId}.svg`).
 * Only the wire shape leaves the studio: a casino never imports the studio's titles.
 */
import { Effect } from "effect"
import type { GamesList } from "../../protocols/game-wallet/games-list.ts"
import { categories, jackpots, catalogue as titles } from "../../services/games/catalogue.ts"
import { crashMultiplayerRtp } from "../../services/games/crash-chain.ts"
import { rtpPercent } from "../../services/games/rtp.ts"

/** The list as the protocol has it (protocols/game-wallet/games-list.ts). */
export type PublishedList = GamesList

// The exact RTP of a slot is a sum over its strips (≈ 3 s for all titles): computed once per
// process, title by title, letting requests through in between (warmRtps, at the studio's start).
const rtps = new Map<string, string>()

/**
 * The RTP a title is published with. Crash is played in live multiplayer rounds (crash/engine.ts),
 * whose return depends on the cash-out: published at 2.00×, as its page says (98.51 %).
 */
const publishedRtp = (d: (typeof titles)[number]): string =>
  d.kind === "crash" ? crashMultiplayerRtp(200) : rtpPercent(d)

/** Computes every title's RTP once, yielding to the event loop between titles. */
export const warmRtps: Effect.Effect<void> = Effect.gen(function* () {
  for (const d of titles) {
    if (rtps.has(d.id)) continue
    rtps.set(d.id, publishedRtp(d))
    yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
  }
})

/** Whether the list can be answered at once (every RTP known). */
export const listReady = (): boolean => rtps.size === titles.length

/** A title's exact RTP ("96.19"), from the cache (the page's state asks for it at every load). */
export const rtpOf = (id: string): string => {
  const known = rtps.get(id)
  if (known !== undefined) return known
  const def = titles.find((d) => d.id === id)
  const rtp = def === undefined ? "0.00" : publishedRtp(def)
  rtps.set(id, rtp)
  return rtp
}

/** The list, tiles under `publicUrl` (the studio's own origin, as a casino's players reach it). */
export const publishedList = (publicUrl: string): GamesList => ({
  games: titles.map((d) => ({
    id: d.id,
    launchId: d.launchId,
    name: d.name,
    brand: d.brand,
    category: d.category,
    kind: d.kind,
    volatility: d.volatility,
    rtp: rtpOf(d.id),
    tags: d.tags,
    isNew: d.isNew,
    featured: d.featured,
    demo: d.demo,
    jackpotId: d.jackpot?.id ?? null,
    minBetEur: d.minBetEur.toString(),
    maxBetEur: d.maxBetEur.toString(),
    image: `${publicUrl}/studio/art/${d.imageId}.svg`,
  })),
  categories,
  jackpots: jackpots.map((j) => ({ id: j.id, name: j.name })),
})
