/**
 * The back office in the browser, as its staff use it: the first admin from the command line, then
 * every sign-in through the page — password, then the authenticator code, computed here from the
 * secret the enrolment page shows (as an authenticator app would from the QR code), then, after a
 * one-time password, the operator's own.
 */
import { type APIRequestContext, expect, type Page, request, test } from "@playwright/test"
import { Secret, TOTP } from "otpauth"
import { bearerFetch } from "../../support/bearer.ts"
import type { World } from "./fixtures.ts"
import { operator } from "./operator.ts"

export interface Staff {
  readonly email: string
  password: string
  /** Learnt at enrolment. */
  secret: Secret | null
  /** The last 30-second step a code was used in: the server refuses a code twice. */
  lastStep: number
}

/**
 * An operator added with `npm run operator -- operators add`: its one-time password from the output.
 * `embeddedIn`: another server's DATA_DIR (on its embedded database) instead of the e2e server's.
 * On PostgreSQL the command writes to the database itself, at any time. On PGlite (PostgreSQL
 * unreachable, never in CI, or `embeddedIn`) it goes through the server's bootstrap, which makes only
 * the first admin: a test needing another is skipped there, saying why.
 */
export const addOperatorByCommand = async (
  world: World,
  role: string,
  name: string,
  embeddedIn?: string,
): Promise<Staff> => {
  const email = world.uniqueEmail(`bo-${role}`)
  const args = ["operators", "add", "--email", email, "--name", name, "--role", role]
  const databaseUrl = embeddedIn === undefined ? world.databaseUrl : undefined
  const { stdout } = await operator(databaseUrl, args, embeddedIn).catch((error: unknown) => {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "")
    const bootstrapOnly = /^refused \((BootstrapClosed|BadInput)\)/m.test(stderr)
    test.skip(
      databaseUrl === undefined && bootstrapOnly,
      "adds operators by the command beyond the first admin: needs PostgreSQL (on PGlite the command is the server's bootstrap)",
    )
    throw error
  })
  const password = /one-time password: (\S+)/.exec(stdout)?.[1]
  if (password === undefined) throw new Error(`no one-time password in: ${stdout}`)
  return { email, password, secret: null, lastStep: 0 }
}

/** A code of a step not used yet (waits for the next 30-second step when needed). */
const freshCode = async (staff: Staff): Promise<string> => {
  if (staff.secret === null) throw new Error(`${staff.email} has no TOTP secret yet`)
  let step = Math.floor(Date.now() / 30_000)
  while (step <= staff.lastStep) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    step = Math.floor(Date.now() / 30_000)
  }
  staff.lastStep = step
  return TOTP.generate({ secret: staff.secret, timestamp: step * 30_000 })
}

/** Signs in on /backoffice (enrolling the second factor the first time); ends on a signed-in screen. */
export const signInToBackoffice = async (page: Page, staff: Staff, path = "/backoffice"): Promise<void> => {
  await page.goto(path)
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible()
  await page.getByLabel("E-mail").fill(staff.email)
  await page.getByLabel("Password").fill(staff.password)
  await page.getByRole("button", { name: "Continue" }).click()
  const enrol = page.getByRole("heading", { name: "Set up two-step sign-in" })
  const code = page.getByRole("heading", { name: "Authenticator code" })
  await expect(enrol.or(code)).toBeVisible()
  if (await enrol.isVisible()) {
    await expect(page.getByRole("img", { name: "Authenticator QR code" })).toBeVisible()
    const key = (await page.locator(".bo-code").innerText()).trim()
    staff.secret = Secret.fromBase32(key)
  }
  await page.getByLabel("Code").fill(await freshCode(staff))
  await page.getByRole("button", { name: "Sign in" }).click()
  const choose = page.getByRole("heading", { name: "Choose your password" })
  // The signed-in frame's header (the side menu is hidden at phone width).
  const menu = page.getByRole("banner")
  await expect(choose.or(menu)).toBeVisible()
  if (await choose.isVisible()) {
    // A one-time password opens nothing but this: the operator picks their own.
    const chosen = `${staff.password}-mine-${Date.now()}`
    await page.getByLabel("One-time password").fill(staff.password)
    await page.getByLabel("New password").fill(chosen)
    await page.getByRole("button", { name: "Save and continue" }).click()
    staff.password = chosen
  }
  await expect(menu).toBeVisible()
}

const BO = "/api/backoffice/v1"

/** What a back-office API call answered: its status and its JSON body. */
export interface BackofficeReply {
  readonly status: number
  readonly body: unknown
}

