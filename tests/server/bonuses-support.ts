/**
 * Helpers for the bonus play tests (tests/server/bonuses.*.test.ts): a first deposit paid its bonus
 * without a payment provider, the catalogue's games by kind, and a wallet's cash and bonus money.
 */
import { Effect } from "effect"
import { Bonuses } from "../../server/bonuses/Bonuses.ts"
import type { Game, GamesAndCategories } from "../../services/game-service.ts"
import { GAMES } from "./games-support.ts"
import type { TestServer } from "./harness.ts"
import { insertDeposit } from "./money-support.ts"
import { Browser } from "./users-support.ts"

/**
 * A deposit of `cents` naming `coupon` (WELCOME1: a first deposit's), paid its bonus (the deposit's
 * cash is not credited).
 */
export const grantFirstDepositBonus = async (
  server: TestServer,
  userId: string,
  cents: string,
  coupon = "WELCOME1",
): Promise<void> => {
  const depositId = await insertDeposit(server, userId, cents)
  await server.run(
    Effect.gen(function* () {
      const bonuses = yield* Bonuses
      return yield* bonuses.awardForDeposit({
        source: "fiat",
        id: depositId,
        userId,
        currency: "EUR",
        amount: BigInt(cents),
        amountEurCents: BigInt(cents),
        promotionCoupon: coupon,
      })
    }).pipe(Effect.orDie),
  )
}

/** Waits for a state, never for a fixed time: `check` is asked again until it holds (or 20 s pass). */
export const eventually = async <A>(check: () => Promise<A | undefined> | A | undefined): Promise<A> => {
  for (let i = 0; i < 200; i++) {
    const value = await check()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error("the state was not reached")
}

/** A listed game of `kind` without a jackpot. */
export const gameOfKind = async (server: TestServer, kind: Game["kind"]): Promise<Game> => {
  const games = (
    (await new Browser(server).get(`${GAMES}/games-and-categories/EUR`)).body as GamesAndCategories
  ).games
  const game = games.find((g) => g.kind === kind && !g.jackpot)
  if (game === undefined) throw new Error(`the catalogue has no ${kind} game without a jackpot`)
  return game
}

/** The catalogue's game `id`. */
export const gameById = async (server: TestServer, id: string): Promise<Game> => {
  const games = (
    (await new Browser(server).get(`${GAMES}/games-and-categories/EUR`)).body as GamesAndCategories
  ).games
  const game = games.find((g) => g.id === id)
  if (game === undefined) throw new Error(`the catalogue has no game ${id}`)
  return game
}

/** The player's EUR cash and bonus money, as the ledger holds them (null: no such account). */
export const walletOf = async (server: TestServer, userId: string) => {
  const rows = await server.query<{ kind: string; balance: string }>(
    "SELECT kind, balance::text AS balance FROM ledger_accounts WHERE user_id = $1 AND currency = 'EUR'",
    [userId],
  )
  const of = (kind: string) => {
    const balance = rows.find((r) => r.kind === kind)?.balance
    return balance === undefined ? null : BigInt(balance)
  }
  return { cash: of("player_cash"), bonus: of("player_bonus") }
}
