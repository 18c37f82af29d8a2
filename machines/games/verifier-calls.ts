/**
 * What the verifier computes, in the browser: the studio's pure game math (services/games/,
 * browser-safe, WebCrypto) — the very code the studio plays rounds with. Its own module so the
 * verifier machine can be tested with doubles; the math is downloaded only with /fairness.
 */
import { catalogue, gameById } from "../../services/games/catalogue.ts"
import { hashServerSeed } from "../../services/games/fair.ts"
import { defaultOptions as gameDefaults } from "../../services/games/play.ts"
import { verifyRound } from "../../services/games/verify.ts"
import { formOf, type GameKind, type OptionsForm } from "./verifier-form.ts"

export interface VerifierGame {
  readonly id: string
  readonly name: string
  readonly kind: GameKind
  readonly brand: string
}

/** What the page starts from: every game, and the round its address names (`?round=…`), if any. */
export interface VerifierStart {
  readonly games: ReadonlyArray<VerifierGame>
  readonly round: string | null
}

export interface VerifyRequest {
  readonly gameId: string
  readonly options: unknown
  readonly serverSeed: string
  readonly clientSeed: string
  readonly nonce: number
}

export interface VerifyResult {
  /** In 1/10,000 of the bet (protocol: payout multipliers are exact), as decimal digits (JSON-safe). */
  readonly multiplier: string
  readonly detail: unknown
  readonly jackpotHit: boolean
  /** sha256 hex of the server seed: compare with the hash committed before play. */
  readonly serverSeedHash: string
}

/** Every game of the studio, by name. */
export const loadVerifierGames = async (): Promise<ReadonlyArray<VerifierGame>> =>
  [...catalogue]
    .map((def) => ({ id: def.id, name: def.name, kind: def.kind, brand: def.brand }))
    .sort((a, b) => a.name.localeCompare(b.name))

/** The games, and the round of the address (the Verify links open `/fairness?round=<round id>`). */
export const loadVerifierStart = async (): Promise<VerifierStart> => {
  const round =
    typeof window === "undefined" ? null : new URLSearchParams(window.location.search).get("round")
  return {
    games: await loadVerifierGames(),
    round: round === null || round.trim() === "" ? null : round.trim(),
  }
}

export const verifyWithHash = async (request: VerifyRequest): Promise<VerifyResult> => {
  const [outcome, serverSeedHash] = await Promise.all([
    verifyRound(request),
    hashServerSeed(request.serverSeed),
  ])
  return {
    multiplier: outcome.multiplier.toString(),
    detail: outcome.detail,
    jackpotHit: outcome.jackpotHit,
    serverSeedHash,
  }
}

/** The game's default bet options, as its form shows them. */
export const defaultOptions = (gameId: string): OptionsForm => {
  const def = gameById(gameId)
  return def === undefined ? { kind: "none" } : formOf(def.kind, gameDefaults(def))
}
