/**
 * Multiplayer crash's shapes: what the wire carries (the snapshot, the live events, the answers to a
 * bet and a cash-out, a round's proof) and the in-memory state of a table (engine.ts), apart from the
 * loop that moves it.
 */
import { createHash } from "node:crypto"
import type { GameDefinition } from "../../../services/games/catalogue.ts"
import type { Refusal, SessionRow } from "../Studio.ts"
import type { Chain } from "./chain.ts"

export type Phase = "idle" | "betting" | "running" | "busted"

export interface PlayerView {
  readonly name: string
  readonly bet: string
  readonly currency: string
  /** Hundredths; null while in (or lost). */
  readonly cashedOut: number | null
  readonly win: string | null
  readonly status: "open" | "cashed" | "lost"
}

export interface HistoryItem {
  readonly number: number
  readonly bust: number
  readonly hash: string
}

export interface Snapshot {
  readonly gameId: string
  readonly phase: Phase
  readonly number: number
  /** Epoch ms. */
  readonly bettingEndsAt: number | null
  readonly startedAt: number | null
  readonly bust: number | null
  readonly hash: string | null
  readonly serverNow: number
  readonly players: ReadonlyArray<PlayerView>
  readonly history: ReadonlyArray<HistoryItem>
  readonly terminatingHash: string
  readonly salt: string
  readonly chainLength: number
}

export type CrashEvent =
  | { readonly type: "snapshot"; readonly snapshot: Snapshot }
  | {
      readonly type: "betting"
      readonly number: number
      readonly bettingEndsAt: number
      readonly serverNow: number
    }
  | {
      readonly type: "running"
      readonly number: number
      readonly startedAt: number
      readonly serverNow: number
    }
  | { readonly type: "bet"; readonly number: number; readonly player: PlayerView }
  | { readonly type: "cashout"; readonly number: number; readonly player: PlayerView }
  | {
      readonly type: "busted"
      readonly number: number
      readonly bust: number
      readonly hash: string
      readonly players: ReadonlyArray<PlayerView>
    }

export interface BetAnswer {
  readonly _tag: "CrashBet"
  readonly roundId: string
  readonly number: number
  readonly name: string
  readonly bet: string
  readonly autoCashout: number | null
  readonly balance: string | null
  readonly currency: string
}

export interface CashoutAnswer {
  readonly _tag: "CrashCashout"
  readonly roundId: string
  readonly number: number
  readonly cashedOut: number
  readonly bet: string
  readonly win: string
  readonly balance: string | null
  readonly currency: string
}

/** The session's bet in the current game, for a page that (re)loads. */
export interface MyBet {
  readonly roundId: string
  readonly number: number
  readonly bet: string
  readonly autoCashout: number | null
  readonly cashedOut: number | null
  readonly win: string | null
  readonly status: string
}

export interface RoundProof {
  readonly roundId: string
  readonly gameId: string
  readonly number: number
  readonly hash: string | null
  readonly previousHash: string | null
  readonly bust: number | null
  readonly salt: string
  readonly terminatingHash: string
  readonly bet: string
  readonly currency: string
  readonly cashedOut: number | null
  readonly win: string | null
  readonly status: string
}

/** The name others see: a hash of the player key, no personal data ("Player 4F2A"). */
export const pseudonym = (key: string): string =>
  `Player ${createHash("sha256").update(`crash-name:${key}`).digest("hex").slice(0, 4).toUpperCase()}`

export interface Player {
  readonly id: string
  readonly session: SessionRow
  readonly name: string
  readonly bet: bigint
  readonly auto: number | null
  status: "pending" | "open" | "cashed" | "lost"
  cashedOut: number | null
  win: bigint | null
}

export interface Round {
  readonly number: number
  readonly hash: string
  readonly bust: number
  phase: "betting" | "running" | "busted"
  readonly bettingEndsAt: number
  startedAt: number | null
  readonly players: Map<string, Player>
}

export interface Table {
  readonly def: GameDefinition
  readonly chain: Chain
  readonly salt: string
  round: Round | null
  /** The number of the last game taken from the chain. */
  last: number
  readonly listeners: Set<(e: CrashEvent) => void>
  readonly timers: Set<ReturnType<typeof setTimeout>>
  history: Array<HistoryItem>
  /** A round is being started (no second one meanwhile). */
  starting: boolean
}

export const view = (p: Player): PlayerView => ({
  name: p.name,
  bet: p.bet.toString(),
  currency: p.session.currency,
  cashedOut: p.cashedOut,
  win: p.win === null ? null : p.win.toString(),
  status: p.status === "pending" ? "open" : p.status,
})

export interface CrashShape {
  readonly isCrash: (gameId: string) => boolean
  readonly snapshot: (gameId: string) => Promise<Snapshot>
  /** Listens to a table's events (starts its loop); the function stops listening. */
  readonly subscribe: (gameId: string, listener: (e: CrashEvent) => void) => Promise<() => void>
  readonly bet: (s: SessionRow, amount: bigint, auto: number | null) => Promise<BetAnswer | Refusal>
  readonly cashout: (s: SessionRow) => Promise<CashoutAnswer | Refusal>
  readonly mine: (s: SessionRow) => MyBet | null
  readonly round: (roundId: string) => Promise<RoundProof | undefined>
  readonly games: (gameId: string, limit: number) => Promise<ReadonlyArray<HistoryItem>>
}
