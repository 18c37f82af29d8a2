/**
 * Cash and bonus money after any sequence of bets, wins, rollbacks (the bet that converted the bonus
 * among them), conversions and forfeits are what a small reference model says, on both backends,
 * through the signed seamless-wallet protocol (docs/bonuses.md, "Play", "Rollbacks"). Each run: a
 * player with some cash and 37.50 EUR of bonus money (a first deposit of 30.00 EUR, 125 %) whose
 * wagering is lowered at random so it converts mid-way. The model is written here from the terms,
 * not from the server's code:
 * - a bet is refused outside the game's limits, above 5.00 EUR while the bonus is active, or above
 *   what the player can bet (cash, plus bonus money while active); it takes cash first, then bonus
 *   money, counts its whole amount towards the wagering (slots weigh 100 %), and once the wagering is
 *   met the bonus money left becomes cash;
 * - a win pays its round's bonus share (win × the round's bonus money bet ÷ its bets, rounded down)
 *   to the bonus money while the bonus is active, to cash once it converted, to nobody once it was
 *   forfeited; the rest to cash. A round whose every bet was rolled back (and that had no win) pays
 *   nothing;
 * - a rollback gives the bet back where it came from and takes its wagering back; when the bonus had
 *   converted and the wagering left falls short, the conversion is undone: the bonus active again,
 *   and every cent that became cash through it (the conversion, bonus shares paid to cash since)
 *   goes back to the bonus money, as far as the cash allows;
 * - a forfeit gives the bonus money up.
 * After every step cash and bonus money equal the model's and are never negative; every answer's
 * balance is cash + bonus money; the ledger check is clean at the end.
 */
import { randomUUID } from "node:crypto"
import fc from "fast-check"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { Game, GamesAndCategories } from "../../services/game-service.ts"
import { gameOfKind, grantFirstDepositBonus, walletOf } from "./bonuses-support.ts"
import {
  type FakeGameProvider,
  fundedPlayer,
  GAMES,
  startFakeGameProvider,
  walletCall,
} from "./games-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport, PROFILE } from "./money-support.ts"
import { Browser } from "./users-support.ts"

/** The bonus a first deposit of 30.00 EUR earns (125 %), and its maximum bet. */
const BONUS = 3_750n
const MAX_BET = 500n

type Step =
  | { readonly op: "bet"; readonly amount: number; readonly sameRound: boolean }
  | { readonly op: "win"; readonly amount: number; readonly pick: number }
  | { readonly op: "rollback"; readonly pick: number; readonly converting: boolean }
  | { readonly op: "forfeit" }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant("bet" as const),
      amount: fc.integer({ min: 1, max: 700 }),
      sameRound: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("win" as const),
      amount: fc.integer({ min: 0, max: 2_000 }),
      pick: fc.nat(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("rollback" as const), pick: fc.nat(), converting: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("forfeit" as const) }) },
)

// ---------------------------------------------------------------------------------------------
// The reference model

interface ModelBet {
  readonly transactionId: string
  readonly roundId: string
  readonly amount: bigint
  readonly cashPart: bigint
  readonly bonusPart: bigint
  /** Placed while the bonus was active (it counted towards the wagering). */
  readonly withBonus: boolean
  /** Its wagering met the requirement. */
  readonly converted: boolean
  rolledBack: boolean
}

interface ModelRound {
  betTotal: bigint
  bonusBet: bigint
  winTotal: bigint
  rolledBack: boolean
}

class Model {
  cash: bigint
  bonusMoney = BONUS
  status: "active" | "completed" | "forfeited" = "active"
  wagered = 0n
  /** What became cash through the conversion: undone with it. */
  fromBonus = 0n
  readonly rounds = new Map<string, ModelRound>()
  readonly bets: Array<ModelBet> = []

  readonly required: bigint
  readonly limits: { readonly min: bigint; readonly max: bigint }

  constructor(cash: bigint, required: bigint, limits: { readonly min: bigint; readonly max: bigint }) {
    this.cash = cash
    this.required = required
    this.limits = limits
  }

  get playable(): bigint {
    return this.cash + (this.status === "active" ? this.bonusMoney : 0n)
  }

