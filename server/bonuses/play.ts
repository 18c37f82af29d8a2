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
 *   account while that bonus is active, to cash once it converted (counted as converted money), and
 *   stays with the house when it was forfeited or expired (bonus winnings go with the bonus).
 * - A rolled-back bet undoes what it did (docs/bonuses.md, "Rollbacks"): its stake goes back where it
 *   came from by the same rule, its wagering is taken back, and when that leaves a converted bonus
 *   short of its requirement the conversion is undone in the same transaction — the money that
 *   became cash through it taken back from cash (as far as there is cash) into the bonus, active
 *   again; into the bonus active now if another one is; to the house if its end has passed.
 *
 * Lock order: the player's bonus advisory lock, the player's accounts (id order), the bonus row,
 * then the system accounts — the order forfeits and deposit bonuses take too.
 */
import { Effect } from "effect"
import type { SqlError } from "effect/sql"
import type { Ledger } from "../ledger/Ledger.ts"
import type { BonusesRepo } from "./BonusesRepo.ts"
import { BONUS_HOUSE_CODE } from "./houseAccounts.ts"

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

/** Where a rolled-back bet's stake goes, and what undoing its bonus's conversion moves (the net of both). */
export interface Refund {
  /** Cash's change: the stake's cash part, less what undoing a conversion took back (may be < 0). */
  readonly cash: bigint
  /** Into the player's bonus account. */
  readonly bonus: { readonly accountId: string; readonly amount: bigint } | undefined
  /** Of the stake, what the house's games account keeps (a forfeited or expired bonus's part). */
  readonly houseKeeps: bigint
  /** To the house's bonus account: converted money taken back from a bonus whose end had passed. */
  readonly bonusHouse: { readonly accountId: string; readonly amount: bigint } | undefined
  /** The conversion this rollback undid: taken back from cash, and what could not be. */
  readonly undone:
    | { readonly bonusId: string; readonly taken: bigint; readonly unrecovered: bigint }
    | undefined
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
  /**
   * How a win of `amount` on a round played with bonus money is paid (a converted bonus's share paid
   * to cash is counted as converted money). Locks the player's bonus and, for that, the accounts.
   */
  readonly shares: (input: {
    readonly userId: string
    readonly currency: string
    readonly cashAccountId: string
    readonly bonusId: string | null
    readonly bonusPart: bigint
    readonly amount: bigint
  }) => Effect.Effect<Shares, SqlError.SqlError>
  /**
   * A bet placed while `bonusId` was active, rolled back: its wagering taken back, the bonus row
   * updated (a conversion undone), and what the rollback's posting moves. Inside the rollback's
   * transaction; locks the player's bonus, the accounts, then the bonus rows.
   */
  readonly refund: (input: {
    readonly userId: string
    readonly currency: string
    readonly cashAccountId: string
    readonly bonusId: string
    readonly bonusPart: bigint
    readonly amount: bigint
    readonly integration: string
    readonly roundId: string
  }) => Effect.Effect<Refund, SqlError.SqlError>
  /** The player's bonus balance now (0 without a bonus account). */
  readonly bonusBalance: (userId: string, currency: string) => Effect.Effect<bigint, SqlError.SqlError>
}

