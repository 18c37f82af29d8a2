/**
 * The free-spin wallet (docs/bonuses.md, "The free-spin wallet"; spec section 3's
 * `freeSpinWallet.winUnlockConfig`): free spins granted without a deposit — the welcome banner's
 * spins on registration, or a free-spins code — whose winnings are held in an account of their own
 * (`player_free_spins`: neither playable nor withdrawable) until a deposit unlocks them.
 *
 * Rules (the terms the player reads):
 * - A free-spins promotion is granted once per player, in the player's currency; its terms are
 *   fixed on the wallet when granted.
 * - The deposit that unlocks: while the wallet holds winnings, in its currency, worth at least the
 *   unlock bound in EUR at its rate, and taking a bonus (the deposit step's choice: a bonus is
 *   never forced, and the winnings join that bonus). It moves the winnings (up to the cap) and an extra bonus of the
 *   wallet's percent of the deposit (in what the cap leaves) into the deposit's bonus, whose
 *   amount and wagering requirement grow by them (× the wallet's multiple); winnings above the cap
 *   go back to the house. Spins still to play then pay into that bonus like its own.
 * - Past its end, a waiting wallet expires: its winnings go back to the house and its spins are
 *   withdrawn from the provider.
 *
 * Every balance change is a ledger posting; the caller's player bonus lock is held throughout.
 */
import { Clock, Context, Effect, Layer, Schema } from "effect"
import type { SqlError } from "effect/sql"
import { eurCentsToMinor, eurCentsToMinorUp, isRunning, unlockOf } from "../../services/bonus-rules.ts"
import type { FreeSpinWallet, WinUnlockConfig } from "../../services/bonus-service.ts"
import type { Fund } from "../../services/profile-service.ts"
import { Ledger, type PostingEntry } from "../ledger/Ledger.ts"
import { Rates } from "../wallet/Rates.ts"
import { BonusesRepo, type PromotionRow } from "./BonusesRepo.ts"
import { FreeRoundsRepo } from "./FreeRoundsRepo.ts"
import { FreeSpinWalletRepo, type FreeSpinWalletRow } from "./FreeSpinWalletRepo.ts"
import { BONUS_HOUSE_CODE, GAMES_HOUSE_CODE } from "./houseAccounts.ts"

/** What a deposit moved out of a free-spin wallet into its bonus. */
export interface Unlock {
  readonly walletId: string
  readonly winnings: bigint
  readonly extra: bigint
}

export interface FreeSpinWalletsShape {
  /**
   * Grants the running free-spins promotions without a code (the welcome spins) to a new player,
   * in their currency. Idempotent: a promotion is granted once per player. Never fails: a
   * registration does not fail for want of spins (logged).
   */
  readonly onRegistration: (userId: string) => Effect.Effect<ReadonlyArray<string>>
  /** Grants one free-spins promotion (a code the player redeemed); undefined: not granted. */
  readonly grant: (
    userId: string,
    promotion: PromotionRow,
    currency: string,
  ) => Effect.Effect<string | undefined, SqlError.SqlError>
  /**
   * Inside a deposit's transaction that granted `bonusId` (the caller holds the player's bonus
   * lock): moves the waiting winnings the deposit unlocks into that bonus. Undefined: nothing
   * waiting, or the deposit does not meet the wallet's terms.
   */
  readonly unlockWithin: (
    deposit: {
      readonly source: "fiat" | "crypto"
      readonly id: string
      readonly userId: string
      readonly currency: string
      readonly amount: bigint
      readonly amountEurCents: bigint
    },
    bonusId: string,
  ) => Effect.Effect<Unlock | undefined, SqlError.SqlError>
  /** The player's wallets, newest first, as the contract carries them. */
  readonly of: (userId: string) => Effect.Effect<ReadonlyArray<FreeSpinWallet>>
  /** The deposit that unlocks the wallet waiting in `currency`, or null (the fund entry's). */
  readonly waitingIn: (
    userId: string,
  ) => Effect.Effect<ReadonlyMap<string, { readonly config: WinUnlockConfig; readonly balance: string }>>
  /** The fund entries with each currency's waiting free-spin wallet (spec section 3). */
  readonly withFund: (userId: string, fund: Fund) => Effect.Effect<Fund>
  /** Ends the waiting wallets past their end (the bonus sweeper runs it); how many. */
  readonly expireDue: Effect.Effect<number>
}

/** A promotion's free-spin game is not in the catalogue (an operator's mistake): nothing granted. */
class GameNotListed extends Schema.TaggedError<GameNotListed>()("GameNotListed", { game: Schema.String }) {}

