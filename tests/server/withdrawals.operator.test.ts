/**
 * `npm run operator -- withdrawals …` (scripts/operator.ts) spawned as a real process against the
 * running test server's database: on PostgreSQL it opens the database itself, on PGlite it goes
 * through the server's operator endpoint. Lists, approves (the sandbox then pays), rejects (funds
 * back), records a manual BTC payout, refuses what a status does not allow (exit 1) and audits
 * every action with the operator's name.
 */
import { execFile } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, expect, it } from "vitest"
import { describeBackends, type TestServer } from "./harness.ts"
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

const root = fileURLToPath(new URL("../../", import.meta.url))

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

describeBackends("withdrawals: operator command", ({ start }) => {
  let server: TestServer
  let env: Record<string, string>
  beforeAll(async () => {
    server = await start({ captchaEnabled: false }, { parties: ["payments"] })
    env = {
      DATA_DIR: server.dataDir,
      LOG_LEVEL: "Warn",
      // Where a direct approval asks the payment sandbox to pay, and where its callback comes back.
      PAYMENT_GATEWAYS: server.parties.get("payments")?.casinoEnv.PAYMENT_GATEWAYS ?? "",
      INTERNAL_URL: server.config.internalUrl,
      ...(server.config.databaseUrl === undefined ? {} : { DATABASE_URL: server.config.databaseUrl }),
    }
  }, 120_000)
  afterAll(async () => {
    await server?.close()
  })

  const operator = (args: ReadonlyArray<string>): Promise<Run> =>
    new Promise((resolve) => {
      const base = Object.fromEntries(
        Object.entries(process.env).filter(
          (e): e is [string, string] =>
            e[1] !== undefined && e[0] !== "DATABASE_URL" && e[0] !== "OPERATOR_SECRET",
        ),
      )
      execFile(
        join(root, "node_modules/.bin/node"),
        [join(root, "scripts/operator.ts"), ...args, "--as", "cli-tester"],
        { cwd: root, env: { ...base, ...env }, timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({
            code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
            stdout,
            stderr,
          }),
      )
    })

  it("lists, approves (then paid by the sandbox), rejects, and audits each action", async () => {
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
    expect(again.stderr).toContain("WithdrawalMoveRefused")

    const audit = await server.query<{ actor: string; action: string; subject: string }>(
      "SELECT actor, action, subject FROM operator_audit WHERE subject IN ($1, $2) ORDER BY id",
      [first.id, second.id],
    )
    // Through the server the audit names the operator the secret belongs to (the local one), not --as.
    const who = server.config.databaseUrl === undefined ? "local via server" : "cli-tester"
    expect(audit).toEqual([
      { actor: who, action: "withdrawal.approve", subject: first.id },
      { actor: who, action: "withdrawal.reject", subject: second.id },
    ])
  })

  it("records a manual BTC payout: mark-sent with its transaction, then mark-paid", async () => {
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
