/**
 * Money out, the lifecycle, against the real server and the payment sandbox beside it (the
 * `payments` party: the skrill and bank payout rails) on PGlite and PostgreSQL: operators approve and reject through the back-office API with their tokens (each action audited as the token's operator), the
 * sandbox's payout API pays or fails a bank/Skrill payout and its signed callback settles it,
 * forged / stale / replayed / conflicting callbacks are refused or answered once, transitions a
 * status does not allow are refused, a crypto payout through a CryptoPayouts double is sent, tracked
 * to its confirmations and paid, a UTXO payout is recorded by hand (mark-sent, mark-paid), and every
 * refund returns the funds — then ledger:check is clean.
 */
import { randomUUID } from "node:crypto"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { PaymentsHandle } from "../../compose/parties/payments.ts"
import { ChainUnavailable } from "../../server/crypto/chain.ts"
import { CryptoPayouts, type CryptoPayoutsShape, PayoutRejected } from "../../server/crypto/payouts.ts"
import { signWebhook } from "../../server/payments/adapters.ts"
import { FiatPayouts } from "../../server/payments/payouts.ts"
import { Withdrawals } from "../../server/withdrawals/Withdrawals.ts"
import { BO } from "./backoffice-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport } from "./money-support.ts"
import { bearerCall, type OperatorToken, operatorToken } from "./operator-token.ts"
import { sleep } from "./users-support.ts"
import {
  addWallet,
  BTC_ADDRESS,
  balance,
  bankWithdraw,
  type Cashier,
  cryptoWithdraw,
  ETH_ADDRESS,
  fund,
  newCashier,
  PROFILE,
  skrillWithdraw,
  statusOf,
} from "./withdrawals-support.ts"

const clearing = async (server: TestServer, code: string, currency: string): Promise<bigint> => {
  const rows = await server.query<{ balance: string }>(
    "SELECT balance::text AS balance FROM ledger_accounts WHERE kind = 'gateway_clearing' AND code = $1 AND currency = $2",
    [code, currency],
  )
  return BigInt(rows[0]?.balance ?? "0")
}

