/**
 * The withdraw request (docs/withdrawals.md "Checks, in order"): what a player may take out, and the
 * request with every check re-done on the server. An accepted request moves the amount from the
 * player's cash to the currency's `pending_withdrawal` account in ONE posting (key
 * `withdrawal:<id>`), so it can no longer be bet.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { type CashoutCheck, CashoutMessages, firstFailingCheck } from "../../services/cashout-rules.ts"
import type { Withdrawable, WithdrawalMethod } from "../../services/cashout-service.ts"
import { displayCode, isValidAddress, networkOf } from "../../services/crypto-rules.ts"
import {
  BonusForfeitRequired,
  CurrencyNotSupported,
  InvalidAddress,
  NotEnoughMoney,
  PaymentsBlocked,
  RateLimited,
  VerificationRequired,
  WalletNotFound,
  WithdrawAmountOutOfRange,
  WithdrawDailyLimitReached,
} from "../../services/errors.ts"
import { scaledLimit } from "../../services/loyalty-rules.ts"
import { formatAmount, MoneyMessages, RATE_SCALE, toEurCents } from "../../services/money-rules.ts"
import { Bonuses } from "../bonuses/Bonuses.ts"
import { AppConfig, type AppConfigShape } from "../config.ts"
import { Kyc } from "../kyc/Kyc.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Loyalty } from "../loyalty/Loyalty.ts"
import { ResponsibleGaming } from "../responsible-gaming/ResponsibleGaming.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { type CurrencyRate, Rates } from "../wallet/Rates.ts"
import { Wallets } from "../wallet/Wallets.ts"
import { isCryptoCurrency, PENDING_CODE, WithdrawMessages } from "./model.ts"
import type { StatusMoves } from "./statusMoves.ts"
import { WithdrawalsRepo } from "./WithdrawalsRepo.ts"

/** EUR cents in a currency's minor units at its rate, rounded down (never above the EUR figure). */
export const minorOfEurCents = (eurCents: bigint, rate: Pick<CurrencyRate, "eurRate" | "subunitsToUnit">) =>
  rate.eurRate <= 0n ? 0n : (eurCents * RATE_SCALE * rate.subunitsToUnit) / (rate.eurRate * 100n)

/**
 * The most one withdrawal may be in a currency, in its minor units: WITHDRAW_MAX_EUR at the
 * currency's rate, rounded down — for every currency, fiat and crypto (docs/withdrawals.md "Limits":
 * no per-currency override, on purpose).
 */
export const maximumOf = (
  config: Pick<AppConfigShape, "withdrawMaxEurCents">,
  rate: Pick<CurrencyRate, "eurRate" | "subunitsToUnit">,
): bigint => minorOfEurCents(config.withdrawMaxEurCents, rate)

export interface WithdrawRequest {
  readonly userId: string
  readonly method: WithdrawalMethod
  readonly currency: string
  readonly amount: bigint
  /** Crypto address, or the e-mail of the Skrill / bank account. */
  readonly destination: string
  /** The player confirmed that this cashout forfeits the active bonus in `currency`. */
  readonly forfeitBonus: boolean
}

export type RequestError =
  | PaymentsBlocked
  | CurrencyNotSupported
  | WalletNotFound
  | WithdrawAmountOutOfRange
  | VerificationRequired
  | WithdrawDailyLimitReached
  | NotEnoughMoney
  | InvalidAddress
  | RateLimited
  | BonusForfeitRequired

