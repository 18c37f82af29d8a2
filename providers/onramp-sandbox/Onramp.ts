/**
 * The sandbox on-ramp's rules (docs/onramp.md): quotes at its own EUR price with the widget's tier,
 * the verification step above the tier's threshold, and the purchase — recorded once under its
 * order id, then paid out on the chain by the sandbox chains' faucet (Faucet.ts, over HTTP) to the
 * player's deposit address, so the casino's chain watcher credits it like any other deposit.
 */
import { Context, Effect, Layer } from "effect"
import { type Launch, onrampAdapters } from "../../protocols/onramp/index.ts"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import { formatDecimal } from "../../services/money-rules.ts"
import {
  checkOnrampAmount,
  checkVerification,
  needsVerification,
  type OnrampFamily,
  type OnrampQuote,
  onrampQuote,
  onrampWidget,
  plausibleAddress,
  type VerificationErrors,
  type VerificationInput,
} from "../../services/onramp-rules.ts"
import { sandboxWidgetCredentials } from "./credentials.ts"
import { Faucet } from "./Faucet.ts"
import { OnrampConfig } from "./OnrampConfig.ts"
import { type OrderRow, OrdersRepo } from "./OrdersRepo.ts"
import { PricesRepo } from "./PricesRepo.ts"

export interface QuoteView extends OnrampQuote {
  readonly currency: CryptoCurrency
  readonly subunitsToUnit: bigint
  /** EUR per whole unit, exact decimal text. */
  readonly eurRate: string
  readonly verificationRequired: boolean
}

export type QuoteResult =
  | { readonly _tag: "Quote"; readonly quote: QuoteView }
  | { readonly _tag: "Invalid"; readonly message: string }
  | { readonly _tag: "Unavailable"; readonly message: string }

export type FieldErrors = VerificationErrors & { readonly amount?: string }

export type PurchaseResult =
  | { readonly _tag: "Placed"; readonly order: OrderRow; readonly replay: boolean }
  | { readonly _tag: "Invalid"; readonly errors: FieldErrors; readonly message?: string }
  | { readonly _tag: "Conflict"; readonly message: string }
  | { readonly _tag: "Unavailable"; readonly message: string }

export interface Purchase {
  readonly widget: OnrampFamily
  readonly launch: Launch
  readonly orderId: string
  readonly amount: string
  readonly verification: VerificationInput
}

export const OnrampPageMessages = {
  unavailable: (ticker: string) => `Buying ${ticker} is not available in this sandbox right now.`,
  noRate: (ticker: string) => `There is no EUR price for ${ticker} right now.`,
  badAddress: "This purchase link carries an address that is not valid for its currency.",
  badOrder: "This purchase form has expired. Reload the page and try again.",
  conflict: "This order was already placed with other details; reload the page to buy again.",
  chainDown: "The chain could not be reached: nothing was sent and you were not charged.",
  chainRefused: (why: string) =>
    `The chain refused the transfer (${why}): nothing was sent and you were not charged.`,
} as const

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export const tickerOf = (currency: CryptoCurrency): string => (currency === "DOG" ? "DOGE" : currency)

export interface OnrampShape {
  readonly quote: (
    widget: OnrampFamily,
    currency: CryptoCurrency,
    amount: string,
  ) => Effect.Effect<QuoteResult>
  readonly purchase: (p: Purchase, today: Date) => Effect.Effect<PurchaseResult>
  readonly order: (id: string) => Effect.Effect<OrderRow | undefined>
  readonly ordersTo: (address: string) => Effect.Effect<ReadonlyArray<OrderRow>>
  /** Whether it sells this currency: it has a price (the page says so before the player types). */
  readonly sells: (currency: CryptoCurrency) => Effect.Effect<boolean>
}

