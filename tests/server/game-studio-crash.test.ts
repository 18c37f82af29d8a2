/**
 * Multiplayer crash in the studio (docs/game-studio.md, "Multiplayer crash"), alone against a fake
 * casino wallet, on PostgreSQL: three players bet in one game; one cashes out by hand while
 * it runs, one at their auto cash-out, the third rides it to the bust and loses. The wallet sees one
 * signed bet per player and a closing win each (0 for the loss); the events stream delivers the phases;
 * the round's proof recomputes with node:crypto to the same bust and links to the terminating hash.
 *
 * The chain is the test's own (written before the table first opens), so the first game's bust is
 * known to be between 1.50× and 3.00×: the test waits for events, never for time.
 * Backend: PostgreSQL only (`describeOn`): what it checks is the crash game's rounds and cash-outs
 * against the wallet protocol.
 */
import { createHash, createHmac, randomUUID } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import { signBody } from "../../protocols/game-wallet/signature.ts"
import { startStudio as startStudioServer } from "../../providers/game-studio/server.ts"
import {
  keys,
  type StudioTest,
  startFakeCasino,
  startStudio,
  startStudioAlone,
} from "./game-studio-harness.ts"
import { describeOn, queryThrough } from "./harness.ts"

const sha = (text: string) => createHash("sha256").update(text).digest("hex")
const bustOf = (hash: string, salt: string): number => {
  const hex = createHmac("sha256", hash).update(salt).digest("hex")
  if (BigInt(`0x${hex}`) % 101n === 0n) return 100
  const h = BigInt(`0x${hex.slice(0, 13)}`)
  const e = 2n ** 52n
  return Number((100n * e - h) / (e - h))
}

/** A seed whose chain of `length` plays game 1 with a bust in [150, 300], games 2 and 3 under 3.00× (short). */
const pickChain = (salt: string, length: number, min = 150, max = 300) => {
  for (let i = 0; ; i++) {
    const seed = sha(`crash-test-seed-${min}-${i}`)
    const hashes = [seed]
    for (let k = 0; k < length; k++) hashes.push(sha(hashes[hashes.length - 1] ?? ""))
    hashes.reverse()
    const game1 = hashes[1] ?? ""
    const bust = bustOf(game1, salt)
    const short = [2, 3].every((k) => bustOf(hashes[k] ?? "", salt) <= 300)
    if (bust >= min && bust <= max && short) return { seed, terminating: hashes[0] ?? "", game1, bust }
  }
}

interface Event {
  readonly type: string
  readonly [k: string]: unknown
}

/** Reads a table's Server-Sent Events; `next(pred)` resolves with the first matching one (past or future). */
const listen = async (url: string) => {
  const controller = new AbortController()
  const response = await fetch(url, { signal: controller.signal })
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/)
  const seen: Array<Event> = []
  const waiters: Array<{ pred: (e: Event) => boolean; resolve: (e: Event) => void }> = []
  const reader = response.body?.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader?.read()
        if (chunk === undefined || chunk.done) return
        buffer += decoder.decode(chunk.value, { stream: true })
        let end = buffer.indexOf("\n\n")
        while (end >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const data = block.split("\n").find((l) => l.startsWith("data: "))
          if (data !== undefined) {
            const e = JSON.parse(data.slice(6)) as Event
            seen.push(e)
            for (const w of [...waiters])
              if (w.pred(e)) {
                waiters.splice(waiters.indexOf(w), 1)
                w.resolve(e)
              }
          }
          end = buffer.indexOf("\n\n")
        }
      }
    } catch {
      // aborted
    }
  })()
  return {
    seen,
    next: (pred: (e: Event) => boolean) =>
      new Promise<Event>((resolve) => {
        const past = seen.find(pred)
        if (past !== undefined) resolve(past)
        else waiters.push({ pred, resolve })
      }),
    close: () => controller.abort(),
  }
}

