/**
 * A rolled-back bet undoes everything it did, its bonus conversion included (docs/bonuses.md,
 * "Rollbacks"), on both backends, through the signed seamless-wallet protocol. Amounts are
 * literals: a first deposit of 30.00 EUR earns 37.50 EUR of bonus money (125 %), its wagering set
 * to 10.00 EUR here so two 5.00 EUR slot bets (slots weigh 100 %) convert it.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { Game } from "../../services/game-service.ts"
import { gameOfKind, grantFirstDepositBonus, walletOf } from "./bonuses-support.ts"
import {
  betBody,
  type FakeGameProvider,
  fundedPlayer,
  rollbackBody,
  startFakeGameProvider,
  walletCall,
  winBody,
} from "./games-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport } from "./money-support.ts"

interface BonusState {
  readonly status: string
  readonly wagered: string
  readonly wagering_required: string
  readonly amount: string
  readonly ended_amount: string | null
  readonly unrecovered: string | null
  readonly merged_into: string | null
}

describeBackends("bonuses: a rolled-back bet undoes its conversion", ({ start }) => {
  let server: TestServer
  let fake: FakeGameProvider
  let slot: Game
  beforeAll(async () => {
    fake = await startFakeGameProvider()
    server = await start({ captchaEnabled: false }, { env: { ...fake.env, RATE_LIMIT_SCALE: "100" } })
    slot = await gameOfKind(server, "slot")
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  type P = { readonly userId: string; readonly token: string }

  /** A player with `cash` and 37.50 EUR of bonus money whose wagering is 10.00 EUR. */
  const playerWithBonus = async (tag: string, cash: bigint) => {
    const p = await fundedPlayer(server, fake, tag, cash, slot)
    await grantFirstDepositBonus(server, p.userId, "3000")
    await server.query("UPDATE player_bonuses SET wagering_required = 1000 WHERE user_id = $1", [p.userId])
    return p
  }

  const balances = async (userId: string) => {
    const w = await walletOf(server, userId)
    return { cash: w.cash?.toString() ?? "none", bonus: w.bonus?.toString() ?? "none" }
  }

  /** The player's bonuses, oldest first, their fields as text (null stays null). */
  const bonusRows = async (userId: string): Promise<ReadonlyArray<BonusState & { readonly id: string }>> => {
    const rows = await server.query<{ row: Record<string, unknown> | string }>(
      "SELECT to_jsonb(b) AS row FROM player_bonuses b WHERE user_id = $1 ORDER BY created_at",
      [userId],
    )
    return rows.map(({ row }) => {
      const fields = typeof row === "string" ? (JSON.parse(row) as Record<string, unknown>) : row
      const text = (key: string) =>
        fields[key] === null || fields[key] === undefined ? null : String(fields[key])
      return {
        id: String(fields.id),
        status: String(fields.status),
        wagered: String(fields.wagered),
        wagering_required: String(fields.wagering_required),
        amount: String(fields.amount),
        ended_amount: text("ended_amount"),
        unrecovered: text("unrecovered"),
        merged_into: text("merged_into"),
      }
    })
  }

  const bonusOf = async (userId: string): Promise<BonusState> => {
    const [row] = await bonusRows(userId)
    if (row === undefined) throw new Error("no bonus")
    const { id: _id, ...rest } = row
    return rest
  }

  const bet = async (p: P, amount: string) => {
    const body = betBody(slot, p, amount)
    const res = await walletCall(server.url, "bet", body)
    expect(res.status).toBe(200)
    return { ...body, answer: res.body }
  }

  const rollback = (p: P, b: { readonly transactionId: string; readonly roundId: string }) =>
    walletCall(server.url, "rollback", rollbackBody(p, b))

  const win = (p: P, roundId: string, amount: string) =>
    walletCall(server.url, "win", winBody(slot, p, roundId, amount))

  it("the bet that met the wagering, rolled back: the bonus is active again with its money", async () => {
    const p = await playerWithBonus("rb-convert", 0n)
    await bet(p, "500")
    const converting = await bet(p, "500")
    // Met: the 27.50 EUR left converts to cash.
    expect(converting.answer).toMatchObject({ balance: "2750" })
    expect(await balances(p.userId)).toEqual({ cash: "2750", bonus: "0" })
    expect(await bonusOf(p.userId)).toMatchObject({ status: "completed", ended_amount: "2750" })

    const undone = await rollback(p, converting)
    expect(undone).toMatchObject({ status: 200, body: { balance: "3250" } })
    // As if that bet never happened: 37.50 − 5.00 of bonus money, no cash, 5.00 wagered.
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "3250" })
    expect(await bonusOf(p.userId)).toMatchObject({
      status: "active",
      wagered: "500",
      ended_amount: null,
      unrecovered: "0",
    })
    // The same rollback again (a retry) answers the same and undoes nothing more.
    expect((await rollback(p, converting)).status).toBe(200)
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "3250" })

    // The bonus converts again when met again, and can be forfeited later like any other.
    expect((await bet(p, "500")).answer).toMatchObject({ balance: "2750" })
    expect(await balances(p.userId)).toEqual({ cash: "2750", bonus: "0" })
    expect(await bonusOf(p.userId)).toMatchObject({ status: "completed", ended_amount: "2750" })
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("an earlier bet rolled back undoes the conversion only when the rest falls short of the wagering", async () => {
    const p = await playerWithBonus("rb-earlier", 0n)
    const first = await bet(p, "300")
    await bet(p, "500")
    const third = await bet(p, "500")
    // 13.00 wagered of 10.00: 37.50 − 13.00 converts.
    expect(await balances(p.userId)).toEqual({ cash: "2450", bonus: "0" })
    // Without the first bet 10.00 is still wagered: the conversion stands, its 3.00 refunded as cash.
    expect((await rollback(p, first)).body).toMatchObject({ balance: "2750" })
    expect(await balances(p.userId)).toEqual({ cash: "2750", bonus: "0" })
    expect(await bonusOf(p.userId)).toMatchObject({ status: "completed", wagered: "1000" })
    // Without the third only 5.00 is: undone, the refund above taken back with it.
    expect((await rollback(p, third)).body).toMatchObject({ balance: "3250" })
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "3250" })
    expect(await bonusOf(p.userId)).toMatchObject({ status: "active", wagered: "500" })
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("a win paid as cash because the bonus had converted goes back to the bonus with the conversion", async () => {
    const p = await playerWithBonus("rb-win", 0n)
    const first = await bet(p, "500")
    const converting = await bet(p, "500")
    // The first round's win after the conversion: all of it cash.
    expect((await win(p, first.roundId, "1000")).body).toMatchObject({ balance: "3750" })
    expect(await balances(p.userId)).toEqual({ cash: "3750", bonus: "0" })
    await rollback(p, converting)
    // Had the second bet never happened, that win was bonus money (its round was played with it).
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "4250" })
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("cash spent since the conversion: what is there is taken back, the rest recorded", async () => {
    const p = await playerWithBonus("rb-spent", 0n)
    await bet(p, "500")
    const converting = await bet(p, "500")
    expect(await balances(p.userId)).toEqual({ cash: "2750", bonus: "0" })
    // 20.00 of the converted cash lost in bets placed after the conversion (no bonus then).
    for (let i = 0; i < 4; i++) await bet(p, "500")
    expect(await balances(p.userId)).toEqual({ cash: "750", bonus: "0" })
    expect((await rollback(p, converting)).body).toMatchObject({ balance: "1250" })
    // 7.50 taken back (all the cash there is) and the stake's 5.00 to the bonus; 20.00 could not be.
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "1250" })
    expect(await bonusOf(p.userId)).toMatchObject({ status: "active", unrecovered: "2000" })
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("the bonus's expiry passed meanwhile: it ends expired, its money to the house", async () => {
    const p = await playerWithBonus("rb-expired", 100n)
    await bet(p, "500")
    const converting = await bet(p, "500")
    // 1.00 of cash paid the first bet's start; 37.50 − 4.00 − 5.00 converted.
    expect(await balances(p.userId)).toEqual({ cash: "2850", bonus: "0" })
    await server.query(
      "UPDATE player_bonuses SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [p.userId],
    )
    expect((await rollback(p, converting)).body).toMatchObject({ balance: "0" })
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "0" })
    expect(await bonusOf(p.userId)).toMatchObject({ status: "expired", ended_amount: "2850" })
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("another bonus active since: the conversion's money joins it, its wagering grown by what was left", async () => {
    const p = await playerWithBonus("rb-merge", 0n)
    const first = await bet(p, "500")
    const converting = await bet(p, "500")
    expect(await balances(p.userId)).toEqual({ cash: "2750", bonus: "0" })
    // A second bonus (100 % of a 20.00 EUR deposit, 10 × wagering) taken after the conversion.
    const code = `ANYDEP${randomUUID().slice(0, 6).toUpperCase()}`
    const id = code.toLowerCase()
    await server.query(
      `INSERT INTO promotions (id, kind, name, code, max_bonus_eur_cents, wagering_multiple, max_bet_eur_cents, valid_days)
       VALUES ($1, 'deposit_bonus', 'Any deposit', $2, 800000, 10, 500, 30)`,
      [id, code],
    )
    await server.query(
      "INSERT INTO promotion_bands (promotion_id, up_to_eur_cents, percent) VALUES ($1, NULL, 100)",
      [id],
    )
    await grantFirstDepositBonus(server, p.userId, "2000", code)
    expect(await balances(p.userId)).toEqual({ cash: "2750", bonus: "2000" })
    expect((await rollback(p, converting)).body).toMatchObject({ balance: "5250" })
    // 27.50 taken back and the stake's 5.00: 52.50 of bonus money under the second bonus, whose
    // wagering grows by the 5.00 the first still needed.
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "5250" })
    const [earlier, later] = await bonusRows(p.userId)
    expect(earlier).toMatchObject({ status: "completed", merged_into: later?.id })
    expect(later).toMatchObject({ status: "active", wagering_required: "20500", amount: "5250" })
    // A later win of a round the first bonus's money played is bonus money of the second now.
    expect((await win(p, first.roundId, "1000")).body).toMatchObject({ balance: "6250" })
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "6250" })
    expect((await ledgerReport(server)).clean).toBe(true)
  })
})
