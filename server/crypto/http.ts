/**
 * Handlers of the crypto group (services/api/crypto-service.ts): the player's deposit address per
 * crypto currency with what the Deposit and Buy crypto tabs show, and the on-chain history.
 * Credits never come from here: the chain watcher (Watcher.ts) books confirmed transfers.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CasinoApi } from "../../services/api.ts"
import { displayCode, isCryptoCurrency, networkOf } from "../../services/crypto-rules.ts"
import type { CryptoTransfer } from "../../services/crypto-service.ts"
import { CurrencyNotSupported, PaymentsBlocked } from "../../services/errors.ts"
import { MoneyMessages } from "../../services/money-rules.ts"
import { Bonuses } from "../bonuses/Bonuses.ts"
import { AppConfig } from "../config.ts"
import { ResponsibleGaming } from "../responsible-gaming/ResponsibleGaming.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { requireSession } from "../users/auth.ts"
import { Sessions } from "../users/Sessions.ts"
import { historyWindow } from "../wallet/http.ts"
import { Rates } from "../wallet/Rates.ts"
import { Withdrawals } from "../withdrawals/Withdrawals.ts"
import { Addresses } from "./Addresses.ts"
import { type CryptoDepositRow, CryptoDepositsRepo } from "./DepositsRepo.ts"
import { buyCryptoWidgets } from "./widgets.ts"

const toTransfer = (row: CryptoDepositRow): CryptoTransfer => ({
  id: row.id,
  currency: row.currency,
  network: row.network,
  txHash: row.txHash,
  outputIndex: row.outputIndex,
  address: row.address,
  amount: row.amount,
  confirmations: row.confirmations,
  requiredConfirmations: row.requiredConfirmations,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
})

export const CryptoHandlers = HttpApiBuilder.group(
  CasinoApi,
  "crypto",
  Effect.fn(function* (handlers) {
    const config = yield* AppConfig
    const sessions = yield* Sessions
    const limiter = yield* RateLimiter
    const rg = yield* ResponsibleGaming
    const rates = yield* Rates
    const addresses = yield* Addresses
    const deposits = yield* CryptoDepositsRepo
    const bonuses = yield* Bonuses
    const withdrawals = yield* Withdrawals

    return handlers
      .handle("cryptoDeposit", ({ request, payload }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          const userId = session.user.id
          yield* limiter.consume(`crypto-deposit:${userId}`, config.depositStartLimit)
          if ((yield* rg.currentExclusion(userId)) !== null)
            return yield* new PaymentsBlocked({ message: MoneyMessages.blocked })
          const { currency } = payload
          const rate = yield* rates.get(currency)
          if (!isCryptoCurrency(currency) || rate === undefined || !rate.enabled || rate.type !== "CRYPTO")
            return yield* new CurrencyNotSupported({
              message: `${currency} is not a crypto currency you can deposit.`,
              currency,
            })
          const row = yield* addresses.forPlayer(userId, currency)
          if (row === undefined)
            return yield* new CurrencyNotSupported({
              message: `${displayCode(currency)} deposits are not available right now.`,
              currency,
            })
          // The bonus code named with the request is kept for the next transfer credited in this
          // currency (none named: no bonus for it).
          yield* bonuses.chooseForCrypto(userId, currency, payload.promotionCoupon ?? null)
          const network = networkOf[currency]
          const widgets = buyCryptoWidgets(config, currency, row.address)
          return {
            currency,
            network,
            address: row.address,
            chainId: network === "ethereum" ? config.crypto.evmChainId : null,
            tokenContract: currency === "USDT" ? config.crypto.usdtContract : null,
            confirmations: config.crypto.confirmations[currency],
            minDeposit: rate.minDeposit.toString(),
            banxaCheckoutIframe: widgets[0]?.url ?? null,
            widgets,
          }
        }),
      )
      .handle("cryptoHistory", ({ request, params, query }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          const window = historyWindow(query.from, query.to, new Date())
          if (window === undefined || window.from >= window.to) return []
          // Payouts are the withdrawals module's: its crypto withdrawals, as transfers.
          if (params.type === "withdraw")
            return yield* withdrawals.cryptoHistory(session.user.id, window.from, window.to)
          const rows = yield* deposits.historyOf(session.user.id, window.from, window.to).pipe(Effect.orDie)
          return rows.map(toTransfer)
        }),
      )
  }),
)
