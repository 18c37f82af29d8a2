/**
 * Helpers for the account tests (tests/server/users*.test.ts): a tiny HTTP client with a cookie
 * per "browser", a real ALTCHA solver (altcha-lib `solveChallenge` on the server's own challenge),
 * and the .eml outbox reader (postal-mime) that finds confirmation and reset links.
 */
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { solveChallenge } from "altcha-lib"
import { deriveKey } from "altcha-lib/algorithms/pbkdf2"
import PostalMime from "postal-mime"
import type { TestServer } from "./harness.ts"

export const USER = "/user-service/api/v1"
export const PROFILE = "/profile-service/api/v1"

export interface Reply {
  readonly status: number
  readonly headers: Headers
  /** Parsed when the response is JSON, else the raw text. */
  readonly body: unknown
  readonly setCookie: ReadonlyArray<string>
}

/** An open server-sent event stream: `until(marker)` reads on until the text so far holds the marker. */
export interface EventStream {
  readonly until: (marker: string) => Promise<string>
  /** Reads to the stream's end: true once the server ended it (false if reading failed). */
  readonly ended: () => Promise<boolean>
  readonly close: () => Promise<void>
}

/** One browser: remembers the session cookie, can pretend to come from an IP (TRUST_PROXY). */
export class Browser {
  cookies = new Map<string, string>()
  readonly server: TestServer
  readonly ip: string | undefined
  constructor(server: TestServer, ip?: string) {
    this.server = server
    this.ip = ip
  }

  get sessionToken(): string | undefined {
    return this.cookies.get("casino_session")
  }

  async call(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { origin: this.server.url, ...extraHeaders }
    if (body !== undefined) headers["content-type"] = "application/json"
    if (this.ip !== undefined) headers["x-forwarded-for"] = this.ip
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
    if (cookie !== "") headers.cookie = cookie
    const res = await fetch(this.server.url + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const setCookie = res.headers.getSetCookie()
    for (const line of setCookie) {
      const [pair = ""] = line.split(";")
      const eq = pair.indexOf("=")
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await res.text()
    let parsed: unknown = text
    if ((res.headers.get("content-type") ?? "").includes("json") && text !== "") parsed = JSON.parse(text)
    return { status: res.status, headers: res.headers, body: parsed, setCookie }
  }

  post(path: string, body: unknown = {}, headers?: Record<string, string>): Promise<Reply> {
    return this.call("POST", path, body, headers)
  }

  get(path: string): Promise<Reply> {
    return this.call("GET", path)
  }

  /**
   * This browser's push stream (`GET /api/events`), open once the server said ": connected";
   * `until(marker)` reads on until the text pushed so far holds the marker and returns that text.
   */
  pushStream(): Promise<EventStream> {
    return this.eventStream("/api/events")
  }

  /** Any server-sent event stream of this browser's (`pushStream`'s reader on another path). */
  async eventStream(path: string): Promise<EventStream> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
    const res = await fetch(`${this.server.url}${path}`, { headers: { cookie } })
    if (!(res.headers.get("content-type") ?? "").includes("text/event-stream") || res.body === null) {
      throw new Error(`GET ${path}: HTTP ${res.status}, not an event stream`)
    }
    const reader = res.body.getReader()
    const decoder = new TextDecoder()
    let pushed = ""
    const until = async (marker: string): Promise<string> => {
      while (!pushed.includes(marker)) {
        const chunk = await reader.read()
        if (chunk.done) break
        pushed += decoder.decode(chunk.value, { stream: true })
      }
      return pushed
    }
    await until(": connected")
    const ended = async (): Promise<boolean> => {
      try {
        for (;;) {
          const chunk = await reader.read()
          if (chunk.done) return true
          pushed += decoder.decode(chunk.value, { stream: true })
        }
      } catch {
        return false
      }
    }
    return { until, ended, close: () => reader.cancel() }
  }

  delete(path: string): Promise<Reply> {
    return this.call("DELETE", path)
  }
}

interface ChallengeJson {
  readonly parameters: {
    readonly algorithm: string
    readonly nonce: string
    readonly salt: string
    readonly cost: number
    readonly keyLength: number
    readonly keyPrefix: string
    readonly expiresAt?: number
  }
  readonly signature?: string
}

/** Fetches a challenge from the server and solves it the way the widget does; returns the payload. */
export const solveCaptcha = async (server: TestServer): Promise<string> => {
  const res = await fetch(`${server.url}${USER}/captcha/challenge`)
  if (res.status !== 200) throw new Error(`challenge: HTTP ${res.status}`)
  const challenge = (await res.json()) as ChallengeJson
  const solution = await solveChallenge({ challenge, deriveKey })
  if (solution === null) throw new Error("captcha not solved")
  return Buffer.from(
    JSON.stringify({
      challenge: { parameters: challenge.parameters, signature: challenge.signature },
      solution,
    }),
  ).toString("base64")
}

let counter = 0
/** A fresh, unique, deliverable-looking address. */
export const uniqueEmail = (tag: string): string =>
  `${tag}.${Date.now().toString(36)}.${(counter++).toString(36)}@example.com`

let ipCounter = 0
/** A fresh private IPv4 (resolves to DEFAULT_COUNTRY) so per-IP rate limits do not mix tests. */
export const uniqueIp = (): string => {
  ipCounter++
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

export const registration = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  password: "correct horse 1",
  fullName: "Ada Lovelace",
  terms: true,
  language: "en",
  currency: "EUR",
  ...extra,
})