describeBackends("withdrawals: lifecycle", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start(
      { captchaEnabled: false },
      {
        env: { WITHDRAW_CONFIRMATIONS: "3" },
        parties: ["payments"],
      },
    )
    // One token per operator: the audit names the operator whose token made the call.
    ana = await operatorToken(server, { role: "payments", email: "ana@payments.example" })
    bob = await operatorToken(server, { role: "payments", email: "bob@payments.example" })
  }, 120_000)
  afterAll(async () => {
    await server?.close()
  })
  let ana: OperatorToken
  let bob: OperatorToken

  /** A decision on withdrawal `id` (`approve`, `reject`, `mark-sent`, `mark-paid`), by ana unless told. */
  const decide = async (action: string, id: string, body?: unknown, who: OperatorToken = ana) => {
    const reply = await who.call("POST", `${BO}/withdrawals/${id}/${action}`, body)
    return { status: reply.status, body: reply.body as Record<string, unknown> }
  }

  /** Polls (bounded) until the withdrawal reaches `status`: the sandbox's callback is asynchronous. */
  const until = async (id: string, status: string) => {
    for (let i = 0; i < 100 && (await statusOf(server, id)) !== status; i++) await sleep(100)
    return statusOf(server, id)
  }

  const requested = async (p: Cashier, amount: string, email = "payee@example.com") => {
    const res = await bankWithdraw(p, amount, email)
    expect(res.status).toBe(200)
    return (res.body as { id: string }).id
  }

  it("approve → the sandbox pays the bank transfer → its signed callback marks it paid", async () => {
    const p = await newCashier(server, "wl-bank", { eur: 10_000n })
    const id = await requested(p, "3000")
    const clearingBefore = await clearing(server, "bank", "EUR")
    const approved = await decide("approve", id)
    expect(approved.status).toBe(200)
    expect(["sent", "paid"]).toContain(approved.body.status)
    expect(await until(id, "paid")).toBe("paid")
    expect(await balance(server, p.userId)).toBe(7_000n)
    expect(await clearing(server, "bank", "EUR")).toBe(clearingBefore + 3_000n)
    const list = (await p.browser.get(`${PROFILE}/profile/withdrawals`)).body as Array<{
      id: string
      timeline: Array<{ status: string }>
    }>
    const mine = list.find((w) => w.id === id)
    expect(mine?.timeline.map((s) => s.status)).toEqual(["requested", "approved", "sent", "paid"])
    const audit = await server.query<{ actor: string; action: string; subject: string }>(
      "SELECT actor, action, subject FROM operator_audit WHERE subject = $1",
      [id],
    )
    expect(audit).toEqual([
      { actor: "token:ana@payments.example (tests)", action: "withdrawal.approve", subject: id },
    ])
    // Final: nothing moves it any more.
    expect((await decide("approve", id)).status).toBe(409)
    expect((await decide("reject", id, { reason: "late" })).status).toBe(409)
  })

  it("a payout the provider fails (fail@… e-mail) returns the funds; Skrill pays to the account e-mail", async () => {
    const p = await newCashier(server, "wl-fail", { eur: 10_000n })
    const id = await requested(p, "2000", "fail@example.com")
    expect(await balance(server, p.userId)).toBe(8_000n)
    expect((await decide("approve", id)).status).toBe(200)
    expect(await until(id, "failed")).toBe("failed")
    expect(await balance(server, p.userId)).toBe(10_000n)
    const rows = await server.query<{ reason: string }>("SELECT reason FROM withdrawals WHERE id = $1", [id])
    expect(rows[0]?.reason).toBe("Recipient account not found")
    const skrill = await skrillWithdraw(p, "1500")
    const sid = (skrill.body as { id: string }).id
    expect((await decide("approve", sid)).status).toBe(200)
    expect(await until(sid, "paid")).toBe("paid")
  })

  it("reject returns the funds with the reason; no approve after reject, no double approve", async () => {
    const p = await newCashier(server, "wl-reject", { eur: 10_000n })
    const id = await requested(p, "4000")
    expect((await decide("reject", id, { reason: "  " })).status).toBe(400)
    const rejected = await decide("reject", id, { reason: "Bank account name does not match" }, bob)
    expect(rejected.status).toBe(200)
    expect(rejected.body).toMatchObject({ status: "rejected", reason: "Bank account name does not match" })
    expect(await balance(server, p.userId)).toBe(10_000n)
    expect((await decide("approve", id)).body).toMatchObject({ _tag: "DecisionRefused" })
    expect((await decide("approve", id)).status).toBe(409)
    expect((await decide("approve", randomUUID())).status).toBe(404)
    expect((await decide("approve", "not-an-id")).status).toBe(404)
    const audit = await server.query<{ actor: string; action: string }>(
      "SELECT actor, action FROM operator_audit WHERE subject = $1",
      [id],
    )
    expect(audit).toEqual([{ actor: "token:bob@payments.example (tests)", action: "withdrawal.reject" }])
    // A rejected request does not count against the daily cap: the same amount can be asked again.
    const again = await requested(p, "4000", "right-name@example.com")
    const first = await decide("approve", again)
    expect(first.status).toBe(200)
    expect(await until(again, "paid")).toBe("paid")
    // The operator sees it rejected (the queue lists only requests waiting for a decision).
    const shown = await ana.call("GET", `${BO}/withdrawals/${id}`)
    expect(shown.body).toMatchObject({ withdrawal: { id, status: "rejected" } })
    const queue = (await ana.call("GET", `${BO}/withdrawals`)).body as { withdrawals: Array<{ id: string }> }
    expect(queue.withdrawals.map((w) => w.id)).not.toContain(id)
    const anonymous = await fetch(`${server.url}${BO}/withdrawals`)
    expect(anonymous.status).toBe(401)
    expect((await bearerCall(server.url, "bo_wrong", "GET", `${BO}/withdrawals`)).status).toBe(401)
  })

  it("callbacks: forged and stale refused (401), replay answered once, same id other body 409, mismatch 422", async () => {
    const p = await newCashier(server, "wl-callbacks", { eur: 10_000n })
    const id = await requested(p, "2500")
    // As if the payout had been sent to the bank rail (no real payout: these callbacks are ours).
    await server.query("UPDATE withdrawals SET status = 'sent' WHERE id = $1", [id])
    // The bank rail's callback secret, as the casino holds it and the sandbox issued it.
    const bankSecret = await server.run(
      Effect.gen(function* () {
        return (yield* FiatPayouts).webhookSecret("bank") ?? ""
      }),
    )
    const sandbox = server.parties.get("payments")?.handle as PaymentsHandle
    expect(bankSecret).toBe(sandbox.credentials("bank").webhookSecret)
    const body = (eventId: string, amount = "2500", type = "payout.paid") =>
      JSON.stringify({
        id: eventId,
        type,
        payoutId: "po_test",
        reference: id,
        amount,
        currency: "EUR",
        reason: null,
        createdAt: new Date().toISOString(),
      })
    const post = async (raw: string, signature: string, provider = "bank") => {
      const res = await fetch(`${server.url}/api/payments/payouts/${provider}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-sandbox-signature": signature },
        body: raw,
      })
      return { status: res.status, body: (await res.json()) as Record<string, unknown> }
    }
    const now = Math.floor(Date.now() / 1000)
    const event = body("evt-1")
    expect((await post(event, signWebhook("wrong-secret", now, event))).status).toBe(401)
    expect((await post(event, signWebhook(bankSecret, now - 3_600, event))).status).toBe(401)
    expect((await post(event, "")).status).toBe(401)
    expect((await post(event, signWebhook(bankSecret, now, event), "paypal")).status).toBe(404)
    expect((await post("{}", signWebhook(bankSecret, now, "{}"))).status).toBe(400)
    const wrongAmount = body("evt-0", "2600")
    expect((await post(wrongAmount, signWebhook(bankSecret, now, wrongAmount))).status).toBe(422)
    expect(await statusOf(server, id)).toBe("sent")
    expect((await post(event, signWebhook(bankSecret, now, event))).status).toBe(200)
    expect(await statusOf(server, id)).toBe("paid")
    expect((await post(event, signWebhook(bankSecret, now + 1, event))).status).toBe(200)
    const conflicting = body("evt-1", "2500", "payout.failed")
    expect((await post(conflicting, signWebhook(bankSecret, now, conflicting))).status).toBe(409)
    // A later failed event of a paid withdrawal is recorded and ignored: paid stays paid.
    const late = body("evt-2", "2500", "payout.failed")
    expect((await post(late, signWebhook(bankSecret, now, late))).status).toBe(200)
    expect(await statusOf(server, id)).toBe("paid")
    const paidPostings = await server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_transactions WHERE idempotency_key = $1",
      [`withdrawal-paid:${id}`],
    )
    expect(paidPostings[0]?.n).toBe(1)
    const events = await server.query<{ event_id: string; outcome: string }>(
      "SELECT event_id, outcome FROM withdrawal_callback_events WHERE withdrawal_id = $1 ORDER BY event_id",
      [id],
    )
    expect(events).toEqual([
      { event_id: "evt-0", outcome: "refused" },
      { event_id: "evt-1", outcome: "processed" },
      { event_id: "evt-2", outcome: "ignored" },
    ])
  })

  it("crypto: sent through CryptoPayouts, tracked to its confirmations, paid; a rejected payout fails", async () => {
    const p = await newCashier(server, "wl-eth", { eur: 0n })
    await addWallet(p, "ETH")
    const amount = 10n ** 16n
    await fund(server, p.userId, 3n * amount, "ETH")
    const sends: Array<{ key: string; to: string; amount: bigint }> = []
    let confirmations: number | null = 0
    let refuse = false
    const double: CryptoPayoutsShape = {
      supports: (c) => c === "ETH" || c === "USDT",
      send: (r) =>
        refuse
          ? Effect.fail(new PayoutRejected({ currency: r.currency, message: "hot wallet short of funds" }))
          : Effect.sync(() => {
              sends.push({ key: r.key, to: r.to, amount: r.amount })
              return { txHash: `0x${"ab".repeat(32)}` }
            }),
      confirmations: () => Effect.sync(() => confirmations),
    }
    // A Withdrawals instance with the double, beside the server's own (which has no hot wallet).
    const withDouble = <A, E>(f: (w: Withdrawals["Service"]) => Effect.Effect<A, E>) =>
      server.run(
        Effect.gen(function* () {
          return yield* f(yield* Withdrawals)
        }).pipe(
          Effect.provide(
            Layer.fresh(Withdrawals.layer).pipe(Layer.provide(Layer.succeed(CryptoPayouts, double))),
          ),
        ),
      )
    const res = await cryptoWithdraw(p, amount.toString(), "ETH", ETH_ADDRESS)
    const id = (res.body as { id: string }).id
    const sent = await withDouble((w) => w.approve(id, "ana"))
    expect(sent).toMatchObject({ status: "sent", txHash: `0x${"ab".repeat(32)}` })
    expect(sends).toEqual([{ key: `withdrawal:${id}`, to: ETH_ADDRESS, amount }])
    await withDouble((w) => w.runPayouts(0))
    expect(await statusOf(server, id)).toBe("sent")
    confirmations = 3
    const clearingBefore = await clearing(server, "ethereum", "ETH")
    await withDouble((w) => w.runPayouts(0))
    expect(await statusOf(server, id)).toBe("paid")
    expect(await clearing(server, "ethereum", "ETH")).toBe(clearingBefore + amount)
    const history = await p.browser.get(`${PROFILE}/profile/withdrawals`)
    expect(
      (history.body as Array<{ id: string; timeline: Array<{ status: string }> }>)[0]?.timeline.map(
        (s) => s.status,
      ),
    ).toEqual(["requested", "approved", "sent", "paid"])
    refuse = true
    const second = (await cryptoWithdraw(p, amount.toString(), "ETH", ETH_ADDRESS)).body as { id: string }
    expect(await balance(server, p.userId, "ETH")).toBe(amount)
    const failed = await withDouble((w) => w.approve(second.id, "ana"))
    expect(failed).toMatchObject({ status: "failed", reason: "hot wallet short of funds" })
    expect(await balance(server, p.userId, "ETH")).toBe(2n * amount)
    // The chain unreachable: the withdrawal stays approved and the payout loop sends it later.
    const flaky: CryptoPayoutsShape = {
      ...double,
      send: (r) => Effect.fail(new ChainUnavailable({ network: "ethereum", message: `down (${r.key})` })),
    }
    const third = (await cryptoWithdraw(p, amount.toString(), "ETH", ETH_ADDRESS)).body as { id: string }
    const waiting = await server.run(
      Effect.gen(function* () {
        return yield* (yield* Withdrawals).approve(third.id, "ana")
      }).pipe(
        Effect.provide(
          Layer.fresh(Withdrawals.layer).pipe(Layer.provide(Layer.succeed(CryptoPayouts, flaky))),
        ),
      ),
    )
    expect(waiting.status).toBe("approved")
    refuse = false
    await withDouble((w) => w.runPayouts(0))
    expect(await statusOf(server, third.id)).toBe("sent")
  })

  it("UTXO chains: approved stays pending manual payout; mark-sent then mark-paid record it", async () => {
    const p = await newCashier(server, "wl-btc", { eur: 0n })
    await addWallet(p, "BTC")
    await fund(server, p.userId, 100_000n, "BTC")
    const res = await cryptoWithdraw(p, "50000", "BTC", BTC_ADDRESS)
    const id = (res.body as { id: string }).id
    expect((await decide("approve", id)).body).toMatchObject({ status: "approved" })
    expect((await decide("mark-paid", id)).status).toBe(409)
    expect((await decide("mark-sent", id, { txHash: "nope" })).status).toBe(400)
    const tx = "f".repeat(64)
    expect((await decide("mark-sent", id, { txHash: tx })).body).toMatchObject({
      status: "sent",
      txHash: tx,
    })
    expect((await decide("mark-paid", id)).body).toMatchObject({ status: "paid" })
    expect(await clearing(server, "bitcoin", "BTC")).toBeGreaterThanOrEqual(50_000n)
    const actions = await server.query<{ action: string }>(
      "SELECT action FROM operator_audit WHERE subject = $1 ORDER BY id",
      [id],
    )
    expect(actions.map((a) => a.action)).toEqual([
      "withdrawal.approve",
      "withdrawal.mark-sent",
      "withdrawal.mark-paid",
    ])
    // A fiat withdrawal is never marked paid by hand: its provider's callback decides.
    const fiat = await newCashier(server, "wl-fiat-manual", { eur: 5_000n })
    const fid = await requested(fiat, "2000")
    expect((await decide("mark-paid", fid)).status).toBe(400)
  })

  it("leaves the ledger consistent (ledger:check)", async () => {
    const report = await ledgerReport(server)
    expect(report.clean).toBe(true)
  })
})
