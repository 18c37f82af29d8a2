/**
 * `npm run operator -- withdrawals …` (scripts/operator.ts), a client of the back-office API with a
 * payments officer's token. Lists, approves (the sandbox then pays), rejects (funds back), records a
 * manual BTC payout, refuses what a status does not allow (exit 1) and audits every action as the
 * token; a support agent's token is refused (Forbidden), changing nothing.
 * The support agent's refused approval spawns the real process (`spawnOperator`); the other commands
 * run the same CLI function in-process (`runOperator`), which saves a Node start-up each and changes
 * nothing tested.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { TestClock } from "./backoffice-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { cliEnv, emptyConfigHome, operatorToken, runOperator, spawnOperator } from "./operator-cli-support.ts"
import { sleep } from "./users-support.ts"
import {
  addWallet,
  BTC_ADDRESS,
  balance,
  bankWithdraw,
  cryptoWithdraw,
  fund,
  newCashier,
  statusOf,
} from "./withdrawals-support.ts"

describeBackends("withdrawals: operator command", ({ start }) => {
  const clock = new TestClock()
  const configHome = emptyConfigHome()
  let server: TestServer
  let paymentsToken: string
  let supportToken: string
  beforeAll(async () => {
    server = await start({ captchaEnabled: false, backofficeClock: clock.read }, { parties: ["payments"] })
    paymentsToken = await operatorToken(server, clock, { email: "pay@wo.example", role: "payments" })
    supportToken = await operatorToken(server, clock, { email: "sam@wo.example", role: "support" })
  }, 120_000)
  afterAll(async () => {
    await server?.close()
  })

  const operator = (args: ReadonlyArray<string>, token = paymentsToken) =>
    runOperator(cliEnv(token, configHome), [...args, "--server", server.url])

  // Several commands one after the other: a busy machine may need minutes.
  it("lists, approves (then paid by the sandbox), rejects, and audits each action", {
    timeout: 240_000,
  }, async () => {
    const p = await newCashier(server, "wo-cli", { eur: 10_000n })
    const first = (await bankWithdraw(p, "2000")).body as { id: string }
    const second = (await bankWithdraw(p, "3000")).body as { id: string }
    const listed = await operator(["withdrawals", "list", "--status", "requested", "--json"])
    expect(listed.code).toBe(0)
    const ids = (
      JSON.parse(listed.stdout) as { withdrawals: Array<{ id: string; email: string }> }
    ).withdrawals
      .filter((w) => w.email === p.email)
      .map((w) => w.id)
    expect(ids).toEqual([first.id, second.id])
    const text = await operator(["withdrawals", "list"])
    expect(text.stdout).toContain(`${first.id}  requested  2000 EUR bank → payee@example.com  (${p.email})`)

    const approved = await operator(["withdrawals", "approve", first.id])
    expect(approved.stderr).toBe("")
    expect(approved.code).toBe(0)
    for (let i = 0; i < 100 && (await statusOf(server, first.id)) !== "paid"; i++) await sleep(100)
    expect(await statusOf(server, first.id)).toBe("paid")

    const noReason = await operator(["withdrawals", "reject", second.id])
    expect(noReason.code).toBe(2)
    const rejected = await operator(["withdrawals", "reject", second.id, "--reason", "Duplicate request"])
    expect(rejected.code).toBe(0)
    expect(rejected.stdout).toContain("rejected")
    expect(rejected.stdout).toContain("reason: Duplicate request")
    expect(await balance(server, p.userId)).toBe(8_000n)
    const again = await operator(["withdrawals", "approve", second.id])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/^refused \(DecisionRefused\): /)

    const audit = await server.query<{ actor: string; action: string; subject: string }>(
      "SELECT actor, action, subject FROM operator_audit WHERE subject IN ($1, $2) ORDER BY id",
      [first.id, second.id],
    )
    // The audit names the token and its operator.
    const who = "token:pay@wo.example (cli tests)"
    expect(audit).toEqual([
      { actor: who, action: "withdrawal.approve", subject: first.id },
      { actor: who, action: "withdrawal.reject", subject: second.id },
    ])
  })

  it("refuses a support agent's token (Forbidden, exit 1), and nothing changes", async () => {
    const p = await newCashier(server, "wo-support", { eur: 5_000n })
    const w = (await bankWithdraw(p, "1000")).body as { id: string }
    // A real process: its exit code and both its streams.
    const refused = await spawnOperator(cliEnv(supportToken, configHome), [
      "withdrawals",
      "approve",
      w.id,
      "--server",
      server.url,
    ])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      "refused (Forbidden): The support role does not have the withdrawals.review permission.\n",
    )
    expect(refused.stdout).toBe("")
    expect(await statusOf(server, w.id)).toBe("requested")
    expect(await server.query("SELECT action FROM operator_audit WHERE subject = $1", [w.id])).toEqual([])
  })

  // Several commands one after the other: a busy machine may need minutes.
  it("records a manual BTC payout: mark-sent with its transaction, then mark-paid", {
    timeout: 240_000,
  }, async () => {
    const p = await newCashier(server, "wo-btc", { eur: 0n })
    await addWallet(p, "BTC")
    await fund(server, p.userId, 100_000n, "BTC")
    const w = (await cryptoWithdraw(p, "40000", "BTC", BTC_ADDRESS)).body as { id: string }
    expect((await operator(["withdrawals", "approve", w.id])).code).toBe(0)
    expect(await statusOf(server, w.id)).toBe("approved")
    const tx = "e".repeat(64)
    const sent = await operator(["withdrawals", "mark-sent", w.id, "--tx", tx])
    expect(sent.code).toBe(0)
    expect(sent.stdout).toContain(`tx ${tx}`)
    expect((await operator(["withdrawals", "mark-paid", w.id])).code).toBe(0)
    expect(await statusOf(server, w.id)).toBe("paid")
    expect((await operator(["withdrawals", "mark-paid", "00000000-0000-4000-8000-000000000000"])).code).toBe(
      1,
    )
  })
})
