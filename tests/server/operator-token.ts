/**
 * An operator API token for tests that act as an operator over HTTP (the back-office API, docs/
 * backoffice.md "API tokens"): the operator made through the `Backoffice` service, signed in through
 * the real API (password, then the TOTP code of the server's `backofficeClock`), a token made from
 * that session, then calls with `Authorization: Bearer` and no cookie, the way a script sends them.
 */
import { randomUUID } from "node:crypto"
import { Secret, TOTP } from "otpauth"
import type { Role } from "../../services/backoffice/permissions.ts"
import { bearerFetch } from "../support/bearer.ts"
import { BO, createOperator, secrets } from "./backoffice-support.ts"
import type { TestServer } from "./harness.ts"
import { Browser, type Reply, sleep } from "./users-support.ts"

const PASSWORD = "operator token tests password"
/** The name every token made here has: audits read `token:<e-mail> (tests)`. */
export const TOKEN_NAME = "tests"

/** A call with the token to `base` (a server's URL): no cookie, no Origin. */
export const bearerCall = async (
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> => ({ ...(await bearerFetch(base + path, token, method, body)), setCookie: [] })

export interface OperatorToken {
  readonly token: string
  readonly email: string
  readonly operatorId: string
  readonly call: (method: string, path: string, body?: unknown) => Promise<Reply>
}

/** The last time-step whose code was sent, by e-mail: the server refuses a step twice. */
const usedSteps = new Map<string, number>()

/**
 * A code of a step not used yet for `email`, from the server's own clock: a test clock the test
 * moves, or real time, where this waits for the next 30-second step when the current one is used.
 */
const freshCode = async (server: TestServer, email: string, secret: Secret): Promise<string> => {
  const stepNow = () => Math.floor(server.config.backofficeClock() / 30_000)
  const last = usedSteps.get(email) ?? Number.NEGATIVE_INFINITY
  while (stepNow() <= last) await sleep(500)
  const step = stepNow()
  usedSteps.set(email, step)
  return TOTP.generate({ secret, timestamp: step * 30_000 })
}

/** A new operator of `role` and a token of theirs; `email` defaults to a unique one. */
export const operatorToken = async (
  server: TestServer,
  options: { readonly role: Role; readonly email?: string; readonly name?: string },
): Promise<OperatorToken> => {
  const email = options.email ?? `${options.role}-${randomUUID().slice(0, 8)}@tokens.example`
  const created = await createOperator(server, {
    email,
    role: options.role,
    password: PASSWORD,
    ...(options.name === undefined ? {} : { name: options.name }),
  })
  const browser = new Browser(server)
  const first = await browser.post(`${BO}/login`, { email, password: PASSWORD })
  if (first.status !== 200) throw new Error(`login ${email}: ${first.status} ${JSON.stringify(first.body)}`)
  const step = first.body as { step: string; secret?: string }
  const secret = step.secret === undefined ? secrets.get(email) : Secret.fromBase32(step.secret)
  if (secret === undefined) throw new Error(`no TOTP secret for ${email}`)
  secrets.set(email, secret)
  const second = await browser.post(`${BO}/login/totp`, { code: await freshCode(server, email, secret) })
  if (second.status !== 200)
    throw new Error(`login/totp ${email}: ${second.status} ${JSON.stringify(second.body)}`)
  const made = await browser.post(`${BO}/tokens`, { name: TOKEN_NAME })
  if (made.status !== 201) throw new Error(`tokens ${email}: ${made.status} ${JSON.stringify(made.body)}`)
  const token = (made.body as { token: string }).token
  return {
    token,
    email,
    operatorId: created.operator.id,
    call: (method, path, body) => bearerCall(server.url, token, method, path, body),
  }
}
