/**
 * The operator command (`npm run operator`, scripts/operator.ts), spawned as a real process
 * against the running test server's database: on PostgreSQL it opens the database itself; on
 * PGlite the server holds the database, so the command goes through the server's operator
 * endpoint. Approvals and rejections reach the player's profile and verification status, each
 * with its audit row; refusals and usage errors have their exit codes; the operator endpoint
 * refuses anyone without the secret.
 */
import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, expect, it } from "vitest"
import { jpegBytes, newPlayer, PROFILE, pdfBytes, upload } from "./account-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))
const node = join(root, "node_modules/.bin/node")
const script = join(root, "scripts/operator.ts")

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const runOperator = (env: Record<string, string>, args: ReadonlyArray<string>): Promise<Run> =>
  new Promise((resolve) => {
    const base = Object.fromEntries(
      Object.entries(process.env).filter(
        (e): e is [string, string] =>
          e[1] !== undefined && e[0] !== "DATABASE_URL" && e[0] !== "OPERATOR_SECRET",
      ),
    )
    execFile(
      node,
      [script, ...args],
      { cwd: root, env: { ...base, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1
        resolve({ code, stdout, stderr })
      },
    )
  })

describeBackends("operator command", ({ backend, start }) => {
  let server: TestServer
  let env: Record<string, string>
  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
    env = {
      DATA_DIR: server.dataDir,
      LOG_LEVEL: "Warn",
      ...(server.config.databaseUrl === undefined ? {} : { DATABASE_URL: server.config.databaseUrl }),
    }
  })
  afterAll(() => server?.close())

  it("lists pending documents, approves and rejects them through the Kyc service, and audits each decision", async () => {
    const player = await newPlayer(server, "operator")
    expect(
      (await upload(player.browser, "id-verification", jpegBytes(), "passport.jpg", "image/jpeg")).status,
    ).toBe(200)
    expect(
      (await upload(player.browser, "bill-verification", pdfBytes(), "bill.pdf", "application/pdf")).status,
    ).toBe(200)

    const pending = await runOperator(env, ["kyc", "pending", "--json"])
    expect(pending.stderr).toBe("")
    expect(pending.code).toBe(0)
    const listed = (
      JSON.parse(pending.stdout) as { documents: ReadonlyArray<{ email: string; kind: string }> }
    ).documents
    expect(
      listed
        .filter((d) => d.email === player.email)
        .map((d) => d.kind)
        .sort(),
    ).toEqual(["BILL", "ID"])
    const human = await runOperator(env, ["kyc", "pending"])
    expect(human.stdout).toContain(player.email)
    expect(human.stdout).toContain("passport.jpg")

    const approve = await runOperator(env, [
      "kyc",
      "approve",
      "--email",
      player.email,
      "--kind",
      "id",
      "--as",
      "qa-ana",
    ])
    expect(approve.code).toBe(0)
    expect(approve.stdout).toContain("APPROVED")
    const reject = await runOperator(env, [
      "kyc",
      "reject",
      "--email",
      player.email.toUpperCase(),
      "--kind",
      "bill",
      "--reason",
      "The bill is older than three months.",
      "--as",
      "qa-ana",
    ])
    expect(reject.code).toBe(0)
    expect(reject.stdout).toContain("REJECTED")

    const profile = await player.browser.get(`${PROFILE}/profile`)
    expect(profile.body).toMatchObject({
      idVerification: { verified: true },
      billVerification: { verified: false },
    })
    expect((await player.browser.get(`${PROFILE}/profile/bill-verification`)).body).toMatchObject({
      status: "REJECTED",
      reason: "The bill is older than three months.",
    })

    // Through the server the audit names the operator the secret belongs to (the local one), not --as.
    const actor = backend === "pglite" ? "local via server" : "qa-ana"
    const audit = await server.query<{ actor: string; action: string }>(
      "SELECT a.actor, a.action FROM operator_audit a JOIN users u ON u.id = a.user_id WHERE u.email = $1 ORDER BY a.id",
      [player.email],
    )
    expect(audit).toEqual([
      { actor, action: "kyc.approve" },
      { actor, action: "kyc.reject" },
    ])
    const log = await runOperator(env, ["audit", "--limit", "5", "--json"])
    expect(log.code).toBe(0)
    expect(
      (JSON.parse(log.stdout) as { entries: ReadonlyArray<{ action: string }> }).entries.map((e) => e.action),
    ).toContain("kyc.reject")
    const show = await runOperator(env, ["kyc", "show", "--email", player.email, "--json"])
    expect(JSON.parse(show.stdout)).toMatchObject({
      id: { status: "APPROVED" },
      bill: { status: "REJECTED" },
    })
  })

  it("refuses with exit 1 and a message: unknown player, nothing pending", async () => {
    const unknown = await runOperator(env, [
      "kyc",
      "approve",
      "--email",
      "nobody@example.com",
      "--kind",
      "id",
    ])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain("UnknownPlayer")
    const player = await newPlayer(server, "operator-none")
    const nothing = await runOperator(env, ["kyc", "approve", "--email", player.email, "--kind", "bill"])
    expect(nothing.code).toBe(1)
    expect(nothing.stderr).toContain("NothingPending")
  })

  it("usage errors exit 2 with the usage", async () => {
    for (const args of [
      [],
      ["kyc", "approve", "--email", "a@b.example"],
      ["kyc", "reject", "--email", "a@b.example", "--kind", "id"],
      ["nonsense"],
    ]) {
      const res = await runOperator(env, args)
      expect(res.code, args.join(" ")).toBe(2)
      expect(res.stderr).toContain("usage: npm run operator")
    }
  })

  it("the operator endpoint refuses requests without the secret, whoever sends them", async () => {
    const player = await newPlayer(server, "operator-intruder")
    const cookie = [...player.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
    for (const headers of [{}, { cookie }, { authorization: "Bearer wrong", "x-operator": "me" }]) {
      const res = await fetch(`${server.url}/api/operator/v1/kyc/approve`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ email: player.email, kind: "ID" }),
      })
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ error: "OperatorUnauthenticated" })
    }
    expect((await fetch(`${server.url}/api/operator/v1/kyc/pending`)).status).toBe(401)
  })

  if (backend === "pglite") {
    it("with a wrong secret the command stops with exit 2 and says why", async () => {
      const res = await runOperator({ ...env, OPERATOR_SECRET: "x".repeat(40) }, ["kyc", "pending"])
      expect(res.code).toBe(2)
      expect(res.stderr).toContain("refused the operator request (401)")
    })

    it("refuses clearly when another process holds the embedded database without an operator endpoint", async () => {
      const dataDir = await mkdtemp(join(tmpdir(), "casino-operator-"))
      try {
        // This test process is alive: as far as the command can tell, it holds the database.
        await writeFile(join(dataDir, "pglite.lock"), `${process.pid}\n`)
        const res = await runOperator({ DATA_DIR: dataDir }, ["kyc", "pending"])
        expect(res.code).toBe(2)
        expect(res.stderr).toContain(`in use by process ${process.pid}`)
      } finally {
        await rm(dataDir, { recursive: true, force: true })
      }
    })
  }
})
