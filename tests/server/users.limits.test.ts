/**
 * The captcha (challenge, missing/invalid/expired/replayed payloads, CAPTCHA=off) and the rate
 * limits of sign-in, registration and forgot-password (429 + Retry-After), on PostgreSQL.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */

import { pbkdf2 as widgetPbkdf2, solveChallenge as widgetSolve } from "altcha/lib"
import { createChallenge, solveChallenge } from "altcha-lib"
import { deriveKey } from "altcha-lib/algorithms/pbkdf2"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultRateLimits } from "../../server/config.ts"
import { AccountMessages } from "../../services/account-rules.ts"
import { describeOn, type TestServer } from "./harness.ts"
import {
  Browser,
  register,
  registration,
  signIn,
  solveCaptcha,
  USER,
  uniqueEmail,
  uniqueIp,
} from "./users-support.ts"

const PASSWORD = "correct horse 1"
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64")
const decode = (payload: string) => JSON.parse(Buffer.from(payload, "base64").toString("utf8"))

describeOn("postgres", "accounts: captcha and rate limits", ({ start }) => {
  let server: TestServer
  let open: TestServer
  const browser = (ip: string = uniqueIp()) => new Browser(server, ip)

  beforeAll(async () => {
    server = await start(
      {
        rateLimits: {
          ...defaultRateLimits,
          signinPerIp: { max: 3, windowSeconds: 900 },
          signinPerEmail: { max: 3, windowSeconds: 900 },
          registerPerIp: { max: 2, windowSeconds: 3600 },
          forgotPerIp: { max: 3, windowSeconds: 3600 },
          forgotPerEmail: { max: 2, windowSeconds: 3600 },
        },
      },
      { env: { TRUST_PROXY: "true" } },
    )
    open = await start({ captchaEnabled: false, cookieSecure: true }, { env: { TRUST_PROXY: "true" } })
  })
  afterAll(async () => {
    await server?.close()
    await open?.close()
  })

  const signInWith = (b: Browser, email: string, captcha: string) =>
    b.post(`${USER}/signin`, { email, password: PASSWORD, captcha })

  describe("captcha", () => {
    it("serves a signed PBKDF2/SHA-256 challenge with the configured cost and a 10-minute expiry", async () => {
      const res = await fetch(`${server.url}${USER}/captcha/challenge`)
      expect(res.status).toBe(200)
      expect(res.headers.get("cache-control")).toBe("no-store")
      const body = (await res.json()) as {
        parameters: { algorithm: string; cost: number; expiresAt: number; keyPrefix: string; nonce: string }
        signature: string
      }
      expect(body.parameters.algorithm).toBe("PBKDF2/SHA-256")
      expect(body.parameters.cost).toBe(server.config.captchaCost)
      expect(body.parameters.keyPrefix).toBe("00")
      const now = Date.now() / 1000
      expect(body.parameters.expiresAt).toBeGreaterThan(now + 590)
      expect(body.parameters.expiresAt).toBeLessThan(now + 610)
      expect(body.signature).toMatch(/^[0-9a-f]{64}$/)
      const other = (await (await fetch(`${server.url}${USER}/captcha/challenge`)).json()) as typeof body
      expect(other.parameters.nonce).not.toBe(body.parameters.nonce)
    })

    it("accepts a solution made by the widget's own browser code (altcha/lib, WebCrypto PBKDF2)", async () => {
      const challenge = (await (await fetch(`${server.url}${USER}/captcha/challenge`)).json()) as Parameters<
        typeof widgetSolve
      >[0]["challenge"]
      const solution = await widgetSolve({ challenge, deriveKey: widgetPbkdf2.deriveKey })
      // Exactly what altcha@3 puts in its form field and `verified` event.
      const payload = btoa(
        JSON.stringify({
          challenge: { parameters: challenge.parameters, signature: challenge.signature },
          solution,
        }),
      )
      const res = await signInWith(browser(), uniqueEmail("widget"), payload)
      expect(res.status).toBe(401)
      expect(res.body).toMatchObject({ _tag: "InvalidCredentials" })
    })

    it("refuses a missing captcha on sign-in, registration and reset", async () => {
      const email = uniqueEmail("nocaptcha")
      for (const res of [
        await signInWith(browser(), email, ""),
        await browser().post(`${USER}/registration`, { ...registration(email), captcha: "  " }),
        await browser().post(`${USER}/account/reset-password`, {
          token: "t",
          password: PASSWORD,
          confirmPassword: PASSWORD,
          captcha: "",
        }),
      ]) {
        expect(res.status).toBe(400)
        expect(res.body).toEqual({
          _tag: "CaptchaFailed",
          message: AccountMessages.captchaRequired,
          reason: "missing",
        })
      }
      expect(await server.query("SELECT 1 FROM users WHERE email = $1", [email])).toHaveLength(0)
    })

    it("refuses garbage, the widget's test-mode payload, a wrong solution and tampered or foreign challenges", async () => {
      const good = decode(await solveCaptcha(server))
      const foreign = await createChallenge({
        algorithm: "PBKDF2/SHA-256",
        cost: 1,
        deriveKey,
        expiresAt: Math.floor(Date.now() / 1000) + 600,
        hmacSignatureSecret: "not the server's secret at all",
      })
      const foreignSolution = await solveChallenge({ challenge: foreign, deriveKey })
      const payloads = [
        "garbage!",
        Buffer.from("not json").toString("base64"),
        encode({ challenge: null, solution: null, test: true }),
        encode({ ...good, solution: { ...good.solution, counter: good.solution.counter + 1 } }),
        encode({ ...good, solution: { ...good.solution, derivedKey: "00".repeat(32) } }),
        encode({
          ...good,
          challenge: { ...good.challenge, parameters: { ...good.challenge.parameters, cost: 1 } },
        }),
        encode({ ...good, challenge: { parameters: good.challenge.parameters } }),
        encode({
          challenge: { parameters: foreign.parameters, signature: foreign.signature },
          solution: foreignSolution,
        }),
      ]
      for (const payload of payloads) {
        const res = await signInWith(browser(), uniqueEmail("bad"), payload)
        expect(res.status, payload.slice(0, 40)).toBe(400)
        expect(res.body).toEqual({
          _tag: "CaptchaFailed",
          message: AccountMessages.captchaRequired,
          reason: "invalid",
        })
      }
      // The untouched solution is still good: none of the attempts above consumed it.
      expect((await signInWith(browser(), uniqueEmail("good"), encode(good))).status).toBe(401)
    })

    it("refuses an expired challenge", async () => {
      const challenge = await createChallenge({
        algorithm: "PBKDF2/SHA-256",
        cost: 1,
        deriveKey,
        expiresAt: Math.floor(Date.now() / 1000) - 5,
        hmacSignatureSecret: server.config.captchaSecret,
      })
      const solution = await solveChallenge({ challenge, deriveKey })
      const res = await signInWith(
        browser(),
        uniqueEmail("expired"),
        encode({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution }),
      )
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ _tag: "CaptchaFailed", reason: "expired" })
    })

    it("refuses a replayed solution, across endpoints too", async () => {
      const email = uniqueEmail("replay")
      const payload = await solveCaptcha(server)
      const first = await browser().post(`${USER}/registration`, { ...registration(email), captcha: payload })
      expect(first.status).toBe(200)
      const replays = [
        await browser().post(`${USER}/registration`, {
          ...registration(uniqueEmail("replay2")),
          captcha: payload,
        }),
        await signInWith(browser(), email, payload),
      ]
      for (const res of replays) {
        expect(res.status).toBe(400)
        expect(res.body).toEqual({
          _tag: "CaptchaFailed",
          message: AccountMessages.captchaRequired,
          reason: "replayed",
        })
      }
      // Concurrent submissions of one solution: exactly one gets past the captcha (to the 401 of
      // an unknown account); the others are replays.
      const shared = await solveCaptcha(server)
      const racing = await Promise.all(
        [1, 2, 3, 4].map(() => signInWith(browser(), uniqueEmail("race"), shared)),
      )
      const passed = racing.filter((r) => r.status === 401)
      const replayed = racing.filter((r) => (r.body as { reason?: string }).reason === "replayed")
      expect(passed).toHaveLength(1)
      expect(replayed).toHaveLength(3)
    })

    it("with CAPTCHA=off the captcha field is not checked (and COOKIE_SECURE marks the cookie Secure)", async () => {
      const b = new Browser(open, uniqueIp())
      const email = uniqueEmail("open")
      const res = await b.post(`${USER}/registration`, { ...registration(email), captcha: "" })
      expect(res.status).toBe(200)
      // This server runs with COOKIE_SECURE on.
      expect(res.setCookie.find((c) => c.startsWith("casino_session="))).toMatch(/; Secure/i)
      const again = new Browser(open, uniqueIp())
      expect((await again.post(`${USER}/signin`, { email, password: PASSWORD, captcha: "" })).status).toBe(
        200,
      )
    })
  })

  describe("rate limits", () => {
    const expect429 = (res: { status: number; headers: Headers; body: unknown }, window: number) => {
      expect(res.status).toBe(429)
      const retryAfter = Number(res.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(window)
      expect(res.body).toMatchObject({ _tag: "RateLimited", retryAfterSeconds: retryAfter })
    }

    it("sign-in: per IP", async () => {
      const b = browser()
      for (let i = 0; i < 3; i++) expect((await signInWith(b, uniqueEmail("ip"), "")).status).toBe(400)
      expect429(await signIn(b, uniqueEmail("ip"), PASSWORD), 900)
      // Another IP is not affected.
      expect((await signInWith(browser(), uniqueEmail("ip"), "")).status).toBe(400)
    })

    it("sign-in: per e-mail, whatever the IP (case-insensitive)", async () => {
      const email = uniqueEmail("per-email")
      await register(browser(), email)
      for (let i = 0; i < 3; i++) expect((await signIn(browser(), email, "wrong password")).status).toBe(401)
      expect429(await signIn(browser(), email.toUpperCase(), PASSWORD), 900)
    })

    it("registration: per IP", async () => {
      const b = browser()
      expect((await register(b, uniqueEmail("reg-ip"))).status).toBe(200)
      expect((await register(b, uniqueEmail("reg-ip"))).status).toBe(200)
      expect429(await register(b, uniqueEmail("reg-ip")), 3600)
    })

    it("forgot-password: per e-mail and per IP, the same for existing and unknown accounts", async () => {
      const existing = uniqueEmail("forgot-existing")
      await register(browser(), existing)
      const unknown = uniqueEmail("forgot-unknown")
      const results: Record<string, Array<{ status: number; tag: unknown }>> = {}
      for (const email of [existing, unknown]) {
        results[email] = []
        for (let i = 0; i < 3; i++) {
          const res = await browser().post(`${USER}/forgot-password`, { email })
          results[email]?.push({
            status: res.status,
            tag:
              (res.body as { _tag?: unknown; message?: unknown })._tag ??
              (res.body as { message?: unknown }).message,
          })
          if (i === 2) expect429(res, 3600)
        }
      }
      expect(results[existing]).toEqual(results[unknown])
      expect(results[existing]?.map((r) => r.status)).toEqual([200, 200, 429])

      const b = browser()
      for (let i = 0; i < 3; i++) {
        expect((await b.post(`${USER}/forgot-password`, { email: uniqueEmail("forgot-ip") })).status).toBe(
          200,
        )
      }
      expect429(await b.post(`${USER}/forgot-password`, { email: uniqueEmail("forgot-ip") }), 3600)
    })
  })
})
