/**
 * The mines page's own flow (providers/game-studio/pages/mines.ts over pages/core.ts), run on a
 * small stand-in for the DOM and a studio that answers from a script: Bet starts a round, a tile is
 * one call, the play button offers the cash-out in money, the end shows the server's mines and says
 * the result in money words, and a reload resumes the round in play. (Chromium plays the same flow
 * against the real studio in tests/e2e/games-kinds.spec.ts.)
 */
import { describe, expect, it } from "vitest"
import { gamePage } from "../../../providers/game-studio/pages.ts"
import type { SessionRow } from "../../../providers/game-studio/Studio.ts"
import { gameById } from "../../../services/games/catalogue.ts"

/** Just enough of an element for the page's script. */
class Node {
  readonly attributes = new Map<string, string>()
  readonly children: Array<Node> = []
  readonly listeners = new Map<string, Array<(e: { preventDefault: () => void }) => void>>()
  readonly style: Record<string, string> = {}
  readonly classes = new Set<string>()
  readonly classList = {
    add: (...names: Array<string>) => {
      for (const n of names) this.classes.add(n)
    },
    remove: (...names: Array<string>) => {
      for (const n of names) this.classes.delete(n)
    },
    contains: (name: string) => this.classes.has(name),
  }
  text = ""
  disabled = false
  hidden = false
  checked = false
  selected = false
  private ownValue = ""
  content: { firstChild: Node } | undefined
  readonly tagName: string
  private readonly doc: FakeDocument
  constructor(tagName: string, doc: FakeDocument) {
    this.tagName = tagName
    this.doc = doc
  }
  setAttribute(name: string, value: string) {
    this.attributes.set(name, String(value))
    if (name === "id") this.doc.ids.set(String(value), this)
    if (name === "class") this.className = String(value)
  }
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null
  }
  removeAttribute(name: string) {
    this.attributes.delete(name)
  }
  set className(value: string) {
    this.classes.clear()
    for (const c of value.split(/\s+/).filter(Boolean)) this.classes.add(c)
  }
  get className() {
    return [...this.classes].join(" ")
  }
  appendChild(child: Node) {
    this.children.push(child)
    return child
  }
  set textContent(value: string) {
    this.children.length = 0
    this.text = value
  }
  get textContent(): string {
    return this.text + this.children.map((c) => c.textContent).join("")
  }
  /** A template's markup: the page reads back one element (its art). */
  set innerHTML(_markup: string) {
    this.content = { firstChild: new Node("svg", this.doc) }
  }
  addEventListener(type: string, f: (e: { preventDefault: () => void }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), f])
  }
  dispatch(type: string) {
    for (const f of this.listeners.get(type) ?? []) f({ preventDefault: () => undefined })
  }
  focus() {}
  /** A select's value is its selected option's (the first without one). */
  get value(): string {
    if (this.tagName !== "select") return this.ownValue
    const option = this.children.find((c) => c.selected) ?? this.children[0]
    return option?.getAttribute("value") ?? ""
  }
  set value(v: string) {
    this.ownValue = v
  }
}

class FakeDocument {
  readonly ids = new Map<string, Node>()
  createElement(tag: string) {
    return new Node(tag, this)
  }
  createElementNS(_ns: string, tag: string) {
    return new Node(tag, this)
  }
  getElementById(id: string) {
    return this.ids.get(id) ?? null
  }
}

const session: SessionRow = {
  id: "s".repeat(32),
  casinoToken: null,
  playerId: null,
  nickname: null,
  currency: "EUR",
  gameId: "mines",
  demo: true,
  demoBalance: "100000",
  lang: "en",
  platform: "desktop",
  lobbyUrl: "http://casino.example/",
  expiresAt: new Date(),
  autoplay: true,
  turbo: true,
  minRoundMs: 0,
}

interface Call {
  readonly method: string
  readonly path: string
  readonly body: unknown
}

