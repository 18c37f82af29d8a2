/**
 * Handlers of the wallet group (services/api/wallet-service.ts): add a wallet / make it the default
 * (both answer the fund list), deposit minimums and withdrawal minimums per currency, the player's
 * completed deposits, the card gateways offered to this visitor, and the fiat history. The signed-in
 * calls take the player from the session, never from the request.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CasinoApi } from "../../services/api.ts"
import { CurrencyNotSupported } from "../../services/errors.ts"
import { formatDecimal } from "../../services/money-rules.ts"
import { type CardGateway, cardGateways } from "../../services/wallet-service.ts"
import { FreeSpinWallets } from "../bonuses/FreeSpinWallets.ts"
import { AppConfig } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import { Deposits } from "../payments/Deposits.ts"
import { Gateways } from "../payments/Gateways.ts"
import { Profile } from "../profile/Profile.ts"
import { requireSession } from "../users/auth.ts"
import { Sessions } from "../users/Sessions.ts"
import { minorOfEurCents, Withdrawals } from "../withdrawals/Withdrawals.ts"
import { Rates } from "./Rates.ts"
import { Wallets } from "./Wallets.ts"

const DAY_MS = 24 * 60 * 60 * 1000

/** yyyy-mm-dd → UTC midnight, or undefined for a day that does not exist (2025-02-30). */
export const parseDay = (text: string): Date | undefined => {
  const [y, m, d] = text.split("-").map(Number)
  if (y === undefined || m === undefined || d === undefined) return undefined
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
    ? date
    : undefined
}

/** The history window: [from 00:00, the day after `to` 00:00) UTC; absent = the last 30 days. */
export const historyWindow = (from: string | undefined, to: string | undefined, now: Date) => {
  const toDay =
    to === undefined
      ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
      : parseDay(to)
  if (toDay === undefined) return undefined
  const fromDay = from === undefined ? new Date(toDay.getTime() - 29 * DAY_MS) : parseDay(from)
  if (fromDay === undefined) return undefined
  return { from: fromDay, to: new Date(toDay.getTime() + DAY_MS) }
}

const isCardGateway = (code: string): code is CardGateway =>
  (cardGateways as ReadonlyArray<string>).includes(code)

const notSupported = (currency: string) =>
  new CurrencyNotSupported({ message: `${currency} is not a currency of the list.`, currency })

export const WalletHandlers = HttpApiBuilder.group(
  CasinoApi,
  "wallet",
  Effect.fn(function* (handlers) {
    const sessions = yield* Sessions
    const wallets = yield* Wallets
    const profile = yield* Profile
    const freeSpins = yield* FreeSpinWallets
    const rates = yield* Rates
    const deposits = yield* Deposits
    const gateways = yield* Gateways
    const geo = yield* Geo
    const withdrawals = yield* Withdrawals
    const config = yield* AppConfig

    return handlers
      .handle("addCurrency", ({ request, payload }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          yield* wallets.add(session.user.id, payload.currency)
          return yield* freeSpins.withFund(session.user.id, yield* profile.fund(session.user.id))
        }),
      )
      .handle("setDefaultCurrency", ({ request, payload }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          yield* wallets.setDefault(session.user.id, payload.currency)
          return yield* freeSpins.withFund(session.user.id, yield* profile.fund(session.user.id))
        }),
      )
      .handle("depositMinimums", ({ params }) =>
        Effect.gen(function* () {
          const rate = yield* rates.get(params.currency)
          if (rate === undefined || !rate.enabled) return yield* notSupported(params.currency)
          return {
            currency: rate.currency,
            minPromotion: rate.minPromotion.toString(),
            minDeposit: rate.minDeposit.toString(),
            eurRate: formatDecimal(rate.eurRate),
          }
        }),
      )
      .handle("withdrawLimits", ({ params }) =>
        Effect.gen(function* () {
          const rate = yield* rates.get(params.currency)
          if (rate === undefined || !rate.enabled) return yield* notSupported(params.currency)
          return {
            currency: rate.currency,
            minWithdraw: rate.minWithdraw.toString(),
            maxWithdraw: minorOfEurCents(config.withdrawMaxEurCents, rate).toString(),
            dailyLimit: minorOfEurCents(config.withdrawDailyEurCents, rate).toString(),
          }
        }),
      )
      .handle("totalDeposits", ({ request }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          return { deposits: yield* deposits.completed(session.user.id) }
        }),
      )
      .handle("gateways", ({ request }) =>
        Effect.gen(function* () {
          yield* requireSession(sessions, request)
          const where = yield* geo.lookup(geo.clientIp(request))
          return gateways.cardCascade(where.isoCode).filter(isCardGateway)
        }),
      )
      .handle("fiatHistory", ({ request, params, query }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          const window = historyWindow(query.from, query.to, new Date())
          // An impossible day (2025-02-30) or from after to: nothing lies in it.
          if (window === undefined || window.from >= window.to) return []
          // Skrill and bank withdrawals, deposit-shaped (Withdrawals.fiatHistory).
          if (params.type === "withdraw")
            return yield* withdrawals.fiatHistory(session.user.id, window.from, window.to)
          return yield* deposits.history(session.user.id, window.from, window.to)
        }),
      )
  }),
)
