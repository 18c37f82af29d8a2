/**
 * The sandbox on-ramp's routes (docs/onramp.md), the provider's side of every widget family:
 *
 *   GET  /sandbox-onramp/{widget}?<the family's launch query>   the purchase page
 *   GET  /sandbox-onramp/{widget}/quote?currency=&amount=       the quote as JSON (the page's script)
 *   POST /sandbox-onramp/{widget}/buy?<launch query>            Buy: 303 to the order page, or the form again (422)
 *   GET  /sandbox-onramp/{widget}/orders/{id}[?<launch query>]  the order: status, transaction hash, the orders to that address
 *
 * The launch query is read and its signature checked by the family's adapter (protocols/onramp/):
 * a forged or altered link is a 403 page, an unknown widget a 404 page, bad input a 4xx page with its
 * message — never a 500.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { followingAncestors } from "../../lib/hosts.ts"
import { type Launch, onrampAdapters } from "../../protocols/onramp/index.ts"
import { cryptoCurrencies } from "../../services/crypto-service.ts"
import { type OnrampFamily, type OnrampWidgetInfo, onrampWidget } from "../../services/onramp-rules.ts"
import { ONRAMP_SANDBOX_PREFIX, sandboxWidgetCredentials } from "./credentials.ts"
import { Onramp, type QuoteView } from "./Onramp.ts"
import { OnrampConfig } from "./OnrampConfig.ts"
import { messagePage, onrampCsp, orderPage, purchasePage, quoteJson } from "./pages.ts"

const P = ONRAMP_SANDBOX_PREFIX

const html = (status: number, render: (nonce: string) => string) =>
  Effect.gen(function* () {
    const config = yield* OnrampConfig
    const request = yield* HttpServerRequest.HttpServerRequest
    const nonce = randomBytes(16).toString("base64")
    // A casino on this machine frames it under the host the player typed (lib/hosts.ts).
    const ancestors = followingAncestors(config.frameAncestors, request.headers.host)
    return HttpServerResponse.text(render(nonce), {
      status,
      contentType: "text/html; charset=utf-8",
      headers: {
        "content-security-policy": onrampCsp(nonce, ancestors),
        "cache-control": "no-store",
        "referrer-policy": "same-origin",
        "x-content-type-options": "nosniff",
      },
    })
  })

const message = (status: number, title: string, text: string) =>
  html(status, (nonce) => messagePage(nonce, title, text))

const launchMessages = {
  malformed: "This purchase link is incomplete: open the widget again from the casino.",
  "unknown-key": "This purchase link was not issued for this widget.",
  forged: "This purchase link is not valid: its signature does not match.",
  currency: "This widget does not sell that currency.",
} as const

const requestUrl = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (r) => new URL(r.url, "http://sandbox.invalid"),
)

type Ctx =
  | { readonly ok: true; readonly widget: OnrampWidgetInfo; readonly launch: Launch; readonly query: string }
  | {
      readonly ok: false
      readonly response: Effect.Effect<HttpServerResponse.HttpServerResponse, never, OnrampConfig>
    }

/** The widget of the path and the launch of the query, checked by the family's adapter. */
const launchContext = Effect.gen(function* () {
  const config = yield* OnrampConfig
  const params = yield* HttpRouter.params
  const widget = onrampWidget(params.widget ?? "")
  if (widget === undefined)
    return {
      ok: false,
      response: message(404, "Widget not found", "There is no such purchase widget."),
    } as Ctx
  const url = yield* requestUrl
  const creds = sandboxWidgetCredentials(config.secret, widget.id, config.publicUrl)
  const read = onrampAdapters[widget.id].readLaunch(creds, url)
  if (!read.ok) {
    const status = read.reason === "forged" || read.reason === "unknown-key" ? 403 : 400
    return { ok: false, response: message(status, "Link not valid", launchMessages[read.reason]) } as Ctx
  }
  return { ok: true, widget, launch: read.launch, query: url.search } as Ctx
})

const formBody = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const text = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
  const values: Record<string, string> = {}
  for (const [k, v] of new URLSearchParams(text)) if (!(k in values)) values[k] = v.slice(0, 200)
  return values
})

const quoteUrl = (widget: OnrampFamily, launch: Launch) =>
  `${P}/${widget}/quote?currency=${encodeURIComponent(launch.currency)}`

const purchaseRoute = Effect.gen(function* () {
  const ctx = yield* launchContext
  if (!ctx.ok) return yield* ctx.response
  const onramp = yield* Onramp
  const amount = ctx.launch.fiatAmountEur ?? ""
  const q = amount === "" ? undefined : yield* onramp.quote(ctx.widget.id, ctx.launch.currency, amount)
  const orders = yield* onramp.ordersTo(ctx.launch.address)
  const sells = yield* onramp.sells(ctx.launch.currency)
  return yield* html(200, (nonce) =>
    purchasePage(nonce, {
      widget: ctx.widget,
      currency: ctx.launch.currency,
      address: ctx.launch.address,
      action: `${P}/${ctx.widget.id}/buy${ctx.query}`,
      quoteUrl: quoteUrl(ctx.widget.id, ctx.launch),
      orderId: randomUUID(),
      amount,
      quote: q?._tag === "Quote" ? q.quote : undefined,
      verification: { fullName: "", birthDate: "", documentNumber: "" },
      errors: {},
      message: undefined,
      orders,
      sells,
    }),
  )
})