/** The page's script running on the stand-in, the studio answering `answers` in order per path. */
const openPage = (answers: Record<string, Array<unknown>>) => {
  const def = gameById("mines")
  if (def === undefined) throw new Error("no mines")
  const html = gamePage("N", session, def)
  const script = /<script nonce="N">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ""
  const cfg = /<script type="application\/json" id="cfg">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ""
  const doc = new FakeDocument()
  // The page's own elements (pages.ts), by id.
  for (const id of [
    "board",
    "controls",
    "result",
    "play",
    "balance",
    "hash",
    "nonce",
    "client",
    "sound",
    "free",
    "betField",
    "freeBet",
    "roundsBody",
    "roundsTable",
    "noRounds",
    "verifyLink",
    "verifyHint",
    "form",
    "saveSeed",
    "rotate",
    "revealed",
    "bet",
  ])
    doc.createElement("div").setAttribute("id", id)
  doc.createElement("script").setAttribute("id", "cfg")
  const cfgNode = doc.getElementById("cfg")
  if (cfgNode !== null) cfgNode.textContent = cfg
  const bet = doc.getElementById("bet")
  if (bet !== null) bet.value = "1.00"
  const calls: Array<Call> = []
  const fetch = async (url: string, init: { method: string; body?: string }) => {
    const path = url.replace(`/studio/api/session/${session.id}`, "")
    calls.push({
      method: init.method,
      path,
      body: init.body === undefined ? undefined : JSON.parse(init.body),
    })
    const queue = answers[`${init.method} ${path}`] ?? []
    const next = queue.shift()
    const refused = typeof next === "object" && next !== null && "error" in next
    return { ok: !refused, status: refused ? 409 : 200, json: async () => next }
  }
  const window = {
    matchMedia: () => ({ matches: true }),
    get parent() {
      return window
    },
  }
  const localStorage = { getItem: () => null, setItem: () => undefined }
  new Function("document", "window", "fetch", "localStorage", "requestAnimationFrame", script)(
    doc,
    window,
    fetch,
    localStorage,
    (f: (t: number) => void) => setTimeout(() => f(Date.now()), 0),
  )
  const byId = (id: string): Node => {
    const node = doc.getElementById(id)
    if (node === null) throw new Error(`no #${id}`)
    return node
  }
  const board = byId("board")
  const grid = board.children.find((c) => c.classList.contains("mines"))
  if (grid === undefined) throw new Error("no field")
  return {
    calls,
    byId,
    tile: (i: number) => grid.children[i] ?? new Node("none", doc),
    ladder: () => board.children.find((c) => c.tagName === "ol")?.children.map((li) => li.textContent) ?? [],
    state: () => board.getAttribute("data-state"),
    submit: () => byId("form").dispatch("submit"),
  }
}

