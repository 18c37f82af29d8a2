/**
 * A mines round as stored and as the page sees it (minesRounds.ts): the row every action reads, its
 * options as stored, and the answer built from them. Pure: the answer of a round in play says what
 * the tiles opened have reached and what the next would, never where the mines are.
 */
import { type GameDefinition, gameById } from "../../services/games/catalogue.ts"
import { MINES_TILES, minesMultiplier } from "../../services/games/mines.ts"
import { isInt, isRecord } from "../../services/games/outcome.ts"
import { type Outcome, winAmount } from "../../services/games/play.ts"
import type { FreeRoundsView } from "./freeRounds.ts"

export type MinesGame = Extract<GameDefinition, { readonly kind: "mines" }>

export type MinesState = "playing" | "cashed" | "lost"

/** A mines round as the page sees it. While playing it never says where the mines are. */
export interface MinesRoundView {
  readonly _tag: "MinesRound"
  readonly roundId: string
  readonly gameId: string
  /** The player's round number in this game (as the one-request rounds count it). */
  readonly gameRound: number
  readonly nonce: number
  readonly clientSeed: string
  readonly serverSeedHash: string
  readonly currency: string
  readonly bet: string
  readonly mines: number
  /** The tiles opened so far, in order (the mine that ended it last). */
  readonly picks: ReadonlyArray<number>
  readonly state: MinesState
  /** The tile this answer opened (open only). */
  readonly tile: { readonly index: number; readonly safe: boolean } | null
  /** Playing: the multiplier reached (null before the first tile). Ended: the one paid. 1/10,000. */
  readonly multiplier: string | null
  /** Playing: what a cash-out pays now, bet × multiplier floored (null before the first tile). */
  readonly cashout: string | null
  /** Playing: the multiplier if the next tile is safe (null once no safe tile is left). */
  readonly next: string | null
  /** Ended: the win (0 for a mine) and the outcome (playMines' detail: mines, picks, opened, hit …). */
  readonly win: string | null
  readonly detail: Outcome["detail"] | null
  readonly jackpotHit: boolean
  readonly jackpotAmount: string | null
  /** The balance after this step when known (after the bet, after the win); else null. */
  readonly balance: string | null
  readonly freeRound: boolean
  readonly freeRounds: FreeRoundsView | null
}

/** The round's row with its seed, as every action reads it (under its lock). */
export interface RoundRow {
  readonly id: string
  readonly sessionId: string
  readonly gameId: string
  readonly nonce: string
  readonly clientSeed: string
  readonly serverSeed: string
  readonly serverSeedHash: string
  readonly options: unknown
  readonly bet: string
  readonly status: string
  readonly steps: string | null
  readonly jackpotHit: boolean
  readonly grantId: string | null
  readonly multiplier: string
  readonly win: string
}

export const roundColumns = `r.id::text AS "id", r.session_id AS "sessionId", r.game_id AS "gameId", r.nonce::text AS "nonce",
  r.client_seed AS "clientSeed", k.server_seed AS "serverSeed", k.hash AS "serverSeedHash", r.options,
  r.bet::text AS "bet", r.status, r.steps, r.jackpot_hit AS "jackpotHit", r.free_round_grant_id::text AS "grantId",
  r.multiplier::text AS "multiplier", r.win::text AS "win"`

/** jsonb comes back parsed from PostgreSQL, as text from some drivers: either way, a value. */
const json = (raw: unknown): unknown => {
  if (typeof raw !== "string") return raw
  const parsed: unknown = JSON.parse(raw)
  return parsed
}

/** A stored round's options: { mines, picks } (picks may be empty while it is played). */
export const storedOptions = (
  raw: unknown,
): { readonly mines: number; readonly picks: ReadonlyArray<number> } => {
  const v = json(raw)
  if (isRecord(v) && isInt(v.mines) && Array.isArray(v.picks)) {
    const picks = v.picks.filter(isInt)
    if (picks.length === v.picks.length) return { mines: v.mines, picks }
  }
  throw new Error("a mines round's stored options are not { mines, picks }")
}

export const minesGame = (gameId: string): MinesGame | undefined => {
  const def = gameById(gameId)
  return def?.kind === "mines" ? def : undefined
}

/** What an answer says besides the row: where the round stands and what this step did. */
export interface MinesViewOptions {
  readonly mines: number
  readonly picks: ReadonlyArray<number>
  readonly state: MinesState
  readonly tile?: { readonly index: number; readonly safe: boolean }
  readonly balance: string | null
  /** Ended: the outcome playMines gave. */
  readonly detail?: Outcome["detail"]
  readonly jackpotAmount?: string | null
  readonly freeRounds?: FreeRoundsView | null
}

export const minesView = (
  row: RoundRow,
  def: MinesGame,
  currency: string,
  gameRound: number,
  o: MinesViewOptions,
): MinesRoundView => {
  const bet = BigInt(row.bet)
  const playing = o.state === "playing"
  const reached = o.picks.length > 0 ? minesMultiplier(def.params, o.mines, o.picks.length) : null
  const safeLeft = MINES_TILES - o.mines - o.picks.length
  return {
    _tag: "MinesRound",
    roundId: row.id,
    gameId: row.gameId,
    gameRound,
    nonce: Number(row.nonce),
    clientSeed: row.clientSeed,
    serverSeedHash: row.serverSeedHash,
    currency,
    bet: row.bet,
    mines: o.mines,
    picks: [...o.picks],
    state: o.state,
    tile: o.tile ?? null,
    multiplier: playing ? (reached?.toString() ?? null) : row.multiplier,
    cashout: playing && reached !== null ? winAmount(bet, reached).toString() : null,
    next:
      playing && safeLeft > 0 ? minesMultiplier(def.params, o.mines, o.picks.length + 1).toString() : null,
    win: playing ? null : row.win,
    detail: playing ? null : (o.detail ?? null),
    jackpotHit: playing ? false : row.jackpotHit,
    jackpotAmount: o.jackpotAmount ?? null,
    balance: o.balance,
    freeRound: row.grantId !== null,
    freeRounds: o.freeRounds ?? null,
  }
}
