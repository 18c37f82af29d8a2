/**
 * The back office's review queues through their API (services/backoffice/api/queues.ts): a KYC
 * officer previews, approves and rejects documents (the player's verification follows, and the
 * player is e-mailed either way); a payments officer reads a withdrawal beside the player's risk
 * context, approves one (then records its manual BTC payout) and rejects another (the money goes
 * back to the player's wallet); bad input is a typed 4xx, never a 500; each officer is refused the
 * other's queue; the dashboard's counts match the database. Every decision's audit row names the
 * operator, their account and address.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { jpegBytes, pdfBytes } from "./account-support.ts"
import { btcWithdrawals, playerWithDocuments, type Uploaded } from "./backoffice-queues-support.ts"
import { BO, createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { type Browser, PROFILE, waitForMail } from "./users-support.ts"
import { balance, bankWithdraw, newCashier, withdrawable } from "./withdrawals-support.ts"

const PASSWORD = "correct horse battery staple"
const KYC = "kyc-officer@queues.example"
const PAY = "payments-officer@queues.example"
const UNKNOWN = "5f0e7c1a-0000-4000-8000-000000000000"

const tagOf = (body: unknown) => (body as { _tag?: string })._tag

describeBackends("back-office queues", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  let kyc: Browser
  let pay: Browser
  let alice: Uploaded
  let bob: Uploaded

  beforeAll(async () => {
    server = await start({ captchaEnabled: false, backofficeClock: clock.read })
    await createOperator(server, { email: KYC, role: "kyc", password: PASSWORD })
    await createOperator(server, { email: PAY, role: "payments", password: PASSWORD })
    kyc = await signIn(server, clock, KYC, PASSWORD)
    pay = await signIn(server, clock, PAY, PASSWORD)
    alice = await playerWithDocuments(server, "bo-alice", "Alice Liddell")
    bob = await playerWithDocuments(server, "bo-bob", "Bob Builder")
  }, 120_000)
  afterAll(() => server?.close())

  const lastAudit = async () =>
    (
      await server.query<Record<string, unknown>>(
        `SELECT a.actor, a.action, a.subject, a.operator_email, a.operator_id::text AS operator_id, a.ip,
                a.before, a.after
         FROM operator_audit a ORDER BY a.id DESC LIMIT 1`,
      )
    )[0]
  const operatorId = async (email: string) =>
    (
      await server.query<{ id: string }>("SELECT id::text AS id FROM backoffice_operators WHERE email = $1", [
        email,
      ])
    )[0]?.id

  it("lists the documents waiting for review, oldest first, with whose they are", async () => {
    const reply = await kyc.get(`${BO}/kyc/documents`)
    expect(reply.status).toBe(200)
    const body = reply.body as { documents: Array<Record<string, unknown>>; count: number }
    expect(body.count).toBe(body.documents.length)
    const ids = body.documents.map((d) => d.id)
    expect(ids.indexOf(alice.id)).toBeLessThan(ids.indexOf(bob.id))
    const aliceId = body.documents.find((d) => d.id === alice.id)
    expect(aliceId).toMatchObject({
      email: alice.email,
      name: "Alice Liddell",
      kind: "identity",
      fileName: "passport.jpg",
      contentType: "image/jpeg",
      size: jpegBytes().length,
    })
    expect(aliceId?.playerId).toMatch(/^[0-9a-f-]{36}$/)
    expect(body.documents.find((d) => d.id === alice.bill)).toMatchObject({
      kind: "address",
      contentType: "application/pdf",
    })
  })

  it("previews a document: its bytes, its type, inline, not sniffed, sandboxed", async () => {
    const cookie = [...kyc.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
    for (const [id, bytes, type] of [
      [alice.id, jpegBytes(), "image/jpeg"],
      [alice.bill, pdfBytes(), "application/pdf"],
    ] as const) {
      const res = await fetch(`${server.url}${BO}/kyc/documents/${id}/file`, { headers: { cookie } })
      expect(res.status).toBe(200)
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
      expect(res.headers.get("content-type")).toBe(type)
      expect(res.headers.get("content-disposition")).toMatch(/^inline; filename="/)
      expect(res.headers.get("x-content-type-options")).toBe("nosniff")
      expect(res.headers.get("content-security-policy")).toMatch(/^sandbox/)
      expect(res.headers.get("cache-control")).toContain("no-store")
    }
    const unknown = await kyc.get(`${BO}/kyc/documents/${UNKNOWN}/file`)
    expect([unknown.status, tagOf(unknown.body)]).toEqual([404, "DocumentNotFound"])
    // Without a session: nothing.
    const anonymous = await fetch(`${server.url}${BO}/kyc/documents/${alice.id}/file`)
    expect(anonymous.status).toBe(401)
  })

  it("approves one player's documents and rejects another's with a reason; the players see it and are e-mailed", async () => {
    for (const id of [alice.id, alice.bill]) {
      const reply = await kyc.post(`${BO}/kyc/documents/${id}/approve`)
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(reply.body).toMatchObject({ id, email: alice.email, status: "APPROVED", reason: null })
    }
    expect(await lastAudit()).toMatchObject({
      actor: `backoffice:${KYC}`,
      action: "kyc.approve",
      subject: alice.bill,
      operator_email: KYC,
      operator_id: await operatorId(KYC),
      ip: "127.0.0.1",
      before: { status: "PENDING", reason: null },
      after: { status: "APPROVED", reason: null },
    })
    const rejected = await kyc.post(`${BO}/kyc/documents/${bob.id}/reject`, {
      reason: "  The photo is blurred.  ",
    })
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200)
    expect(rejected.body).toMatchObject({
      kind: "identity",
      status: "REJECTED",
      reason: "The photo is blurred.",
    })
    expect(await lastAudit()).toMatchObject({ action: "kyc.reject", subject: bob.id, operator_email: KYC })

    // The players' own API.
    const profile = (await alice.browser.get(`${PROFILE}/profile`)).body as {
      idVerification: { verified: boolean }
      billVerification: { verified: boolean }
    }
    expect([profile.idVerification.verified, profile.billVerification.verified]).toEqual([true, true])
    const bobId = (await bob.browser.get(`${PROFILE}/profile/id-verification`)).body
    expect(bobId).toMatchObject({ status: "REJECTED", reason: "The photo is blurred." })
    const bobBill = (await bob.browser.get(`${PROFILE}/profile/bill-verification`)).body
    expect(bobBill).toMatchObject({ status: "PENDING" })

    // The e-mails, both outcomes.
    const approved = await waitForMail(server, alice.email, "Your identity document is approved")
    expect(approved.text).toContain(`${server.url}/profile/verification`)
    await waitForMail(server, alice.email, "Your proof of address is approved")
    const refused = await waitForMail(server, bob.email, "Your identity document was not approved")
    expect(refused.text).toContain("The photo is blurred.")

    // Gone from the queue.
    const queue = (await kyc.get(`${BO}/kyc/documents`)).body as { documents: Array<{ id: string }> }
    expect(queue.documents.map((d) => d.id)).not.toContain(alice.id)
    expect(queue.documents.map((d) => d.id)).toContain(bob.bill)
  })

  it("answers bad KYC input with a typed 4xx, never a 500, and changes nothing", async () => {
    const state = () =>
      server.query("SELECT id, status, reason FROM verification_documents WHERE id = $1", [bob.bill])
    const before = await state()
    const cases: Array<[Promise<{ status: number; body: unknown }>, number, string | undefined]> = [
      [kyc.post(`${BO}/kyc/documents/${bob.bill}/reject`, {}), 400, undefined],
      [kyc.post(`${BO}/kyc/documents/${bob.bill}/reject`, { reason: "" }), 400, undefined],
      [kyc.post(`${BO}/kyc/documents/${bob.bill}/reject`, { reason: "x".repeat(501) }), 400, undefined],
      [kyc.post(`${BO}/kyc/documents/${bob.bill}/reject`, { reason: "   " }), 400, "BadInput"],
      [kyc.post(`${BO}/kyc/documents/${UNKNOWN}/approve`), 404, "DocumentNotFound"],
      [kyc.post(`${BO}/kyc/documents/not-a-uuid/approve`), 404, "DocumentNotFound"],
      [kyc.post(`${BO}/kyc/documents/${UNKNOWN}/reject`, { reason: "No." }), 404, "DocumentNotFound"],
      [kyc.post(`${BO}/kyc/documents/${alice.id}/approve`), 409, "DecisionRefused"],
      [kyc.post(`${BO}/kyc/documents/${bob.id}/reject`, { reason: "Again." }), 409, "DecisionRefused"],
      [kyc.get(`${BO}/kyc/documents/not-a-uuid/file`), 404, "DocumentNotFound"],
    ]
    for (const [call, status, tag] of cases) {
      const reply = await call
      expect(reply.status, JSON.stringify(reply.body)).toBe(status)
      if (tag !== undefined) expect(tagOf(reply.body)).toBe(tag)
      // The contract's schema refused it: the edge's typed 400.
      else expect(reply.body).toMatchObject({ error: "BadRequest" })
    }
    expect(await state()).toEqual(before)
  })

  it("approves a withdrawal beside the player's risk context, records its payout, and rejects another (money back)", async () => {
    const { cashier, ids } = await btcWithdrawals(server, "bo-cashier", 2)
    const [first = "", second = ""] = ids
    const btcBefore = await balance(server, cashier.userId, "BTC")
    expect(btcBefore).toBe(1_000_000n - 80_000n)

    const queue = await pay.get(`${BO}/withdrawals`)
    expect(queue.status).toBe(200)
    const listed = queue.body as {
      withdrawals: Array<{ id: string; email: string; status: string }>
      count: number
    }
    expect(listed.withdrawals.map((w) => w.id)).toEqual(expect.arrayContaining([first, second]))
    expect(listed.withdrawals.every((w) => w.status === "requested")).toBe(true)
    expect(listed.count).toBeGreaterThanOrEqual(2)

    const detail = await pay.get(`${BO}/withdrawals/${first}`)
    expect(detail.status).toBe(200)
    expect(detail.body).toMatchObject({
      withdrawal: { id: first, email: cashier.email, currency: "BTC", amount: "40000", status: "requested" },
      risk: {
        userId: cashier.userId,
        email: cashier.email,
        kyc: { id: "APPROVED", bill: "APPROVED", verified: true },
        bonus: { active: false },
      },
    })

    const approved = await pay.post(`${BO}/withdrawals/${first}/approve`)
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    expect(approved.body).toMatchObject({ id: first, status: "approved" })
    expect(await lastAudit()).toMatchObject({
      actor: `backoffice:${PAY}`,
      action: "withdrawal.approve",
      subject: first,
      operator_email: PAY,
      operator_id: await operatorId(PAY),
      ip: "127.0.0.1",
      before: { status: "requested" },
      after: { status: "approved" },
    })
    const sent = await pay.post(`${BO}/withdrawals/${first}/mark-sent`, { txHash: "ef".repeat(32) })
    expect(sent.body).toMatchObject({ status: "sent", txHash: "ef".repeat(32) })
    const paid = await pay.post(`${BO}/withdrawals/${first}/mark-paid`)
    expect(paid.body).toMatchObject({ status: "paid" })

    const rejected = await pay.post(`${BO}/withdrawals/${second}/reject`, { reason: "Unusual activity." })
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200)
    expect(rejected.body).toMatchObject({ id: second, status: "rejected", reason: "Unusual activity." })
    expect(await lastAudit()).toMatchObject({
      action: "withdrawal.reject",
      subject: second,
      operator_email: PAY,
    })
    // The rejected amount is the player's again: in the ledger and in what the wallet API offers.
    expect(await balance(server, cashier.userId, "BTC")).toBe(btcBefore + 40_000n)
    expect((await withdrawable(cashier, "BTC")).body).toMatchObject({
      currency: "BTC",
      withdrawable: "960000",
    })
  })

  it("rejects a bank withdrawal: its EUR goes back to the wallet", async () => {
    const cashier = await newCashier(server, "bo-bank", { eur: 10_000n })
    const w = (await bankWithdraw(cashier, "3000")).body as { id: string }
    expect(await balance(server, cashier.userId)).toBe(7_000n)
    const reply = await pay.post(`${BO}/withdrawals/${w.id}/reject`, { reason: "Name mismatch." })
    expect(reply.status).toBe(200)
    expect(await balance(server, cashier.userId)).toBe(10_000n)
    expect((await withdrawable(cashier, "EUR")).body).toMatchObject({ withdrawable: "10000" })
  })

  it("answers bad withdrawal input with a typed 4xx, never a 500", async () => {
    const { ids } = await btcWithdrawals(server, "bo-bad", 1)
    const [id = ""] = ids
    const cases: Array<[Promise<{ status: number; body: unknown }>, number, string | undefined]> = [
      [pay.post(`${BO}/withdrawals/${id}/reject`, {}), 400, undefined],
      [pay.post(`${BO}/withdrawals/${id}/reject`, { reason: "" }), 400, undefined],
      [pay.post(`${BO}/withdrawals/${id}/reject`, { reason: "   " }), 400, "BadInput"],
      [pay.post(`${BO}/withdrawals/${id}/mark-sent`, { txHash: "nope" }), 400, "BadInput"],
      [pay.post(`${BO}/withdrawals/${id}/mark-paid`), 409, "DecisionRefused"],
      [pay.get(`${BO}/withdrawals/${UNKNOWN}`), 404, "WithdrawalNotFound"],
      [pay.get(`${BO}/withdrawals/not-a-uuid`), 404, "WithdrawalNotFound"],
      [pay.post(`${BO}/withdrawals/${UNKNOWN}/approve`), 404, "WithdrawalNotFound"],
      [pay.post(`${BO}/withdrawals/not-a-uuid/reject`, { reason: "No." }), 404, "WithdrawalNotFound"],
      [pay.get(`${BO}/withdrawals?limit=0`), 400, undefined],
    ]
    for (const [call, status, tag] of cases) {
      const reply = await call
      expect(reply.status, JSON.stringify(reply.body)).toBe(status)
      if (tag !== undefined) expect(tagOf(reply.body)).toBe(tag)
      else expect(reply.body).toMatchObject({ error: "BadRequest" })
    }
    const [row] = await server.query<{ status: string }>("SELECT status FROM withdrawals WHERE id = $1", [id])
    expect(row?.status).toBe("requested")
    // Decided once: a second decision is refused.
    expect((await pay.post(`${BO}/withdrawals/${id}/approve`)).status).toBe(200)
    const again = await pay.post(`${BO}/withdrawals/${id}/reject`, { reason: "Too late." })
    expect([again.status, tagOf(again.body)]).toEqual([409, "DecisionRefused"])
  })

  it("refuses each officer the other's queue (403), and counts both queues for anyone signed in", async () => {
    for (const reply of [
      await kyc.get(`${BO}/withdrawals`),
      await kyc.post(`${BO}/withdrawals/${UNKNOWN}/approve`),
      await pay.get(`${BO}/kyc/documents`),
      await pay.get(`${BO}/kyc/documents/${bob.bill}/file`),
    ]) {
      expect([reply.status, tagOf(reply.body)]).toEqual([403, "Forbidden"])
    }
    const [counts] = await server.query<{ kyc: number; withdrawals: number }>(
      `SELECT (SELECT count(*)::int FROM verification_documents WHERE status = 'PENDING') AS kyc,
              (SELECT count(*)::int FROM withdrawals WHERE status = 'requested') AS withdrawals`,
    )
    for (const officer of [kyc, pay]) {
      const reply = await officer.get(`${BO}/queues`)
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(counts)
    }
  })
})
