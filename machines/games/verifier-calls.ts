/**
 * What the verifier computes, in the browser: the studio's pure game math (services/games/,
 * browser-safe, WebCrypto) — the very code the studio plays rounds with. Its own module so the
 * verifier machine can be tested with doubles; the math is downloaded only with /fairness.
 */
import { catalogue, gameById } from "../../services/games/catalogue.ts"
import { hashServerSeed } from "../../services/games/fair.ts"
import { defaultOptions as gameDefaults } from "../../services/games/play.ts"
import { verifyRound } from "../../services/games/verify.ts"

export interface VerifierGame {
  readonly id: string
  readonly name: string
  readonly kind: string
  readonly brand: string
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

/** The game's default bet options as the options field shows them (JSON). */
export const defaultOptions = (gameId: string): string => {
  const def = gameById(gameId)
  return def === undefined ? "{}" : JSON.stringify(gameDefaults(def))
}
