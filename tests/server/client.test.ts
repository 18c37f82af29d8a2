/**
 * The browser's generated client (services/clients/*) against the real server on PostgreSQL:
 * every call the player app makes goes through it here, with a same-origin "browser" (the fetch it
 * uses is given the server's base URL and a cookie jar). Successes come back decoded, declared
 * failures come back as the contract's own error classes, a 204 as undefined.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { Cause, Effect, Exit, Result } from "effect"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { ClientError } from "../../services/client.ts"
import { errorLoggerClient } from "../../services/clients/errorLogger.ts"
import { ipClient } from "../../services/clients/ip.ts"
import { profileClient } from "../../services/clients/profile.ts"
import { userClient } from "../../services/clients/user.ts"
import { EmailTaken, InvalidCredentials, Unauthenticated } from "../../services/errors.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { uniqueEmail } from "./users-support.ts"

/** The typed failure of a call (undefined when it succeeded or died). */
const failureOf = async <A, E>(effect: Effect.Effect<A, E>): Promise<E | undefined> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return undefined
  const found = Cause.findError(exit.cause)
  return Result.isSuccess(found) ? found.success : undefined
}

const realFetch = globalThis.fetch

describeOn("postgres", "the generated browser client", ({ start }) => {
  let server: TestServer
  const jar = new Map<string, string>()

  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
  })
  afterAll(() => server?.close())

  // A same-origin browser: relative URLs, the Origin header, and cookies kept between calls.
  const browserFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers)
    headers.set("origin", server.url)
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
    if (cookie !== "") headers.set("cookie", cookie)
    const response = await realFetch(new URL(String(input), server.url), { ...init, headers })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";")
      const eq = pair.indexOf("=")
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (/max-age=0/i.test(line) || value === "") jar.delete(name)
      else jar.set(name, value)
    }
    return response
  }

  beforeAll(() => vi.stubGlobal("fetch", browserFetch))
  afterAll(() => vi.unstubAllGlobals())

  it("reads the caller's country", async () => {
    const ip = await Effect.runPromise(ipClient.currentIp())
    expect(ip.isoCode).toMatch(/^[A-Z]{2}$/)
    expect(typeof ip.country).toBe("string")
  })

  it("registers, is signed in, reads the profile and fund, signs out (204 → undefined)", async () => {
    const email = uniqueEmail("client")
    const registered = await Effect.runPromise(
      userClient.register({
        payload: {
          email,
          password: "correct horse 1",
          fullName: "Ada Lovelace",
          terms: true,
          language: "en",
          currency: "EUR",
          captcha: "",
        },
      }),
    )
    expect(registered.isAuthenticated).toBe(true)
    expect(registered.user?.email).toBe(email)

    const status = await Effect.runPromise(userClient.isAuthenticated())
    expect(status.user?.email).toBe(email)
    const profile = await Effect.runPromise(profileClient.getProfile())
    expect(profile.email).toBe(email)
    const fund = await Effect.runPromise(profileClient.getFund())
    expect(fund.map((f) => f.currency)).toContain("EUR")
    expect(fund.every((f) => /^\d+$/.test(f.balance))).toBe(true)

    expect(await Effect.runPromise(userClient.signout())).toBeUndefined()
    expect((await Effect.runPromise(userClient.isAuthenticated())).isAuthenticated).toBe(false)
  })

  it("gives declared failures back as the contract's own classes", async () => {
    const email = uniqueEmail("client-fail")
    const payload = {
      email,
      password: "correct horse 1",
      fullName: "Ada Lovelace",
      terms: true,
      language: "en",
      currency: "EUR",
      captcha: "",
    }
    await Effect.runPromise(userClient.register({ payload }))
    await Effect.runPromise(userClient.signout())

    expect(await failureOf(userClient.register({ payload }))).toBeInstanceOf(EmailTaken)
    const wrong = await failureOf(
      userClient.signin({ payload: { email, password: "not the password", captcha: "" } }),
    )
    expect(wrong).toBeInstanceOf(InvalidCredentials)
    expect(await failureOf(profileClient.getProfile())).toBeInstanceOf(Unauthenticated)
  })

  it("posts an error report (202, no body)", async () => {
    const result = await Effect.runPromise(
      errorLoggerClient.report({
        payload: {
          user: null,
          error: { name: "Error", message: "client test" },
          browser: { userAgent: "vitest", language: "en", url: `${server.url}/` },
        },
      }),
    )
    expect(result).toBeUndefined()
  })

  describe("answers outside the contract", () => {
    it("an undeclared status is a ClientError with that status", async () => {
      // The profile read declares 200 and 401; a 502 from a proxy is neither.
      vi.stubGlobal("fetch", async () => new Response("<html>Bad gateway</html>", { status: 502 }))
      const failure = await failureOf(profileClient.getProfile())
      vi.stubGlobal("fetch", browserFetch)
      expect(failure).toBeInstanceOf(ClientError)
      expect(failure).toMatchObject({ reason: "Status", status: 502 })
    })

    it("a declared error status with a foreign body is a ClientError, not a decode crash", async () => {
      vi.stubGlobal("fetch", async () => new Response("<html>locked</html>", { status: 423 }))
      const failure = await failureOf(
        userClient.signin({ payload: { email: "a@b.example", password: "x", captcha: "" } }),
      )
      vi.stubGlobal("fetch", browserFetch)
      expect(failure).toMatchObject({ _tag: "ClientError", reason: "Status", status: 423 })
    })

    it("a network failure is a ClientError without a status", async () => {
      vi.stubGlobal("fetch", async () => {
        throw new TypeError("Failed to fetch")
      })
      const failure = await failureOf(ipClient.currentIp())
      vi.stubGlobal("fetch", browserFetch)
      expect(failure).toMatchObject({ _tag: "ClientError", reason: "Transport", status: null })
    })

    it("a success body that does not decode is a SchemaError", async () => {
      vi.stubGlobal(
        "fetch",
        async () =>
          new Response(JSON.stringify({ country: 42 }), {
            status: 200,
            headers: { "content-type": "application/json" },
          }),
      )
      const failure = await failureOf(ipClient.currentIp())
      vi.stubGlobal("fetch", browserFetch)
      expect(failure).toMatchObject({ _tag: "SchemaError" })
    })
  })
})
