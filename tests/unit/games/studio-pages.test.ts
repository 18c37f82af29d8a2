/**
 * The studio's game pages and art for every title: one HTML document with the nonce on its only
 * script and style, the exact RTP in the info panel, the kind's controls; the SVG tile escapes names.
 */
import { describe, expect, it } from "vitest"
import { gameArt } from "../../../server/providers/game-studio/art.ts"
import { gamePage, pageCsp } from "../../../server/providers/game-studio/pages.ts"
import type { SessionRow } from "../../../server/providers/game-studio/Studio.ts"
import { catalogue } from "../../../services/games/catalogue.ts"
import { rtpPercent } from "../../../services/games/rtp.ts"

const session = (gameId: string): SessionRow => ({
  id: "s".repeat(32),
  casinoToken: null,
  playerId: null,
  nickname: null,
  currency: "EUR",
  gameId,
  demo: true,
  demoBalance: "100000",
  lang: "en",
  platform: "desktop",
  lobbyUrl: null,
  expiresAt: new Date(),
})

describe("studio pages", () => {
  it("every title renders one page with nonce'd script and style, its RTP and the balance message", () => {
    for (const def of catalogue) {
      const html = gamePage("NONCE", session(def.id), def)
      expect(html.match(/<script nonce="NONCE">/g)).toHaveLength(1)
      expect(html.match(/<style nonce="NONCE">/g)).toHaveLength(1)
      expect(html).toContain(`RTP <strong>${rtpPercent(def)} %</strong>`)
      expect(html).toContain('"studio:balance"')
      expect(html).toContain(`data-kind="${def.kind}"`)
      expect(html).not.toMatch(/<script(?![^>]*(nonce="NONCE"|type="application\/json"))/)
    }
  })

  it("the CSP allows only the nonce and the casino as frame ancestor", () => {
    const csp = pageCsp("abc", "https://casino.example/path")
    expect(csp).toContain("script-src 'nonce-abc'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'self' https://casino.example")
  })

  it("every title has an SVG tile", () => {
    for (const def of catalogue) {
      const svg = gameArt(def)
      expect(svg.startsWith("<svg")).toBe(true)
      expect(svg).toContain(def.name.replace(/'/g, "&apos;"))
    }
  })
})
