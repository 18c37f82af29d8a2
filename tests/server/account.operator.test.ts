/**
 * The operator command (`npm run operator`, scripts/operator.ts): a client of the back-office API
 * with a KYC reviewer's token. Approvals and rejections reach the player's profile and verification
 * status, each audited as the token; refusals and usage errors have their exit codes; the back-office
 * KYC endpoints refuse anyone without a session or a token.
 * The usage error without arguments and the held-PGlite refusal spawn the real process
 * (`spawnOperator`); the other commands run the same CLI function in-process (`runOperator`), which
 * saves a Node start-up each and changes nothing tested.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { jpegBytes, newPlayer, PROFILE, pdfBytes, upload } from "./account-support.ts"
import { BO, TestClock } from "./backoffice-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { cliEnv, emptyConfigHome, operatorToken, runOperator, spawnOperator } from "./operator-cli-support.ts"

describeOn("postgres", "operator command", ({ start }) => {
  const clock = new TestClock()
  const configHome = emptyConfigHome()
  let server: TestServer
  let kycToken: string
  let adminToken: string
  beforeAll(async () => {
    server = await start({ captchaEnabled: false, backofficeClock: clock.read })
    kycToken = await operatorToken(server, clock, { email: "kay@kyc.example", role: "kyc" })
    adminToken = await operatorToken(server, clock, { email: "root@kyc.example", role: "admin" })
  })
  afterAll(() => server?.close())

  const operator = (args: ReadonlyArray<string>, token = kycToken) =>
    runOperator(cliEnv(token, configHome), [...args, "--server", server.url])

  // Several commands one after the other: a busy machine may need minutes.
  it("lists pending documents, approves and rejects them through the back-office API, each audited as the token", {
    timeout: 240_000,
  }, async () => {
    const player = await newPlayer(server, "operator")
    expect(
      (await upload(player.browser, "id-verification", jpegBytes(), "passport.jpg", "image/jpeg")).status,
    ).toBe(200)
    expect(
      (await upload(player.browser, "bill-verification", pdfBytes(), "bill.pdf", "application/pdf")).status,
    ).toBe(200)

    const pending = await operator(["kyc", "pending", "--json"])
    expect(pending.stderr).toBe("")
    expect(pending.code).toBe(0)
    const listed = (
      JSON.parse(pending.stdout) as { documents: ReadonlyArray<{ id: string; email: string; kind: string }> }
    ).documents.filter((d) => d.email === player.email)
    expect(listed.map((d) => d.kind).sort()).toEqual(["address", "identity"])
    const bill = listed.find((d) => d.kind === "address")?.id ?? ""
    const human = await operator(["kyc", "pending"])
    expect(human.stdout).toContain(player.email)
    expect(human.stdout).toContain("passport.jpg")

    const approve = await operator(["kyc", "approve", "--email", player.email.toUpperCase(), "--kind", "id"])
    expect(approve.code).toBe(0)
    expect(approve.stdout).toContain("APPROVED")
    const reject = await operator([
      "kyc",
      "reject",
      "--id",
      bill,
      "--reason",
      "The bill is older than three months.",
    ])
    expect(reject.code).toBe(0)
    expect(reject.stdout).toBe(
      `REJECTED: address document of ${player.email} (${bill}) — reason: The bill is older than three months.\n`,
    )

    const profile = await player.browser.get(`${PROFILE}/profile`)
    expect(profile.body).toMatchObject({
      idVerification: { verified: true },
      billVerification: { verified: false },
    })
    expect((await player.browser.get(`${PROFILE}/profile/bill-verification`)).body).toMatchObject({
      status: "REJECTED",
      reason: "The bill is older than three months.",
    })

    // The audit names the token and its operator.
    const actor = "token:kay@kyc.example (cli tests)"
    const audit = await server.query<{ actor: string; action: string }>(
      "SELECT a.actor, a.action FROM operator_audit a JOIN users u ON u.id = a.user_id WHERE u.email = $1 ORDER BY a.id",
      [player.email],
    )
    expect(audit).toEqual([
      { actor, action: "kyc.approve" },
      { actor, action: "kyc.reject" },
    ])
    const log = await operator(["audit", "--limit", "5", "--json"], adminToken)
    expect(log.code).toBe(0)
    expect(
      (JSON.parse(log.stdout) as { entries: ReadonlyArray<{ action: string }> }).entries.map((e) => e.action),
    ).toContain("kyc.reject")
    const show = await operator(["kyc", "show", "--email", player.email, "--json"])
    expect(show.code).toBe(0)
    expect(JSON.parse(show.stdout)).toMatchObject({
      email: player.email,
      id: { status: "APPROVED" },
      bill: { status: "REJECTED" },
    })
  })

  it("refuses with exit 1 and a message: unknown player, nothing pending", async () => {
    const unknown = await operator(["kyc", "approve", "--email", "nobody@example.com", "--kind", "id"])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toBe(
      "refused (UnknownPlayer): There is no player with the e-mail nobody@example.com.\n",
    )
    const player = await newPlayer(server, "operator-none")
    const nothing = await operator(["kyc", "approve", "--email", player.email, "--kind", "bill"])
    expect(nothing.code).toBe(1)
    expect(nothing.stderr).toBe(
      `refused (NothingPending): ${player.email} has no proof-of-address document waiting for review.\n`,
    )
  })

  it("the back-office KYC endpoints refuse requests without a session or a token, whoever sends them", async () => {
    const player = await newPlayer(server, "operator-intruder")
    expect(
      (await upload(player.browser, "id-verification", jpegBytes(), "id.jpg", "image/jpeg")).status,
    ).toBe(200)
    const [doc] = await server.query<{ id: string }>(
      "SELECT d.id FROM verification_documents d JOIN users u ON u.id = d.user_id WHERE u.email = $1",
      [player.email],
    )
    const cookie = [...player.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
    for (const headers of [{}, { cookie }, { authorization: "Bearer wrong", "x-operator": "me" }]) {
      const res = await fetch(`${server.url}${BO}/kyc/documents/${doc?.id}/approve`, {
        method: "POST",
        headers,
      })
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ _tag: "Unauthenticated" })
    }
    expect((await fetch(`${server.url}${BO}/kyc/documents`)).status).toBe(401)
    expect(await server.query("SELECT status FROM verification_documents WHERE id = $1", [doc?.id])).toEqual([
      { status: "PENDING" },
    ])
  })
})

// No server: the command meets a PGlite folder that another live process (this one) holds. Not in
// the PostgreSQL-only block above, where it could never run.
describe("operator command: the embedded database held elsewhere", () => {
  const configHome = emptyConfigHome()
  it("operators add without a token refuses clearly when another process holds the embedded database without an operator endpoint", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "casino-operator-"))
    try {
      // This test process is alive: as far as the command (another process) can tell, it holds
      // the database.
      await writeFile(join(dataDir, "pglite.lock"), `${process.pid}\n`)
      const res = await spawnOperator({ DATA_DIR: dataDir, XDG_CONFIG_HOME: configHome }, [
        "operators",
        "add",
        "--email",
        "first@kyc.example",
        "--name",
        "First",
        "--role",
        "admin",
      ])
      expect(res.code).toBe(2)
      expect(res.stderr).toContain(`in use by process ${process.pid}`)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe("operator command: usage", () => {
  it("usage errors exit 2 with the usage", async () => {
    // No arguments: the real process; the others in-process.
    for (const [args, operator] of [
      [[], spawnOperator],
      [["kyc", "approve", "--email", "a@b.example"], runOperator],
      [["kyc", "reject", "--email", "a@b.example", "--kind", "id"], runOperator],
      [["nonsense"], runOperator],
    ] as const) {
      const res = await operator({ XDG_CONFIG_HOME: emptyConfigHome() }, args)
      expect(res.code, args.join(" ")).toBe(2)
      expect(res.stderr).toContain("usage: npm run operator")
    }
  })
})