  /** The refusal a bet gets (status, error), or undefined when it is taken. */
  refusal(amount: bigint): { readonly status: number; readonly error: string } | undefined {
    if (amount < this.limits.min || amount > this.limits.max) return { status: 422, error: "BET_LIMIT" }
    if (this.status === "active" && amount > MAX_BET) return { status: 422, error: "BONUS_MAX_BET" }
    if (amount > this.playable) return { status: 402, error: "INSUFFICIENT_FUNDS" }
    return undefined
  }

  bet(transactionId: string, roundId: string, amount: bigint): void {
    const active = this.status === "active"
    const cashPart = active ? (amount < this.cash ? amount : this.cash) : amount
    const bonusPart = amount - cashPart
    this.cash -= cashPart
    this.bonusMoney -= bonusPart
    const round = this.rounds.get(roundId) ?? { betTotal: 0n, bonusBet: 0n, winTotal: 0n, rolledBack: false }
    round.betTotal += amount
    round.bonusBet += bonusPart
    round.rolledBack = false
    this.rounds.set(roundId, round)
    let converted = false
    if (active) {
      this.wagered += amount
      if (this.wagered >= this.required) {
        converted = true
        this.status = "completed"
        this.fromBonus = this.bonusMoney
        this.cash += this.bonusMoney
        this.bonusMoney = 0n
      }
    }
    this.bets.push({
      transactionId,
      roundId,
      amount,
      cashPart,
      bonusPart,
      withBonus: active,
      converted,
      rolledBack: false,
    })
  }

  win(roundId: string, amount: bigint): void {
    const round = this.rounds.get(roundId)
    if (round === undefined || round.rolledBack) return
    const share = round.betTotal > 0n && round.bonusBet > 0n ? (amount * round.bonusBet) / round.betTotal : 0n
    round.winTotal += amount
    if (this.status === "active") {
      this.cash += amount - share
      this.bonusMoney += share
    } else if (this.status === "completed") {
      this.cash += amount
      this.fromBonus += share
    } else this.cash += amount - share
  }

  rollback(bet: ModelBet): void {
    if (bet.rolledBack) return
    bet.rolledBack = true
    const round = this.rounds.get(bet.roundId)
    if (round !== undefined) {
      if (round.betTotal - bet.amount <= 0n && round.winTotal === 0n) round.rolledBack = true
      round.betTotal -= bet.amount
      round.bonusBet -= bet.bonusPart
    }
    if (!bet.withBonus) {
      this.cash += bet.amount
      return
    }
    this.wagered = this.wagered > bet.amount ? this.wagered - bet.amount : 0n
    if (this.status === "completed" && this.wagered < this.required) {
      const cash = this.cash + bet.cashPart
      const back = this.fromBonus < cash ? this.fromBonus : cash
      this.cash = cash - back
      this.bonusMoney += bet.bonusPart + back
      this.status = "active"
      this.fromBonus = 0n
    } else if (this.status === "active") {
      this.cash += bet.cashPart
      this.bonusMoney += bet.bonusPart
    } else if (this.status === "completed") {
      this.cash += bet.amount
      this.fromBonus += bet.bonusPart
    } else this.cash += bet.cashPart
  }

  forfeit(): void {
    if (this.status !== "active") return
    this.status = "forfeited"
    this.bonusMoney = 0n
  }
}

