/**
 * The contract's HTTP endpoints called directly from the test process, to arrange preconditions
 * faster than through the UI (an existing player for the login paths). The captcha is really solved
 * here with altcha-lib, like the widget does in the browser.
 */
import { solveChallenge } from "altcha-lib"
import { deriveKey } from "altcha-lib/algorithms/pbkdf2"

const api = (baseUrl: string, path: string): string => `${baseUrl}/user-service/api/v1${path}`

export const solvedCaptcha = async (baseUrl: string): Promise<string> => {
  const response = await fetch(api(baseUrl, "/captcha/challenge"))
  if (!response.ok) throw new Error(`captcha challenge: HTTP ${response.status}`)
  const challenge = (await response.json()) as Parameters<typeof solveChallenge>[0]["challenge"]
  const solution = await solveChallenge({ challenge, deriveKey })
  if (solution === null) throw new Error("captcha: no solution found")
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64")
}

export interface PostResult {
  readonly status: number
  readonly body: unknown
}

export const postJson = async (baseUrl: string, path: string, payload: unknown): Promise<PostResult> => {
  const response = await fetch(api(baseUrl, path), {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify(payload),
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body }
}

export interface NewPlayer {
  readonly email: string
  readonly password: string
  readonly fullName: string
  readonly currency: string
}

/** Registers through POST /registration (captcha solved); throws unless the server accepts it. */
export const registerPlayer = async (baseUrl: string, player: NewPlayer): Promise<void> => {
  const result = await postJson(baseUrl, "/registration", {
    email: player.email,
    password: player.password,
    fullName: player.fullName,
    currency: player.currency,
    terms: true,
    language: "en",
    captcha: await solvedCaptcha(baseUrl),
  })
  if (result.status !== 200) {
    throw new Error(`registering ${player.email}: HTTP ${result.status} ${JSON.stringify(result.body)}`)
  }
}

/** POST /signin with a solved captcha: the HTTP status (200 signed in, 401 wrong password, …). */
export const signInStatus = async (baseUrl: string, email: string, password: string): Promise<number> =>
  (await postJson(baseUrl, "/signin", { email, password, captcha: await solvedCaptcha(baseUrl) })).status