const make = Effect.gen(function* () {
  const repo = yield* FreeSpinWalletRepo
  const bonuses = yield* BonusesRepo
  const grants = yield* FreeRoundsRepo
  const ledger = yield* Ledger
  const rates = yield* Rates

  /** The wallet's unlock terms in its currency at today's rate (null: the currency has no rate). */
  const configOf = (w: FreeSpinWalletRow) =>
    Effect.gen(function* () {
      const rate = yield* rates.get(w.currency)
      if (rate === undefined) return null
      return {
        config: {
          depositAmount: eurCentsToMinorUp(
            BigInt(w.unlockDepositEurCents),
            rate.eurRate,
            rate.subunitsToUnit,
          ).toString(),
          depositAmountInEur: w.unlockDepositEurCents,
          depositCurrency: w.currency,
          extraBonusPercent: w.extraBonusPercent,
        } satisfies WinUnlockConfig,
        maxUnlock: eurCentsToMinor(BigInt(w.maxUnlockEurCents), rate.eurRate, rate.subunitsToUnit),
      }
    })

  const grant = (userId: string, promotion: PromotionRow, currency: string) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      if (promotion.kind !== "free_spins" || !isRunning(promotion, now)) return undefined
      if (promotion.currencies !== null && !promotion.currencies.includes(currency)) return undefined
      const spins = promotion.bands.reduce((most, b) => Math.max(most, b.freeSpins), 0)
      if (spins <= 0 || promotion.freeSpinGame === null || promotion.freeSpinBetEurCents === null)
        return undefined
      const rate = yield* rates.get(currency)
      if (rate === undefined) return undefined
      const bet = eurCentsToMinor(BigInt(promotion.freeSpinBetEurCents), rate.eurRate, rate.subunitsToUnit)
      if (bet <= 0n) return undefined
      const game = promotion.freeSpinGame
      return yield* repo.transaction(
        Effect.gen(function* () {
          yield* bonuses.lockPlayer(userId)
          if ((yield* bonuses.grantsTo(userId, promotion.id)) >= promotion.maxUsesPerPlayer) return undefined
          const walletId = yield* repo.insert({
            userId,
            promotionId: promotion.id,
            currency,
            // No unlock bound set: any deposit taking a bonus unlocks (1 cent is the least there is).
            unlockDepositEurCents: BigInt(promotion.unlockDepositEurCents ?? "1"),
            extraBonusPercent: promotion.extraBonusPercent,
            maxUnlockEurCents: BigInt(promotion.maxBonusEurCents),
            wageringMultiple: promotion.wageringMultiple,
            validDays: promotion.validDays,
          })
          if (walletId === undefined) return undefined
          const grantId = yield* grants.insert({
            userId,
            promotionId: promotion.id,
            bonusId: null,
            freeSpinWalletId: walletId,
            gameId: game,
            currency,
            rounds: spins,
            bet,
            validDays: promotion.validDays,
          })
          // Spins of a game that is not listed cannot be played: no wallet either (rolled back).
          if (grantId === undefined) return yield* Effect.fail(new GameNotListed({ game }))
          return walletId
        }),
      )
    }).pipe(
      Effect.catchTag("GameNotListed", (e) =>
        Effect.logWarning(
          `free spins of ${promotion.id} not granted to ${userId}: ${e.game} is not listed`,
        ).pipe(Effect.as(undefined)),
      ),
    )

  const onRegistration = (userId: string) =>
    Effect.gen(function* () {
      const granted: Array<string> = []
      const currency = yield* bonuses.currencyOf(userId)
      if (currency === undefined) return granted
      for (const p of yield* bonuses.promotions()) {
        if (p.kind !== "free_spins" || p.code !== null) continue
        const id = yield* grant(userId, p, currency)
        if (id !== undefined) granted.push(id)
      }
      return granted as ReadonlyArray<string>
    }).pipe(
      Effect.catchCause((cause) =>
        Effect.logError(`welcome free spins of ${userId} not granted`, cause).pipe(Effect.as([])),
      ),
    )

  const unlockWithin: FreeSpinWalletsShape["unlockWithin"] = (deposit, bonusId) =>
    Effect.gen(function* () {
      const wallet = yield* repo.lockWaiting(deposit.userId, deposit.currency)
      if (wallet === undefined) return undefined
      if (deposit.amountEurCents < BigInt(wallet.unlockDepositEurCents)) return undefined
      const terms = yield* configOf(wallet)
      if (terms === null) return undefined
      const held = yield* ledger.freeSpinsAccount(deposit.userId, deposit.currency)
      const bonus = yield* ledger.bonusAccount(deposit.userId, deposit.currency)
      const balances = yield* ledger.lockBalances([held.id, bonus.id])
      const winnings = balances.get(held.id) ?? 0n
      // Nothing won (yet): nothing to unlock; the wallet keeps waiting with its spins.
      if (winnings === 0n) return undefined
      const moved = unlockOf({
        winnings,
        deposit: deposit.amount,
        extraPercent: wallet.extraBonusPercent,
        cap: terms.maxUnlock,
      })
      const entries: Array<PostingEntry> = []
      const add = (accountId: string, amount: bigint) => {
        if (amount !== 0n) entries.push({ accountId, currency: deposit.currency, amount })
      }
      add(held.id, -winnings)
      add(bonus.id, moved.winnings + moved.extra)
      if (moved.returned > 0n)
        add(yield* ledger.systemAccountId("house", GAMES_HOUSE_CODE, deposit.currency), moved.returned)
      if (moved.extra > 0n)
        add(yield* ledger.systemAccountId("house", BONUS_HOUSE_CODE, deposit.currency), -moved.extra)
      let transactionId: string | null = null
      if (entries.length > 0) {
        const posted = yield* ledger
          .post({
            kind: "bonus.unlock",
            idempotencyKey: `freespins:unlock:${wallet.id}`,
            entries,
            metadata: { walletId: wallet.id, depositId: deposit.id, bonusId, userId: deposit.userId },
          })
          .pipe(Effect.catchTag(["LedgerConflict", "InsufficientFunds", "InvalidPosting"], Effect.die))
        transactionId = posted.transactionId
      }
      const joined = moved.winnings + moved.extra
      yield* repo.addToBonus(bonusId, joined, joined * BigInt(wallet.wageringMultiple))
      yield* repo.unlocked({
        id: wallet.id,
        source: deposit.source,
        depositId: deposit.id,
        bonusId,
        winnings: moved.winnings,
        extra: moved.extra,
        endedAmount: winnings,
        transactionId,
      })
      return { walletId: wallet.id, winnings: moved.winnings, extra: moved.extra } satisfies Unlock
    })

  const toContract = (w: FreeSpinWalletRow) =>
    Effect.gen(function* () {
      const terms = yield* configOf(w)
      return {
        id: w.id,
        promotionId: w.promotionId,
        name: w.name,
        currency: w.currency,
        status: w.status,
        balance: w.balance,
        winUnlockConfig: terms?.config ?? {
          depositAmount: "0",
          depositAmountInEur: w.unlockDepositEurCents,
          depositCurrency: w.currency,
          extraBonusPercent: w.extraBonusPercent,
        },
        maxUnlock: (terms?.maxUnlock ?? 0n).toString(),
        unlockedWinnings: w.unlockedWinnings,
        extraBonus: w.extraBonus,
        bonusId: w.bonusId,
        freeRounds: w.freeRounds,
        expiresAt: w.expiresAt.toISOString(),
        createdAt: w.createdAt.toISOString(),
      } satisfies FreeSpinWallet
    })

  const of = (userId: string) =>
    repo.of(userId).pipe(Effect.flatMap(Effect.forEach(toContract)), Effect.orDie)

  const waitingIn = (userId: string) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const waiting = new Map<string, { readonly config: WinUnlockConfig; readonly balance: string }>()
      for (const w of yield* repo.of(userId)) {
        if (w.status !== "locked" || w.expiresAt.getTime() <= now) continue
        const terms = yield* configOf(w)
        if (terms !== null) waiting.set(w.currency, { config: terms.config, balance: w.balance })
      }
      return waiting as ReadonlyMap<string, { readonly config: WinUnlockConfig; readonly balance: string }>
    }).pipe(Effect.orDie)

  /** A waiting wallet past its end: its winnings back to the house, its spins withdrawn. */
  const expire = (id: string, userId: string, currency: string) =>
    repo.transaction(
      Effect.gen(function* () {
        yield* bonuses.lockPlayer(userId)
        const held = yield* ledger.freeSpinsAccount(userId, currency)
        const balances = yield* ledger.lockBalances([held.id])
        const wallet = yield* repo.lock(id)
        if (wallet === undefined || wallet.status !== "locked") return
        const winnings = balances.get(held.id) ?? 0n
        let transactionId: string | null = null
        if (winnings > 0n) {
          const house = yield* ledger.systemAccountId("house", GAMES_HOUSE_CODE, currency)
          const posted = yield* ledger
            .post({
              kind: "bonus.free_spins_expire",
              idempotencyKey: `freespins:expire:${id}`,
              entries: [
                { accountId: held.id, currency, amount: -winnings },
                { accountId: house, currency, amount: winnings },
              ],
              metadata: { walletId: id, userId },
            })
            .pipe(Effect.catchTag(["LedgerConflict", "InsufficientFunds", "InvalidPosting"], Effect.die))
          transactionId = posted.transactionId
        }
        yield* repo.expired({ id, endedAmount: winnings, transactionId })
      }),
    )

  const expireDue = Effect.gen(function* () {
    const due = yield* repo.expiredWaiting(100)
    for (const w of due) yield* expire(w.id, w.userId, w.currency)
    return due.length
  }).pipe(Effect.orDie)

  const withFund = (userId: string, fund: Fund) =>
    waitingIn(userId).pipe(
      Effect.map((waiting) =>
        fund.map((entry) => {
          const w = waiting.get(entry.currency)
          return w === undefined
            ? entry
            : { ...entry, freeSpinWallet: { winUnlockConfig: w.config, balance: w.balance } }
        }),
      ),
    )

  return {
    onRegistration,
    grant,
    unlockWithin,
    of,
    waitingIn,
    withFund,
    expireDue,
  } satisfies FreeSpinWalletsShape
})

export class FreeSpinWallets extends Context.Service<FreeSpinWallets, FreeSpinWalletsShape>()(
  "casino/server/FreeSpinWallets",
) {
  static readonly layer = Layer.effect(FreeSpinWallets, make).pipe(
    Layer.provide(FreeSpinWalletRepo.layer),
    Layer.provide(BonusesRepo.layer),
  )
}
