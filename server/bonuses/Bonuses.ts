/**
 * Bonuses (docs/bonuses.md): which offers a player may take, the deposit bonus a completed deposit
 * earns, forfeits, bonus codes. Every balance change goes through the ledger: a grant moves money
 * from the house's `bonus` account to the player's bonus account; a forfeit moves the bonus
 * balance back. Bonus money is a separate account, so it is never withdrawable.
 *
 * Rules (the terms the player reads):
 * - A deposit bonus is opt-in: it is paid only when the deposit names it (its code as the deposit's
 *   promotionCoupon): the player took it on the deposit step, or typed its code. An offer accepted
 *   before (POST …/promotion, a redeemed or registration code) is that step's default, no more; an
 *   opted-out player is offered nothing there.
 * - The tier is the promotion of the deposit's number (completed deposits before it + 1), its band
 *   by the deposit's EUR value; nothing below the currency's minPromotion; the bonus is capped at
 *   the promotion's cap in the deposit's currency, rounded down.
 * - One active bonus per player and currency: a deposit made while one is active earns none.
 */
import { Clock, Context, Duration, Effect, Layer } from "effect"
import type { SqlError } from "effect/sql"
import { isRunning } from "../../services/bonus-rules.ts"
import type {
  CouponCheck,
  EligiblePromotions,
  MyPromotions,
  PlayerBonus,
  Promotion,
  PromotionChoice,
} from "../../services/bonus-service.ts"
import { CouponRejected, PromotionNotFound, PromotionUnavailable } from "../../services/errors.ts"
import { PlayerEvents } from "../events/PlayerEvents.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Jobs } from "../lifecycle/Jobs.ts"
import { Rates } from "../wallet/Rates.ts"
import { BonusesRepo, type BonusRow, type PromotionRow } from "./BonusesRepo.ts"
import { type BonusGrant, type DepositForBonus, makeDepositAward } from "./depositAward.ts"
import { FreeRoundsRepo } from "./FreeRoundsRepo.ts"
import { FreeSpinWallets } from "./FreeSpinWallets.ts"
import { BONUS_HOUSE_CODE } from "./houseAccounts.ts"
import { type BonusPlayShape, makeBonusPlay } from "./play.ts"

export const BonusMessages = {
  unknownPromotion: "There is no such offer.",
  unknownBonus: "There is no such bonus among yours.",
  activeBonus: "You already have an active bonus in this currency: finish or forfeit it first.",
  notNow: "This offer is not available to you now.",
  couponUnknown: "This bonus code does not exist.",
  couponExpired: "This bonus code is not valid at the moment.",
  couponUsedUp: "This bonus code has been used up.",
  couponAlreadyUsed: "You have already used this bonus code.",
  couponCurrency: "This bonus code is not valid for this currency.",
  couponNotEligible: "This bonus code is not for your next deposit.",
  couponSpinsWaiting:
    "Free spins you were given earlier are still waiting: play them, or unlock what they won, first.",
} as const

export type { BonusGrant, DepositForBonus }
export { BONUS_HOUSE_CODE }

