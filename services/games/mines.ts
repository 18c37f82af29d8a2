/**
 * Mines: a 5×5 field, 1–24 mines. The player sends the tiles to open with the round (in order);
 * the round reveals them one by one and ends at the first mine (multiplier 0). Opening all k picks
 * safely pays (1 − edge) / P(k safe) where P(k safe) = C(25−m, k) / C(25, k), floored to 1/10,000.
 * Mine positions: the first m draws of a Fisher–Yates shuffle of tiles 0…24, one float per mine
 * (draw i takes index ⌊f_i × (25 − i)⌋ of the tiles still free, in ascending order).
 */
import type { Distribution } from "./outcome.ts"
import { isInt, isRecord, type OptionsError, type Outcome, pick } from "./outcome.ts"

export const MINES_TILES = 25

export interface MinesParams {
  readonly edgeBp: number
}

export interface MinesOptions {
  readonly mines: number
  /** Tile indexes 0–24 (row × 5 + column), distinct, in the order they are opened. */
  readonly picks: ReadonlyArray<number>
}

export const minesDefaultOptions = { mines: 3, picks: [12] } as const

const choose = (n: number, k: number): bigint => {
  if (k < 0 || k > n) return 0n
  let r = 1n
  for (let i = 0; i < k; i++) r = (r * BigInt(n - i)) / BigInt(i + 1)
  return r
}

export const minesMultiplier = (p: MinesParams, mines: number, picks: number): bigint =>
  (BigInt(10_000 - p.edgeBp) * choose(MINES_TILES, picks)) / choose(MINES_TILES - mines, picks)

export const decodeMinesOptions = (raw: unknown): MinesOptions | OptionsError => {
  if (!isRecord(raw)) return { error: "mines options must be an object { mines, picks }" }
  const mines = raw.mines
  if (!isInt(mines) || mines < 1 || mines > 24) return { error: "mines must be an integer 1–24" }
  const picks = raw.picks
  if (!Array.isArray(picks) || picks.length < 1) return { error: "picks must list at least one tile" }
  if (picks.length > MINES_TILES - mines)
    return { error: `at most ${MINES_TILES - mines} picks with ${mines} mines` }
  const seen = new Set<number>()
  const out: Array<number> = []
  for (const t of picks) {
    if (!isInt(t) || t < 0 || t >= MINES_TILES) return { error: "each pick is a tile 0–24" }
    if (seen.has(t)) return { error: "picks must be distinct" }
    seen.add(t)
    out.push(t)
  }
  return { mines, picks: out }
}

export const minePositions = (mines: number, floats: ReadonlyArray<number>): ReadonlyArray<number> => {
  const free = Array.from({ length: MINES_TILES }, (_, i) => i)
  const out: Array<number> = []
  for (let i = 0; i < mines; i++) {
    const index = pick(floats[i] ?? 0, free.length)
    out.push(free[index] ?? 0)
    free.splice(index, 1)
  }
  return out.sort((a, b) => a - b)
}

export const playMines = (p: MinesParams, o: MinesOptions, floats: ReadonlyArray<number>): Outcome => {
  const mineSet = new Set(minePositions(o.mines, floats))
  let opened = 0
  for (const t of o.picks) {
    if (mineSet.has(t)) break
    opened++
  }
  const win = opened === o.picks.length
  return {
    multiplier: win ? minesMultiplier(p, o.mines, o.picks.length) : 0n,
    detail: {
      mines: [...mineSet].sort((a, b) => a - b),
      picks: [...o.picks],
      opened,
      hit: win ? null : (o.picks[opened] ?? null),
      win,
      payout: minesMultiplier(p, o.mines, o.picks.length).toString(),
    },
  }
}

export const minesDistribution = (p: MinesParams, o: MinesOptions): Distribution => ({
  total: choose(MINES_TILES, o.picks.length),
  outcomes: [
    {
      weight: choose(MINES_TILES - o.mines, o.picks.length),
      multiplier: minesMultiplier(p, o.mines, o.picks.length),
    },
  ],
})
