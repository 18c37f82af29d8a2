/**
 * The back office in Chromium against the real server: the first admin from the command line signs
 * in with the one-time password and enrols the authenticator, creates a KYC officer (whose
 * one-time password is shown once), sees the change in the audit log (who and whom by name and
 * e-mail); the officer sees only the
 * screens of the role; a wrong code is refused; sign-out ends the session. axe-core on every screen
 * at desktop and phone width.
 */
import { expect } from "@playwright/test"
import { expectAccessible, VIEWPORTS } from "./support/a11y.ts"
import { addOperatorByCommand, signInToBackoffice } from "./support/backoffice.ts"
import { test } from "./support/fixtures.ts"

test("an admin creates a KYC officer, who sees only the role's screens; the audit log records it", async ({
  page,
  world,
}) => {
  const admin = await addOperatorByCommand(world, "admin", "Ada Admin")
  await signInToBackoffice(page, admin, "/backoffice/operators")
  await expect(page).toHaveURL(/\/backoffice\/operators$/)
  await expect(page.getByRole("heading", { name: "Operators", level: 1 })).toBeVisible()

  const officerEmail = world.uniqueEmail("bo-kyc")
  const form = page.getByRole("region", { name: "New operator" })
  await form.getByLabel("Name").fill("Kim Officer")
  await form.getByLabel("E-mail").fill(officerEmail)
  await form.getByLabel("Role").selectOption("kyc")
  await form.getByRole("button", { name: "Create" }).click()
  const created = form.getByRole("status")
  await expect(created).toContainText(`Kim Officer (${officerEmail}) can sign in as kyc.`)
  const oneTime = (await created.locator("code").innerText()).trim()
  expect(oneTime.length).toBeGreaterThanOrEqual(20)
  await expect(page.getByRole("cell", { name: new RegExp(officerEmail) })).toBeVisible()

  await page
    .getByRole("navigation", { name: "Back office", exact: true })
    .getByRole("link", { name: "Audit log" })
    .click()
  await expect(page).toHaveURL(/\/backoffice\/audit$/)
  // Read as a person would: who by name and e-mail, the new operator likewise (the id beneath). The
  // row is found by its content: tests running beside this one write rows too (failed sign-ins).
  const createdRow = page
    .getByRole("row")
    .filter({ hasText: "operators.create" })
    .filter({ hasText: officerEmail })
  await expect(createdRow).toHaveCount(1)
  await expect(createdRow.getByRole("cell").nth(1)).toContainText(`Ada Admin <${admin.email}>`)
  await expect(createdRow.getByRole("cell").nth(3)).toContainText(`Kim Officer <${officerEmail}>`)

  // While the sign-out call is on its way the app says so and offers no sign-in form to race it:
  // the call is held here until that shows.
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  const logout = "**/api/backoffice/v1/logout"
  await page.route(logout, async (route) => {
    await held
    await route.continue()
  })
  const signedOut = page.waitForResponse((r) => r.url().endsWith("/api/backoffice/v1/logout"))
  await page.getByRole("button", { name: "Sign out" }).click()
  await expect(page.getByRole("status").filter({ hasText: "Signing out…" })).toBeVisible()
  await expect(page.getByRole("heading", { name: "Sign in" })).toHaveCount(0)
  release()
  expect((await signedOut).status()).toBe(200)
  await page.unroute(logout)
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible()

  // The officer: the role's menu only, and the admin's screens refused even by address.
  const officer = { email: officerEmail, password: oneTime, secret: null, lastStep: 0 }
  await signInToBackoffice(page, officer, "/backoffice/operators")
  const menu = page.getByRole("navigation", { name: "Back office", exact: true })
  await expect(menu.getByRole("link", { name: "Operators" })).toHaveCount(0)
  await expect(menu.getByRole("link", { name: "Audit log" })).toHaveCount(0)
  await expect(page.getByRole("heading", { name: "Welcome, Kim Officer" })).toBeVisible()
  const refused = await page.request.get("/api/backoffice/v1/operators")
  expect(refused.status()).toBe(403)
})

test("a wrong authenticator code is refused and the password step can be left", async ({ page, world }) => {
  const staff = await addOperatorByCommand(world, "support", "Sam Support")
  await page.goto("/backoffice")
  await page.getByLabel("E-mail").fill(staff.email)
  await page.getByLabel("Password").fill("not the password at all")
  await page.getByRole("button", { name: "Continue" }).click()
  await expect(page.getByRole("alert")).toHaveText("Wrong e-mail or password.")
  await page.getByLabel("Password").fill(staff.password)
  await page.getByRole("button", { name: "Continue" }).click()
  await expect(page.getByRole("heading", { name: "Set up two-step sign-in" })).toBeVisible()
  await page.getByLabel("Code").fill("000000")
  await page.getByRole("button", { name: "Sign in" }).click()
  await expect(page.getByRole("alert")).toHaveText("The code is wrong or was already used.")
  await page.getByRole("button", { name: "Back" }).click()
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible()
})

for (const viewport of VIEWPORTS) {
  test(`back-office screens pass axe at ${viewport.name} width`, async ({ page, world }, testInfo) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height })
    const admin = await addOperatorByCommand(world, "admin", `Axe ${viewport.name}`)
    await page.goto("/backoffice")
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible()
    await expectAccessible(page, testInfo, `backoffice sign-in ${viewport.name}`)
    await signInToBackoffice(page, admin, "/backoffice/operators")
    await expect(page.getByRole("table")).toBeVisible()
    await expectAccessible(page, testInfo, `backoffice operators ${viewport.name}`)
    await world.screenshot(page, `backoffice-operators-${viewport.name}`)
    await page.goto("/backoffice/audit")
    await expect(page.getByRole("table")).toBeVisible()
    await expectAccessible(page, testInfo, `backoffice audit ${viewport.name}`)
    await world.screenshot(page, `backoffice-audit-${viewport.name}`)
  })
}