describeBackends("bonuses: cash and bonus money follow the model through rollbacks", ({ start }) => {
  let server: TestServer
  let fake: FakeGameProvider
  let slot: Game
  let limits: { min: bigint; max: bigint }
  beforeAll(async () => {
    fake = await startFakeGameProvider()
    server = await start({ captchaEnabled: false }, { env: { ...fake.env, RATE_LIMIT_SCALE: "100" } })
    slot = await gameOfKind(server, "slot")
    const catalogue = (await new Browser(server).get(`${GAMES}/games-and-categories/EUR`))
      .body as GamesAndCategories
    const l = catalogue.betLimits[slot.id]
    if (l === undefined) throw new Error("no bet limits")
    limits = { min: BigInt(l.min), max: BigInt(l.max) }
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it("every step leaves the model's cash and bonus money", async () => {
    let n = 0
    let conversionsUndone = 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 300, max: 2_500 }),
        fc.array(step, { minLength: 4, maxLength: 18 }),
        async (cash, wagering, steps) => {
          n += 1
          const p = await fundedPlayer(server, fake, `bonus-reversal-${n}`, BigInt(cash), slot)
          await grantFirstDepositBonus(server, p.userId, "3000")
          await server.query("UPDATE player_bonuses SET wagering_required = $2 WHERE user_id = $1", [
            p.userId,
            String(wagering),
          ])
          const model = new Model(BigInt(cash), BigInt(wagering), limits)
          const trace: Array<string> = []
          let round = randomUUID()
          const base = { sessionToken: p.token, playerId: p.userId, currency: "EUR" }
          for (const s of steps) {
            let answer: { status: number; body: Record<string, unknown> }
            if (s.op === "bet") {
              if (!s.sameRound || !model.rounds.has(round)) round = randomUUID()
              const amount = BigInt(s.amount)
              const transactionId = randomUUID()
              const refused = model.refusal(amount)
              answer = await walletCall(server.url, "bet", {
                ...base,
                transactionId,
                roundId: round,
                gameId: slot.launchId,
                amount: String(s.amount),
              })
              if (refused === undefined) model.bet(transactionId, round, amount)
              else
                expect({ status: answer.status, error: answer.body.error }, trace.join("\n")).toEqual(refused)
            } else if (s.op === "win") {
              const known = [...model.rounds.keys()]
              const roundId = known[s.pick % Math.max(1, known.length)]
              if (roundId === undefined) continue
              answer = await walletCall(server.url, "win", {
                ...base,
                transactionId: randomUUID(),
                roundId,
                gameId: slot.launchId,
                amount: String(s.amount),
                roundClosed: true,
              })
              model.win(roundId, BigInt(s.amount))
            } else if (s.op === "rollback") {
              const converting = model.bets.find((b) => b.converted && !b.rolledBack)
              const bet =
                s.converting && converting !== undefined
                  ? converting
                  : model.bets[s.pick % Math.max(1, model.bets.length)]
              if (bet === undefined) continue
              const wasCompleted = model.status === "completed"
              answer = await walletCall(server.url, "rollback", {
                ...base,
                transactionId: randomUUID(),
                roundId: bet.roundId,
                refTransactionId: bet.transactionId,
              })
              model.rollback(bet)
              if (wasCompleted && model.status === "active") conversionsUndone += 1
            } else {
              if (model.status !== "active") continue
              const mine = (await p.player.browser.get(`${PROFILE}/profile/promotion`)).body as {
                bonuses: ReadonlyArray<{ id: string; status: string }>
              }
              const active = mine.bonuses.find((b) => b.status === "active")
              const res = await p.player.browser.call("DELETE", `${PROFILE}/profile/promotion`, {
                id: active?.id,
              })
              answer = { status: res.status, body: {} }
              expect(res.status).toBe(200)
              model.forfeit()
            }
            const w = await walletOf(server, p.userId)
            const actual = { cash: w.cash ?? 0n, bonus: w.bonus ?? 0n }
            trace.push(
              `${JSON.stringify(s)} → ${answer.status} ${JSON.stringify(answer.body)} ${actual.cash}/${actual.bonus}`,
            )
            const what = trace.join("\n")
            expect(actual, what).toEqual({ cash: model.cash, bonus: model.bonusMoney })
            expect(actual.cash >= 0n && actual.bonus >= 0n, what).toBe(true)
            if (s.op !== "forfeit" && answer.status === 200)
              expect(answer.body.balance, what).toBe((model.cash + model.bonusMoney).toString())
          }
        },
      ),
      {
        numRuns: 10,
        // Always among the runs, whatever the seed: 10.00 EUR of cash, 3.00 EUR to wager; the first
        // bet (5.00, from cash) converts, a win pays its round to cash, then the converting bet and a
        // later one are rolled back.
        examples: [
          [
            1_000,
            300,
            [
              { op: "bet", amount: 500, sameRound: false },
              { op: "win", amount: 800, pick: 0 },
              { op: "bet", amount: 200, sameRound: false },
              { op: "rollback", pick: 0, converting: true },
              { op: "bet", amount: 300, sameRound: true },
              { op: "rollback", pick: 1, converting: false },
            ],
          ],
        ],
      },
    )
    // The runs did undo conversions (the example above does, whatever the random ones do).
    expect(conversionsUndone).toBeGreaterThan(0)
    expect((await ledgerReport(server)).clean).toBe(true)
  }, 300_000)
})
