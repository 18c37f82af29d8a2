/**
 * The payer's side of the sandbox provider (pages.ts renders):
 *
 *   GET  /sandbox-pay/card/{code}/pay/{id}        card form (+ 3-D Secure step, same document)
 *   POST /sandbox-pay/card/{code}/pay/{id}        card details, or action=cancel
 *   POST /sandbox-pay/card/{code}/pay/{id}/3ds    the confirmation code, or action=cancel
 *   GET  /sandbox-pay/skrill/app/{id}             e-wallet sign-in → approve / cancel
 *   GET  /sandbox-pay/jeton/pay/{id}              same; method QR shows the QR text instead of a sign-in
 *   GET  /sandbox-pay/mifinity/widget?token=…     same, addressed by the initializationToken
 *   POST /sandbox-pay/wallet/{id}/sign-in         e-mail + password (any non-empty)
 *   POST /sandbox-pay/wallet/{id}/decide          action=approve | cancel
 *
 * Every POST answers JSON to the page's script (Accept: application/json) and a page otherwise:
 * the next step (200), the form with its errors (422), the merchant's returnUrl once decided (303),
 * or "already decided" (409): a decision is final once.
 */
import { randomBytes } from "node:crypto"
import { Effect, Layer } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { followingAncestors } from "../../lib/hosts.ts"
import { type CardInput, checkCard, threeDSecureCode, threeDSecureFailed } from "./cards.ts"
import { SandboxConfig } from "./config.ts"
import { SANDBOX_PREFIX } from "./http.ts"
import { cardPage, type Errors, notFoundPage, pageCsp, type Values, walletPage } from "./pages.ts"
import { cancelledReason, Sandbox } from "./Sandbox.ts"
import type { Decision, PaymentRow } from "./SandboxRepo.ts"

type Outcome =
  | { readonly _tag: "Errors"; readonly errors: Errors; readonly message?: string }
  | { readonly _tag: "Step"; readonly step: string; readonly fill?: Values }
  | { readonly _tag: "Done"; readonly message: string; readonly redirect: string }
  | { readonly _tag: "Decided"; readonly message: string; readonly redirect: string }

const decisionMessages: Readonly<Record<Decision, (reason: string | null) => string>> = {
  approved: () => "Payment approved. Returning to the merchant…",
  declined: (reason) => `Payment declined: ${reason ?? "declined"}. Returning to the merchant…`,
  failed: (reason) => `Payment failed: ${reason ?? "error"}. Returning to the merchant…`,
  cancelled: () => "Payment cancelled. Returning to the merchant…",
}

const decidedMessage = (p: PaymentRow): string =>
  `This payment is already ${p.status}${p.reason === null ? "" : ` (${p.reason})`}; a decision is final.`

const alreadyDecided = (p: PaymentRow): Outcome => ({
  _tag: "Decided",
  message: decidedMessage(p),
  redirect: p.returnUrl,
})

/** Sends the page with its own CSP and the headers a payment page needs. */
const htmlPage = (status: number, html: (nonce: string) => string, returnUrl: string | undefined) =>
  Effect.gen(function* () {
    const config = yield* SandboxConfig
    const request = yield* HttpServerRequest.HttpServerRequest
    const nonce = randomBytes(16).toString("base64")
    // A casino on this machine frames it under the host the player typed (lib/hosts.ts).
    const csp = pageCsp(nonce, returnUrl, followingAncestors(config.frameAncestors, request.headers.host))
    yield* HttpEffect.appendPreResponseHandler((_req, response) =>
      Effect.succeed(
        HttpServerResponse.setHeaders(response, {
          "content-security-policy": csp,
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
          // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on the
          // pages' own form posts (no script), which a server's origin check refuses as cross-origin.
          "referrer-policy": "same-origin",
        }),
      ),
    )
    return HttpServerResponse.text(html(nonce), { status, contentType: "text/html; charset=utf-8" })
  })

const notFound = htmlPage(404, notFoundPage, undefined)

