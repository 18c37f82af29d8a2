/**
 * One round of any game from its floats: options decoding, the floats a game consumes (in a
 * documented order, docs/fairness.md), and the outcome. Pure: the studio server, the verifier and
 * the simulation tests run exactly this.
 */
import type { GameDefinition } from "./catalogue.ts"
import { type CrashOptions, crashDefaultOptions, decodeCrashOptions, playCrash } from "./crash.ts"
import { type DiceOptions, decodeDiceOptions, diceDefaultOptions, playDice } from "./dice.ts"
import { decodeMinesOptions, type MinesOptions, minesDefaultOptions, playMines } from "./mines.ts"
import { isOptionsError, type Json, type OptionsError, type Outcome } from "./outcome.ts"
import { decodePlinkoOptions, type PlinkoOptions, playPlinko, plinkoDefaultOptions } from "./plinko.ts"
import {
  decodeRouletteOptions,
  playRoulette,
  type RouletteOptions,
  rouletteDefaultOptions,
} from "./roulette.ts"
import { decodeSlotOptions, playSlot, type SlotOptions, slotDefaultOptions } from "./slot.ts"

export type { Json, OptionsError, Outcome } from "./outcome.ts"
export { formatMultiplier, isOptionsError, ONE_X, winAmount } from "./outcome.ts"

/** Decoded options of any kind (what `decodeOptions` returns on success). */
export type GameOptions =
  | DiceOptions
  | CrashOptions
  | MinesOptions
  | PlinkoOptions
  | RouletteOptions
  | SlotOptions

/** Validates the player's options for this game; `{ error }` says what is wrong, for a 4xx. */
export const decodeOptions = (def: GameDefinition, raw: unknown): GameOptions | OptionsError => {
  switch (def.kind) {
    case "dice":
      return decodeDiceOptions(raw)
    case "crash":
      return decodeCrashOptions(def.params, raw)
    case "mines":
      return decodeMinesOptions(raw)
    case "plinko":
      return decodePlinkoOptions(raw)
    case "roulette":
      return decodeRouletteOptions(def.params, raw)
    case "slot":
      return decodeSlotOptions(raw)
  }
}

/** The options a page starts with, as sent on the wire (the catalogue's RTP figure is for these). */
export const defaultOptions = (def: GameDefinition): Json => {
  switch (def.kind) {
    case "dice":
      return diceDefaultOptions
    case "crash":
      return crashDefaultOptions
    case "mines":
      return minesDefaultOptions
    case "plinko":
      return plinkoDefaultOptions
    case "roulette":
      return rouletteDefaultOptions
    case "slot":
      return slotDefaultOptions
  }
}

/**
 * How many floats the game itself consumes (the jackpot draw, on jackpot games, takes the next one).
 * Options that do not decode count as the kind's smallest need; `playRound` rejects them anyway.
 */
export const floatsNeeded = (def: GameDefinition, options: unknown): number => {
  switch (def.kind) {
    case "dice":
    case "crash":
    case "roulette":
      return 1
    case "slot":
      return def.params.reels.length
    case "mines": {
      const o = decodeMinesOptions(options)
      return isOptionsError(o) ? 1 : o.mines
    }
    case "plinko": {
      const o = decodePlinkoOptions(options)
      return isOptionsError(o) ? 8 : o.rows
    }
  }
}

/** The round's outcome from its floats (the first `floatsNeeded` are used). */
export const playRound = (
  def: GameDefinition,
  options: unknown,
  floats: ReadonlyArray<number>,
): Outcome | OptionsError => {
  if (floats.length < floatsNeeded(def, options)) return { error: "not enough floats for this round" }
  switch (def.kind) {
    case "dice": {
      const o = decodeDiceOptions(options)
      return isOptionsError(o) ? o : playDice(def.params, o, floats)
    }
    case "crash": {
      const o = decodeCrashOptions(def.params, options)
      return isOptionsError(o) ? o : playCrash(def.params, o, floats)
    }
    case "mines": {
      const o = decodeMinesOptions(options)
      return isOptionsError(o) ? o : playMines(def.params, o, floats)
    }
    case "plinko": {
      const o = decodePlinkoOptions(options)
      return isOptionsError(o) ? o : playPlinko(def.params, o, floats)
    }
    case "roulette": {
      const o = decodeRouletteOptions(def.params, options)
      return isOptionsError(o) ? o : playRoulette(o, floats)
    }
    case "slot": {
      const o = decodeSlotOptions(options)
      return isOptionsError(o) ? o : playSlot(def.params, floats)
    }
  }
}

/** The jackpot draw: the float after the game's own; hit iff f < 1/odds, in exact integers. */
export const jackpotHit = (def: GameDefinition, f: number | undefined): boolean =>
  def.jackpot !== null && f !== undefined && Math.floor(f * 2 ** 32) * def.jackpot.odds < 2 ** 32

/** The jackpot contribution of a bet (1 %, floored) on jackpot games; 0 elsewhere. */
export const jackpotContribution = (def: GameDefinition, bet: bigint): bigint =>
  def.jackpot === null ? 0n : (bet * 100n) / 10_000n
