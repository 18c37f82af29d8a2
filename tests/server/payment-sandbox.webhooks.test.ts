/**
 * The sandbox's webhook outbox: retries with backoff until the receiver acknowledges, network
 * failures recorded, the expiry sweeper, and — on PostgreSQL — two dispatcher processes on one
 * database delivering every event exactly once (rows claimed FOR UPDATE SKIP LOCKED, leased).
 */
import { createHmac } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backoffSeconds } from "../../providers/payment-sandbox/Dispatcher.ts"
import { Sandbox } from "../../providers/payment-sandbox/Sandbox.ts"
import { SandboxRepo } from "../../providers/payment-sandbox/SandboxRepo.ts"
import { postgresUnavailable } from "./harness.ts"
import {
  describeSandboxBackends,
  eventually,
  initiation,
  merchantPost,
  type Receiver,
  type SandboxTest,
  startReceiver,
  startSandbox,
} from "./payment-sandbox-harness.ts"

const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, "0")
const approveCard = {
  holder: "Ada",
  number: "4242424242424242",
  expiry: `12/${nextYear}`,
  cvc: "123",
  action: "pay",
}

const payByCard = async (t: SandboxTest, notifyUrl: string, code = "payweb"): Promise<string> => {
  const res = await merchantPost(t, `/card/${code}/payments`, code, initiation(notifyUrl))
  expect(res.status).toBe(201)
  const page = new URL(String(res.body.redirectUrl)).pathname
  const decided = await fetch(`${t.url}${page}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(approveCard).toString(),
  })
  expect(decided.status).toBe(303)
  return String(res.body.paymentId)
}

interface OutboxState {
  attempts: number
  delivered: boolean
  last_status: number | null
  last_error: string | null
}

const outboxOf = async (t: SandboxTest, paymentId: string) =>
  t.query<OutboxState>(
    `SELECT attempts, delivered_at IS NOT NULL AS delivered, last_status, last_error
     FROM sandbox_webhook_outbox WHERE payment_id = $1`,
    [paymentId],
  )

describe("backoff", () => {
  it("is 1, 2, 4 … capped at 60 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 12].map(backoffSeconds)).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60])
  })
})

describeSandboxBackends("payment sandbox webhooks", (backend) => {
  let t: SandboxTest
  let receiver: Receiver
  beforeAll(async () => {
    // Fails the first two requests, then acknowledges.
    receiver = await startReceiver((n) => (n === 1 ? 500 : n === 2 ? 503 : 200))
    t = await startSandbox(backend)
  })
  afterAll(async () => {
    await t?.close()
    await receiver?.close()
  })

  it("retries until the receiver acknowledges (fails twice, then 200): same body, fresh valid signature", async () => {
    const id = await payByCard(t, receiver.url)
    const [state] = await eventually(async () => {
      const rows = await outboxOf(t, id)
      return rows[0]?.delivered === true ? rows : undefined
    })
    expect(state).toEqual({ attempts: 3, delivered: true, last_status: 200, last_error: null })
    expect(receiver.received.map((r) => r.answeredStatus)).toEqual([500, 503, 200])
    const bodies = new Set(receiver.received.map((r) => r.body))
    expect(bodies.size).toBe(1)
    const secret = t.webhookSecret("payweb")
    for (const r of receiver.received) {
      const header = String(r.headers["x-sandbox-signature"])
      const ts = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)
      expect(ts).not.toBeNull()
      const expected = createHmac("sha256", secret).update(`${ts?.[1]}.${r.body}`).digest("hex")
      expect(ts?.[2]).toBe(expected)
    }
    const control = await fetch(`${t.url}/sandbox-pay/control/payments/${id}`, {
      headers: { authorization: `Bearer ${t.secret}` },
    })
    const status = (await control.json()) as {
      status: string
      webhooks: Array<{ delivered: boolean; attempts: number }>
    }
    expect(status.status).toBe("approved")
    expect(status.webhooks).toEqual([expect.objectContaining({ delivered: true, attempts: 3 })])
  })

  it("records a network failure and keeps the event for a later attempt", async () => {
    const id = await payByCard(t, "http://127.0.0.1:9/unreachable")
    const [state] = await eventually(async () => {
      const rows = await outboxOf(t, id)
      return rows[0] !== undefined && rows[0].attempts >= 1 && rows[0].last_error !== null ? rows : undefined
    })
    expect(state?.delivered).toBe(false)
    expect(state?.last_status).toBeNull()
  })

  it("the sweeper fails payments left created for 30 minutes, with a webhook", async () => {
    const res = await merchantPost(t, "/card/payweb/payments", "payweb", initiation(receiver.url))
    const fresh = await merchantPost(t, "/card/payweb/payments", "payweb", initiation(receiver.url))
    const id = String(res.body.paymentId)
    await t.query("UPDATE sandbox_payments SET created_at = now() - interval '31 minutes' WHERE id = $1", [
      id,
    ])
    const expired = await t.server.run(
      Effect.gen(function* () {
        const sandbox = yield* Sandbox
        return yield* sandbox.expireStale()
      }).pipe(Effect.provide(Sandbox.layerNoDeps), Effect.provide(SandboxRepo.layer)),
    )
    expect(expired).toBe(1)
    const rows = await t.query<{ id: string; status: string; reason: string | null }>(
      "SELECT id::text AS id, status, reason FROM sandbox_payments WHERE id IN ($1, $2) ORDER BY status",
      [id, String(fresh.body.paymentId)],
    )
    expect(rows).toEqual([
      { id: String(fresh.body.paymentId), status: "created", reason: null },
      { id, status: "failed", reason: "Expired by the provider" },
    ])
    const hook = await eventually(async () =>
      receiver.received.find((w) => JSON.parse(w.body).paymentId === id),
    )
    expect(JSON.parse(hook.body)).toMatchObject({ type: "payment.failed", reason: "Expired by the provider" })
    // The expired payment's page refuses a late decision.
    const late = await fetch(`${t.url}/sandbox-pay/card/payweb/pay/${id}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(approveCard).toString(),
    })
    expect(late.status).toBe(409)
  })
})

