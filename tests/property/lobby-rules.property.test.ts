/**
 * Properties of the lobby's rules (services/lobby-rules.ts): search matches by every word
 * in name, brand or tags, case and accents ignored, and never invents a game; the list starts at 12
 * and grows by 12 without skipping or repeating a game until the end; sections resolve ids against
 * the catalogue in order, dropping unknown and repeated ones; the catalogue currency is 3 letters or EUR.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fixtureGame } from "../../machines/games/fixtures.ts"
import type { Game } from "../../services/game-service.ts"
import {
  catalogueCurrency,
  favoriteBody,
  filterGames,
  gamesByIds,
  hasMore,
  matchesSearch,
  nextCount,
  normalizeText,
  PAGE_SIZE,
  poolsIn,
  searchWords,
  visibleGames,
} from "../../services/lobby-rules.ts"

const word = fc.stringMatching(/^[a-zA-ZÀ-ÿ0-9]{1,8}$/)
const game: fc.Arbitrary<Game> = fc
  .record({
    n: fc.nat({ max: 10_000 }),
    name: fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(" ")),
    provider: fc.constantFrom("Lumen Play", "Red Comet", "Odd Owl", "Northern Reels"),
    category: fc.constantFrom("slots", "table", "crash", "instant"),
    tags: fc.array(word, { maxLength: 3 }),
  })
  .map(({ n, name, provider, category, tags }) => ({
    ...fixtureGame(n),
    id: `g-${n}`,
    name,
    provider,
    category,
    tags,
  }))
const catalogue = fc.uniqueArray(game, { selector: (g) => g.id, maxLength: 60 })

describe("search", () => {
  it("a blank search matches every game", () => {
    fc.assert(
      fc.property(game, fc.stringMatching(/^\s*$/), (g, blank) => {
        expect(matchesSearch(g, blank)).toBe(true)
      }),
    )
  })

  it("any word of the name, brand or a tag finds the game, in any case", () => {
    fc.assert(
      fc.property(game, fc.nat(), fc.boolean(), (g, pick, upper) => {
        const words = [...searchWords(g.name), ...searchWords(g.provider), ...g.tags.flatMap(searchWords)]
        const chosen = words[pick % words.length] ?? ""
        expect(matchesSearch(g, upper ? chosen.toUpperCase() : chosen)).toBe(true)
      }),
    )
  })

  it("accents and dashes do not matter", () => {
    const g = { ...fixtureGame(1), name: "Crash-Örbit Deluxe", tags: [] }
    expect(matchesSearch(g, "orbit")).toBe(true)
    expect(matchesSearch(g, "crash orbit")).toBe(true)
    expect(matchesSearch(g, "CRASH   örbit")).toBe(true)
    expect(matchesSearch(g, "orbit roulette")).toBe(false)
    expect(normalizeText("  Ça-va_Bien ")).toBe("ca va bien")
  })

  it("filtering keeps catalogue order and only games that match the search and the segment", () => {
    fc.assert(
      fc.property(
        catalogue,
        word,
        fc.option(fc.constantFrom("slots", "table", "crash")),
        (games, term, segment) => {
          const out = filterGames(games, { term, segment })
          expect(
            out.every((g) => matchesSearch(g, term) && (segment === null || g.category === segment)),
          ).toBe(true)
          expect(out).toEqual(games.filter((g) => out.includes(g)))
          expect(out.length).toBe(
            games.filter((g) => matchesSearch(g, term) && (segment === null || g.category === segment))
              .length,
          )
        },
      ),
    )
  })
})

describe("paging", () => {
  it("starts at 12 and grows by 12: every game shown once, in order, until no more", () => {
    fc.assert(
      fc.property(catalogue, (games) => {
        let count = PAGE_SIZE
        let shown = visibleGames(games, count)
        expect(shown.length).toBe(Math.min(12, games.length))
        while (hasMore(games.length, count)) {
          const next = nextCount(count)
          expect(next - count).toBe(12)
          const more = visibleGames(games, next)
          expect(more.slice(0, shown.length)).toEqual(shown)
          expect(more.length).toBe(Math.min(next, games.length))
          count = next
          shown = more
        }
        expect(shown).toEqual(games)
      }),
    )
  })
})

describe("sections", () => {
  it("resolve ids in their order, dropping unknown and repeated ones", () => {
    fc.assert(
      fc.property(
        catalogue,
        fc.array(
          fc.oneof(
            fc.nat({ max: 10_000 }).map((n) => `g-${n}`),
            fc.constant("gone"),
          ),
        ),
        (games, ids) => {
          const out = gamesByIds(games, ids)
          const known = new Set(games.map((g) => g.id))
          const expected = [...new Set(ids.filter((id) => known.has(id)))]
          expect(out.map((g) => g.id)).toEqual(expected)
        },
      ),
    )
  })

  it("the favorite body is the spec's five fields", () => {
    fc.assert(
      fc.property(game, (g) => {
        expect(favoriteBody(g)).toEqual({
          id: g.id,
          launchId: g.launchId,
          category: g.category,
          name: g.name,
          provider: g.provider,
        })
      }),
    )
  })
})

describe("the catalogue's currency", () => {
  it("is the 3 letters upper-cased, anything else EUR", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const out = catalogueCurrency(text)
        expect(out).toBe(/^[A-Za-z]{3}$/.test(text) ? text.toUpperCase() : "EUR")
      }),
    )
    expect(catalogueCurrency(null)).toBe("EUR")
    expect(catalogueCurrency("usd")).toBe("USD")
    expect(catalogueCurrency("USDT")).toBe("EUR")
  })
})

describe("the pools shown", () => {
  it("are the catalogue currency's, else EUR's", () => {
    const pool = (id: string, currency: string) => ({
      id,
      name: id,
      currency,
      amount: "100",
      gameIds: [],
      lastWonAt: null,
    })
    const all = [pool("a", "EUR"), pool("a", "USD"), pool("b", "EUR"), pool("b", "USD")]
    expect(poolsIn(all, "USD").map((j) => `${j.id}${j.currency}`)).toEqual(["aUSD", "bUSD"])
    expect(poolsIn(all, "JPY").map((j) => `${j.id}${j.currency}`)).toEqual(["aEUR", "bEUR"])
  })
})
