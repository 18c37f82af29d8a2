/**
 * Pieces the flow bindings share: reading a step's projected context, asserting the form's
 * messages, and arranging what a call will meet on the real server (a request from another
 * country, a failed network, a tampered field the server must refuse).
 */
import { expect, type Locator, type Page } from "@playwright/test"
import type { EventObject } from "xstate"
import { ClientError } from "../../../services/client.ts"
import type { PathStep } from "../../../statecharts/paths.ts"
import { type NewPlayer, registerPlayer } from "../support/api.ts"
import type { World } from "../support/fixtures.ts"
import type { EventBinding } from "../support/replay.ts"
import { resetCaptchaWidget, solveCaptchaWidget } from "../support/ui.ts"

export const API = "/user-service/api/v1"

/** An address in the United Kingdom (GB is restricted by default). */
export const RESTRICTED_IP = "81.2.69.142"

/** The server's default blocked e-mail domain (BLOCKED_EMAIL_DOMAINS). */
export const REAL_BLOCKED_DOMAIN = "blocked-one.example"

export const contextOf = (step: PathStep): Record<string, unknown> =>
  typeof step.context === "object" && step.context !== null ? (step.context as Record<string, unknown>) : {}

/** The projected `errors` (field → message) of a step. */
export const errorsOf = (step: PathStep): Record<string, string> => {
  const errors = contextOf(step).errors
  if (typeof errors !== "object" || errors === null) return {}
  return Object.fromEntries(
    Object.entries(errors).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""),
  )
}

/** Exactly these messages are shown in the form, each once, as alerts. */
export const expectFormErrors = async (form: Locator, errors: Record<string, string>): Promise<void> => {
  const messages = Object.values(errors)
  await expect(form.getByRole("alert")).toHaveCount(messages.length)
  for (const message of messages)
    await expect(form.getByRole("alert").filter({ hasText: message })).toHaveCount(1)
}

export const stringField = (event: EventObject, field: string): string => {
  const value: unknown = (event as unknown as Record<string, unknown>)[field]
  if (typeof value !== "string") throw new Error(`${event.type} has no string "${field}"`)
  return value
}

export const errorTag = (event: EventObject): string => {
  const error: unknown = (event as unknown as Record<string, unknown>).error
  if (typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string") {
    return error._tag
  }
  return "unknown"
}

/** True for the client-side ClientError whose reason is a transport failure (no answer). */
export const isTransportFailure = (event: EventObject): boolean => {
  const error: unknown = "error" in event ? event.error : undefined
  return error instanceof ClientError && error.reason === "Transport"
}

// ── Arranging what the next call meets ──────────────────────────────────────────────────────
const endpoint = (path: string): string => `**${API}${path}`

/** The next request to `path` reaches the real server as if sent from `ip` (TRUST_PROXY is on). */
export const nextRequestFrom = async (page: Page, path: string, ip: string): Promise<void> => {
  await page.route(
    endpoint(path),
    (route) => route.continue({ headers: { ...route.request().headers(), "x-forwarded-for": ip } }),
    { times: 1 },
  )
}

/** The next request to `path` fails in the network: no answer at all. */
export const nextRequestFails = async (page: Page, path: string): Promise<void> => {
  await page.route(endpoint(path), (route) => route.abort("failed"), { times: 1 })
}

/** The next request to `path` goes to the real server with its JSON body changed by `change`. */
export const nextRequestAltered = async (
  page: Page,
  path: string,
  change: (body: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> => {
  await page.route(
    endpoint(path),
    (route) => {
      const body: unknown = route.request().postDataJSON()
      const altered = change(
        typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {},
      )
      return route.continue({ postData: JSON.stringify(altered) })
    },
    { times: 1 },
  )
}

/** A base64 ALTCHA payload the server must refuse (well-formed, wrong solution). */
export const WRONG_CAPTCHA = Buffer.from(
  JSON.stringify({
    challenge: {
      parameters: {
        algorithm: "PBKDF2/SHA-256",
        nonce: "00",
        salt: "00",
        cost: 10,
        keyLength: 32,
        keyPrefix: "00",
      },
      signature: "0".repeat(64),
    },
    solution: { counter: 1, derivedKey: "00" },
  }),
).toString("base64")

// ── Players ──────────────────────────────────────────────────────────────────────────────────
export const newPlayer = async (world: World, tag: string, password: string): Promise<NewPlayer> => {
  const player: NewPlayer = {
    email: world.uniqueEmail(tag),
    password,
    fullName: "Ada Lovelace",
    currency: "EUR",
  }
  await registerPlayer(world.baseUrl, player)
  return player
}

/** Sets the account's lock / self-exclusion columns on the real database. */
export const setAccountFlags = async (
  world: World,
  email: string,
  flags: { readonly locked: boolean; readonly coolOff: boolean },
): Promise<void> => {
  const rows = await world.sql(
    `UPDATE users
        SET locked_at = CASE WHEN $2::boolean THEN now() ELSE NULL END,
            self_exclusion_until = CASE WHEN $3::boolean THEN now() + interval '1 day' ELSE NULL END,
            self_exclusion_kind = CASE WHEN $3::boolean THEN 'cool-off' ELSE NULL END
      WHERE lower(email) = lower($1)
      RETURNING id`,
    [email, flags.locked, flags.coolOff],
  )
  expect(rows.length, `account ${email}`).toBe(1)
}

/** The locator of a flow's form (or dialog) on the page. */
export type Scope = (page: Page) => Locator

/** A typing event: fills the labelled field of the scope with the event's `value`. */
export const fillField = <S>(
  scope: Scope,
  label: string,
  options: { exact?: boolean } = {},
): EventBinding<S> => ({
  kind: "action",
  run: async ({ page }, event) => {
    await scope(page).getByLabel(label, options).fill(stringField(event, "value"))
  },
})

/** A button press (SUBMIT, CONTINUE, RETRY…). */
export const clickButton = <S>(scope: Scope, name: string): EventBinding<S> => ({
  kind: "action",
  run: async ({ page }) => {
    await scope(page).getByRole("button", { name }).click()
  },
})

/** CAPTCHA_VERIFIED solves the real ALTCHA widget of the scope; CAPTCHA_RESET makes it expire. */
export const captchaBinding = <S>(
  scope: Scope,
  type: "CAPTCHA_VERIFIED" | "CAPTCHA_RESET",
): EventBinding<S> => ({
  kind: "action",
  run: ({ page }) =>
    type === "CAPTCHA_VERIFIED" ? solveCaptchaWidget(scope(page)) : resetCaptchaWidget(scope(page)),
})
