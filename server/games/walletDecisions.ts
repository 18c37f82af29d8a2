/**
 * The seamless wallet's answers and the decisions made before a bet or a win is booked, shared by
 * the one-call settlement (GameWallet.ts) and the batched one (settlementBatch.ts), so both refuse
 * the same calls with the same answers. Pure: no I/O.
 */
import { GameWalletErrors } from "../../protocols/game-wallet/errors.ts"
import { betLimitsIn } from "./rules.ts"
import type { BetContext } from "./WalletRepo.ts"

export interface WalletAnswer {
  readonly status: number
  readonly body: Readonly<Record<string, unknown>>
}

export const answer = (status: number, body: Readonly<Record<string, unknown>>): WalletAnswer => ({
  status,
  body,
})

const E = GameWalletErrors
export const badRequest = (message: string) => answer(400, { error: E.badRequest, message })
export const sessionExpired = answer(401, { error: E.sessionExpired })
export const unknownPlayer = answer(404, { error: E.unknownPlayer })
export const unknownRound = answer(404, { error: E.unknownRound })
export const mismatch = answer(409, { error: E.duplicateMismatch })
export const rolledBack = answer(409, { error: E.rolledBack })
export const invalidSignature = answer(401, { error: E.invalidSignature })
export const REPLAYED_SIGNATURE = E.replayedSignature
export const replayedSignature = answer(401, { error: REPLAYED_SIGNATURE })

/** numeric(38,18) text → RATE_SCALE bigint (all 18 decimals are printed). */
export const rateOf = (text: string): bigint => {
  const [whole = "0", fraction = ""] = text.split(".")
  return BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, "0").slice(0, 18))
}

/** What a bet that passed every check books against. */
export interface AcceptedBet {
  readonly accountId: string
  readonly gameId: string
  /** The pool the bet's share feeds, when it has one. */
  readonly jackpotId: string | null
}

/**
 * Whether a bet may be booked, in the order the protocol refuses: session, currency, exclusion,
 * game, wallet, stake limits, jackpot share. The balance is the ledger's to decide.
 */
export const decideBet = (
  call: { readonly playerId: string; readonly currency: string },
  amount: bigint,
  share: bigint,
  ctx: BetContext | undefined,
): { readonly refused: WalletAnswer } | { readonly accepted: AcceptedBet } => {
  if (ctx === undefined || !ctx.live || ctx.userId !== call.playerId) return { refused: sessionExpired }
  if (ctx.currency !== call.currency) return { refused: badRequest("currency is not the session's") }
  if (ctx.excluded) return { refused: answer(403, { error: E.playerBlocked }) }
  if (ctx.gameId === null || ctx.minBetEur === null || ctx.maxBetEur === null)
    return { refused: answer(404, { error: E.unknownGame }) }
  if (ctx.accountId === null) return { refused: unknownPlayer }
  const limits =
    ctx.eurRate === null || ctx.subunits === null
      ? undefined
      : betLimitsIn(BigInt(ctx.minBetEur), BigInt(ctx.maxBetEur), rateOf(ctx.eurRate), BigInt(ctx.subunits))
  if (limits === undefined) return { refused: answer(422, { error: E.betLimit, min: "0", max: "0" }) }
  if (amount < limits.min || amount > limits.max)
    return {
      refused: answer(422, { error: E.betLimit, min: limits.min.toString(), max: limits.max.toString() }),
    }
  if (share > amount || (share > 0n && ctx.jackpotId === null))
    return { refused: badRequest("jackpotContribution is more than the bet, or the game has no jackpot") }
  return { accepted: { accountId: ctx.accountId, gameId: ctx.gameId, jackpotId: ctx.jackpotId } }
}

/** The answer of an insufficient balance: the balance the player has. */
export const insufficientFunds = (balance: bigint) =>
  answer(402, { error: E.insufficientFunds, balance: balance.toString() })

/** A win's round as the settlement reads it. */
export interface WinRound {
  readonly userId: string
  readonly currency: string
  readonly status: "open" | "settled" | "rolled-back"
}

/**
 * Whether a win may be paid: the player's wallet and the round must be the call's. A win on a round
 * whose bets were all rolled back is `voided`: acknowledged with the balance as it is, nothing paid
 * (docs/game-wallet-protocol.md) — the provider stops retrying, the round stays rolled back.
 */
export const decideWin = (
  call: { readonly playerId: string; readonly currency: string },
  accountId: string | undefined,
  round: WinRound | undefined,
): { readonly refused: WalletAnswer } | { readonly accountId: string; readonly voided: boolean } => {
  if (accountId === undefined) return { refused: unknownPlayer }
  if (round === undefined || round.userId !== call.playerId) return { refused: unknownRound }
  if (round.currency !== call.currency) return { refused: badRequest("currency is not the round's") }
  return { accountId, voided: round.status === "rolled-back" }
}

/** A bet's or a win's answer body. */
export const settledBody = (balance: bigint, currency: string, transactionId: string) => ({
  balance: balance.toString(),
  currency,
  transactionId,
})