/** Lets the page's promises and zero timers run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

const state = (minesRound: unknown) => ({
  balance: "100000",
  seed: { serverSeedHash: "h", clientSeed: "c", nonce: 0 },
  freeRounds: null,
  minesRound,
})

const view = (over: Record<string, unknown>) => ({
  _tag: "MinesRound",
  roundId: "0b5e2a4e-0000-4000-8000-000000000001",
  gameId: "mines",
  gameRound: 1,
  nonce: 0,
  clientSeed: "c",
  serverSeedHash: "h",
  currency: "EUR",
  bet: "100",
  mines: 3,
  picks: [],
  state: "playing",
  tile: null,
  multiplier: null,
  cashout: null,
  next: "11250",
  win: null,
  detail: null,
  jackpotHit: false,
  jackpotAmount: null,
  balance: null,
  freeRound: false,
  freeRounds: null,
  ...over,
})

describe("the mines page, tile by tile", () => {
  it("Bet starts a round, a gem offers its cash-out in money, the cash-out settles the board with the server's mines", async () => {
    const page = openPage({
      "GET ": [state(null)],
      "POST /mines/start": [view({ balance: "99900" })],
      "POST /mines/open": [
        view({
          picks: [0],
          tile: { index: 0, safe: true },
          multiplier: "11250",
          cashout: "112",
          next: "12857",
        }),
      ],
      "POST /mines/cashout": [
        view({
          picks: [0],
          state: "cashed",
          multiplier: "11250",
          win: "112",
          balance: "100012",
          detail: { mines: [11, 16, 23], picks: [0], opened: 1, hit: null, win: true, payout: "11250" },
        }),
      ],
    })
    await settle()
    expect(page.state()).toBe("idle")
    expect(page.byId("play").textContent).toBe("Bet")
    expect(page.tile(0).getAttribute("aria-disabled")).toBe("true")
    // 3 mines: 0.99 × 25/22 = 1.125 after one gem, 0.99 × 300/231 = 1.2857… after two (floored to 0.01×).
    expect(page.ladder().slice(0, 2)).toEqual(["1.12×1 tile", "1.28×2 tiles"])

    page.submit()
    await settle()
    expect(page.calls.at(-1)).toEqual({
      method: "POST",
      path: "/mines/start",
      body: { bet: "100", mines: 3, freeRound: false },
    })
    expect(page.state()).toBe("running")
    expect(page.byId("balance").textContent).toBe("999.00 EUR")
    expect(page.byId("play").textContent).toBe("Cash out")
    expect(page.byId("play").disabled).toBe(true)
    expect(page.byId("bet").disabled).toBe(true)
    expect(page.tile(0).getAttribute("aria-disabled")).toBe("false")

    page.tile(0).dispatch("click")
    await settle()
    expect(page.calls.at(-1)?.body).toEqual({ roundId: "0b5e2a4e-0000-4000-8000-000000000001", tile: 0 })
    expect(page.tile(0).getAttribute("aria-pressed")).toBe("true")
    expect(page.tile(0).getAttribute("aria-label")).toBe("Tile 1-1, gem")
    expect(page.tile(0).getAttribute("aria-disabled")).toBe("true")
    expect(page.byId("play").textContent).toBe("Cash out 1.12 EUR (1.12×)")
    expect(page.byId("play").disabled).toBe(false)
    expect(page.byId("result").textContent).toBe(
      "Tile 1-1: a gem. Cash out 1.12 EUR now, or open another tile.",
    )

    page.submit()
    await settle()
    expect(page.calls.at(-1)?.path).toBe("/mines/cashout")
    expect(page.state()).toBe("settled")
    expect(page.byId("board").getAttribute("data-mines")).toBe("11,16,23")
    expect(page.tile(11).getAttribute("aria-label")).toBe("Tile 3-2, mine")
    expect(page.byId("result").textContent).toBe(
      "Cashed out after 1 safe tile — Won 1.12 EUR (+0.12) · 1.12×.",
    )
    expect(page.byId("balance").textContent).toBe("1000.12 EUR")
    expect(page.byId("play").textContent).toBe("Bet")
    expect(page.byId("play").disabled).toBe(false)
    expect(page.byId("roundsBody").children).toHaveLength(1)
    expect(page.byId("roundsBody").textContent).toContain("Verify")
  })

  it("a mine: the round is lost in money words; a reload resumes a round in play with its gems", async () => {
    const page = openPage({
      "GET ": [state(view({ picks: [0, 24], multiplier: "12857", cashout: "128", next: "14785" }))],
      "POST /mines/open": [
        view({
          picks: [0, 24, 16],
          tile: { index: 16, safe: false },
          state: "lost",
          multiplier: "0",
          win: "0",
          balance: "99900",
          detail: { mines: [6, 16, 21], picks: [0, 24, 16], opened: 2, hit: 16, win: false, payout: "14785" },
        }),
      ],
    })
    await settle()
    expect(page.state()).toBe("running")
    expect(page.tile(24).getAttribute("aria-pressed")).toBe("true")
    expect(page.byId("play").textContent).toBe("Cash out 1.28 EUR (1.28×)")
    expect(page.byId("result").textContent).toBe("Your round is still open: open a tile or cash out.")

    page.tile(16).dispatch("click")
    await settle()
    expect(page.state()).toBe("settled")
    expect(page.tile(16).getAttribute("aria-label")).toBe("Tile 4-2, mine")
    expect(page.tile(16).classList.contains("hit")).toBe(true)
    expect(page.byId("board").getAttribute("data-mines")).toBe("6,16,21")
    expect(page.byId("result").textContent).toBe("Mine hit after 2 safe tiles — Lost 1.00 EUR.")
  })

  it("a refused step says why and reloads the state: a round that ended elsewhere leaves the page idle", async () => {
    const page = openPage({
      "GET ": [state(view({ picks: [3], multiplier: "11250", cashout: "112" })), state(null)],
      "POST /mines/cashout": [
        { error: "ROUND_OVER", message: "This round is over. Press Bet to start a new one." },
      ],
    })
    await settle()
    page.submit()
    await settle()
    expect(page.byId("result").textContent).toBe("This round is over. Press Bet to start a new one.")
    expect(page.state()).toBe("idle")
    expect(page.byId("play").textContent).toBe("Bet")
  })
})