const make = Effect.gen(function* () {
  const prices = yield* PricesRepo
  const repo = yield* OrdersRepo
  const faucet = yield* Faucet
  const config = yield* OnrampConfig
  const priceOf = (currency: CryptoCurrency) => prices.get(currency).pipe(Effect.orDie)

  /**
   * The provider's order-status callback to the casino (ONRAMP_SANDBOX_CALLBACK_URL), signed by the
   * widget's family over the URL's path. One attempt (5 s), its failure only logged: the callback
   * informs, the casino's chain watcher credits the crypto.
   */
  const notify = (order: OrderRow) =>
    Effect.gen(function* () {
      if ((order.status !== "sent" && order.status !== "failed") || config.callbackUrl === undefined) return
      const url = new URL(config.callbackUrl.replace("{widget}", order.widget))
      const path = url.pathname
      const creds = sandboxWidgetCredentials(config.secret, order.widget, config.publicUrl)
      const signed = onrampAdapters[order.widget].signCallback(
        creds,
        {
          eventId: `${order.id}:${order.status}`,
          orderId: order.id,
          status: order.status === "sent" ? "completed" : "failed",
          currency: order.currency,
          address: order.address,
          cryptoAmount: order.cryptoAmount.toString(),
          txHash: order.txHash,
        },
        Math.floor(Date.now() / 1000),
        path,
      )
      const res = yield* Effect.tryPromise(() =>
        fetch(url, {
          method: "POST",
          headers: { ...signed.headers, "content-type": "application/json" },
          body: signed.body,
          signal: AbortSignal.timeout(5_000),
        }),
      )
      if (!res.ok) yield* Effect.logWarning("onramp sandbox: callback answered", res.status)
    }).pipe(Effect.catch((e) => Effect.logWarning("onramp sandbox: callback failed", String(e))))

  const quote = (widget: OnrampFamily, currency: CryptoCurrency, amount: string) =>
    Effect.gen(function* () {
      const info = onrampWidget(widget)
      if (info === undefined) return { _tag: "Invalid", message: "Unknown widget" } as const
      const checked = checkOnrampAmount(amount)
      if (!checked.ok) return { _tag: "Invalid", message: checked.message } as const
      const rate = yield* priceOf(currency)
      const q =
        rate === undefined
          ? null
          : onrampQuote(checked.eurCents, info.tier, rate.eurRate, rate.subunitsToUnit)
      if (rate === undefined || q === null)
        return { _tag: "Unavailable", message: OnrampPageMessages.noRate(tickerOf(currency)) } as const
      if (q.cryptoAmount <= 0n)
        return { _tag: "Invalid", message: "This amount buys nothing at today's rate" } as const
      return {
        _tag: "Quote",
        quote: {
          ...q,
          currency,
          subunitsToUnit: rate.subunitsToUnit,
          eurRate: formatDecimal(rate.eurRate),
          verificationRequired: needsVerification(checked.eurCents, info.tier),
        },
      } as const
    })

  const sameOrder = (row: OrderRow, p: Purchase, gross: bigint) =>
    row.widget === p.widget &&
    row.currency === p.launch.currency &&
    row.address === p.launch.address &&
    row.grossEurCents === gross

  /** Pays the order out once: only the caller that moves it to 'sending' asks the faucet. */
  const send = (order: OrderRow) =>
    Effect.gen(function* () {
      if (!(yield* repo.claimSend(order.id))) return (yield* repo.byId(order.id)) ?? order
      const sent = yield* faucet.send(order.currency, order.address, order.cryptoAmount).pipe(
        Effect.map((txHash) => ({ ok: true as const, txHash })),
        Effect.catchTag("FaucetFailed", (e) =>
          Effect.logWarning("onramp sandbox: the chains' faucet did not pay", e.reason, e.message).pipe(
            Effect.as({
              ok: false as const,
              reason:
                e.reason === "refused"
                  ? OnrampPageMessages.chainRefused(e.message)
                  : OnrampPageMessages.chainDown,
            }),
          ),
        ),
      )
      const row = sent.ok
        ? yield* repo.markSent(order.id, sent.txHash)
        : yield* repo.markFailed(order.id, sent.reason)
      if (row !== undefined) yield* notify(row)
      return row ?? order
    })

  const purchase = (p: Purchase, today: Date) =>
    Effect.gen(function* () {
      const ticker = tickerOf(p.launch.currency)
      if (!uuidPattern.test(p.orderId))
        return { _tag: "Invalid", errors: {}, message: OnrampPageMessages.badOrder } as const
      if (!plausibleAddress(p.launch.currency, p.launch.address))
        return { _tag: "Invalid", errors: {}, message: OnrampPageMessages.badAddress } as const
      if ((yield* priceOf(p.launch.currency)) === undefined)
        return { _tag: "Unavailable", message: OnrampPageMessages.unavailable(ticker) } as const
      const q = yield* quote(p.widget, p.launch.currency, p.amount)
      if (q._tag === "Unavailable") return q
      if (q._tag === "Invalid") return { _tag: "Invalid", errors: { amount: q.message } } as const
      const gross = q.quote.grossEurCents
      // A replay (the same order id) answers the first order, before any re-check of the form.
      const existing = yield* repo.byId(p.orderId)
      if (existing !== undefined) {
        if (!sameOrder(existing, p, gross))
          return { _tag: "Conflict", message: OnrampPageMessages.conflict } as const
        return { _tag: "Placed", order: existing, replay: true } as const
      }
      let verifiedName: string | null = null
      if (q.quote.verificationRequired) {
        const errors = checkVerification(p.verification, today)
        if (Object.keys(errors).length > 0) return { _tag: "Invalid", errors } as const
        verifiedName = p.verification.fullName.trim()
      }
      const inserted = yield* repo.insert({
        id: p.orderId,
        widget: p.widget,
        currency: p.launch.currency,
        address: p.launch.address,
        grossEurCents: gross,
        feeEurCents: q.quote.feeEurCents,
        netEurCents: q.quote.netEurCents,
        cryptoAmount: q.quote.cryptoAmount,
        eurRate: q.quote.eurRate,
        verifiedName,
      })
      if (inserted === undefined) {
        // Lost a race with a concurrent submit of the same form: that one sends.
        const first = yield* repo.byId(p.orderId)
        if (first === undefined || !sameOrder(first, p, gross))
          return { _tag: "Conflict", message: OnrampPageMessages.conflict } as const
        return { _tag: "Placed", order: first, replay: true } as const
      }
      return { _tag: "Placed", order: yield* send(inserted), replay: false } as const
    }).pipe(Effect.orDie)

  return Onramp.of({
    quote: (widget, currency, amount) => quote(widget, currency, amount),
    purchase,
    order: (id) => (uuidPattern.test(id) ? repo.byId(id).pipe(Effect.orDie) : Effect.succeed(undefined)),
    ordersTo: (address) => repo.byAddress(address, 20).pipe(Effect.orDie),
    sells: (currency) => priceOf(currency).pipe(Effect.map((p) => p !== undefined)),
  })
})

export class Onramp extends Context.Service<Onramp, OnrampShape>()("onramp-sandbox/Onramp") {
  /** Needs OnrampConfig, PricesRepo, OrdersRepo and Faucet. */
  static readonly layerNoDeps = Layer.effect(Onramp, make)
}
