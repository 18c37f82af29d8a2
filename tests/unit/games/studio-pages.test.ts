/**
 * The studio's game pages and art for every title: one HTML document with the nonce on its only
 * script and style, the exact RTP in the info panel, the kind's controls; the SVG tile escapes names.
 */
import { describe, expect, it } from "vitest"
import { gameArt } from "../../../providers/game-studio/art.ts"
import { publishedList } from "../../../providers/game-studio/catalogue.ts"
import { gamePage, notFoundPage, pageCsp } from "../../../providers/game-studio/pages.ts"
import type { SessionRow } from "../../../providers/game-studio/Studio.ts"
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
  autoplay: true,
  turbo: true,
  minRoundMs: 0,
})

describe("studio pages", () => {
  it("every title renders one page with nonce'd script and style, its RTP and the balance message", () => {
    for (const def of catalogue) {
      const html = gamePage("NONCE", session(def.id), def)
      expect(html.match(/<script nonce="NONCE">/g)).toHaveLength(1)
      expect(html.match(/<style nonce="NONCE">/g)).toHaveLength(1)
      // Multiplayer crash: the return of its default 2.00× cash-out (services/games/crash-chain.ts).
      expect(html).toContain(`RTP <strong>${def.kind === "crash" ? "98.51" : rtpPercent(def)} %</strong>`)
      expect(html).toContain('"studio:balance"')
      expect(html).toContain(`data-kind="${def.kind}"`)
      expect(html).not.toMatch(/<script(?![^>]*(nonce="NONCE"|type="application\/json"))/)
    }
  })

  it("the games list publishes crash titles with the live game's return at a 2.00× cash-out, as their page says", () => {
    const list = publishedList("https://studio.example")
    const crash = list.games.filter((g) => g.kind === "crash")
    expect(crash.length).toBeGreaterThan(0)
    for (const g of crash) expect(g.rtp).toBe("98.51")
    // The other kinds keep their exact figure, e.g. European roulette's 36/37.
    expect(list.games.find((g) => g.id === "european-roulette")?.rtp).toBe("97.29")
  })

  it("every page's one script is valid JavaScript and carries only its own kind's module", () => {
    for (const def of catalogue) {
      const html = gamePage("NONCE", session(def.id), def)
      const body = /<script nonce="NONCE">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ""
      expect(() => new Function(body)).not.toThrow()
      expect(body.includes("wheelRotor")).toBe(def.kind === "roulette")
      expect(body.includes("stripAt")).toBe(def.kind === "slot")
    }
  })

  it("the CSP allows only the nonce and the casino origins as frame ancestors", () => {
    const csp = pageCsp("abc", ["https://casino.example/path", "http://localhost:8080"])
    expect(csp).toContain("script-src 'nonce-abc'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("form-action 'none'")
    expect(csp).toContain("frame-ancestors 'self' https://casino.example http://localhost:8080;")
    expect(pageCsp("abc", [])).toContain("frame-ancestors 'self';")
  })

  it("a sandbox studio marks its pages 'Sandbox' in the header's flow, a live one does not", () => {
    const def = catalogue[0]
    if (def === undefined) throw new Error("no title")
    const marked = gamePage("NONCE", session(def.id), def, { sandbox: true })
    // One mark, on the brand's line of the header: above the board and the controls, never over them.
    expect(marked.match(/class="sandbox-mark"/g)).toHaveLength(1)
    const header = /<header>[\s\S]*?<\/header>/.exec(marked)?.[0] ?? ""
    expect(header).toContain(
      '<span class="sandbox-mark" title="This game studio is a test environment">Sandbox</span>',
    )
    expect(marked).not.toMatch(/\.sandbox-mark\{[^}]*position:(fixed|absolute)/)
    expect(gamePage("NONCE", session(def.id), def, { sandbox: false })).not.toContain('sandbox-mark"')
    expect(notFoundPage("NONCE", { sandbox: true })).toContain(">Sandbox</span>")
    expect(notFoundPage("NONCE", { sandbox: false })).not.toContain(">Sandbox</span>")
  })

  it("every title has an SVG tile", () => {
    for (const def of catalogue) {
      const svg = gameArt(def)
      expect(svg.startsWith("<svg")).toBe(true)
      expect(svg).toContain(def.name.replace(/'/g, "&apos;"))
    }
  })
})
