/**
 * A round's fairness proof from a player's page in the back office
 * (`GET /api/backoffice/v1/players/:id/rounds/:round/fairness`), on PostgreSQL, with the real
 * studio beside the casino: a player plays a dice round; a support agent asks for its proof and gets
 * exactly what the player's own proof endpoint answers, and what the two databases hold (the
 * casino's `game_rounds`, the studio's round and seed) — the server seed null while it is active,
 * the revealed one after the player rotates it. Another player's round, an unknown player or round:
 * 404; a malformed id: 400; nothing audited.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { createHash, randomUUID } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { StudioHandle } from "../../compose/parties/studio.ts"
import { newPlayer } from "./account-support.ts"
import { BO, createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { describeOn, queryThrough, type TestServer } from "./harness.ts"
import { userIdOf } from "./money-support.ts"
import { fundedSession, playRound, studioPost, studioUrlOf } from "./studio-round-support.ts"
import type { Browser } from "./users-support.ts"

const PROFILE = "/profile-service/api/v1"
const PASSWORD = "correct horse battery staple"

describeOn("postgres", "back-office round fairness", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  let studioUrl = ""
  let support: Browser

  beforeAll(async () => {
    server = await start({ captchaEnabled: false, backofficeClock: clock.read }, { parties: ["studio"] })
    studioUrl = studioUrlOf(server)
    await createOperator(server, { email: "support@fairness.example", role: "support", password: PASSWORD })
    support = await signIn(server, clock, "support@fairness.example", PASSWORD)
  }, 120_000)
  afterAll(() => server?.close())

  /** The studio's own storage: what it committed to and played. */
  const studioQuery = <T>(text: string, params: ReadonlyArray<unknown>) => {
    const studio = server.parties.get("studio")?.handle as StudioHandle | undefined
    if (studio === undefined) throw new Error("no studio")
    return queryThrough(studio.server.run)<T>(text, params)
  }

  const auditRows = async () =>
    (await server.query<{ n: number }>("SELECT count(*)::int AS n FROM operator_audit"))[0]?.n ?? 0

  it("answers the player's own proof, as both databases recorded the round, the seed once revealed", {
    timeout: 60_000,
  }, async () => {
    const player = await newPlayer(server, "bo-fair")
    const { playerId, session } = await fundedSession(server, player, "dice-classic")
    await studioPost(studioUrl, `/studio/api/session/${session}/seed`, { clientSeed: "checked-by-support" })
    const round = await playRound(studioUrl, session, { target: 40, direction: "over" })
    const path = `${BO}/players/${playerId}/rounds/${round.roundId}/fairness`
    const audited = await auditRows()

    const asked = await support.get(path)
    expect(asked.status, JSON.stringify(asked.body)).toBe(200)
    const own = await player.browser.get(`${PROFILE}/history/bet/fairness?round=${round.roundId}`)
    expect(own.status).toBe(200)
    expect(asked.body).toEqual(own.body)

    const [casino] = await server.query<Record<string, string>>(
      `SELECT round_id, game_id, currency, bet_total::text AS bet, win_total::text AS win
       FROM game_rounds WHERE user_id = $1`,
      [playerId],
    )
    const [studio] = await studioQuery<{
      client_seed: string
      nonce: number
      options: unknown
      hash: string
      server_seed: string
    }>(
      `SELECT r.client_seed, r.nonce::int AS nonce, r.options, s.hash, s.server_seed
       FROM studio_rounds r JOIN studio_seeds s ON s.id = r.seed_id WHERE r.id = $1`,
      [round.roundId],
    )
    expect(asked.body).toEqual({
      roundId: casino?.round_id,
      gameId: casino?.game_id,
      gameName: expect.any(String),
      kind: "dice",
      options: studio?.options,
      clientSeed: "checked-by-support",
      nonce: studio?.nonce,
      serverSeedHash: studio?.hash,
      // The seed is still the player's active one: secret.
      serverSeed: null,
      currency: "EUR",
      bet: "100",
      win: casino?.win,
      roundNumber: 1,
      at: expect.any(String),
    })
    expect(studio?.client_seed).toBe("checked-by-support")
    expect(casino?.bet).toBe("100")

    // The player rotates: the committed seed is revealed, and the back office shows it at once.
    const rotated = await studioPost(studioUrl, `/studio/api/session/${session}/rotate`)
    expect(rotated.status).toBe(200)
    const again = await support.get(path)
    expect(again.status).toBe(200)
    const revealed = (again.body as { serverSeed: string | null }).serverSeed
    expect(revealed).toBe(studio?.server_seed)
    expect(
      createHash("sha256")
        .update(revealed ?? "")
        .digest("hex"),
    ).toBe(studio?.hash)
    expect(again.body).toEqual(
      (await player.browser.get(`${PROFILE}/history/bet/fairness?round=${round.roundId}`)).body,
    )
    // Reads: nothing written to the audit.
    expect(await auditRows()).toBe(audited)
  })

  it("404 for another player's round, an unknown player or round; 400 for a malformed id", {
    timeout: 60_000,
  }, async () => {
    const owner = await newPlayer(server, "bo-fair-owner")
    const { playerId: ownerId, session } = await fundedSession(server, owner, "dice-classic")
    const round = await playRound(studioUrl, session, { target: 50, direction: "under" })
    const other = await newPlayer(server, "bo-fair-other")
    const otherId = await userIdOf(server, other.email)
    const audited = await auditRows()

    const theirs = await support.get(`${BO}/players/${otherId}/rounds/${round.roundId}/fairness`)
    expect(theirs.status).toBe(404)
    expect(theirs.body).toEqual({
      _tag: "RoundNotFound",
      message: "This player has no round with this id.",
      roundId: round.roundId,
    })
    const unknownRound = await support.get(`${BO}/players/${ownerId}/rounds/no-such-round/fairness`)
    expect(unknownRound.status).toBe(404)
    expect((unknownRound.body as { _tag: string })._tag).toBe("RoundNotFound")
    const nobody = await support.get(`${BO}/players/${randomUUID()}/rounds/${round.roundId}/fairness`)
    expect(nobody.status).toBe(404)
    expect((nobody.body as { _tag: string })._tag).toBe("PlayerNotFound")

    // The player's id in capitals is the same player (as on the page); the round id is exact.
    const upper = await support.get(`${BO}/players/${ownerId.toUpperCase()}/rounds/${round.roundId}/fairness`)
    expect(upper.status).toBe(200)
    for (const bad of [
      `${BO}/players/not-a-uuid/rounds/${round.roundId}/fairness`,
      `${BO}/players/${ownerId}/rounds/with%20space/fairness`,
      `${BO}/players/${ownerId}/rounds/%7F/fairness`,
    ]) {
      const reply = await support.get(bad)
      expect(reply.status, bad).toBe(400)
    }
    expect(await auditRows()).toBe(audited)
  })
})