const wantsJson = Effect.map(HttpServerRequest.HttpServerRequest, (r) =>
  (r.headers.accept ?? "").includes("application/json"),
)

/** The urlencoded form (the page's script sends the same encoding). Values are capped at 300 characters. */
const formBody = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const text = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
  const params = new URLSearchParams(text)
  const values: Record<string, string> = {}
  for (const [k, v] of params) if (!(k in values)) values[k] = v.slice(0, 300)
  return values
})

/** JSON for the script; for a plain form post, the page of the outcome (or the redirect). */
const respond = (
  p: PaymentRow,
  outcome: Outcome,
  render: (nonce: string, p: PaymentRow, outcome: Outcome) => string,
) =>
  Effect.gen(function* () {
    const status = outcome._tag === "Errors" ? 422 : outcome._tag === "Decided" ? 409 : 200
    if (yield* wantsJson) {
      const body =
        outcome._tag === "Errors"
          ? { outcome: "errors", errors: outcome.errors, message: outcome.message ?? null }
          : outcome._tag === "Step"
            ? { outcome: "step", step: outcome.step, fill: outcome.fill ?? {} }
            : {
                outcome: outcome._tag === "Done" ? "done" : "decided",
                message: outcome.message,
                redirect: outcome.redirect,
              }
      return HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })
    }
    if (outcome._tag === "Done") {
      return HttpServerResponse.redirect(outcome.redirect, {
        status: 303,
        headers: { "cache-control": "no-store" },
      })
    }
    return yield* htmlPage(status, (nonce) => render(nonce, p, outcome), p.returnUrl)
  })

const decide = (p: PaymentRow, status: Decision, reason: string | null, last4: string | null = null) =>
  Effect.gen(function* () {
    const sandbox = yield* Sandbox
    const decided = yield* sandbox.decide(p.id, status, reason, last4)
    if (decided === undefined) {
      const now = yield* sandbox.payment(p.id)
      return alreadyDecided(now ?? p)
    }
    return {
      _tag: "Done",
      message: decisionMessages[status](reason),
      redirect: decided.returnUrl,
    } satisfies Outcome
  })

const finalMessage = (o: Outcome): { doneMessage?: string } =>
  o._tag === "Done" || o._tag === "Decided" ? { doneMessage: o.message } : {}
const errorMessage = (o: Outcome): { message?: string } =>
  o._tag === "Errors" && o.message !== undefined ? { message: o.message } : {}

// ---- card -------------------------------------------------------------------------------------

const renderCard = (values: Values) => (nonce: string, p: PaymentRow, outcome: Outcome) =>
  cardPage(nonce, p, {
    step:
      outcome._tag === "Step"
        ? outcome.step === "challenge"
          ? "challenge"
          : "card"
        : outcome._tag === "Errors"
          ? p.challenge
            ? "challenge"
            : "card"
          : "done",
    values,
    errors: outcome._tag === "Errors" ? outcome.errors : {},
    ...errorMessage(outcome),
    ...finalMessage(outcome),
  })

const cardPayment = Effect.gen(function* () {
  const sandbox = yield* Sandbox
  const params = yield* HttpRouter.params
  const p = yield* sandbox.payment(params.id ?? "")
  return p !== undefined && p.family === "hosted-card" && p.gateway === params.code ? p : undefined
})

const cardPageRoute = Effect.gen(function* () {
  const p = yield* cardPayment
  if (p === undefined) return yield* notFound
  if (p.status !== "created") {
    return yield* htmlPage(
      200,
      (nonce) => cardPage(nonce, p, { step: "done", doneMessage: decidedMessage(p) }),
      p.returnUrl,
    )
  }
  return yield* htmlPage(
    200,
    (nonce) => cardPage(nonce, p, { step: p.challenge ? "challenge" : "card" }),
    p.returnUrl,
  )
})

