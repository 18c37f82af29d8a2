/**
 * The back office in the browser, as its staff use it: the first admin from the command line, then
 * every sign-in through the page — password, then the authenticator code, computed here from the
 * secret the enrolment page shows (as an authenticator app would from the QR code), then, after a
 * one-time password, the operator's own.
 */
import { expect, type Page } from "@playwright/test"
import { base32Decode, totpAt } from "../../../server/backoffice/totp.ts"
import type { World } from "./fixtures.ts"
import { operator } from "./operator.ts"

export interface Staff {
  readonly email: string
  password: string
  /** Learnt at enrolment. */
  secret: Uint8Array | null
  /** The last 30-second step a code was used in: the server refuses a code twice. */
  lastStep: number
}

/** An operator added with `npm run operator -- operators add`: its one-time password from the output. */
export const addOperatorByCommand = async (world: World, role: string, name: string): Promise<Staff> => {
  const email = world.uniqueEmail(`bo-${role}`)
  const { stdout } = await operator(world.databaseUrl, [
    "operators",
    "add",
    "--email",
    email,
    "--name",
    name,
    "--role",
    role,
  ])
  const password = /one-time password: (\S+)/.exec(stdout)?.[1]
  if (password === undefined) throw new Error(`no one-time password in: ${stdout}`)
  return { email, password, secret: null, lastStep: 0 }
}

/** A code of a step not used yet (waits for the next 30-second step when needed). */
const freshCode = async (page: Page, staff: Staff): Promise<string> => {
  if (staff.secret === null) throw new Error(`${staff.email} has no TOTP secret yet`)
  let step = Math.floor(Date.now() / 30_000)
  while (step <= staff.lastStep) {
    await page.waitForTimeout(1000)
    step = Math.floor(Date.now() / 30_000)
  }
  staff.lastStep = step
  return totpAt(staff.secret, step * 30)
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
    const secret = base32Decode(key)
    if (secret === undefined) throw new Error(`the enrolment key is not base32: ${key}`)
    staff.secret = secret
  }
  await page.getByLabel("Code").fill(await freshCode(page, staff))
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
