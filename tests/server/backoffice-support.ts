/**
 * Helpers for the back-office tests: a clock the test moves (the server's `backofficeClock`), an
 * operator created through the `Backoffice` service the CLI uses, and a sign-in through the real
 * API (password, then the TOTP code computed from the enrolment's secret by the `otpauth` library, as
 * an authenticator app would).
 */
import { Effect } from "effect"
import { Secret, TOTP } from "otpauth"
import { Backoffice } from "../../server/backoffice/Backoffice.ts"
import type { Role } from "../../services/backoffice/permissions.ts"
import type { TestServer } from "./harness.ts"
import { Browser } from "./users-support.ts"

export const BO = "/api/backoffice/v1"

export class TestClock {
  now = Date.UTC(2026, 10, 28, 9, 0, 0)
  readonly read = (): number => this.now
  advance(ms: number): void {
    this.now += ms
  }
}

export const cliActor = { operatorId: null, email: null, label: "cli:tests", ip: null }

export const createOperator = (
  server: TestServer,
  input: { readonly email: string; readonly role: Role; readonly password: string; readonly name?: string },
) =>
  server.run(
    Effect.gen(function* () {
      const backoffice = yield* Backoffice
      return yield* backoffice.createOperator(cliActor, {
        email: input.email,
        name: input.name ?? input.email.split("@")[0] ?? "operator",
        role: input.role,
        password: input.password,
      })
    }),
  )

/** The TOTP secrets the tests learnt at enrolment, by e-mail. */
export const secrets = new Map<string, Secret>()

export const codeAt = (email: string, clock: TestClock): string => {
  const secret = secrets.get(email)
  if (secret === undefined) throw new Error(`no TOTP secret known for ${email}`)
  return TOTP.generate({ secret, timestamp: clock.now })
}

/**
 * Password step, then a code of the next time-step (the clock moves 30 s first, so a code is
 * never one already used). Returns the browser holding the session.
 */
export const signIn = async (
  server: TestServer,
  clock: TestClock,
  email: string,
  password: string,
  browser: Browser = new Browser(server),
): Promise<Browser> => {
  const first = await browser.post(`${BO}/login`, { email, password })
  if (first.status !== 200) throw new Error(`login ${email}: ${first.status} ${JSON.stringify(first.body)}`)
  const body = first.body as { step: string; secret?: string }
  if (body.step === "enrol") {
    secrets.set(email, Secret.fromBase32(body.secret ?? ""))
  }
  clock.advance(30_000)
  const second = await browser.post(`${BO}/login/totp`, { code: codeAt(email, clock) })
  if (second.status !== 200)
    throw new Error(`login/totp ${email}: ${second.status} ${JSON.stringify(second.body)}`)
  return browser
}