export interface BonusesShape {
  readonly eligible: (userId: string) => Effect.Effect<EligiblePromotions>
  readonly optOut: (userId: string) => Effect.Effect<EligiblePromotions>
  readonly mine: (userId: string) => Effect.Effect<MyPromotions>
  readonly choose: (
    userId: string,
    choice: PromotionChoice,
  ) => Effect.Effect<PromotionChoice, PromotionNotFound | PromotionUnavailable>
  readonly forfeit: (userId: string, bonusId: string) => Effect.Effect<PlayerBonus, PromotionNotFound>
  /** What a code grants; with a player, also whether that player may use it for their next deposit. */
  readonly checkCoupon: (code: string, userId: string | null) => Effect.Effect<CouponCheck, CouponRejected>
  /** Takes a code for the player's next deposit (the offer it names counts as accepted). */
  readonly redeemCoupon: (userId: string, code: string) => Effect.Effect<CouponCheck, CouponRejected>
  /**
   * Pays the bonus a completed deposit earned, if any — inside the caller's transaction, after the
   * deposit's credit (the deposit row is locked by the caller). Undefined: no bonus.
   */
  readonly awardForDeposit: (
    deposit: DepositForBonus,
  ) => Effect.Effect<BonusGrant | undefined, SqlError.SqlError>
  /**
   * Keeps the code named with a crypto address request (POST …/crypto/deposit's promotionCoupon) for
   * the next transfer credited in that currency, a day long; null or blank: no bonus for it.
   */
  readonly chooseForCrypto: (userId: string, currency: string, coupon: string | null) => Effect.Effect<void>
  /**
   * A crypto transfer being credited (inside the watcher's transaction, after the credit; the caller
   * holds `lockPlayer`): pays the bonus of the code chosen for it, if any, consuming the choice.
   */
  readonly awardForCryptoDeposit: (deposit: {
    readonly id: string
    readonly userId: string
    readonly currency: string
    readonly amount: bigint
    readonly amountEurCents: bigint
  }) => Effect.Effect<BonusGrant | undefined, SqlError.SqlError>
  /**
   * Serialises what touches one player's bonus (bets, wins, deposits, forfeits) for the rest of the
   * caller's transaction. Taken before the player's accounts are locked.
   */
  readonly lockPlayer: (userId: string) => Effect.Effect<void, SqlError.SqlError>
  /** The player's active bonus in a currency, with its balance (the caller holds `lockPlayer`). */
  readonly activeIn: (
    userId: string,
    currency: string,
  ) => Effect.Effect<PlayerBonus | undefined, SqlError.SqlError>
  /**
   * Forfeits the active bonus inside the caller's transaction (which holds `lockPlayer`): what a
   * withdrawal the player confirmed does. The bonus money moved back to the house.
   */
  readonly forfeitWithin: (
    userId: string,
    bonusId: string,
    currency: string,
  ) => Effect.Effect<bigint, SqlError.SqlError>
  /** Pushes the wallet's cash and bonus balances to the player's open tabs (after a commit). */
  readonly publishWallet: (userId: string, currency: string) => Effect.Effect<void>
  /** Ends the active bonuses past their end (the sweeper runs it every minute); how many. */
  readonly expireDue: Effect.Effect<number>
  /** What the game wallet asks when a player with a bonus plays (./play.ts). */
  readonly play: BonusPlayShape
}

const toPromotion = (p: PromotionRow, accepted: boolean | null): Promotion => ({
  id: p.id,
  kind: p.kind,
  name: p.name,
  description: p.description,
  code: p.code,
  depositNumber: p.depositNumber,
  bands: p.bands.map((b) => ({ upToEurCents: b.upToEurCents, percent: b.percent, freeSpins: b.freeSpins })),
  maxBonusEurCents: p.maxBonusEurCents,
  wageringMultiple: p.wageringMultiple,
  maxBetEurCents: p.maxBetEurCents,
  validDays: p.validDays,
  freeSpinGame: p.freeSpinGame,
  ...(p.kind === "free_spins"
    ? { unlockDepositEurCents: p.unlockDepositEurCents, extraBonusPercent: p.extraBonusPercent }
    : {}),
  currencies: p.currencies,
  endsAt: p.endsAt?.toISOString() ?? null,
  accepted,
})

export const toPlayerBonus = (b: BonusRow): PlayerBonus => ({
  id: b.id,
  promotionId: b.promotionId,
  name: b.name,
  status: b.status,
  currency: b.currency,
  amount: b.amount,
  percent: b.percent,
  freeSpins: b.freeSpins,
  wageringRequired: b.wageringRequired,
  wagered: b.wagered,
  maxBet: b.maxBet,
  balance: b.balance,
  expiresAt: b.expiresAt.toISOString(),
  createdAt: b.createdAt.toISOString(),
  endedAt: b.endedAt?.toISOString() ?? null,
  endedAmount: b.endedAmount,
  freeRounds: b.freeRounds,
})

