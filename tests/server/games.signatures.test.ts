/**
 * Signatures of the seamless wallet (docs/game-wallet-protocol.md, "Signatures") on both
 * backends: a forged, a stale and an exactly replayed signature are refused with 401 — replays of
 * every operation, of a refused call too, and concurrent ones, with nothing booked twice — while a
 * retry of the same transaction under a fresh signature answers the first answer. The studio's own
 * wallet client signs every attempt anew, so its retries go through. On PostgreSQL a second server
 * on the same database refuses a signature the first one accepted.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { randomUUID } from "node:crypto"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { callWallet } from "../../providers/game-studio/wallet.ts"
import { makeServer, type RunningServer } from "../../server/app.ts"
import { WalletRepo } from "../../server/games/WalletRepo.ts"
import type { Game, GamesAndCategories } from "../../services/game-service.ts"
import {
  betBody,
  CASINO_KEY,
  credit,
  type FakeGameProvider,
  fundedPlayer,
  GAMES,
  sign,
  startFakeGameProvider,
  WALLET_SECRET,
  walletCall,
} from "./games-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { balanceOf, ledgerReport } from "./money-support.ts"
import { Browser } from "./users-support.ts"

const now = () => Math.floor(Date.now() / 1000)
const replayed = { status: 401, body: { error: "REPLAYED_SIGNATURE" } }
const invalid = { status: 401, body: { error: "INVALID_SIGNATURE" } }

describeOn("postgres", "games: wallet signatures (forged, stale, replayed)", ({ backend, start }) => {
  let server: TestServer
  let fake: FakeGameProvider
  let slot: Game
  beforeAll(async () => {
    fake = await startFakeGameProvider()
    server = await start({ captchaEnabled: false }, { env: { ...fake.env, RATE_LIMIT_SCALE: "100" } })
    const lobby = (await new Browser(server).get(`${GAMES}/games-and-categories/EUR`))
      .body as GamesAndCategories
    const s = lobby.games.find((g) => g.kind === "slot" && !g.jackpot)
    if (s === undefined) throw new Error("no slot in the catalogue")
    slot = s
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  const funded = (tag: string, cents: bigint) => fundedPlayer(server, fake, tag, cents, slot)
  const betOf = (p: { userId: string; token: string }, amount: string) => betBody(slot, p, amount)
  /**
   * One signature for these exact bytes, sent as many times as the test likes; a minute old, so
   * `walletCall`'s own fresh signatures (at the current second) are always other ones.
   */
  const signed = (body: unknown, t = now() - 60) => {
    const raw = JSON.stringify(body)
    return { raw, signature: sign(WALLET_SECRET, t, raw) }
  }
  const send = (op: string, s: { raw: string; signature: string }) =>
    walletCall(server.url, op, s.raw, { signature: s.signature })

  it("refuses a forged signature and a stale one (either side of the tolerance) with 401", async () => {
    const p = await funded("sig-forged", 1_000n)
    const bet = betOf(p, "100")
    expect(await walletCall(server.url, "bet", bet, { secret: CASINO_KEY })).toEqual(invalid)
    expect(await walletCall(server.url, "bet", bet, { timestamp: now() - 301 })).toEqual(invalid)
    expect(await walletCall(server.url, "bet", bet, { timestamp: now() + 301 })).toEqual(invalid)
    const raw = JSON.stringify(bet)
    // A valid signature of other bytes, or of these bytes at another time, is no signature of them.
    expect(
      await walletCall(server.url, "bet", raw, { signature: sign(WALLET_SECRET, now(), `${raw} `) }),
    ).toEqual(invalid)
    const t = now()
    const other = sign(WALLET_SECRET, t, raw).replace(`t=${t}`, `t=${t - 1}`)
    expect(await walletCall(server.url, "bet", raw, { signature: other })).toEqual(invalid)
    expect(await walletCall(server.url, "bet", raw, { signature: "" })).toEqual(invalid)
    expect(await balanceOf(server, p.userId)).toBe("1000")
    // Nothing of these calls was kept.
    const rows = await server.query("SELECT 1 FROM game_transactions WHERE transaction_id = $1", [
      bet.transactionId,
    ])
    expect(rows).toEqual([])
  })

  it("refuses an exact replay with 401 and answers a retry under a fresh signature with the first answer", async () => {
    const p = await funded("sig-replay", 1_000n)
    const bet = betOf(p, "300")
    const first = signed(bet)
    const placed = await send("bet", first)
    expect(placed).toEqual({
      status: 200,
      body: { balance: "700", currency: "EUR", transactionId: bet.transactionId },
    })
    expect(await send("bet", first)).toEqual(replayed)
    // Another bet moves the balance; the retry of the first still answers the balance of then.
    expect((await walletCall(server.url, "bet", betOf(p, "100"))).body).toMatchObject({ balance: "600" })
    expect(await walletCall(server.url, "bet", bet, { timestamp: now() - 5 })).toEqual(placed)
    expect(await send("bet", first)).toEqual(replayed)
    expect(await balanceOf(server, p.userId)).toBe("600")

    const win = {
      sessionToken: p.token,
      playerId: p.userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: bet.roundId,
      gameId: slot.launchId,
      amount: "450",
      roundClosed: true,
    }
    const winSigned = signed(win)
    const paid = await send("win", winSigned)
    expect(paid).toEqual({
      status: 200,
      body: { balance: "1050", currency: "EUR", transactionId: win.transactionId },
    })
    expect(await send("win", winSigned)).toEqual(replayed)
    expect(await walletCall(server.url, "win", win)).toEqual(paid)

    const other = betOf(p, "50")
    expect((await walletCall(server.url, "bet", other)).status).toBe(200)
    const rollback = {
      sessionToken: p.token,
      playerId: p.userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: other.roundId,
      refTransactionId: other.transactionId,
    }
    const rollbackSigned = signed(rollback)
    const undone = await send("rollback", rollbackSigned)
    expect(undone).toEqual({
      status: 200,
      body: { balance: "1050", currency: "EUR", transactionId: rollback.transactionId },
    })
    expect(await send("rollback", rollbackSigned)).toEqual(replayed)
    expect(await walletCall(server.url, "rollback", rollback)).toEqual(undone)

    const balanceSigned = signed({ sessionToken: p.token, playerId: p.userId, currency: "EUR" })
    expect(await send("balance", balanceSigned)).toEqual({
      status: 200,
      body: { balance: "1050", currency: "EUR" },
    })
    expect(await send("balance", balanceSigned)).toEqual(replayed)

    expect(await balanceOf(server, p.userId)).toBe("1050")
    const postings = await server.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM ledger_transactions WHERE idempotency_key = ANY($1)",
      [[`game:studio:${bet.transactionId}`, `game:studio:${win.transactionId}`]],
    )
    expect(postings[0]?.n).toBe("2")
  })

  it("refuses the replay of a refused call, which a fresh signature gets decided anew", async () => {
    const p = await funded("sig-refused", 100n)
    const bet = betOf(p, "500")
    const s = signed(bet)
    expect(await send("bet", s)).toEqual({
      status: 402,
      body: { error: "INSUFFICIENT_FUNDS", balance: "100" },
    })
    await credit(server, p.userId, 1_000n)
    // The same bytes, replayed once the player has money: refused, nothing booked.
    expect(await send("bet", s)).toEqual(replayed)
    expect(await balanceOf(server, p.userId)).toBe("1100")
    // The provider itself re-sending the bet signs it anew: decided again, now accepted.
    expect((await walletCall(server.url, "bet", bet)).body).toMatchObject({ balance: "600" })
  })

  it("takes an exact signature once when it arrives many times at once", async () => {
    const p = await funded("sig-race", 1_000n)
    const s = signed(betOf(p, "100"))
    const replies = await Promise.all(Array.from({ length: 6 }, () => send("bet", s)))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    expect(replies.filter((r) => r.status === 401 && r.body.error === "REPLAYED_SIGNATURE")).toHaveLength(5)
    expect(await balanceOf(server, p.userId)).toBe("900")
  })

  it("lets the studio's wallet client retry: every attempt is signed anew", async () => {
    const p = await funded("sig-studio", 1_000n)
    const bet = JSON.stringify(betOf(p, "200"))
    const walletUrl = `${server.url}/api/games/wallet/studio`
    // Sent twice within the same second, as a quick retry would be: both answered, booked once.
    const [a, b] = await Promise.all([
      Effect.runPromise(callWallet(walletUrl, WALLET_SECRET, "bet", bet, 5_000)),
      Effect.runPromise(callWallet(walletUrl, WALLET_SECRET, "bet", bet, 5_000)),
    ])
    expect(a).toMatchObject({ _tag: "Ok", body: { balance: "800" } })
    expect(b).toEqual(a)
    const balance = JSON.stringify({ sessionToken: p.token, playerId: p.userId, currency: "EUR" })
    for (let i = 0; i < 3; i++)
      expect(
        await Effect.runPromise(callWallet(walletUrl, WALLET_SECRET, "balance", balance, 5_000)),
      ).toMatchObject({
        _tag: "Ok",
        body: { balance: "800" },
      })
    expect(await balanceOf(server, p.userId)).toBe("800")
  })

  it("keeps the accepted signatures only as long as a replay of them could pass", async () => {
    const [kept] = await server.query<{ n: string; oldest: string }>(
      "SELECT count(*)::text AS n, min(signed_at)::text AS oldest FROM game_wallet_signatures",
    )
    expect(Number(kept?.n)).toBeGreaterThan(10)
    expect(Number(kept?.oldest)).toBeGreaterThan(now() - 600)
    await server.query(
      "INSERT INTO game_wallet_signatures (signature, signed_at) VALUES (decode(repeat('07', 32), 'hex'), $1)",
      [now() - 3_600],
    )
    const pruned = await server.run(
      Effect.flatMap(WalletRepo, (repo) => repo.pruneSignatures(now() - 360)).pipe(
        Effect.provide(WalletRepo.layer),
      ),
    )
    expect(pruned).toBe(1)
    const [left] = await server.query<{ n: string }>("SELECT count(*)::text AS n FROM game_wallet_signatures")
    expect(left?.n).toBe(kept?.n)
  })

  it.skipIf(backend !== "postgres")("refuses on a second server a signature the first one took", async () => {
    const dir = await mkdtemp(join(tmpdir(), "casino-test-sig-b-"))
    let other: RunningServer | undefined
    try {
      other = await makeServer({ ...server.config, port: 0, dataDir: dir })
      const p = await funded("sig-two-servers", 1_000n)
      const s = signed(betOf(p, "100"))
      expect((await send("bet", s)).status).toBe(200)
      expect(await walletCall(other.url, "bet", s.raw, { signature: s.signature })).toEqual(replayed)
      expect(await balanceOf(server, p.userId)).toBe("900")
    } finally {
      await other?.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("leaves the ledger clean", async () => {
    expect((await ledgerReport(server)).clean).toBe(true)
  })
})
