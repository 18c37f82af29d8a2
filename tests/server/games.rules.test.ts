/**
 * The games module's pure rules (server/games/rules.ts), with fast-check: bet limits converted into
 * a currency never leave the catalogue's EUR range, masked names never show more than 3 characters,
 * the lobby's currency path, call fingerprints, a provider's list as catalogue rows.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { ListedGame } from "../../protocols/game-wallet/games-list.ts"
import { toCatalogue } from "../../server/games/catalogue.ts"
import {
  betLimitsIn,
  callFingerprint,
  eurCentsToMinor,
  lobbyCurrency,
  maskName,
} from "../../server/games/rules.ts"
import { RATE_SCALE, toEurCents } from "../../services/money-rules.ts"

describe("games rules", () => {
  it("converts bet limits without leaving the EUR range (min up, max down, max ≥ min)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10_000n }),
        fc.bigInt({ min: 0n, max: 1_000_000n }),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        fc.constantFrom(1n, 100n, 1000n, 10n ** 8n, 10n ** 18n),
        (min, span, rate, subunits) => {
          const max = min + span
          const limits = betLimitsIn(min, max, rate, subunits)
          if (limits === undefined) return false
          expect(limits.max >= limits.min).toBe(true)
          expect(limits.min >= 1n).toBe(true)
          // The minimum is worth at least the EUR minimum (rounded up) …
          expect(limits.min * rate * 100n >= min * RATE_SCALE * subunits || limits.min === 1n).toBe(true)
          // … and one unit less would be worth less than it.
          if (limits.min > 1n)
            expect((limits.min - 1n) * rate * 100n < min * RATE_SCALE * subunits).toBe(true)
          // The maximum is worth at most the EUR maximum, unless clamped up to the minimum.
          if (limits.max > limits.min) expect(toEurCents(limits.max, rate, subunits) <= max).toBe(true)
          return true
        },
      ),
    )
  })

  it("converts at EUR 1:1 and refuses a rate of 0", () => {
    expect(betLimitsIn(10n, 10_000n, RATE_SCALE, 100n)).toEqual({ min: 10n, max: 10_000n })
    expect(betLimitsIn(10n, 10_000n, 0n, 100n)).toBeUndefined()
    expect(eurCentsToMinor(100_000n, RATE_SCALE / 2n, 100n)).toBe(200_000n)
  })

  it("masks names: two first characters, ***, the last; short names keep one", () => {
    expect(maskName("Maria")).toBe("Ma***a")
    expect(maskName("Ada")).toBe("A***")
    expect(maskName("")).toBe("***")
    expect(maskName("Łukasz")).toBe("Łu***z")
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (name) => {
        const masked = maskName(name)
        expect(masked).toContain("***")
        expect([...masked.replace("***", "")].length).toBeLessThanOrEqual(3)
      }),
    )
  })

  it("reads the lobby's currency path: 3 letters in any case, else EUR", () => {
    expect(lobbyCurrency("usd")).toBe("USD")
    expect(lobbyCurrency("EUR")).toBe("EUR")
    expect(lobbyCurrency("euro")).toBe("EUR")
    expect(lobbyCurrency("U1D")).toBe("EUR")
    expect(lobbyCurrency("")).toBe("EUR")
  })

  it("fingerprints calls independently of field order, differently for other content", () => {
    const a = callFingerprint("bet", { amount: "10", roundId: "r" })
    expect(callFingerprint("bet", { roundId: "r", amount: "10" })).toBe(a)
    expect(callFingerprint("bet", { amount: "11", roundId: "r" })).not.toBe(a)
    expect(callFingerprint("win", { amount: "10", roundId: "r" })).not.toBe(a)
  })

  it("takes a provider's list: ids namespaced (not the studio's), art kept where the casino's pages may show it", () => {
    const listed = (id: string, image?: string): ListedGame => ({
      id,
      launchId: id,
      name: id,
      brand: "Brand",
      category: "slots",
      kind: "dice",
      volatility: "low",
      rtp: "99.00",
      tags: [],
      isNew: false,
      featured: false,
      demo: true,
      jackpotId: null,
      minBetEur: "10",
      maxBetEur: "10000",
      ...(image === undefined ? {} : { image }),
    })
    const list = {
      games: [
        listed("a", "https://casino.example/art/a.svg"),
        listed("b", "https://studio.example/art/b.svg"),
        listed("c"),
        listed("d", "http://127.0.0.1:8083/art/d.svg"),
        listed("e", "http://elsewhere.example/art/e.svg"),
      ],
      categories: [{ slug: "slots", name: "Slots", order: 1 }],
      jackpots: [],
    }
    const art = (integration: string) =>
      toCatalogue(integration, list, "https://casino.example", ["http://127.0.0.1:8083"]).catalogue.games.map(
        (g) => [g.id, g.image],
      )
    // Its own origin: a path; https: as is; plain http only from a listed provider origin; else drawn.
    expect(art("acme")).toEqual([
      ["acme-a", "/art/a.svg"],
      ["acme-b", "https://studio.example/art/b.svg"],
      ["acme-c", undefined],
      ["acme-d", "http://127.0.0.1:8083/art/d.svg"],
      ["acme-e", undefined],
    ])
    expect(art("studio").map(([id]) => id)).toEqual(["a", "b", "c", "d", "e"])
  })
})
