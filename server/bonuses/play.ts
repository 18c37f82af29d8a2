/**
 * Playing with a bonus (docs/bonuses.md, "Play"): the game wallet asks here, inside each call's own
 * transaction, how a bet of a player with an active bonus is paid, and how a win or a refund of a
 * round played with bonus money is split. The rules:
 *
 * - A bet takes the player's cash first, then bonus money; it is refused when it is above the
 *   bonus's maximum bet (the wallet's BET_LIMIT answer, with that maximum), or above cash + bonus.
 * - Every bet while a bonus is active counts towards its wagering, times its game's weight; once
 *   the wagering is met, the bonus balance converts to cash in the same transaction.
 * - A win is paid in the proportion the round's bets were: the bonus share goes to the bonus
 *   account while that bonus is active, to cash once it converted, and stays with the house when it
 *   was forfeited or expired (bonus winnings go with the bonus). A refund follows the same rule.
 *
 * Lock order: the player's bonus advisory lock, the player's accounts (id order), the bonus row,
 * then the system accounts — the order forfeits and deposit bonuses take too.
 */
import { Effect } from "effect"
import type { SqlError } from "effect/sql"
import type { Ledger } from "../ledger/Ledger.ts"
import type { BonusesRepo } from "./BonusesRepo.ts"

export type StakeDecision =
  | { readonly _tag: "NoBonus" }
  | {
      readonly _tag: "Split"
      readonly bonusId: string
      readonly bonusAccountId: string
      readonly cash: bigint
      readonly bonus: bigint
      /** The bonus account's balance before the bet. */
      readonly bonusMoney: bigint
    }
  | { readonly _tag: "OverMaxBet"; readonly maxBet: bigint }
  | { readonly _tag: "Short"; readonly balance: bigint }

/** Where a round's win (or a bet's refund) goes: cash, the bonus account, and what the house keeps. */
export interface Shares {
  readonly cash: bigint
  readonly bonus: { readonly accountId: string; readonly amount: bigint } | undefined
  readonly houseKeeps: bigint
}

/** The bonus part of `amount` for a round whose bets were `bonusBet` of `betTotal` (rounded down). */
export const bonusPartOf = (amount: bigint, bonusBet: bigint, betTotal: bigint): bigint =>
  betTotal <= 0n || bonusBet <= 0n ? 0n : (amount * (bonusBet > betTotal ? betTotal : bonusBet)) / betTotal

export interface BonusPlayShape {
  /** Before a bet: how it is paid, or why it is refused. Locks the player's accounts and bonus. */
  readonly stake: (input: {
    readonly userId: string
    readonly currency: string
    readonly cashAccountId: string
    readonly amount: bigint
  }) => Effect.Effect<StakeDecision, SqlError.SqlError>
  /**
   * After the bet's posting: the stake recorded on the round and the bet, the wagering counted, and
   * the bonus converted to cash when it is met — answers what the conversion moved to cash (0: none).
   */
  readonly afterBet: (input: {
    readonly userId: string
    readonly currency: string
    readonly cashAccountId: string
    readonly integration: string
    readonly roundId: string
    readonly transactionId: string
    readonly bonusId: string
    readonly bonusAccountId: string
    readonly bonusPart: bigint
    readonly amount: bigint
    readonly gameKind: string
  }) => Effect.Effect<bigint, SqlError.SqlError>
  /** How a win of `amount` on a round played with bonus money is paid. */
  readonly shares: (input: {
    readonly userId: string
    readonly currency: string
    readonly bonusId: string | null
    readonly bonusPart: bigint
    readonly amount: bigint
  }) => Effect.Effect<Shares, SqlError.SqlError>
  /** A refunded bet placed while `bonusId` was active: its wagering taken back (under the bonus lock). */
  readonly unwager: (input: {
    readonly userId: string
    readonly bonusId: string
    readonly amount: bigint
    readonly integration: string
    readonly roundId: string
  }) => Effect.Effect<void, SqlError.SqlError>
  /** The player's bonus balance now (0 without a bonus account). */
  readonly bonusBalance: (userId: string, currency: string) => Effect.Effect<bigint, SqlError.SqlError>
}

export const makeBonusPlay = (deps: {
  readonly repo: BonusesRepo["Service"]
  readonly ledger: Ledger["Service"]
  /** Converts an active bonus whose wagering is met (the end of `Bonuses`); the money moved to cash. */
  readonly convert: (
    bonusId: string,
    userId: string,
    currency: string,
  ) => Effect.Effect<bigint, SqlError.SqlError>
}): BonusPlayShape => {
  const { repo, ledger } = deps

  const stake: BonusPlayShape["stake"] = ({ userId, currency, cashAccountId, amount }) =>
    Effect.gen(function* () {
      yield* repo.lockPlayer(userId)
      const account = yield* ledger.bonusAccount(userId, currency)
      const balances = yield* ledger.lockBalances([cashAccountId, account.id])
      const bonus = yield* repo.lockActive(userId, currency)
      if (bonus === undefined) return { _tag: "NoBonus" } satisfies StakeDecision
      const cash = balances.get(cashAccountId) ?? 0n
      const bonusMoney = balances.get(account.id) ?? 0n
      if (amount > BigInt(bonus.maxBet))
        return { _tag: "OverMaxBet", maxBet: BigInt(bonus.maxBet) } satisfies StakeDecision
      if (amount > cash + bonusMoney)
        return { _tag: "Short", balance: cash + bonusMoney } satisfies StakeDecision
      const fromCash = amount < cash ? amount : cash
      return {
        _tag: "Split",
        bonusId: bonus.id,
        bonusAccountId: account.id,
        cash: fromCash,
        bonus: amount - fromCash,
        bonusMoney,
      } satisfies StakeDecision
    })

  const afterBet: BonusPlayShape["afterBet"] = (input) =>
    Effect.gen(function* () {
      yield* repo.recordStake({
        integration: input.integration,
        roundId: input.roundId,
        transactionId: input.transactionId,
        bonusId: input.bonusId,
        bonusPart: input.bonusPart,
      })
      const progress = yield* repo.addWagering(input.bonusId, input.amount, input.gameKind)
      if (progress === undefined || progress.wagered < progress.required) return 0n
      return yield* deps.convert(input.bonusId, input.userId, input.currency)
    })

  const shares: BonusPlayShape["shares"] = ({ userId, currency, bonusId, bonusPart, amount }) =>
    Effect.gen(function* () {
      if (bonusId === null || bonusPart <= 0n) return { cash: amount, bonus: undefined, houseKeeps: 0n }
      yield* repo.lockPlayer(userId)
      const status = yield* repo.statusOf(bonusId)
      if (status === "active") {
        const account = yield* ledger.bonusAccount(userId, currency)
        return {
          cash: amount - bonusPart,
          bonus: { accountId: account.id, amount: bonusPart },
          houseKeeps: 0n,
        }
      }
      if (status === "completed") return { cash: amount, bonus: undefined, houseKeeps: 0n }
      return { cash: amount - bonusPart, bonus: undefined, houseKeeps: bonusPart }
    })

  const bonusBalance: BonusPlayShape["bonusBalance"] = (userId, currency) =>
    repo.bonusBalance(userId, currency)

  const unwager: BonusPlayShape["unwager"] = ({ userId, bonusId, amount, integration, roundId }) =>
    repo.lockPlayer(userId).pipe(Effect.andThen(repo.removeWagering(bonusId, amount, integration, roundId)))

  return { stake, afterBet, shares, bonusBalance, unwager }
}
