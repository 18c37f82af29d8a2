/**
 * A win on a round whose bets were all rolled back (docs/game-wallet-protocol.md, "Seamless
 * wallet"): acknowledged 200 with the balance as it is, nothing paid, the round left rolled back,
 * the call kept as void (so a retry answers the same) — answered alike by the batched settlement
 * (a player without a bonus, batching on) and by the one-call path (batching off; and a player with
 * a bonus, whom the batch hands to it). A round with a bet left still pays its win. Both backends.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
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

describeBackends("games: a win on a rolled-back round", ({ start }) => {
  let fake: FakeGameProvider
  const servers: { batched?: TestServer; single?: TestServer } = {}
  beforeAll(async () => {
    fake = await startFakeGameProvider()
    const env = { ...fake.env, RATE_LIMIT_SCALE: "100" }
    servers.batched = await start({ captchaEnabled: false }, { env })
    servers.single = await start({ captchaEnabled: false, settlementBatching: false }, { env })
  }, 60_000)
  afterAll(async () => {
    await servers.batched?.close()
    await servers.single?.close()
    await fake?.close()
  })

  const cases: ReadonlyArray<{
    readonly path: string
    readonly on: "batched" | "single"
    readonly bonus: boolean
  }> = [
    { path: "the batched settlement", on: "batched", bonus: false },
    { path: "the one-call path (batching off)", on: "single", bonus: false },
    { path: "the one-call path (a player with a bonus)", on: "batched", bonus: true },
  ]

  for (const c of cases)
    describe(c.path, () => {
      const server = () => {
        const s = servers[c.on]
        if (s === undefined) throw new Error("no server")
        return s
      }
      let slot: Game
      beforeAll(async () => {
        slot = await gameOfKind(server(), "slot")
      })

      const player = async (tag: string) => {
        const p = await fundedPlayer(server(), fake, `${tag}-${c.on}-${c.bonus}`, 1_000n, slot)
        // 30.00 EUR earns 37.50 of bonus money; the 3.00 bets below are paid from cash.
        if (c.bonus) await grantFirstDepositBonus(server(), p.userId, "3000")
        return p
      }
      const bonusMoney = c.bonus ? 3750n : 0n
      const rollbackOf = (
        p: { userId: string; token: string },
        b: { transactionId: string; roundId: string },
      ) => walletCall(server().url, "rollback", rollbackBody(p, b))
      const roundOf = async (roundId: string) =>
        (
          await server().query<{ bet_total: string; win_total: string; status: string }>(
            "SELECT bet_total::text, win_total::text, status FROM game_rounds WHERE round_id = $1",
            [roundId],
          )
        )[0]

      it("is acknowledged with the balance as it is, pays nothing, and is kept void", async () => {
        const p = await player("void-win")
        const bet = betBody(slot, p, "300")
        expect((await walletCall(server().url, "bet", bet)).status).toBe(200)
        expect((await rollbackOf(p, bet)).status).toBe(200)
        expect(await roundOf(bet.roundId)).toEqual({ bet_total: "0", win_total: "0", status: "rolled-back" })

        const late = winBody(slot, p, bet.roundId, "900")
        const answered = await walletCall(server().url, "win", late)
        expect(answered).toEqual({
          status: 200,
          body: {
            balance: (1_000n + bonusMoney).toString(),
            currency: "EUR",
            transactionId: late.transactionId,
          },
        })
        expect((await walletOf(server(), p.userId)).cash).toBe(1_000n)
        // The provider's retry (signed anew) gets the same answer; the round stays as it was.
        expect(await walletCall(server().url, "win", late)).toEqual(answered)
        expect(await roundOf(bet.roundId)).toEqual({ bet_total: "0", win_total: "0", status: "rolled-back" })
        const [call] = await server().query<{ voided: boolean; ledger_tx: string | null }>(
          "SELECT voided, ledger_tx::text AS ledger_tx FROM game_transactions WHERE transaction_id = $1",
          [late.transactionId],
        )
        expect(call).toEqual({ voided: true, ledger_tx: null })
        expect((await ledgerReport(server())).clean).toBe(true)
      })

      it("a round with a bet left pays its win", async () => {
        const p = await player("kept-win")
        const roundId = randomUUID()
        const first = betBody(slot, p, "300", { roundId })
        const second = betBody(slot, p, "200", { roundId })
        expect((await walletCall(server().url, "bet", first)).status).toBe(200)
        expect((await walletCall(server().url, "bet", second)).status).toBe(200)
        expect((await rollbackOf(p, first)).status).toBe(200)
        const paid = await walletCall(server().url, "win", winBody(slot, p, roundId, "900"))
        expect(paid.body).toMatchObject({ balance: (1_700n + bonusMoney).toString() })
        expect(await roundOf(roundId)).toEqual({ bet_total: "200", win_total: "900", status: "settled" })
      })
    })
})