export const register = async (browser: Browser, email: string, extra: Record<string, unknown> = {}) =>
  browser.post(`${USER}/registration`, {
    ...registration(email, extra),
    captcha: await solveCaptcha(browser.server),
  })

export const signIn = async (browser: Browser, email: string, password: string) =>
  browser.post(`${USER}/signin`, { email, password, captcha: await solveCaptcha(browser.server) })

export interface Mail {
  readonly file: string
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html: string
}

export const readOutbox = async (outboxDir: string): Promise<Array<Mail>> => {
  let files: Array<string>
  try {
    files = (await readdir(outboxDir)).filter((f) => f.endsWith(".eml")).sort()
  } catch {
    return []
  }
  const mails: Array<Mail> = []
  for (const file of files) {
    const email = await PostalMime.parse(await readFile(join(outboxDir, file)))
    mails.push({
      file,
      to: (email.to ?? []).map((a) => ("address" in a ? (a.address ?? "") : "")).join(","),
      subject: email.subject ?? "",
      text: email.text ?? "",
      html: email.html ?? "",
    })
  }
  return mails
}

/** Mails to `to` with `subject`, oldest first. */
export const mailsTo = async (server: TestServer, to: string, subject: string): Promise<Array<Mail>> =>
  (await readOutbox(server.outboxDir)).filter((m) => m.to === to && m.subject === subject)

/** Waits (up to `timeoutMs`) until at least `count` such mails exist; returns the newest. */
export const waitForMail = async (
  server: TestServer,
  to: string,
  subject: string,
  count = 1,
  timeoutMs = 10_000,
): Promise<Mail> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const mails = await mailsTo(server, to, subject)
    const last = mails[mails.length - 1]
    if (mails.length >= count && last !== undefined) return last
    if (Date.now() > deadline)
      throw new Error(`no mail #${count} "${subject}" to ${to} after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** The link of a mail's text part and its `modal` and `token` query parameters. */
export const linkOf = (mail: Mail, server: TestServer): { url: URL; modal: string | null; token: string } => {
  const escaped = server.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  const match = new RegExp(`${escaped}/\\?\\S+`).exec(mail.text)
  if (match === null) throw new Error(`no link in mail: ${mail.text}`)
  const url = new URL(match[0])
  const token = url.searchParams.get("token")
  if (token === null) throw new Error(`no token in ${url}`)
  return { url, modal: url.searchParams.get("modal"), token }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