/** Calls the back-office API as an operator's script does: `Authorization: Bearer bo_…`. */
export interface BackofficeToken {
  readonly email: string
  readonly call: (method: string, path: string, body?: unknown) => Promise<BackofficeReply>
}

/** A call in the signed-in session (its cookie kept by the context). */
const replyOf = async (
  context: APIRequestContext,
  method: string,
  path: string,
  body: unknown,
): Promise<BackofficeReply> => {
  const res = await context.fetch(`${BO}${path}`, { method, ...(body === undefined ? {} : { data: body }) })
  const text = await res.text()
  const json = (res.headers()["content-type"] ?? "").includes("json") && text !== ""
  return { status: res.status(), body: json ? (JSON.parse(text) as unknown) : text }
}

/** Throws with the answer unless it has the status a step of the sign-in needs. */
const expectStep = (what: string, reply: BackofficeReply, status: number): BackofficeReply => {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply
}

/**
 * An operator of `role` and an API token of theirs, the way a script's owner gets one: added by
 * the command, signed in through the API (password, the authenticator code, their own password in
 * place of the one-time one), the token made from that session, which then ends.
 */
export const operatorToken = async (
  world: World,
  role: string,
  name = `E2E ${role}`,
): Promise<BackofficeToken> => {
  const staff = await addOperatorByCommand(world, role, name)
  // A session's writes carry the page's Origin, as the browser's would.
  const session = await request.newContext({
    baseURL: world.baseUrl,
    extraHTTPHeaders: { origin: world.baseUrl },
  })
  try {
    const login = expectStep(
      `login ${staff.email}`,
      await replyOf(session, "POST", "/login", { email: staff.email, password: staff.password }),
      200,
    )
    const enrol = login.body as { step: string; secret?: string }
    if (enrol.secret === undefined)
      throw new Error(`no enrolment secret for ${staff.email}: ${JSON.stringify(enrol)}`)
    staff.secret = Secret.fromBase32(enrol.secret)
    expectStep(
      `login/totp ${staff.email}`,
      await replyOf(session, "POST", "/login/totp", { code: await freshCode(staff) }),
      200,
    )
    // A one-time password opens nothing but choosing one's own.
    const chosen = `${staff.password}-mine-${Date.now()}`
    expectStep(
      `password ${staff.email}`,
      await replyOf(session, "POST", "/password", { currentPassword: staff.password, newPassword: chosen }),
      200,
    )
    staff.password = chosen
    const made = expectStep(
      `tokens ${staff.email}`,
      await replyOf(session, "POST", "/tokens", { name: "e2e" }),
      201,
    )
    const token = (made.body as { token: string }).token
    return {
      email: staff.email,
      call: (method, path, body) => bearerFetch(`${world.baseUrl}${BO}${path}`, token, method, body),
    }
  } finally {
    await session.dispose()
  }
}

/** One operator and token per role for a worker: each is a command run and a sign-in. */
const tokens = new Map<string, Promise<BackofficeToken>>()

/** This worker's token of `role` (made on first use). */
export const tokenOf = (world: World, role: string): Promise<BackofficeToken> => {
  const key = `${world.baseUrl} ${role}`
  const known = tokens.get(key)
  if (known !== undefined) return known
  const made = operatorToken(world, role)
  tokens.set(key, made)
  // A failed attempt is not kept: the next caller tries again.
  made.catch(() => tokens.delete(key))
  return made
}

/** The player's documents waiting for review, as the KYC queue lists them. */
export const pendingDocuments = async (
  world: World,
  email: string,
): Promise<ReadonlyArray<{ readonly id: string; readonly kind: string }>> => {
  const kyc = await tokenOf(world, "kyc")
  const queue = expectStep("kyc queue", await kyc.call("GET", "/kyc/documents"), 200)
  const { documents } = queue.body as {
    documents: ReadonlyArray<{ id: string; email: string; kind: string }>
  }
  return documents.filter((d) => d.email === email)
}

/** A KYC officer approves both of the player's waiting documents (identity and address). */
export const approveDocuments = async (world: World, email: string): Promise<void> => {
  const kyc = await tokenOf(world, "kyc")
  const waiting = await pendingDocuments(world, email)
  expect(waiting.map((d) => d.kind).sort()).toEqual(["address", "identity"])
  for (const document of waiting)
    expectStep(
      `approve ${document.kind}`,
      await kyc.call("POST", `/kyc/documents/${document.id}/approve`),
      200,
    )
}
