/**
 * The payer's pages of the sandbox provider: plain server-rendered HTML, a small inline stylesheet
 * and one small inline script, both allowed by a per-response nonce (the pages' own CSP; no outside
 * asset). Each page is ONE document: with the script, every step (card form → 3-D Secure, sign-in →
 * approve) happens in place and the only navigation is the final one to the merchant's returnUrl —
 * the casino's frame counts navigations. Without the script the same forms post and the server
 * answers the next step as a page (progressive enhancement; plain-HTTP tests use that path).
 *
 * Accessibility: every input has a <label>, errors sit next to their input (aria-describedby,
 * aria-invalid) and are announced by a role=alert summary; steps move focus to their heading.
 */

import { escapeHtml, framedPageCsp } from "../../lib/html.ts"
import { testCards, threeDSecureCode } from "./cards.ts"
import { sandboxCurrencies } from "./rules.ts"
import type { PaymentRow } from "./SandboxRepo.ts"

/** "3000" EUR → "30.00 EUR"; JPY has no minor unit. */
export const formatAmount = (amount: string, currency: string): string => {
  const exponent = sandboxCurrencies[currency]?.exponent ?? 2
  if (exponent === 0) return `${amount} ${currency}`
  const padded = amount.padStart(exponent + 1, "0")
  return `${padded.slice(0, -exponent)}.${padded.slice(-exponent)} ${currency}`
}

export const groupCardNumber = (digits: string): string => digits.replace(/(\d{4})(?=\d)/g, "$1 ")

/**
 * Framed only by the merchants' sites (PAYMENT_SANDBOX_FRAME_ANCESTORS); a form's redirect to the
 * merchant counts as form-action in browsers that check redirects.
 */
export const pageCsp = (
  nonce: string,
  returnUrl: string | undefined,
  frameAncestors: ReadonlyArray<string>,
): string => framedPageCsp(nonce, frameAncestors, ["'self'", returnUrl ?? ""])

/**
 * The mark every page carries: a test environment, no real money. Fixed in the top corner, above a
 * band the body keeps free for it, so it never covers the form.
 */
export const sandboxMark = `<aside class="sandbox-mark" aria-label="Sandbox: a test environment, no real money moves">Sandbox</aside>`