const cardSubmit = Effect.gen(function* () {
  const sandbox = yield* Sandbox
  const p = yield* cardPayment
  if (p === undefined) return yield* notFound
  const form = yield* formBody
  const values: Values = { holder: form.holder ?? "", number: form.number ?? "", expiry: form.expiry ?? "" }
  const render = renderCard(values)
  if (p.status !== "created") return yield* respond(p, alreadyDecided(p), render)
  if (form.action === "cancel")
    return yield* respond(p, yield* decide(p, "cancelled", cancelledReason), render)
  const input: CardInput = {
    number: form.number ?? "",
    expiry: form.expiry ?? "",
    cvc: form.cvc ?? "",
    holder: form.holder ?? "",
  }
  const check = checkCard(input, new Date())
  if (!check.ok)
    return yield* respond({ ...p, challenge: false }, { _tag: "Errors", errors: check.errors }, render)
  const outcome = check.outcome
  switch (outcome._tag) {
    case "Approve":
      return yield* respond(p, yield* decide(p, "approved", null, check.last4), render)
    case "Decline":
      return yield* respond(p, yield* decide(p, "declined", outcome.reason, check.last4), render)
    case "Fail":
      return yield* respond(p, yield* decide(p, "failed", outcome.reason, check.last4), render)
    case "Challenge": {
      const started = yield* sandbox.startChallenge(p.id, check.last4)
      if (!started) return yield* respond(p, alreadyDecided((yield* sandbox.payment(p.id)) ?? p), render)
      const challenged: PaymentRow = { ...p, challenge: true, cardLast4: check.last4 }
      return yield* respond(
        challenged,
        { _tag: "Step", step: "challenge", fill: { last4: check.last4 } },
        render,
      )
    }
  }
})

const threeDSecure = Effect.gen(function* () {
  const p = yield* cardPayment
  if (p === undefined) return yield* notFound
  const form = yield* formBody
  const render = renderCard({})
  if (p.status !== "created") return yield* respond(p, alreadyDecided(p), render)
  if (!p.challenge) {
    return yield* respond(p, { _tag: "Errors", errors: {}, message: "Enter the card details first." }, render)
  }
  if (form.action === "cancel")
    return yield* respond(p, yield* decide(p, "declined", threeDSecureFailed), render)
  const code = (form.code ?? "").trim()
  if (code === "")
    return yield* respond(p, { _tag: "Errors", errors: { code: "Enter the confirmation code." } }, render)
  return yield* respond(
    p,
    code === threeDSecureCode
      ? yield* decide(p, "approved", null)
      : yield* decide(p, "declined", threeDSecureFailed),
    render,
  )
})

// ---- e-wallets ---------------------------------------------------------------------------------

const walletStart = (p: PaymentRow): "sign-in" | "approve" | "qr" =>
  p.method === "QR" ? "qr" : p.walletEmail === null ? "sign-in" : "approve"

const renderWallet = (values: Values) => (nonce: string, p: PaymentRow, outcome: Outcome) =>
  walletPage(nonce, p, {
    step:
      outcome._tag === "Step"
        ? outcome.step === "approve"
          ? "approve"
          : walletStart(p)
        : outcome._tag === "Errors"
          ? walletStart(p)
          : "done",
    values,
    errors: outcome._tag === "Errors" ? outcome.errors : {},
    ...errorMessage(outcome),
    ...finalMessage(outcome),
  })

const walletPageOf = (p: PaymentRow | undefined, family: PaymentRow["family"]) =>
  Effect.gen(function* () {
    if (p === undefined || p.family !== family) return yield* notFound
    if (p.status !== "created") {
      return yield* htmlPage(
        200,
        (nonce) => walletPage(nonce, p, { step: "done", doneMessage: decidedMessage(p) }),
        p.returnUrl,
      )
    }
    return yield* htmlPage(200, (nonce) => walletPage(nonce, p, { step: walletStart(p) }), p.returnUrl)
  })

const byId = Effect.gen(function* () {
  const sandbox = yield* Sandbox
  return yield* sandbox.payment((yield* HttpRouter.params).id ?? "")
})