export const makeBonusPlay = (deps: {
  readonly repo: BonusesRepo["Service"]
  readonly ledger: Ledger["Service"]
  /**
   * Converts an active bonus whose wagering is met (the end of `Bonuses`), recording the bet that
   * met it ("<integration>:<transaction id>"); the money moved to cash.
   */
  readonly convert: (
    bonusId: string,
    userId: string,
    currency: string,
    by: string,
  ) => Effect.Effect<bigint, SqlError.SqlError>
  /** Withdraws the spins left of a bonus that ended (sent to their provider by the outbox). */
  readonly cancelSpins: (bonusId: string) => Effect.Effect<unknown, SqlError.SqlError>
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
      return yield* deps.convert(
        input.bonusId,
        input.userId,
        input.currency,
        `${input.integration}:${input.transactionId}`,
      )
    })

  const shares: BonusPlayShape["shares"] = ({
    userId,
    currency,
    cashAccountId,
    bonusId,
    bonusPart,
    amount,
  }) =>
    Effect.gen(function* () {
      if (bonusId === null || bonusPart <= 0n) return { cash: amount, bonus: undefined, houseKeeps: 0n }
      yield* repo.lockPlayer(userId)
      const bonus = yield* repo.effectiveOf(bonusId)
      if (bonus?.status === "active") {
        const account = yield* ledger.bonusAccount(userId, currency)
        return {
          cash: amount - bonusPart,
          bonus: { accountId: account.id, amount: bonusPart },
          houseKeeps: 0n,
        }
      }
      if (bonus?.status === "completed") {
        // Bonus money becoming cash through the conversion: undone with it. The accounts before
        // the bonus row (the lock order above).
        const account = yield* ledger.bonusAccount(userId, currency)
        yield* ledger.lockBalances([cashAccountId, account.id])
        yield* repo.addConverted(bonus.id, bonusPart)
        return { cash: amount, bonus: undefined, houseKeeps: 0n }
      }
      return { cash: amount - bonusPart, bonus: undefined, houseKeeps: bonusPart }
    })

  const refund: BonusPlayShape["refund"] = (input) =>
    Effect.gen(function* () {
      const { userId, currency, cashAccountId, bonusPart, amount } = input
      yield* repo.lockPlayer(userId)
      const account = yield* ledger.bonusAccount(userId, currency)
      const balances = yield* ledger.lockBalances([cashAccountId, account.id])
      const bonus = yield* repo.lockEffective(input.bonusId)
      if (bonus === undefined) return yield* Effect.die(new Error(`bonus ${input.bonusId} of a bet is gone`))
      // A refunded bet no longer counts, whatever became of its bonus.
      const { short } = yield* repo.removeWagering(bonus.id, amount, input.integration, input.roundId)
      const cashPart = amount - bonusPart
      const toBonus = (money: bigint) => (money > 0n ? { accountId: account.id, amount: money } : undefined)
      if (bonus.status === "active")
        return {
          cash: cashPart,
          bonus: toBonus(bonusPart),
          houseKeeps: 0n,
          bonusHouse: undefined,
          undone: undefined,
        }
      if (bonus.status === "completed" && !short) {
        // The conversion stands without this bet: its bonus part is cash, as the bonus's money is.
        if (bonusPart > 0n) yield* repo.addConverted(bonus.id, bonusPart)
        return { cash: amount, bonus: undefined, houseKeeps: 0n, bonusHouse: undefined, undone: undefined }
      }
      if (bonus.status !== "completed")
        return {
          cash: cashPart,
          bonus: undefined,
          houseKeeps: bonusPart,
          bonusHouse: undefined,
          undone: undefined,
        }
      // The requirement is no longer met: the conversion is undone. What became cash through it
      // goes back, as far as the cash (with this refund's cash part) allows; no balance goes below 0.
      const cashThen = (balances.get(cashAccountId) ?? 0n) + cashPart
      const taken = bonus.convertedTotal < cashThen ? bonus.convertedTotal : cashThen
      const unrecovered = bonus.convertedTotal - taken
      if (unrecovered > 0n)
        yield* Effect.logWarning(
          `bonuses: undoing bonus ${bonus.id}'s conversion took back ${taken} ${currency}; ${unrecovered} was spent or withdrawn since`,
        )
      const undone = { bonusId: bonus.id, taken, unrecovered }
      if (bonus.lapsed) {
        // Its end passed meanwhile: as if it had expired unmet — the money back to the house.
        yield* repo.undoConversion({
          id: bonus.id,
          unrecovered,
          outcome: { _tag: "Expired", endedAmount: taken },
        })
        yield* deps.cancelSpins(bonus.id)
        const house = yield* ledger.systemAccountId("house", BONUS_HOUSE_CODE, currency)
        return {
          cash: cashPart - taken,
          bonus: undefined,
          houseKeeps: bonusPart,
          bonusHouse: taken > 0n ? { accountId: house, amount: taken } : undefined,
          undone,
        }
      }
      const other = yield* repo.lockActive(userId, currency)
      yield* repo.undoConversion({
        id: bonus.id,
        unrecovered,
        outcome:
          other === undefined
            ? { _tag: "Reactivated" }
            : { _tag: "Merged", into: other.id, money: taken + bonusPart },
      })
      return {
        cash: cashPart - taken,
        bonus: toBonus(bonusPart + taken),
        houseKeeps: 0n,
        bonusHouse: undefined,
        undone,
      }
    })

  const bonusBalance: BonusPlayShape["bonusBalance"] = (userId, currency) =>
    repo.bonusBalance(userId, currency)

  return { stake, afterBet, shares, refund, bonusBalance }
}