const styles = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.45;color:#1b1f24;background:#eef1f5}
body{margin:0;padding:40px 16px 16px}
.sandbox-mark{position:fixed;top:6px;left:6px;z-index:10;margin:0;padding:3px 10px;border-radius:4px;background:#8a1c1c;color:#fff;font-size:.8rem;font-weight:700;letter-spacing:.04em;text-transform:uppercase;line-height:1.4}
main{max-width:440px;margin:0 auto;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:20px 22px}
.top{display:flex;justify-content:space-between;align-items:baseline;gap:8px;border-bottom:1px solid #e3e7ec;padding-bottom:10px;margin-bottom:14px}
.brand{font-weight:600;margin:0}.badge{font-size:.75rem;background:#fff3c4;color:#6b5300;border-radius:4px;padding:1px 6px;margin-left:6px}
.amount{font-size:1.25rem;font-weight:700;margin:0;white-space:nowrap}
h1{font-size:1.15rem;margin:0 0 12px}
label{display:block;font-weight:600;margin:10px 0 4px}
input{box-sizing:border-box;width:100%;font:inherit;padding:9px 10px;border:1px solid #9aa5b1;border-radius:6px}
input:focus,button:focus,a:focus{outline:3px solid #2b6cd4;outline-offset:1px}
input[aria-invalid=true]{border-color:#b3261e}
/* Expiry and CVC share rows (label, input, error): a label wrapping on a phone keeps the inputs level. */
.row{display:grid;grid-template-columns:1fr 1fr;column-gap:12px}
.row>div{display:grid;grid-row:span 3;grid-template-rows:subgrid}.row label{align-self:end}
.error{color:#b3261e;margin:4px 0 0;font-size:.9rem}.error:empty{display:none}
.status{margin:0 0 10px;padding:8px 10px;border-radius:6px;background:#fdecea;color:#8c1d18}.status:empty{display:none}
.actions{display:flex;gap:10px;margin-top:16px;flex-wrap:wrap}
button{font:inherit;font-weight:600;border-radius:6px;padding:10px 16px;cursor:pointer;border:1px solid #1d4ea8;background:#2b6cd4;color:#fff}
button.secondary{background:#fff;color:#1d4ea8}
button[disabled]{opacity:.6;cursor:progress}
.qr{font-family:ui-monospace,monospace;word-break:break-all;background:#f4f6f8;border:1px dashed #9aa5b1;border-radius:6px;padding:10px}
table{border-collapse:collapse;width:100%;font-size:.88rem;margin-top:6px}td{padding:3px 4px;border-top:1px solid #e3e7ec}
td:first-child{font-family:ui-monospace,monospace;white-space:nowrap}
details{margin-top:18px}summary{cursor:pointer;font-weight:600}
.muted{color:#56606b;font-size:.9rem}
.nowrap{white-space:nowrap}
`

/**
 * The pages' one script: says `payments:ready` to the framing page (docs/payments-protocol.md), submits
 * the forms in place and shows the next step (see the header).
 */
const script = `
(() => {
  // Tells the merchant's frame the page is here (a blocked or unreachable page never says so).
  if (window.parent !== window) window.parent.postMessage({ type: "payments:ready" }, "*")
  const show = (name) => {
    for (const s of document.querySelectorAll("[data-step]")) s.hidden = s.dataset.step !== name
    const step = document.querySelector('[data-step="' + name + '"]')
    const heading = step && step.querySelector("h1,h2")
    if (heading) heading.focus()
  }
  const clearErrors = (form) => {
    for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid")
    for (const el of form.querySelectorAll(".error")) el.textContent = ""
  }
  const status = (form, text) => {
    const box = form.querySelector("[role=alert]") || document.getElementById("page-status")
    if (box) box.textContent = text
  }
  document.addEventListener("submit", async (event) => {
    const form = event.target
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-sandbox-form")) return
    event.preventDefault()
    const data = new URLSearchParams(new FormData(form, event.submitter))
    const buttons = form.querySelectorAll("button")
    for (const b of buttons) b.disabled = true
    clearErrors(form)
    status(form, "")
    let body
    try {
      const sub = event.submitter
      // getAttribute, not form.action: the buttons are named "action", and a form's named
      // controls shadow its properties (form.action is then a RadioNodeList of the buttons).
      const target = sub && sub.hasAttribute("formaction") ? sub.getAttribute("formaction") : form.getAttribute("action")
      const res = await fetch(target, { method: "POST", body: data, headers: { accept: "application/json" }, credentials: "same-origin" })
      body = await res.json()
    } catch {
      for (const b of buttons) b.disabled = false
      status(form, "The connection failed. Please try again.")
      return
    }
    if (body.outcome === "done" || body.outcome === "decided") {
      const done = document.querySelector('[data-step="done"]')
      done.querySelector("[data-message]").textContent = body.message
      done.querySelector("a").href = body.redirect
      show("done")
      if (body.outcome === "done") location.assign(body.redirect)
      return
    }
    for (const b of buttons) b.disabled = false
    if (body.outcome === "step") {
      for (const [name, value] of Object.entries(body.fill || {})) {
        for (const el of document.querySelectorAll('[data-fill="' + name + '"]')) el.textContent = value
      }
      show(body.step)
      return
    }
    let first
    for (const [name, message] of Object.entries(body.errors || {})) {
      const input = form.elements.namedItem(name)
      const error = document.getElementById(form.id + "-" + name + "-error")
      if (error) error.textContent = message
      if (input instanceof HTMLInputElement) {
        input.setAttribute("aria-invalid", "true")
        first = first || input
      }
    }
    status(form, body.message || "Please correct the highlighted fields.")
    if (first) first.focus()
  })
})()
`

export interface FieldSpec {
  readonly name: string
  readonly label: string
  readonly type?: string
  readonly autocomplete?: string
  readonly inputmode?: string
  readonly placeholder?: string
  readonly maxlength?: number
}

export type Values = Readonly<Record<string, string>>
export type Errors = Readonly<Record<string, string | undefined>>

const field = (formId: string, f: FieldSpec, values: Values, errors: Errors): string => {
  const id = `${formId}-${f.name}`
  const error = errors[f.name]
  const attrs = [
    `id="${id}"`,
    `name="${f.name}"`,
    `type="${f.type ?? "text"}"`,
    f.autocomplete === undefined ? "" : `autocomplete="${f.autocomplete}"`,
    f.inputmode === undefined ? "" : `inputmode="${f.inputmode}"`,
    f.placeholder === undefined ? "" : `placeholder="${escapeHtml(f.placeholder)}"`,
    f.maxlength === undefined ? "" : `maxlength="${f.maxlength}"`,
    `aria-describedby="${id}-error"`,
    error === undefined ? "" : `aria-invalid="true"`,
    f.type === "password" ? "" : `value="${escapeHtml(values[f.name] ?? "")}"`,
    "required",
  ]
    .filter((a) => a !== "")
    .join(" ")
  return `<div><label for="${id}">${escapeHtml(f.label)}</label><input ${attrs}><p class="error" id="${id}-error">${escapeHtml(error ?? "")}</p></div>`
}

const form = (
  id: string,
  action: string,
  content: string,
  formErrors: Errors,
  message: string | undefined,
): string => {
  const hasErrors = Object.values(formErrors).some((e) => e !== undefined)
  const summary = message ?? (hasErrors ? "Please correct the highlighted fields." : "")
  return `<form id="${id}" method="post" action="${escapeHtml(action)}" data-sandbox-form novalidate>
<p class="status" role="alert">${escapeHtml(summary)}</p>${content}</form>`
}

const step = (name: string, visible: string, title: string, content: string): string =>
  `<section data-step="${name}"${name === visible ? "" : " hidden"} aria-labelledby="h-${name}">
<h1 id="h-${name}" tabindex="-1">${escapeHtml(title)}</h1>${content}</section>`

const doneStep = (visible: string, message: string, returnUrl: string): string =>
  step(
    "done",
    visible,
    "Payment finished",
    `<p data-message aria-live="polite">${escapeHtml(message)}</p>
<p><a href="${escapeHtml(returnUrl)}">Return to the merchant</a></p>`,
  )

// The empty data: icon keeps the browser from asking the casino for /favicon.ico (a 404 in the frame).
const page = (nonce: string, p: PaymentRow, title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin"><link rel="icon" href="data:,"><title>${escapeHtml(title)} · Sandbox Pay</title>
<style nonce="${nonce}">${styles}</style></head>
<body>${sandboxMark}<main>
<div class="top"><p class="brand">Sandbox Pay · ${escapeHtml(p.gateway)}<span class="badge">TEST</span></p>
<p class="amount">${escapeHtml(formatAmount(p.amount, p.currency))}</p></div>
<p id="page-status" class="status" role="status"></p>
${body}
</main><script nonce="${nonce}">${script}</script></body></html>`

export const cardFields: ReadonlyArray<FieldSpec> = [
  { name: "holder", label: "Name on the card", autocomplete: "cc-name", maxlength: 100 },
  { name: "number", label: "Card number", autocomplete: "cc-number", inputmode: "numeric", maxlength: 23 },
]
const expiryField: FieldSpec = {
  name: "expiry",
  label: "Expiry (MM/YY)",
  autocomplete: "cc-exp",
  inputmode: "numeric",
  placeholder: "MM/YY",
  maxlength: 7,
}
const cvcField: FieldSpec = {
  name: "cvc",
  label: "Security code (CVC)",
  autocomplete: "cc-csc",
  inputmode: "numeric",
  maxlength: 4,
}

export interface CardPageState {
  readonly step: "card" | "challenge" | "done"
  readonly values?: Values
  readonly errors?: Errors
  readonly message?: string
  readonly doneMessage?: string
}

export const cardPage = (nonce: string, p: PaymentRow, state: CardPageState): string => {
  const base = `/sandbox-pay/card/${encodeURIComponent(p.gateway)}/pay/${p.id}`
  const values = state.values ?? {}
  const cardErrors = state.step === "card" ? (state.errors ?? {}) : {}
  const challengeErrors = state.step === "challenge" ? (state.errors ?? {}) : {}
  const amount = formatAmount(p.amount, p.currency)
  const cards = testCards
    .map((c) => `<tr><td>${groupCardNumber(c.number)}</td><td>${escapeHtml(c.label)}</td></tr>`)
    .join("")
  const cardForm = form(
    "card",
    base,
    `${cardFields.map((f) => field("card", f, values, cardErrors)).join("")}
<div class="row">${field("card", expiryField, values, cardErrors)}${field("card", cvcField, values, cardErrors)}</div>
<div class="actions"><button type="submit" name="action" value="pay">Pay ${escapeHtml(amount)}</button>
<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>Cancel payment</button></div>`,
    cardErrors,
    state.step === "card" ? state.message : undefined,
  )
  const challengeForm = form(
    "challenge",
    `${base}/3ds`,
    `<p>Your bank asks you to confirm this payment of <span class="nowrap">${escapeHtml(amount)}</span> to ${escapeHtml(p.gateway)}
with card ending <span data-fill="last4">${escapeHtml(p.cardLast4 ?? "")}</span>.</p>
${field("challenge", { name: "code", label: "Confirmation code", autocomplete: "one-time-code", inputmode: "numeric", maxlength: 8 }, {}, challengeErrors)}
<p class="muted">Sandbox: the code ${threeDSecureCode} approves; anything else fails.</p>
<div class="actions"><button type="submit" name="action" value="verify">Confirm</button>
<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>Cancel</button></div>`,
    challengeErrors,
    state.step === "challenge" ? state.message : undefined,
  )
  return page(
    nonce,
    p,
    "Card payment",
    `${step(
      "card",
      state.step,
      "Pay by card",
      `${cardForm}<details><summary>Test cards</summary><p class="muted">Any future expiry date and any CVC.</p>
<table><tbody>${cards}</tbody></table></details>`,
    )}
${step("challenge", state.step, "3-D Secure check", challengeForm)}
${doneStep(state.step, state.doneMessage ?? "", p.returnUrl)}`,
  )
}

export interface WalletPageState {
  readonly step: "sign-in" | "approve" | "qr" | "done"
  readonly values?: Values
  readonly errors?: Errors
  readonly message?: string
  readonly doneMessage?: string
}

const walletNames: Readonly<Record<string, string>> = {
  skrill: "Skrill",
  jeton: "Jeton",
  mifinity: "MiFinity",
}

export const walletPage = (nonce: string, p: PaymentRow, state: WalletPageState): string => {
  const base = `/sandbox-pay/wallet/${p.id}`
  const name = walletNames[p.family] ?? p.family
  const amount = formatAmount(p.amount, p.currency)
  const values = state.values ?? {}
  const signInErrors = state.step === "sign-in" ? (state.errors ?? {}) : {}
  const signIn = form(
    "sign-in",
    `${base}/sign-in`,
    `${field("sign-in", { name: "email", label: "E-mail", type: "email", autocomplete: "username", maxlength: 254 }, values, signInErrors)}
${field("sign-in", { name: "password", label: "Password", type: "password", autocomplete: "current-password", maxlength: 200 }, values, signInErrors)}
<p class="muted">Sandbox: any e-mail and password sign in; an e-mail starting with "declined" has insufficient funds.</p>
<div class="actions"><button type="submit" name="action" value="sign-in">Sign in</button>
<button type="submit" name="action" value="cancel" class="secondary" formnovalidate formaction="${escapeHtml(`${base}/decide`)}">Cancel payment</button></div>`,
    signInErrors,
    state.step === "sign-in" ? state.message : undefined,
  )
  const decideButtons = (approveLabel: string) =>
    `<div class="actions"><button type="submit" name="action" value="approve">${escapeHtml(approveLabel)}</button>
<button type="submit" name="action" value="cancel" class="secondary">Cancel payment</button></div>`
  const approve = form(
    "approve",
    `${base}/decide`,
    `<p>Signed in as <strong data-fill="email">${escapeHtml(p.walletEmail ?? values.email ?? "")}</strong>.</p>
<p>Pay <strong class="nowrap">${escapeHtml(amount)}</strong> to ${escapeHtml(p.gateway)} (reference ${escapeHtml(p.reference)})?</p>
${decideButtons(`Approve ${amount}`)}`,
    {},
    state.step === "approve" ? state.message : undefined,
  )
  const qr = form(
    "qr",
    `${base}/decide`,
    `<p>Scan this code with the ${escapeHtml(name)} app to pay <span class="nowrap">${escapeHtml(amount)}</span>:</p>
<p class="qr" aria-label="QR code text">${escapeHtml(p.qr ?? "")}</p>
${decideButtons("I paid in the app")}`,
    {},
    state.step === "qr" ? state.message : undefined,
  )
  const steps =
    p.method === "QR"
      ? step("qr", state.step, `Pay with the ${name} app`, qr)
      : `${step("sign-in", state.step, `Sign in to ${name}`, signIn)}
${step("approve", state.step, `Approve the payment`, approve)}`
  return page(nonce, p, name, `${steps}\n${doneStep(state.step, state.doneMessage ?? "", p.returnUrl)}`)
}

/** A page for an address that names no payment of this kind. */
export const notFoundPage = (nonce: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>Payment not found · Sandbox Pay</title><style nonce="${nonce}">${styles}</style></head>
<body>${sandboxMark}<main><h1>Payment not found</h1><p>This payment link is not valid. Return to the merchant and start again.</p></main></body></html>`