const skrillPage = Effect.flatMap(byId, (p) => walletPageOf(p, "skrill"))
const jetonPage = Effect.flatMap(byId, (p) => walletPageOf(p, "jeton"))
const mifinityWidget = Effect.gen(function* () {
  const sandbox = yield* Sandbox
  const request = yield* HttpServerRequest.HttpServerRequest
  const token = new URL(request.url, "http://sandbox.invalid").searchParams.get("token") ?? ""
  const p = token === "" || token.length > 100 ? undefined : yield* sandbox.paymentByToken(token)
  return yield* walletPageOf(p, "mifinity")
})

const walletPayment = Effect.map(byId, (p) => (p !== undefined && p.family !== "hosted-card" ? p : undefined))

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const walletSignIn = Effect.gen(function* () {
  const sandbox = yield* Sandbox
  const p = yield* walletPayment
  if (p === undefined) return yield* notFound
  const form = yield* formBody
  const email = (form.email ?? "").trim()
  const render = renderWallet({ email })
  if (p.status !== "created") return yield* respond(p, alreadyDecided(p), render)
  if (p.method === "QR")
    return yield* respond(p, { _tag: "Errors", errors: {}, message: "Pay with the app." }, render)
  if (form.action === "cancel")
    return yield* respond(p, yield* decide(p, "cancelled", cancelledReason), render)
  const errors: Record<string, string> = {}
  if (email === "") errors.email = "Enter your e-mail."
  else if (email.length > 254 || !emailPattern.test(email)) errors.email = "Enter a valid e-mail."
  if ((form.password ?? "") === "") errors.password = "Enter your password."
  if (Object.keys(errors).length > 0)
    return yield* respond({ ...p, walletEmail: null }, { _tag: "Errors", errors }, render)
  const signed = yield* sandbox.signIn(p.id, email)
  if (!signed) return yield* respond(p, alreadyDecided((yield* sandbox.payment(p.id)) ?? p), render)
  return yield* respond(
    { ...p, walletEmail: email },
    { _tag: "Step", step: "approve", fill: { email } },
    render,
  )
})

const walletDecide = Effect.gen(function* () {
  const p = yield* walletPayment
  if (p === undefined) return yield* notFound
  const form = yield* formBody
  const render = renderWallet({})
  if (p.status !== "created") return yield* respond(p, alreadyDecided(p), render)
  if (form.action === "cancel")
    return yield* respond(p, yield* decide(p, "cancelled", cancelledReason), render)
  if (form.action !== "approve") {
    return yield* respond(p, { _tag: "Errors", errors: {}, message: "Choose Approve or Cancel." }, render)
  }
  if (p.method !== "QR" && p.walletEmail === null) {
    return yield* respond(p, { _tag: "Errors", errors: {}, message: "Sign in first." }, render)
  }
  // A test wallet: an e-mail starting with "declined" has no money.
  if (p.walletEmail?.toLowerCase().startsWith("declined") === true) {
    return yield* respond(p, yield* decide(p, "declined", "Insufficient funds"), render)
  }
  return yield* respond(p, yield* decide(p, "approved", null), render)
})

export const pageRoutes = Layer.mergeAll(
  HttpRouter.add("GET", `${SANDBOX_PREFIX}/card/:code/pay/:id`, cardPageRoute),
  HttpRouter.add("POST", `${SANDBOX_PREFIX}/card/:code/pay/:id`, cardSubmit),
  HttpRouter.add("POST", `${SANDBOX_PREFIX}/card/:code/pay/:id/3ds`, threeDSecure),
  HttpRouter.add("GET", `${SANDBOX_PREFIX}/skrill/app/:id`, skrillPage),
  HttpRouter.add("GET", `${SANDBOX_PREFIX}/jeton/pay/:id`, jetonPage),
  HttpRouter.add("GET", `${SANDBOX_PREFIX}/mifinity/widget`, mifinityWidget),
  HttpRouter.add("POST", `${SANDBOX_PREFIX}/wallet/:id/sign-in`, walletSignIn),
  HttpRouter.add("POST", `${SANDBOX_PREFIX}/wallet/:id/decide`, walletDecide),
)
