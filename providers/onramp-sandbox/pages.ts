/**
 * The sandbox on-ramp's pages (docs/onramp.md): plain server-rendered HTML in the look of the
 * payment sandbox's pages, one inline stylesheet and one small inline script allowed by a
 * per-response nonce, no outside asset. Without script every form still works (the server answers
 * the next page); the script only refreshes the quote as the amount is typed and shows the
 * verification step when the amount needs it.
 *
 * Accessibility: a <label> on every input, errors beside their input (aria-describedby,
 * aria-invalid) and summarised in a role=alert region, the first invalid input focused
 * (autofocus), the quote announced politely (aria-live), native controls in DOM order.
 */

import { escapeHtml } from "../../lib/html.ts"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import { formatAmount } from "../../services/money-rules.ts"
import {
  type OnrampWidgetInfo,
  onrampBounds,
  rejectedTestDocument,
  type VerificationInput,
} from "../../services/onramp-rules.ts"
import type { FieldErrors, QuoteView } from "./Onramp.ts"
import { tickerOf } from "./Onramp.ts"
import type { OrderRow } from "./OrdersRepo.ts"

/**
 * The pages' own CSP: nothing outside this origin, the inline style and script allowed by the
 * response's nonce, forms posted only here, framed only by itself and the casino's origins
 * (ONRAMP_SANDBOX_FRAME_ANCESTORS).
 */
export const onrampCsp = (nonce: string, frameAncestors: ReadonlyArray<string>): string =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    `frame-ancestors ${["'self'", ...frameAncestors].join(" ")}`,
    "base-uri 'none'",
  ].join("; ")

const eur = (cents: bigint): string => `${formatAmount(cents, 100n)} EUR`
/**
 * A crypto amount for reading: at most 8 decimals, cut (never rounded up: the page never shows more
 * than is sent); wei's 18 digits would not fit a phone. The exact amount is what the faucet sends.
 */
export const cryptoText = (amount: bigint, subunits: bigint, currency: CryptoCurrency): string => {
  const cut = subunits > 100_000_000n ? subunits / 100_000_000n : 1n
  return `${formatAmount((amount / cut) * cut, subunits)} ${tickerOf(currency)}`
}
const percent = (bps: number): string => `${(bps / 100).toString()} %`