describeOn("postgres", "game studio: multiplayer crash", ({ backend }) => {
  let t: StudioTest
  const salt = "crash-test-salt"
  const chain = pickChain(salt, 50)
  beforeAll(async () => {
    t = await startStudio(backend, 1_500, {
      env: { STUDIO_CRASH_BETTING_MS: "1500", STUDIO_CRASH_BUSTED_MS: "300" },
    })
    await t.query(
      `INSERT INTO studio_crash_chains (game_id, seed, salt, length, terminating_hash) VALUES ($1, $2, $3, $4, $5)`,
      ["comet-crash", chain.seed, salt, 50, chain.terminating],
    )
  })
  afterAll(async () => {
    await t?.close()
  })

  const post = (path: string, body?: unknown) =>
    fetch(`${t.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })

  const open = async (playerId: string): Promise<string> => {
    const r = await t.launch({
      sessionToken: `token-${playerId}`,
      playerId,
      nickname: "Someone",
      currency: "EUR",
      gameId: "comet-crash",
      demo: false,
      lang: "en",
      platform: "desktop",
      lobbyUrl: "http://casino.example/",
    })
    expect(r.status).toBe(200)
    const { url } = (await r.json()) as { url: string }
    return url.split("/").pop() ?? ""
  }

  it("three players in one game: a manual cash-out, an auto cash-out, a loss at the bust", async () => {
    const [manual, auto, rider] = [randomUUID(), randomUUID(), randomUUID()]
    for (const p of [manual, auto, rider]) t.casino.balances.set(p, 10_000n)
    const sessions = { manual: await open(manual), auto: await open(auto), rider: await open(rider) }

    // Nothing runs before anyone listens; listening starts game 1 of the test's chain.
    const events = await listen(`${t.url}/studio/api/crash/comet-crash/events`)
    const snapshot = await events.next((e) => e.type === "snapshot")
    expect(snapshot).toMatchObject({
      snapshot: { terminatingHash: chain.terminating, salt, chainLength: 50 },
    })
    const betting = await events.next((e) => e.type === "betting")
    expect(betting.number).toBe(1)

    const bet = async (session: string, body: unknown) => {
      const r = await post(`/studio/api/session/${session}/crash/bet`, body)
      expect(r.status).toBe(200)
      return (await r.json()) as { roundId: string; name: string; balance: string }
    }
    const manualBet = await bet(sessions.manual, { bet: "1000", autoCashout: null })
    const autoBet = await bet(sessions.auto, { bet: "500", autoCashout: 1.2 })
    const riderBet = await bet(sessions.rider, { bet: "300" })
    expect(manualBet.balance).toBe("9000")
    expect(manualBet.name).toMatch(/^Player [0-9A-F]{4}$/)
    expect(new Set([manualBet.name, autoBet.name, riderBet.name]).size).toBe(3)
    // One bet per session per game; a cash-out before the launch is refused.
    expect((await post(`/studio/api/session/${sessions.manual}/crash/bet`, { bet: "100" })).status).toBe(409)
    expect((await post(`/studio/api/session/${sessions.manual}/crash/cashout`)).status).toBe(409)
    // Everyone sees the three bets (pseudonyms only).
    await events.next((e) => e.type === "bet" && (e.player as { name: string }).name === riderBet.name)

    await events.next((e) => e.type === "running" && e.number === 1)
    // Too late to bet now.
    const late = await post(`/studio/api/session/${sessions.rider}/crash/bet`, { bet: "100" })
    expect(late.status).toBe(409)
    expect((await late.json()).error).toBe("BETTING_CLOSED")

    // The auto cash-out at 1.20×, then the manual one just after (still under the bust ≥ 1.50×).
    const autoOut = await events.next(
      (e) => e.type === "cashout" && (e.player as { name: string }).name === autoBet.name,
    )
    expect(autoOut.player).toMatchObject({ cashedOut: 120, win: "600", status: "cashed" })
    const out = await post(`/studio/api/session/${sessions.manual}/crash/cashout`)
    expect(out.status).toBe(200)
    const cashed = (await out.json()) as { cashedOut: number; win: string; balance: string }
    expect(cashed.cashedOut).toBeGreaterThanOrEqual(120)
    expect(cashed.cashedOut).toBeLessThan(chain.bust)
    expect(cashed.win).toBe(((1000n * BigInt(cashed.cashedOut)) / 100n).toString())
    expect(cashed.balance).toBe((9000n + BigInt(cashed.win)).toString())
    expect((await post(`/studio/api/session/${sessions.manual}/crash/cashout`)).status).toBe(409)

    const busted = await events.next((e) => e.type === "busted" && e.number === 1)
    expect(busted).toMatchObject({ bust: chain.bust, hash: chain.game1 })
    const players = busted.players as Array<{ name: string; status: string; win: string | null }>
    expect(players.find((p) => p.name === riderBet.name)).toMatchObject({ status: "lost", win: "0" })
    expect(players.filter((p) => p.status === "cashed")).toHaveLength(2)
    // The next game starts by itself while someone listens.
    await events.next((e) => e.type === "betting" && e.number === 2)
    events.close()

    // The wallet: one signed bet and one closing win per player, with the right amounts.
    const callsOf = (roundId: string) =>
      t.casino.calls.filter((c) => c.body.roundId === roundId).map((c) => [c.op, c.body.amount, c.signed])
    await expect
      .poll(() => callsOf(riderBet.roundId))
      .toEqual([
        ["bet", "300", true],
        ["win", "0", true],
      ])
    expect(callsOf(autoBet.roundId)).toEqual([
      ["bet", "500", true],
      ["win", "600", true],
    ])
    expect(callsOf(manualBet.roundId)).toEqual([
      ["bet", "1000", true],
      ["win", cashed.win, true],
    ])
    expect(
      t.casino.calls.find((c) => c.body.roundId === riderBet.roundId && c.op === "win")?.body,
    ).toMatchObject({
      roundClosed: true,
      gameId: "comet-crash",
      transactionId: `win-${riderBet.roundId}`,
    })
    expect(t.casino.balances.get(rider)).toBe(9_700n)
    expect(t.casino.balances.get(auto)).toBe(10_100n)

    // The round's proof: its hash recomputes to the bust and hashes to the terminating hash.
    const proof = await (await fetch(`${t.url}/studio/api/crash-rounds/${riderBet.roundId}`)).json()
    expect(proof).toMatchObject({ number: 1, bust: chain.bust, salt, terminatingHash: chain.terminating })
    expect(sha(proof.hash)).toBe(chain.terminating)
    expect(bustOf(proof.hash, salt)).toBe(chain.bust)
    const list = await (await fetch(`${t.url}/studio/api/crash/comet-crash/games`)).json()
    expect(list.games[0]).toMatchObject({ number: 1, bust: chain.bust, hash: chain.game1 })

    // The same proof as the page the crash page links to: the hashes shown, the check's script
    // under the page's nonce only; an unknown round is a page saying so.
    const page = await fetch(`${t.url}/studio/crash-rounds/${riderBet.roundId}`)
    expect(page.status).toBe(200)
    const csp = page.headers.get("content-security-policy") ?? ""
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'/)
    expect(csp).toContain("default-src 'none'")
    const html = await page.text()
    expect(html).toContain("Comet Crash — game #1")
    expect(html).toContain(chain.game1)
    expect(html).toContain(chain.terminating)
    const missing = await fetch(`${t.url}/studio/crash-rounds/00000000-0000-4000-8000-000000000000`)
    expect(missing.status).toBe(404)
  })

  it("refusals: insufficient funds come back as the casino said; a demo bets play money", async () => {
    const poor = randomUUID()
    t.casino.balances.set(poor, 50n)
    const session = await open(poor)
    const events = await listen(`${t.url}/studio/api/crash/comet-crash/events`)
    await events.next((e) => e.type === "snapshot")
    const betting = await events.next((e) => e.type === "betting" && (e.number as number) >= 2)
    const r = await post(`/studio/api/session/${session}/crash/bet`, { bet: "100" })
    expect(r.status).toBe(402)
    expect(await r.json()).toMatchObject({ error: "INSUFFICIENT_FUNDS" })
    const demo = await t.launch({
      currency: "EUR",
      gameId: "comet-crash",
      demo: true,
      lang: "en",
      platform: "desktop",
    })
    const demoId = ((await demo.json()) as { url: string }).url.split("/").pop() ?? ""
    const calls = t.casino.calls.length
    const d = await post(`/studio/api/session/${demoId}/crash/bet`, { bet: "2500", autoCashout: 1.01 })
    expect(d.status).toBe(200)
    expect((await d.json()).balance).toBe("97500")
    await events.next((e) => e.type === "busted" && e.number === betting.number)
    events.close()
    expect(t.casino.calls.length).toBe(calls)
    // The page of a crash session is the multiplayer one.
    const page = await (await fetch(`${t.url}/studio/play/${session}`)).text()
    expect(page).toContain("Players in this round")
    expect(page).toContain("Terminating hash")
  })

  it("a restart mid-game: cash-outs recorded stand, open bets lose; a game still taking bets is refunded", async () => {
    const casino = await startFakeCasino()
    const alone = await startStudioAlone(backend, casino.url, {
      env: { STUDIO_CRASH_BETTING_MS: "3000", STUDIO_CRASH_BUSTED_MS: "300" },
    })
    let second: Awaited<ReturnType<typeof startStudioServer>> | undefined
    try {
      // Aurora Ascent's game 1 busts at 5.00× or more: the restart surely comes while it runs.
      const long = pickChain(salt, 10, 500, 100_000)
      await alone.query(
        `INSERT INTO studio_crash_chains (game_id, seed, salt, length, terminating_hash) VALUES ($1, $2, $3, $4, $5)`,
        ["aurora-ascent", long.seed, salt, 10, long.terminating],
      )
      const launch = async (playerId: string, gameId: string) => {
        const raw = JSON.stringify({
          sessionToken: `token-${playerId}`,
          playerId,
          currency: "EUR",
          gameId,
          demo: false,
          lang: "en",
          platform: "desktop",
        })
        const r = await fetch(`${alone.server.url}/studio/api/launch`, {
          method: "POST",
          body: raw,
          headers: { "content-type": "application/json", "x-signature": signBody(keys.casinoKey, raw) },
        })
        return (((await r.json()) as { url: string }).url.split("/").pop() ?? "") as string
      }
      const [cashed, open, early] = [randomUUID(), randomUUID(), randomUUID()]
      for (const p of [cashed, open, early]) casino.balances.set(p, 10_000n)
      const sCashed = await launch(cashed, "aurora-ascent")
      const sOpen = await launch(open, "aurora-ascent")
      const sEarly = await launch(early, "rocket-owl")
      const at = (path: string, body?: unknown) =>
        fetch(`${alone.server.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })

      const aurora = await listen(`${alone.server.url}/studio/api/crash/aurora-ascent/events`)
      await aurora.next((e) => e.type === "betting")
      const bet = async (session: string, body: unknown) => {
        const r = await at(`/studio/api/session/${session}/crash/bet`, body)
        expect(r.status).toBe(200)
        return (await r.json()) as { roundId: string }
      }
      const betCashed = await bet(sCashed, { bet: "1000", autoCashout: 1.05 })
      const betOpen = await bet(sOpen, { bet: "700" })
      await aurora.next((e) => e.type === "cashout")
      // Rocket Owl opens now: a bet in its first betting phase, then the studio stops before it runs.
      const owl = await listen(`${alone.server.url}/studio/api/crash/rocket-owl/events`)
      await owl.next((e) => e.type === "betting")
      const betEarly = await bet(sEarly, { bet: "400" })
      aurora.close()
      owl.close()
      await alone.server.close()
      expect(casino.balances.get(early)).toBe(9_600n)

      second = await startStudioServer(alone.config)
      const callsOf = (roundId: string) =>
        casino.calls.filter((c) => c.body.roundId === roundId).map((c) => [c.op, c.body.amount ?? null])
      await expect
        .poll(() => callsOf(betOpen.roundId), { timeout: 15_000 })
        .toEqual([
          ["bet", "700"],
          ["win", "0"],
        ])
      expect(callsOf(betCashed.roundId)).toEqual([
        ["bet", "1000"],
        ["win", "1050"],
      ])
      expect(casino.balances.get(cashed)).toBe(10_050n)
      expect(casino.balances.get(open)).toBe(9_300n)
      await expect.poll(() => casino.balances.get(early), { timeout: 15_000 }).toBe(10_000n)
      expect(callsOf(betEarly.roundId).map(([op]) => op)).toEqual(["bet", "rollback"])
      const games = await queryThrough(second.run)<{ gameId: string; phase: string }>(
        `SELECT game_id AS "gameId", phase FROM studio_crash_games ORDER BY game_id, number`,
      )
      expect(games.every((g) => g.phase === "busted")).toBe(true)
    } finally {
      await second?.close()
      await alone.storage.close()
      await casino.close()
    }
  })
})