const quoteRoute = Effect.gen(function* () {
  const params = yield* HttpRouter.params
  const widget = onrampWidget(params.widget ?? "")
  const url = yield* requestUrl
  const currency = cryptoCurrencies.find((c) => c === url.searchParams.get("currency"))
  const json = (status: number, body: unknown) =>
    HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })
  if (widget === undefined) return json(404, { error: "unknown widget" })
  if (currency === undefined) return json(400, { error: "unknown currency" })
  const onramp = yield* Onramp
  const q = yield* onramp.quote(widget.id, currency, url.searchParams.get("amount") ?? "")
  switch (q._tag) {
    case "Quote":
      return json(200, { quote: quoteJson(q.quote) })
    case "Invalid":
      return json(422, { error: q.message })
    case "Unavailable":
      return json(503, { error: q.message })
  }
})

const buyRoute = Effect.gen(function* () {
  const ctx = yield* launchContext
  if (!ctx.ok) return yield* ctx.response
  const onramp = yield* Onramp
  const form = yield* formBody
  const verification = {
    fullName: form.fullName ?? "",
    birthDate: form.birthDate ?? "",
    documentNumber: form.documentNumber ?? "",
  }
  const orderId = form.orderId ?? ""
  const amount = (form.amount ?? "").trim()
  const result = yield* onramp.purchase(
    { widget: ctx.widget.id, launch: ctx.launch, orderId, amount, verification },
    new Date(),
  )
  switch (result._tag) {
    case "Placed":
      return HttpServerResponse.redirect(
        `${P}/${ctx.widget.id}/orders/${result.order.id}${ctx.query}${result.replay ? `${ctx.query === "" ? "?" : "&"}replay=1` : ""}`,
        { status: 303, headers: { "cache-control": "no-store" } },
      )
    case "Conflict":
      return yield* message(409, "Order already placed", result.message)
    case "Unavailable":
      return yield* message(503, "Not available", result.message)
    case "Invalid": {
      const q = yield* onramp.quote(ctx.widget.id, ctx.launch.currency, amount)
      const quote: QuoteView | undefined = q._tag === "Quote" ? q.quote : undefined
      const orders = yield* onramp.ordersTo(ctx.launch.address)
      const sells = yield* onramp.sells(ctx.launch.currency)
      return yield* html(422, (nonce) =>
        purchasePage(nonce, {
          widget: ctx.widget,
          currency: ctx.launch.currency,
          address: ctx.launch.address,
          action: `${P}/${ctx.widget.id}/buy${ctx.query}`,
          quoteUrl: quoteUrl(ctx.widget.id, ctx.launch),
          // The same order id: the form is the same purchase until it succeeds.
          orderId: /^[0-9a-f-]{36}$/.test(orderId) ? orderId : randomUUID(),
          amount,
          quote,
          verification,
          errors: result.errors,
          message: result.message,
          orders,
          sells,
        }),
      )
    }
  }
})

const orderRoute = Effect.gen(function* () {
  const config = yield* OnrampConfig
  const params = yield* HttpRouter.params
  const widget = onrampWidget(params.widget ?? "")
  const onramp = yield* Onramp
  const order = yield* onramp.order(params.id ?? "")
  if (widget === undefined || order === undefined || order.widget !== widget.id)
    return yield* message(404, "Order not found", "There is no such order.")
  const asked = yield* requestUrl
  // The replay flag is appended last to the launch query (which may be signed byte for byte).
  const replay = /[?&]replay=1$/.test(asked.search)
  const url = new URL(asked.href.replace(/[?&]replay=1$/, ""))
  // "Buy more" only when the page still carries the widget's valid launch link for the same address.
  const creds = sandboxWidgetCredentials(config.secret, widget.id, config.publicUrl)
  const read = onrampAdapters[widget.id].readLaunch(creds, url)
  const buyAgain =
    read.ok && read.launch.address === order.address ? `${P}/${widget.id}${url.search}` : undefined
  const orders = yield* onramp.ordersTo(order.address)
  return yield* html(200, (nonce) => orderPage(nonce, { widget, order, orders, buyAgain, replay }))
})

export const onrampRoutes = Layer.mergeAll(
  HttpRouter.add("GET", `${P}/:widget`, purchaseRoute),
  HttpRouter.add("GET", `${P}/:widget/quote`, quoteRoute),
  HttpRouter.add("POST", `${P}/:widget/buy`, buyRoute),
  HttpRouter.add("GET", `${P}/:widget/orders/:id`, orderRoute),
)
