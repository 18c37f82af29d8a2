/**
 * The verifier: recomputes any round from its seeds, exactly as the studio played it
 * (docs/fairness.md). Browser-safe: the casino's verifier page runs this in the player's browser.
 */
import { gameById } from "./catalogue.ts"
import { roundFloats } from "./fair.ts"
import { isOptionsError, type Outcome } from "./outcome.ts"
import { floatsNeeded, jackpotHit, playRound } from "./play.ts"

export interface VerifyInput {
  readonly gameId: string
  readonly options: unknown
  readonly serverSeed: string
  readonly clientSeed: string
  readonly nonce: number
}

/** A round that cannot be recomputed: unknown game, bad options or nonce. */
export class VerifyError extends Error {
  override readonly name = "VerifyError"
}

export const verifyRound = async (
  input: VerifyInput,
): Promise<Outcome & { readonly jackpotHit: boolean }> => {
  const def = gameById(input.gameId)
  if (def === undefined) throw new VerifyError(`unknown game ${input.gameId}`)
  if (!Number.isSafeInteger(input.nonce) || input.nonce < 0)
    throw new VerifyError("nonce must be an integer ≥ 0")
  const need = floatsNeeded(def, input.options)
  const floats = await roundFloats(
    input.serverSeed,
    input.clientSeed,
    input.nonce,
    need + (def.jackpot ? 1 : 0),
  )
  const outcome = playRound(def, input.options, floats)
  if (isOptionsError(outcome)) throw new VerifyError(outcome.error)
  return { ...outcome, jackpotHit: jackpotHit(def, floats[need]) }
}
