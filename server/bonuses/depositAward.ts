/**
 * The bonus a completed deposit earns (docs/bonuses.md, "Rules", "Crypto deposits"), inside the
 * deposit's own transaction: the tier of the deposit's number and band, capped, paid from the
 * house's `bonus` account to the player's bonus account; its free spins granted; free-spin winnings
 * waiting for this deposit unlocked into it. A card or e-wallet deposit names its bonus (its
 * promotionCoupon); a crypto transfer takes the code named with its address request.
 */
import { Clock, Effect } from "effect"
import type { SqlError } from "effect/sql"
import { bandFor, bandsOf, depositBonusOf, eurCentsToMinor, isRunning } from "../../services/bonus-rules.ts"
import type { Ledger } from "../ledger/Ledger.ts"
import type { Rates } from "../wallet/Rates.ts"
import type { BonusesRepo } from "./BonusesRepo.ts"
import type { FreeRoundsRepo } from "./FreeRoundsRepo.ts"
import type { FreeSpinWallets, Unlock } from "./FreeSpinWallets.ts"
import { BONUS_HOUSE_CODE } from "./houseAccounts.ts"

/** What a completed deposit needs to know to pay its bonus. */
export interface DepositForBonus {
  /** A card / e-wallet deposit (`deposits`) or a credited crypto transfer (`crypto_deposits`). */
  readonly source: "fiat" | "crypto"
  readonly id: string
  readonly userId: string
  readonly currency: string
  readonly amount: bigint
  readonly amountEurCents: bigint
  readonly promotionCoupon: string | null
}

export interface BonusGrant {
  readonly bonusId: string
  readonly amount: bigint
  readonly freeSpins: number
  /** The player's bonus balance after the grant (and the unlock). */
  readonly balance: bigint
  /** Free-spin winnings (and their extra bonus) this deposit unlocked into the bonus. */
  readonly unlocked: Unlock | undefined
}

export interface DepositAwardShape {
  /**
   * Pays the bonus a completed deposit earned, if any — inside the caller's transaction, after the
   * deposit's credit (the caller holds the player's bonus lock). Undefined: no bonus.
   */
  readonly awardForDeposit: (
    deposit: DepositForBonus,
  ) => Effect.Effect<BonusGrant | undefined, SqlError.SqlError>
  /** Keeps (or, null, clears) the code named with a crypto address request, a day long. */
  readonly chooseForCrypto: (userId: string, currency: string, coupon: string | null) => Effect.Effect<void>
  /** A crypto transfer being credited: the bonus of the code chosen for it, the choice consumed. */
  readonly awardForCryptoDeposit: (
    deposit: Omit<DepositForBonus, "source" | "promotionCoupon">,
  ) => Effect.Effect<BonusGrant | undefined, SqlError.SqlError>
}