const make = Effect.gen(function* () {
  const repo = yield* BonusesRepo
  const freeRounds = yield* FreeRoundsRepo
  const freeSpinWallets = yield* FreeSpinWallets
  const ledger = yield* Ledger
  const rates = yield* Rates
  const events = yield* PlayerEvents

  /** Tells the player's pages the wallet's cash and bonus money after a bonus ended. */
  const publishWallet = (userId: string, currency: string) =>
    Effect.gen(function* () {
      const cash = yield* ledger.playerAccount(userId, currency)
      const bonus = yield* repo.bonusBalance(userId, currency)
      if (cash === undefined) return
      yield* events.publish(userId, {
        type: "balance",
        currency,
        balance: cash.balance,
        bonusBalance: bonus.toString(),
      })
    }).pipe(Effect.catchCause((cause) => Effect.logWarning("bonuses: a wallet push failed", cause)))

  /**
   * The offers this player may take for their next deposit (the deposit number's promotion, and
   * promotions for any deposit), running and with uses left for them.
   */
  const offersFor = (userId: string) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const [all, completed, choices, wallets] = yield* Effect.all([
        repo.promotions(),
        repo.completedDepositsBefore(userId, null),
        repo.choicesOf(userId),
        repo.walletCurrencies(userId),
      ])
      const offers: Array<{ readonly promotion: PromotionRow; readonly accepted: boolean | null }> = []
      for (const p of all) {
        // Free spins are granted (on joining, or by their code), never taken at a deposit.
        if (p.kind !== "deposit_bonus" || !isRunning(p, now)) continue
        if (p.depositNumber !== null && p.depositNumber !== completed + 1) continue
        // Only for currencies none of the player's wallets hold: not theirs to take.
        if (p.currencies !== null && !wallets.some((c) => p.currencies?.includes(c) === true)) continue
        if ((yield* repo.grantsTo(userId, p.id)) >= p.maxUsesPerPlayer) continue
        offers.push({ promotion: p, accepted: choices.get(p.id) ?? null })
      }
      return { offers, completed }
    })

  const eligible = (userId: string) =>
    Effect.gen(function* () {
      if (yield* repo.optedOut(userId)) return { optedOut: true, promotions: [] } satisfies EligiblePromotions
      const { offers } = yield* offersFor(userId)
      return {
        optedOut: false,
        promotions: offers.map((o) => toPromotion(o.promotion, o.accepted)),
      } satisfies EligiblePromotions
    }).pipe(Effect.orDie)

  const optOut = (userId: string) =>
    repo
      .setOptedOut(userId, true)
      .pipe(Effect.as({ optedOut: true, promotions: [] } satisfies EligiblePromotions), Effect.orDie)

  const mine = (userId: string) =>
    Effect.all([repo.bonusesOf(userId).pipe(Effect.orDie), freeSpinWallets.of(userId)]).pipe(
      Effect.map(
        ([rows, wallets]) =>
          ({ bonuses: rows.map(toPlayerBonus), freeSpinWallets: wallets }) satisfies MyPromotions,
      ),
    )

  const choose = (userId: string, choice: PromotionChoice) =>
    Effect.gen(function* () {
      const promotion = yield* repo.promotionById(choice.id)
      if (promotion === undefined)
        return yield* new PromotionNotFound({ message: BonusMessages.unknownPromotion, id: choice.id })
      if (choice.accepted) {
        const { offers } = yield* offersFor(userId)
        if (!offers.some((o) => o.promotion.id === choice.id))
          return yield* new PromotionUnavailable({ message: BonusMessages.notNow, id: choice.id })
        // Taking an offer is opting in again.
        yield* repo.setOptedOut(userId, false)
      }
      yield* repo.setChoice(userId, choice.id, choice.accepted)
      return { id: choice.id, accepted: choice.accepted } satisfies PromotionChoice
    }).pipe(Effect.catchTag("SqlError", Effect.die))

  /**
   * Ends an active bonus (the caller holds the player's bonus lock): its whole bonus balance goes to
   * the player's cash when completed, back to the house when forfeited or expired. Cash is never
   * touched otherwise. Locks the bonus account before the bonus row (the play's order). A
   * conversion records the bet that met the wagering (`convertedBy`): a rollback may undo it.
   */
  const end = (
    bonusId: string,
    userId: string,
    currency: string,
    status: "completed" | "forfeited" | "expired",
    convertedBy?: string,
  ) =>
    Effect.gen(function* () {
      const account = yield* ledger.bonusAccount(userId, currency)
      const cash = status === "completed" ? yield* ledger.playerAccount(userId, currency) : undefined
      const locked = yield* ledger.lockBalances(cash === undefined ? [account.id] : [account.id, cash.id])
      const bonus = yield* repo.lockOwn(userId, bonusId)
      if (bonus === undefined || bonus.status !== "active") return undefined
      const balance = locked.get(account.id) ?? 0n
      let transactionId: string | null = null
      if (balance > 0n) {
        const to =
          cash !== undefined ? cash.id : yield* ledger.systemAccountId("house", BONUS_HOUSE_CODE, currency)
        const posted = yield* ledger
          .post({
            kind:
              status === "completed"
                ? "bonus.convert"
                : `bonus.${status === "forfeited" ? "forfeit" : "expire"}`,
            // A bonus whose conversion was undone ends again: each end has its own key.
            idempotencyKey:
              bonus.reversals === 0 ? `bonus:end:${bonus.id}` : `bonus:end:${bonus.id}:${bonus.reversals}`,
            entries: [
              { accountId: account.id, currency, amount: -balance },
              { accountId: to, currency, amount: balance },
            ],
            metadata: { bonusId: bonus.id, userId },
          })
          .pipe(Effect.catchTag(["LedgerConflict", "InsufficientFunds", "InvalidPosting"], Effect.die))
        transactionId = posted.transactionId
      }
      yield* repo.endBonus({
        id: bonus.id,
        status,
        endedAmount: balance,
        transactionId,
        ...(convertedBy === undefined ? {} : { convertedBy }),
      })
      // Spins not played yet go with a forfeited or expired bonus; a converted one keeps them (their
      // winnings are then cash).
      if (status !== "completed") yield* freeRounds.cancelForBonus(bonus.id)
      return { bonus, moved: balance }
    })

  const forfeit = (userId: string, bonusId: string) =>
    repo
      .transaction(
        Effect.gen(function* () {
          const found = /^[0-9a-f-]{36}$/i.test(bonusId) ? yield* repo.bonusById(bonusId) : undefined
          if (found === undefined || found.userId !== userId || found.status !== "active")
            return yield* new PromotionNotFound({ message: BonusMessages.unknownBonus, id: bonusId })
          yield* repo.lockPlayer(userId)
          const ended = yield* end(found.id, userId, found.currency, "forfeited")
          if (ended === undefined)
            return yield* new PromotionNotFound({ message: BonusMessages.unknownBonus, id: bonusId })
          const after = yield* repo.bonusById(found.id)
          if (after === undefined) return yield* Effect.die(new Error(`bonus ${found.id} vanished`))
          return toPlayerBonus(after)
        }),
      )
      .pipe(
        Effect.tap((bonus) => publishWallet(userId, bonus.currency)),
        Effect.catchTag("SqlError", Effect.die),
      )

  /** Bonuses past their end are expired: their balance returns to the house. */
  const expireDue = Effect.gen(function* () {
    yield* freeRounds.expireDue()
    yield* freeSpinWallets.expireDue
    const due = yield* repo.expiredActive(100)
    for (const b of due) {
      yield* repo.transaction(
        Effect.gen(function* () {
          yield* repo.lockPlayer(b.userId)
          yield* end(b.id, b.userId, b.currency, "expired")
        }),
      )
      yield* publishWallet(b.userId, b.currency)
    }
    return due.length
  }).pipe(Effect.orDie)

  const play = makeBonusPlay({
    repo,
    ledger,
    convert: (bonusId, userId, currency, by) =>
      end(bonusId, userId, currency, "completed", by).pipe(Effect.map((ended) => ended?.moved ?? 0n)),
    cancelSpins: freeRounds.cancelForBonus,
  })

  /** Why the code grants nothing to this player now, or the promotion it names. */
  const couponFor = (code: string, userId: string | null) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const reject = (reason: CouponRejected["reason"], message: string) =>
        Effect.fail(new CouponRejected({ reason, message }))
      const promotion = yield* repo.promotionByCode(code)
      if (promotion === undefined || !promotion.active)
        return yield* reject("unknown", BonusMessages.couponUnknown)
      if (
        (promotion.startsAt !== null && now < promotion.startsAt.getTime()) ||
        (promotion.endsAt !== null && promotion.endsAt.getTime() <= now)
      )
        return yield* reject("expired", BonusMessages.couponExpired)
      if (promotion.maxUses !== null && promotion.uses >= promotion.maxUses)
        return yield* reject("used-up", BonusMessages.couponUsedUp)
      if (userId !== null) {
        if ((yield* repo.grantsTo(userId, promotion.id)) >= promotion.maxUsesPerPlayer)
          return yield* reject("already-used", BonusMessages.couponAlreadyUsed)
        const completed = yield* repo.completedDepositsBefore(userId, null)
        if (promotion.depositNumber !== null && promotion.depositNumber !== completed + 1)
          return yield* reject("not-eligible", BonusMessages.couponNotEligible)
        // For other currencies only: none of this player's wallets could take it.
        if (promotion.currencies !== null) {
          const mine = yield* repo.walletCurrencies(userId)
          if (!mine.some((c) => promotion.currencies?.includes(c) === true))
            return yield* reject("currency", BonusMessages.couponCurrency)
        }
      }
      return promotion
    }).pipe(Effect.catchTag("SqlError", Effect.die))

  const checkCoupon = (code: string, userId: string | null) =>
    couponFor(code, userId).pipe(
      Effect.map(
        (promotion) =>
          ({
            couponName: code.trim().toUpperCase(),
            promotion: toPromotion(promotion, null),
          }) satisfies CouponCheck,
      ),
    )

  const redeemCoupon = (userId: string, code: string) =>
    Effect.gen(function* () {
      const promotion = yield* couponFor(code, userId)
      // A free-spins code grants its spins now, in the player's currency.
      if (promotion.kind === "free_spins") {
        const currency = yield* repo.currencyOf(userId).pipe(Effect.orDie)
        const granted =
          currency === undefined
            ? undefined
            : yield* freeSpinWallets.grant(userId, promotion, currency).pipe(Effect.orDie)
        if (granted === undefined)
          return yield* new CouponRejected({
            reason: "not-eligible",
            message: BonusMessages.couponSpinsWaiting,
          })
      }
      yield* repo.setChoice(userId, promotion.id, true).pipe(Effect.orDie)
      yield* repo.setOptedOut(userId, false).pipe(Effect.orDie)
      return {
        couponName: code.trim().toUpperCase(),
        promotion: toPromotion(promotion, true),
      } satisfies CouponCheck
    })

  const { awardForDeposit, chooseForCrypto, awardForCryptoDeposit } = makeDepositAward({
    repo,
    ledger,
    rates,
    freeRounds,
    freeSpinWallets,
  })

  const jobs = yield* Jobs
  // The sweeper: every minute, once for the cluster (its lease); each bonus ends once whoever runs
  // it (its row lock decides).
  yield* jobs.every("bonuses.expiry", expireDue, Duration.minutes(1), { firstAfter: Duration.seconds(20) })

  return {
    chooseForCrypto,
    awardForCryptoDeposit,
    eligible,
    optOut,
    mine,
    choose,
    forfeit,
    checkCoupon,
    redeemCoupon,
    awardForDeposit,
    lockPlayer: repo.lockPlayer,
    activeIn: (userId, currency) =>
      repo
        .activeIn(userId, currency)
        .pipe(Effect.map((b) => (b === undefined ? undefined : toPlayerBonus(b)))),
    forfeitWithin: (userId, bonusId, currency) =>
      end(bonusId, userId, currency, "forfeited").pipe(Effect.map((ended) => ended?.moved ?? 0n)),
    publishWallet,
    expireDue,
    play,
  } satisfies BonusesShape
})

export class Bonuses extends Context.Service<Bonuses, BonusesShape>()("casino/server/Bonuses") {
  // FreeRoundsRepo and FreeSpinWallets stay in the context: the game wallet, the sender, the
  // registration and the profile's fund entries use them too.
  static readonly layer = Layer.effect(Bonuses, make).pipe(
    Layer.provide(BonusesRepo.layer),
    Layer.provideMerge(FreeSpinWallets.layer),
    Layer.provideMerge(FreeRoundsRepo.layer),
  )
}
