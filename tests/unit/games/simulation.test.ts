/**
 * Simulation confirms the exact RTP, per kind: N seeded rounds, the mean multiplier must lie within
 * the 99.9 % confidence interval mean ± 3.29·σ/√N around the exact RTP (σ exact from the
 * distribution for the closed-form kinds, the sample's for slots). A wrong table, edge or strip moves
 * the mean by more than the interval; the assertion on the interval's width shows it is tight.
 */
import { describe, expect, it } from "vitest"
import { type GameDefinition, gameById } from "../../../services/games/catalogue.ts"
import { floatsNeeded, playRound } from "../../../services/games/play.ts"
import { exactRtp, exactVariance } from "../../../services/games/rtp.ts"
import { ratio, seededFloats, take, Z_999 } from "./support.ts"

const simulate = (def: GameDefinition, options: unknown, rounds: number, seed: number) => {
  const next = seededFloats(seed)
  const need = floatsNeeded(def, options)
  let sum = 0
  let sumSq = 0
  for (let i = 0; i < rounds; i++) {
    const o = playRound(def, options, take(next, need))
    if ("error" in o) throw new Error(o.error)
    const m = Number(o.multiplier) / 10_000
    sum += m
    sumSq += m * m
  }
  const mean = sum / rounds
  return { mean, sampleSd: Math.sqrt(sumSq / rounds - mean * mean) }
}

const cases: ReadonlyArray<{ id: string; options?: unknown; rounds: number; maxHalfWidth: number }> = [
  { id: "dice-classic", options: { target: 50, direction: "under" }, rounds: 200_000, maxHalfWidth: 0.01 },
  { id: "owl-dice", options: { target: 90, direction: "over" }, rounds: 200_000, maxHalfWidth: 0.03 },
  { id: "comet-crash", options: { target: 2 }, rounds: 200_000, maxHalfWidth: 0.01 },
  { id: "mines", options: { mines: 3, picks: [0, 6, 12, 18] }, rounds: 200_000, maxHalfWidth: 0.015 },
  { id: "plinko", options: { rows: 12, risk: "medium" }, rounds: 100_000, maxHalfWidth: 0.02 },
  { id: "plinko-storm", options: { rows: 8, risk: "high" }, rounds: 100_000, maxHalfWidth: 0.05 },
  {
    id: "european-roulette",
    options: { bets: [{ type: "red", chips: 1 }] },
    rounds: 200_000,
    maxHalfWidth: 0.01,
  },
  {
    id: "neon-roulette",
    options: { bets: [{ type: "straight", numbers: [7], chips: 1 }] },
    rounds: 200_000,
    maxHalfWidth: 0.05,
  },
  { id: "midnight-sun", rounds: 100_000, maxHalfWidth: 0.03 },
  { id: "owls-library", rounds: 100_000, maxHalfWidth: 0.08 },
  { id: "neon-koi", rounds: 100_000, maxHalfWidth: 0.15 },
]

describe("simulated RTP within the 99.9 % interval of the exact RTP", () => {
  for (const c of cases) {
    it(`${c.id}: ${c.rounds.toLocaleString("en")} rounds`, () => {
      const def = gameById(c.id)
      if (def === undefined) throw new Error(c.id)
      const rtp = ratio(exactRtp(def, c.options))
      const { mean, sampleSd } = simulate(def, c.options, c.rounds, 0x5eed + c.id.length)
      const variance = exactVariance(def, c.options)
      const sd = variance === undefined ? sampleSd : Math.sqrt(ratio(variance))
      if (variance !== undefined) expect(Math.abs(sampleSd - sd) / sd).toBeLessThan(0.1)
      const halfWidth = (Z_999 * sd) / Math.sqrt(c.rounds)
      expect(halfWidth).toBeLessThan(c.maxHalfWidth)
      expect(Math.abs(mean - rtp)).toBeLessThanOrEqual(halfWidth)
      // About a second each on a quiet machine; the bound is only there for a hung run.
    }, 60_000)
  }
})