const pgProblem = await postgresUnavailable()

describe.skipIf(pgProblem !== undefined && process.env.CI !== "true")(
  "two dispatchers on one PostgreSQL",
  () => {
    let a: SandboxTest
    let b: SandboxTest
    let receiver: Receiver
    let failing = true
    beforeAll(async () => {
      // Refuses everything until all payments are decided, so every event falls due again at about the
      // same moment and both processes' dispatchers race for the same rows.
      receiver = await startReceiver(() => (failing ? 503 : 200))
      a = await startSandbox("postgres")
      const databaseUrl = a.config.databaseUrl
      if (databaseUrl === undefined) throw new Error("no database")
      b = await startSandbox("postgres", { databaseUrl })
    })
    afterAll(async () => {
      await b?.close()
      await a?.close()
      await receiver?.close()
    })

    it("deliver each event exactly once when both claim", async () => {
      const ids: Array<string> = []
      for (let i = 0; i < 40; i++) ids.push(await payByCard(i % 2 === 0 ? a : b, receiver.url))
      failing = false
      await eventually(async () => {
        const [row] = await a.query<{ pending: string }>(
          "SELECT count(*)::text AS pending FROM sandbox_webhook_outbox WHERE delivered_at IS NULL",
        )
        return row?.pending === "0" ? true : undefined
      })
      const acknowledged = receiver.received
        .filter((r) => r.answeredStatus === 200)
        .map((r) => JSON.parse(r.body).id)
      expect(acknowledged).toHaveLength(40)
      expect(new Set(acknowledged).size).toBe(40)
      const paid = new Set(
        receiver.received.filter((r) => r.answeredStatus === 200).map((r) => JSON.parse(r.body).paymentId),
      )
      expect([...paid].sort()).toEqual([...ids].sort())
    })
  },
)
