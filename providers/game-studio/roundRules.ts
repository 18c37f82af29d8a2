/**
 * What every round path of the studio shares (Studio.ts, minesRounds.ts, crash/engine.ts): the
 * refusals the page shows as they are, the words for the wallet's refusals of a bet, and who a
 * wallet call names. Pure: no SQL, no wallet.
 */
import type { WalletAnswer } from "./wallet.ts"

/** The part of a play session these rules read (Studio.ts `SessionRow`). */
interface SessionLike {
  readonly id: string
  readonly casinoToken: string | null
  readonly playerId: string | null
  readonly currency: string
  readonly demo: boolean
}

/** A refusal the page shows as is: status for the page API, code, and a sentence. */
export interface Refusal {
  readonly _tag: "Refusal"
  readonly status: number
  readonly error: string
  readonly message: string
}

export const refusal = (status: number, error: string, message: string): Refusal => ({
  _tag: "Refusal",
  status,
  error,
  message,
})

export const sessionExpired = (): Refusal =>
  refusal(401, "SESSION_EXPIRED", "Your game session has expired. Open the game again from the lobby.")

/** Minor units with two decimals and the currency: "0.50 EUR" (the refusals' amounts). */
export const money = (amount: bigint, currency: string): string => {
  const s = amount.toString().padStart(3, "0")
  return `${s.slice(0, -2)}.${s.slice(-2)} ${currency}`
}

/** What the page says for each wallet refusal of a bet (docs/game-studio.md). */
export const betRefusal = (answer: Extract<WalletAnswer, { _tag: "Refused" }>, currency: string): Refusal => {
  const b = answer.body
  const amount = (key: string) => (typeof b[key] === "string" ? money(BigInt(String(b[key])), currency) : "?")
  switch (answer.error) {
    case "INSUFFICIENT_FUNDS":
      return refusal(
        402,
        "INSUFFICIENT_FUNDS",
        `Your balance is too low for this bet (balance ${amount("balance")}).`,
      )
    case "PLAYER_BLOCKED":
      return refusal(403, "PLAYER_BLOCKED", "You cannot place bets: your account is excluded from play.")
    case "BET_LIMIT":
      return refusal(
        422,
        "BET_LIMIT",
        `This bet is outside the limits: from ${amount("min")} to ${amount("max")}.`,
      )
    case "BONUS_MAX_BET":
      return refusal(
        422,
        "BONUS_MAX_BET",
        `While your bonus is active a bet may be at most ${amount("max")}.`,
      )
    case "SESSION_EXPIRED":
      return sessionExpired()
    default:
      return refusal(409, answer.error, `The casino refused the bet (${answer.error}).`)
  }
}

/**
 * Who a real-money session plays for, as every wallet call names them: the casino's launch token
 * and player id (both set at a real launch: the launch route refuses one without them).
 */
export const casinoPlayer = (s: SessionLike) => ({
  sessionToken: s.casinoToken ?? "",
  playerId: s.playerId ?? "",
  currency: s.currency,
})

/** Whose seeds a session plays on: the player's across sessions and games, a demo session its own. */
export const playerKey = (s: SessionLike): string => (s.demo ? `demo:${s.id}` : `player:${s.playerId ?? ""}`)