export const makeRequestChecks = (moves: StatusMoves) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const repo = yield* WithdrawalsRepo
    const ledger = yield* Ledger
    const rates = yield* Rates
    const wallets = yield* Wallets
    const kyc = yield* Kyc
    const rg = yield* ResponsibleGaming
    const limiter = yield* RateLimiter
    const bonuses = yield* Bonuses
    const loyalty = yield* Loyalty
    const { publish, withdrawalEvent, viewOf } = moves

    /**
     * What may be withdrawn: the cash balance, all of it. Bonus money is never part of it: it is the
     * player's bonus account (docs/bonuses.md), converted to cash only once its wagering is met.
     */
    const withdrawableOf = (_userId: string, _currency: string, balance: bigint) =>
      Effect.succeed(balance > 0n ? balance : 0n)

    const withdrawable = Effect.fn("Withdrawals.withdrawable")(function* (
      userId: string,
      asked: string | undefined,
    ) {
      const currency = asked ?? (yield* repo.defaultCurrency(userId).pipe(Effect.orDie)) ?? "EUR"
      const rate = yield* rates.get(currency)
      if (rate === undefined || !rate.enabled)
        return yield* new CurrencyNotSupported({
          message: WithdrawMessages.unknownCurrency(currency),
          currency,
        })
      const account = yield* ledger.playerAccount(userId, currency).pipe(Effect.orDie)
      const amount = yield* withdrawableOf(
        userId,
        currency,
        account === undefined ? 0n : BigInt(account.balance),
      )
      return { currency, withdrawable: amount.toString() } satisfies Withdrawable
    })

    const request = Effect.fn("Withdrawals.request")(function* (input: WithdrawRequest) {
      const { userId, method, currency, amount, destination, forfeitBonus } = input
      // docs/withdrawals.md "Checks, in order": first what the spec's checks assume (not excluded, a
      // currency of the method's kind, a wallet in it); then the spec's four cashout checks in the
      // spec's order with the statechart's own rule and messages (services/cashout-rules.ts); then
      // the server's own limits: the maximum per request, the daily cap, the rate limit and the
      // address's checksum.
      if ((yield* rg.currentExclusion(userId)) !== null)
        return yield* new PaymentsBlocked({ message: MoneyMessages.blocked })
      const rate = yield* rates.get(currency)
      const wantCrypto = method === "crypto"
      if (rate === undefined || !rate.enabled || (rate.type === "CRYPTO") !== wantCrypto)
        return yield* new CurrencyNotSupported({
          message: wantCrypto ? WithdrawMessages.notCrypto(currency) : WithdrawMessages.notFiat(currency),
          currency,
        })
      if ((yield* wallets.find(userId, currency)) === undefined)
        return yield* new WalletNotFound({ message: WithdrawMessages.noWallet(currency), currency })
      const maximum = maximumOf(config, rate)
      const outOfRange = () =>
        new WithdrawAmountOutOfRange({
          message: CashoutMessages.outOfRange(
            formatAmount(rate.minWithdraw, rate.subunitsToUnit),
            formatAmount(maximum, rate.subunitsToUnit),
            currency,
          ),
          minimum: rate.minWithdraw.toString(),
          maximum: maximum.toString(),
          currency,
        })

      const id = randomUUID()
      const provider = wantCrypto && isCryptoCurrency(currency) ? networkOf[currency] : method
      const created = yield* repo
        .transaction(
          Effect.gen(function* () {
            // One withdrawal decision per player at a time: the balance, the daily cap and the rate
            // limit are read and used under this lock, so parallel requests cannot both spend the
            // same funds (or the same day's allowance).
            yield* repo.lockPlayer(userId)
            // The bonus lock before any account (the order bets with a bonus take): the active bonus
            // cannot change under this request, and forfeiting it below cannot deadlock with a bet.
            yield* bonuses.lockPlayer(userId)
            const account = yield* ledger.playerAccount(userId, currency)
            if (account === undefined)
              return yield* new WalletNotFound({ message: WithdrawMessages.noWallet(currency), currency })
            const balances = yield* ledger.lockBalances([account.id])
            const available = yield* withdrawableOf(userId, currency, balances.get(account.id) ?? 0n)
            const verified = yield* kyc.verified(userId)
            // The spec's four checks (section 5), the first failing one answered: the same rule the
            // cashout statechart runs. Skrill pays the account's own e-mail: no destination typed.
            const failed: CashoutCheck | null = firstFailingCheck({
              amount,
              minWithdraw: rate.minWithdraw,
              verified: verified.id && verified.bill,
              withdrawable: available,
              destination: method === "skrill" ? null : destination,
            })
            switch (failed) {
              case "belowMinimum":
                return yield* outOfRange()
              case "notVerified":
                return yield* new VerificationRequired({ message: CashoutMessages.notVerified })
              case "notEnoughMoney":
                return yield* new NotEnoughMoney({
                  message: CashoutMessages.notEnoughMoney,
                  withdrawable: available.toString(),
                  currency,
                })
              case "destinationMissing":
                // Only a blank crypto address gets here: the contract refuses an empty one (400) and
                // a blank e-mail is not an e-mail. The statechart shows '*' + 'required' for it.
                return yield* new InvalidAddress({ message: CashoutMessages.required, currency })
              case null:
                break
            }
            // The server's own limits, after the spec's checks.
            if (amount > maximum) return yield* outOfRange()
            const used = yield* repo.eurCentsToday(userId)
            // The loyalty level's perk raises the daily cap (docs/loyalty.md).
            const dailyCap = scaledLimit(
              config.withdrawDailyEurCents,
              yield* loyalty.withdrawLimitFactorBps(userId),
            )
            const leftCents = dailyCap - used > 0n ? dailyCap - used : 0n
            const left = minorOfEurCents(leftCents, rate)
            if (amount > left)
              return yield* new WithdrawDailyLimitReached({
                message: CashoutMessages.dailyLimit(formatAmount(left, rate.subunitsToUnit), currency),
                remaining: left.toString(),
                currency,
              })
            // Counted in this transaction: a request refused here or below rolls its count back, so
            // the limit counts accepted withdrawals (refused requests write nothing).
            yield* limiter.consume(`withdraw:${userId}`, config.withdrawRequestLimit).pipe(
              Effect.catchTag("RateLimited", (e) =>
                Effect.fail(
                  new RateLimited({
                    message: CashoutMessages.rateLimited(e.retryAfterSeconds),
                    retryAfterSeconds: e.retryAfterSeconds,
                  }),
                ),
              ),
            )
            if (wantCrypto && !isValidAddress(currency, destination))
              return yield* new InvalidAddress({
                message: CashoutMessages.invalidAddress(displayCode(currency)),
                currency,
              })
            // Last, once the request would otherwise be accepted: an active bonus is forfeited only
            // with the player's consent, in this transaction (docs/bonuses.md).
            const bonus = yield* bonuses.activeIn(userId, currency)
            let forfeited = false
            if (bonus !== undefined) {
              if (!forfeitBonus)
                return yield* new BonusForfeitRequired({
                  message: CashoutMessages.forfeitBonus(
                    bonus.name,
                    formatAmount(BigInt(bonus.balance), rate.subunitsToUnit),
                    displayCode(currency),
                  ),
                  currency,
                  bonusId: bonus.id,
                  name: bonus.name,
                  bonusBalance: bonus.balance,
                })
              yield* bonuses.forfeitWithin(userId, bonus.id, currency)
              forfeited = true
            }
            const row = yield* repo.insert({
              id,
              userId,
              method,
              currency,
              amount,
              amountEurCents: toEurCents(amount, rate.eurRate, rate.subunitsToUnit),
              destination,
              provider,
            })
            yield* repo.addStep(id, "requested", null, `player:${userId}`)
            const pending = yield* ledger.systemAccountId("pending_withdrawal", PENDING_CODE, currency)
            const posted = yield* ledger
              .post({
                kind: "withdrawal",
                idempotencyKey: `withdrawal:${id}`,
                entries: [
                  { accountId: account.id, currency, amount: -amount },
                  { accountId: pending, currency, amount },
                ],
                metadata: { withdrawalId: id, method },
              })
              .pipe(
                Effect.catchTags({
                  InsufficientFunds: () =>
                    Effect.fail(
                      new NotEnoughMoney({
                        message: CashoutMessages.notEnoughMoney,
                        withdrawable: available.toString(),
                        currency,
                      }),
                    ),
                  LedgerConflict: Effect.die,
                  InvalidPosting: Effect.die,
                }),
              )
            return { row, balance: posted.balances.get(account.id) ?? 0n, forfeited }
          }),
        )
        .pipe(Effect.catchTag("SqlError", Effect.die))
      yield* Effect.logInfo(`withdrawal ${id}: ${method} ${amount} ${currency} requested by ${userId}`)
      yield* publish(userId, [
        withdrawalEvent(created.row),
        {
          type: "balance",
          currency,
          balance: created.balance.toString(),
          ...(created.forfeited ? { bonusBalance: "0" } : {}),
        },
      ])
      return yield* viewOf(created.row)
    })

    return { withdrawable, request }
  })