const styles = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.45;color:#1b1f24;background:#eef1f5}
body{margin:0;padding:12px}
main{max-width:440px;margin:0 auto;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:18px 18px}
.top{display:flex;justify-content:space-between;align-items:baseline;gap:8px;border-bottom:1px solid #e3e7ec;padding-bottom:10px;margin-bottom:12px}
.brand{font-weight:600;margin:0}.badge{font-size:.75rem;background:#fff3c4;color:#6b5300;border-radius:4px;padding:1px 6px;margin-left:6px}
.tier{margin:0;font-size:.8rem;color:#56606b;text-align:right;white-space:nowrap}
h1{font-size:1.15rem;margin:0 0 8px}h2{font-size:1rem;margin:18px 0 6px}
label{display:block;font-weight:600;margin:10px 0 4px}
input{box-sizing:border-box;width:100%;font:inherit;padding:9px 10px;border:1px solid #9aa5b1;border-radius:6px;background:#fff}
input:focus,button:focus,a:focus,summary:focus{outline:3px solid #2b6cd4;outline-offset:1px}
input[aria-invalid=true]{border-color:#b3261e}
.error{color:#b3261e;margin:4px 0 0;font-size:.9rem}.error:empty{display:none}
.status{margin:0 0 10px;padding:8px 10px;border-radius:6px;background:#fdecea;color:#8c1d18}.status:empty{display:none}
.ok{background:#e7f5ec;color:#0f5132}
.address{font-family:ui-monospace,monospace;font-size:.85rem;word-break:break-all;background:#f4f6f8;border-radius:6px;padding:6px 8px;margin:4px 0 0}
.quote{margin:12px 0 0;padding:10px 12px;background:#f4f6f8;border-radius:8px}
.quote dl{display:grid;grid-template-columns:auto 1fr;gap:2px 12px;margin:0}.quote dt{color:#56606b;white-space:nowrap}.quote dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}
.quote .get{font-weight:700}
fieldset{border:1px solid #d4dae1;border-radius:8px;margin:14px 0 0;padding:4px 12px 12px}legend{font-weight:600;padding:0 4px}
.actions{display:flex;gap:10px;margin-top:16px;flex-wrap:wrap}
button,.button{font:inherit;font-weight:600;border-radius:6px;padding:10px 16px;cursor:pointer;border:1px solid #1d4ea8;background:#2b6cd4;color:#fff;text-decoration:none;display:inline-block}
button{width:100%}
button[disabled]{opacity:.6;cursor:progress}
caption{text-align:left}table{border-collapse:collapse;width:100%;font-size:.85rem;margin-top:4px}th,td{padding:4px;border-top:1px solid #e3e7ec;text-align:left;vertical-align:top}
th{font-weight:600;color:#56606b}td.num{text-align:right;white-space:nowrap}
.hash{font-family:ui-monospace,monospace;word-break:break-all}
details{margin-top:14px}summary{cursor:pointer;font-weight:600}
.muted{color:#56606b;font-size:.88rem}
.nowrap{white-space:nowrap}
.label{margin:12px 0 0}
`

/** Refreshes the quote while typing; shows the verification step only when the amount needs it. */
const script = `
(() => {
  const form = document.getElementById("buy")
  if (!form) return
  const amount = form.elements.namedItem("amount")
  const box = document.getElementById("quote")
  const step = document.getElementById("verification")
  const quoteUrl = form.getAttribute("data-quote")
  const setStep = (needed) => {
    if (!step) return
    step.hidden = !needed
    for (const el of step.querySelectorAll("input")) el.disabled = !needed
  }
  setStep(form.getAttribute("data-verify") === "true")
  let timer
  let asked = 0
  const refresh = async () => {
    const n = ++asked
    try {
      const res = await fetch(quoteUrl + "&amount=" + encodeURIComponent(amount.value), { headers: { accept: "application/json" } })
      const body = await res.json()
      if (n !== asked) return
      if (body.quote) {
        for (const [k, v] of Object.entries(body.quote)) for (const el of box.querySelectorAll('[data-q="' + k + '"]')) el.textContent = v
        box.hidden = false
        setStep(body.quote.verificationRequired)
      } else {
        box.hidden = true
      }
    } catch {
      box.hidden = true
    }
  }
  amount.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(refresh, 250) })
  form.addEventListener("submit", () => { for (const b of form.querySelectorAll("button")) b.disabled = true })
})()
`

const page = (
  nonce: string,
  widget: OnrampWidgetInfo,
  title: string,
  body: string,
): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin"><link rel="icon" href="data:,"><title>${escapeHtml(title)} · ${escapeHtml(widget.name)} sandbox</title>
<style nonce="${nonce}">${styles}</style></head>
<body><main>
<div class="top"><p class="brand">${escapeHtml(widget.name)}<span class="badge">SANDBOX</span></p>
<p class="tier">Fee ${percent(widget.tier.feeBps)} · about ${widget.tier.etaMinutes} min</p></div>
${body}
</main><script nonce="${nonce}">${script}</script></body></html>`

const field = (
  name: string,
  label: string,
  value: string,
  error: string | undefined,
  extra: string,
  focus: boolean,
): string => {
  const id = `f-${name}`
  return `<div><label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${name}" value="${escapeHtml(value)}" aria-describedby="${id}-error"${error === undefined ? "" : ` aria-invalid="true"`}${focus ? " autofocus" : ""} ${extra}><p class="error" id="${id}-error">${escapeHtml(error ?? "")}</p></div>`
}

const statusText = (o: OrderRow): string => {
  switch (o.status) {
    case "paid":
      return "Paid, preparing the transfer"
    case "sending":
      return "Sending…"
    case "sent":
      return "Sent"
    case "failed":
      return `Failed: ${o.reason ?? "error"}`
  }
}

const subunitsOf = (currency: CryptoCurrency): bigint =>
  currency === "ETH" ? 10n ** 18n : currency === "USDT" ? 1_000_000n : 100_000_000n

const shortHash = (hash: string): string =>
  hash.length > 20 ? `${hash.slice(0, 10)}…${hash.slice(-8)}` : hash

export const ordersTable = (orders: ReadonlyArray<OrderRow>): string =>
  orders.length === 0
    ? `<p class="muted">No purchases to this address yet.</p>`
    : `<table><caption class="muted">The newest first</caption>
<thead><tr><th scope="col">Paid</th><th scope="col">Bought</th><th scope="col">Status</th></tr></thead><tbody>${orders
        .map(
          (o) =>
            `<tr><td class="num">${escapeHtml(eur(o.grossEurCents))}</td><td class="num">${escapeHtml(cryptoText(o.cryptoAmount, subunitsOf(o.currency), o.currency))}</td><td>${escapeHtml(statusText(o))}${
              o.txHash === null
                ? ""
                : `<br><span class="hash" title="${escapeHtml(o.txHash)}">${escapeHtml(shortHash(o.txHash))}</span>`
            }<br><span class="muted">${escapeHtml(o.createdAt.toISOString().slice(0, 16).replace("T", " "))} UTC</span></td></tr>`,
        )
        .join("")}</tbody></table>`

export interface PurchasePageState {
  readonly widget: OnrampWidgetInfo
  readonly currency: CryptoCurrency
  readonly address: string
  /** Where the form posts (carries the launch's query). */
  readonly action: string
  /** The quote endpoint with the currency already in its query. */
  readonly quoteUrl: string
  readonly orderId: string
  readonly amount: string
  readonly quote: QuoteView | undefined
  readonly verification: VerificationInput
  readonly errors: FieldErrors
  readonly message: string | undefined
  readonly orders: ReadonlyArray<OrderRow>
  /** False: this currency has no faucet; the page says so instead of offering the form. */
  readonly sells: boolean
}

const quoteBox = (q: QuoteView | undefined, widget: OnrampWidgetInfo): string => {
  const v = (k: string, text: string) => `<dd data-q="${k}">${escapeHtml(text)}</dd>`
  return `<div class="quote" id="quote" aria-live="polite"${q === undefined ? " hidden" : ""}><dl>
<dt>You pay</dt>${v("pay", q === undefined ? "" : eur(q.grossEurCents))}
<dt>Fee (${percent(widget.tier.feeBps)})</dt>${v("fee", q === undefined ? "" : `− ${eur(q.feeEurCents)}`)}
<dt>Buys at</dt>${v("rate", q === undefined ? "" : `1 ${tickerOf(q.currency)} = ${q.eurRate} EUR`)}
<dt class="get">You get</dt><dd class="get" data-q="get">${escapeHtml(q === undefined ? "" : cryptoText(q.cryptoAmount, q.subunitsToUnit, q.currency))}</dd>
</dl></div>`
}

/** The JSON the page's script reads: the quote's display texts. */
export const quoteJson = (q: QuoteView) => ({
  pay: eur(q.grossEurCents),
  fee: `− ${eur(q.feeEurCents)}`,
  rate: `1 ${tickerOf(q.currency)} = ${q.eurRate} EUR`,
  get: cryptoText(q.cryptoAmount, q.subunitsToUnit, q.currency),
  verificationRequired: q.verificationRequired,
})

export const purchasePage = (nonce: string, s: PurchasePageState): string => {
  const ticker = tickerOf(s.currency)
  const threshold = s.widget.tier.verificationAboveEur
  const e = s.errors
  const firstInvalid = (["amount", "fullName", "birthDate", "documentNumber"] as const).find(
    (k) => e[k] !== undefined,
  )
  const hasErrors = firstInvalid !== undefined
  const summary = s.message ?? (hasErrors ? "Please correct the highlighted fields." : "")
  const verify = s.quote?.verificationRequired ?? false
  const form = !s.sells
    ? `<p class="status" role="alert">${escapeHtml(`Buying ${ticker} is not available in this sandbox right now.`)}</p>`
    : `<form id="buy" method="post" action="${escapeHtml(s.action)}" data-quote="${escapeHtml(s.quoteUrl)}" data-verify="${verify}" novalidate>
<p class="status" role="alert">${escapeHtml(summary)}</p>
<input type="hidden" name="orderId" value="${escapeHtml(s.orderId)}">
${field("amount", "Amount in EUR", s.amount, e.amount, `inputmode="decimal" autocomplete="off" maxlength="10" required`, firstInvalid === "amount")}
<p class="muted">From ${formatAmount(onrampBounds.minEurCents, 100n)} to ${formatAmount(onrampBounds.maxEurCents, 100n)} EUR. Identity verification above ${threshold} EUR.</p>
${quoteBox(s.quote, s.widget)}
<fieldset id="verification"><legend>Identity verification</legend>
<p class="muted">Needed for purchases above ${threshold} EUR.</p>
${field("fullName", "Full name", s.verification.fullName, e.fullName, `autocomplete="name" maxlength="100"`, firstInvalid === "fullName")}
${field("birthDate", "Date of birth", s.verification.birthDate, e.birthDate, `type="date" placeholder="YYYY-MM-DD" autocomplete="bday" max="9999-12-31"`, firstInvalid === "birthDate")}
${field("documentNumber", "ID document number", s.verification.documentNumber, e.documentNumber, `autocomplete="off" maxlength="12"`, firstInvalid === "documentNumber")}
<p class="muted">Sandbox: any name and date of birth (18 or older) and any 6–12 letters or digits; ${rejectedTestDocument} is refused.</p>
</fieldset>
<div class="actions"><button type="submit">Buy ${escapeHtml(ticker)}</button></div>
</form>`
  return page(
    nonce,
    s.widget,
    `Buy ${ticker}`,
    `<h1>Buy ${escapeHtml(ticker)}</h1>
<p class="muted" id="to-label">Sent to your casino deposit address</p>
<p class="address" aria-labelledby="to-label">${escapeHtml(s.address)}</p>
${form}
<h2>Your purchases</h2>
${ordersTable(s.orders)}`,
  )
}

export interface OrderPageState {
  readonly widget: OnrampWidgetInfo
  readonly order: OrderRow
  readonly orders: ReadonlyArray<OrderRow>
  /** The purchase page again, when the launch link is known. */
  readonly buyAgain: string | undefined
  readonly replay: boolean
}

export const orderPage = (nonce: string, s: OrderPageState): string => {
  const o = s.order
  const ticker = tickerOf(o.currency)
  const bought = cryptoText(o.cryptoAmount, subunitsOf(o.currency), o.currency)
  const headline =
    o.status === "sent"
      ? `${bought} sent to your address`
      : o.status === "failed"
        ? "The purchase failed"
        : `Sending ${bought}`
  const note =
    o.status === "sent"
      ? "Your casino balance is credited once the transfer has its confirmations."
      : o.status === "failed"
        ? (o.reason ?? "")
        : "The transfer is on its way."
  return page(
    nonce,
    s.widget,
    `Order ${ticker}`,
    `<h1 id="order-heading" tabindex="-1">${escapeHtml(headline)}</h1>
<p class="status ${o.status === "failed" ? "" : "ok"}" role="status">${escapeHtml(note)}${s.replay ? " (This order was already placed; nothing was bought twice.)" : ""}</p>
<div class="quote"><dl>
<dt>Status</dt><dd data-status="${o.status}">${escapeHtml(statusText(o))}</dd>
<dt>You paid</dt><dd>${escapeHtml(eur(o.grossEurCents))}</dd>
<dt>Fee</dt><dd>− ${escapeHtml(eur(o.feeEurCents))}</dd>
<dt class="get">Bought</dt><dd class="get">${escapeHtml(bought)}</dd>
</dl></div>
${o.txHash === null ? "" : `<p class="muted label" id="tx-label">Transaction</p><p class="address" aria-labelledby="tx-label" data-tx>${escapeHtml(o.txHash)}</p>`}
<p class="muted label" id="to-label">To</p><p class="address" aria-labelledby="to-label">${escapeHtml(o.address)}</p>
<p class="muted label">Order ${escapeHtml(o.id)}</p>
${s.buyAgain === undefined ? "" : `<div class="actions"><a class="button" href="${escapeHtml(s.buyAgain)}">Buy more ${escapeHtml(ticker)}</a></div>`}
<h2>Your purchases</h2>
${ordersTable(s.orders)}`,
  )
}

/** A page with only a message: not found, a link that is not valid, a conflict. */
export const messagePage = (nonce: string, title: string, message: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>${escapeHtml(title)} · On-ramp sandbox</title><style nonce="${nonce}">${styles}</style></head>
<body><main><div class="top"><p class="brand">On-ramp<span class="badge">SANDBOX</span></p></div>
<h1>${escapeHtml(title)}</h1><p class="status" role="alert">${escapeHtml(message)}</p></main></body></html>`