export const makeDepositAward = (deps: {
  readonly repo: BonusesRepo["Service"]
  readonly ledger: Ledger["Service"]
  readonly rates: Rates["Service"]
  readonly freeRounds: FreeRoundsRepo["Service"]
  readonly freeSpinWallets: FreeSpinWallets["Service"]
}): DepositAwardShape => {
  const { repo, ledger, rates, freeRounds, freeSpinWallets } = deps

  const awardForDeposit = (deposit: DepositForBonus) =>
    Effect.gen(function* () {
      // Only a deposit that names its bonus earns one (see the header): nothing to decide without.
      if (deposit.promotionCoupon === null) return undefined
      const now = yield* Clock.currentTimeMillis
      // Two deposits of one player completing at once must not both be "the first", nor both
      // take an offer meant once: their bonus decisions queue on the player's row.
      yield* repo.lockPlayer(deposit.userId)
      const completedBefore = yield* repo.completedDepositsBefore(deposit.userId, deposit.id)
      const number = completedBefore + 1
      // The player chose it on the deposit step (the offer's code) or typed a code.
      const promotion = yield* repo.promotionByCode(deposit.promotionCoupon)
      if (promotion === undefined || promotion.kind !== "deposit_bonus") return undefined
      if (!isRunning(promotion, now)) return undefined
      if (promotion.depositNumber !== null && promotion.depositNumber !== number) return undefined
      if (promotion.currencies !== null && !promotion.currencies.includes(deposit.currency)) return undefined
      if ((yield* repo.grantsTo(deposit.userId, promotion.id)) >= promotion.maxUsesPerPlayer) return undefined
      const rate = yield* rates.get(deposit.currency)
      if (rate === undefined || deposit.amount < rate.minPromotion) return undefined
      const band = bandFor(bandsOf(promotion.bands), deposit.amountEurCents)
      if (band === undefined) return undefined
      const cap = eurCentsToMinor(BigInt(promotion.maxBonusEurCents), rate.eurRate, rate.subunitsToUnit)
      const amount = depositBonusOf(deposit.amount, band.percent, cap)
      if (amount <= 0n && band.freeSpins === 0) return undefined
      // The bonus account before the bonus row: the order bets and forfeits take.
      const account = yield* ledger.bonusAccount(deposit.userId, deposit.currency)
      yield* ledger.lockBalances([account.id])
      // One active bonus per currency: the deposit still counts, but earns nothing now.
      if ((yield* repo.lockActive(deposit.userId, deposit.currency)) !== undefined) {
        yield* Effect.logInfo(`deposit ${deposit.id}: a bonus is active in ${deposit.currency}; none granted`)
        return undefined
      }
      let transactionId: string | null = null
      let balance = BigInt(account.balance)
      if (amount > 0n) {
        const house = yield* ledger.systemAccountId("house", BONUS_HOUSE_CODE, deposit.currency)
        const posted = yield* ledger
          .post({
            kind: "bonus.grant",
            idempotencyKey: `bonus:deposit:${deposit.id}`,
            entries: [
              { accountId: house, currency: deposit.currency, amount: -amount },
              { accountId: account.id, currency: deposit.currency, amount },
            ],
            metadata: { depositId: deposit.id, promotionId: promotion.id, userId: deposit.userId },
          })
          .pipe(Effect.catchTag(["LedgerConflict", "InsufficientFunds", "InvalidPosting"], Effect.die))
        transactionId = posted.transactionId
        balance = posted.balances.get(account.id) ?? balance + amount
      }
      const bonusId = yield* repo.insertBonus({
        userId: deposit.userId,
        promotionId: promotion.id,
        currency: deposit.currency,
        depositId: deposit.source === "fiat" ? deposit.id : null,
        cryptoDepositId: deposit.source === "crypto" ? deposit.id : null,
        coupon: deposit.promotionCoupon.trim().toUpperCase(),
        amount,
        percent: band.percent,
        freeSpins: band.freeSpins,
        wageringRequired: amount * BigInt(promotion.wageringMultiple),
        maxBet: eurCentsToMinor(BigInt(promotion.maxBetEurCents), rate.eurRate, rate.subunitsToUnit),
        validDays: promotion.validDays,
        grantTransactionId: transactionId,
      })
      // Its free spins: a grant sent to the game's provider once this commits (the sender's outbox).
      if (band.freeSpins > 0 && promotion.freeSpinGame !== null && promotion.freeSpinBetEurCents !== null) {
        const bet = eurCentsToMinor(BigInt(promotion.freeSpinBetEurCents), rate.eurRate, rate.subunitsToUnit)
        const grant =
          bet > 0n
            ? yield* freeRounds.insert({
                userId: deposit.userId,
                promotionId: promotion.id,
                bonusId,
                freeSpinWalletId: null,
                gameId: promotion.freeSpinGame,
                currency: deposit.currency,
                rounds: band.freeSpins,
                bet,
                validDays: promotion.validDays,
              })
            : undefined
        if (grant === undefined)
          yield* Effect.logWarning(
            `deposit ${deposit.id}: ${band.freeSpins} free spins of ${promotion.freeSpinGame} not granted (game not listed, or a bet of 0 in ${deposit.currency})`,
          )
      }
      // Free-spin winnings waiting for this deposit join the bonus it took.
      const unlocked = yield* freeSpinWallets.unlockWithin(deposit, bonusId)
      if (unlocked !== undefined) balance += unlocked.winnings + unlocked.extra
      return { bonusId, amount, freeSpins: band.freeSpins, balance, unlocked } satisfies BonusGrant
    })

  const chooseForCrypto = (userId: string, currency: string, coupon: string | null) =>
    repo
      .setCryptoChoice(
        userId,
        currency,
        coupon === null || coupon.trim() === "" ? null : coupon.trim().toUpperCase(),
      )
      .pipe(Effect.orDie)

  const awardForCryptoDeposit: DepositAwardShape["awardForCryptoDeposit"] = (deposit) =>
    Effect.gen(function* () {
      const coupon = yield* repo.takeCryptoChoice(deposit.userId, deposit.currency)
      if (coupon === undefined) return undefined
      return yield* awardForDeposit({ ...deposit, source: "crypto", promotionCoupon: coupon })
    })

  return { awardForDeposit, chooseForCrypto, awardForCryptoDeposit }
}
