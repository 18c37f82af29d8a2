/**
 * A new player's whole account journey in Chromium against the real server, and the country block.
 * Screenshots of each stage go to test-results/screenshots/.
 */
import { signInStatus } from "./support/api.ts"
import { holdWhileShown } from "./support/clock.ts"
import { expect, test } from "./support/fixtures.ts"
import { tokenLink } from "./support/mail.ts"
import { dismissToasts, fillRegistration, solveCaptchaWidget } from "./support/ui.ts"

test("a new player registers, confirms the e-mail, resets the password and signs in with it", async ({
  page,
  world,
}) => {
  const player = {
    fullName: "Ada Lovelace",
    email: world.uniqueEmail("journey"),
    password: "analytical engine 1843",
    currency: "USD",
  }
  const newPassword = "difference engine 1822"

  // ── Register ──
  await page.goto("/")
  await page.getByRole("banner").getByRole("button", { name: "Sign up" }).click()
  await fillRegistration(page, player)
  await world.screenshot(page, "journey-01-register-filled")
  await page.getByRole("form", { name: "Sign up" }).getByRole("button", { name: "Sign up" }).click()

  // Landed on / signed in: the header shows the player and the modal is gone.
  await expect(page.getByRole("banner").getByText(player.fullName)).toBeVisible({ timeout: 20_000 })
  await expect(page.getByRole("form", { name: "Sign up" })).toHaveCount(0)
  await expect(page).toHaveURL(/\/$/)
  await world.screenshot(page, "journey-02-registered")

  // ── Confirm the e-mail from the outbox ──
  const confirmation = await world.mailTo(player.email, (m) => tokenLink(m).searchParams.has("token"))
  const confirmUrl = tokenLink(confirmation)
  expect(confirmUrl.origin).toBe(world.baseUrl)
  // The message continues by itself after 3 s: held until seen and photographed, then let go.
  await holdWhileShown(
    page,
    () => page.goto(confirmUrl.toString()),
    page.getByRole("status").filter({ hasText: "Your email is confirmed. Thank you!" }),
    () => world.screenshot(page, "journey-03-email-confirmed"),
  )
  if (world.databaseUrl !== undefined) {
    // In the database too (there is no outside SQL when the server runs on PGlite).
    const confirmed = await world.sql<{ confirmed: boolean }>(
      "SELECT confirmed_at IS NOT NULL AS confirmed FROM users WHERE lower(email) = lower($1)",
      [player.email],
    )
    expect(confirmed).toEqual([{ confirmed: true }])
  }
  // The confirmation closes by itself after a few seconds (the Continue button is a path test).
  await expect(page.getByRole("dialog")).toHaveCount(0, { timeout: 15_000 })

  // ── Sign out ──
  await dismissToasts(page)
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click()
  await expect(page.getByRole("banner").getByRole("button", { name: "Log in" })).toBeVisible()

  // ── Forgot password ──
  await page.getByRole("banner").getByRole("button", { name: "Log in" }).click()
  await page.getByRole("form", { name: "Log in" }).getByRole("button", { name: "Forgot password?" }).click()
  const forgot = page.getByRole("form", { name: "Forgot password" })
  await forgot.getByLabel("Email").fill(player.email)
  const seenBefore = new Set([confirmation.file])
  await forgot.getByRole("button", { name: "Restore password" }).click()
  await expect(page.getByText("Reset password link is sent!").first()).toBeVisible()
  await world.screenshot(page, "journey-04-reset-link-sent")

  // ── Reset from the mailed link ──
  const resetMail = await world.mailTo(player.email, (m) => !seenBefore.has(m.file))
  const resetUrl = tokenLink(resetMail)
  expect(resetUrl.origin).toBe(world.baseUrl)
  await page.goto(resetUrl.toString())
  const reset = page.getByRole("form", { name: "Reset password" })
  await reset.getByLabel("New password").fill(newPassword)
  await reset.getByLabel("Confirm password").fill(newPassword)
  await solveCaptchaWidget(reset)
  await world.screenshot(page, "journey-05-reset-filled")
  await reset.getByRole("button", { name: "Restore password" }).click()
  await expect(page.getByText("Your password has been changed, you can now sign in.").first()).toBeVisible()

  // ── Sign in with the new password ──
  const login = page.getByRole("form", { name: "Log in" })
  if ((await login.count()) === 0) {
    await dismissToasts(page)
    await page.getByRole("banner").getByRole("button", { name: "Log in" }).click()
  }
  await login.getByLabel("Email").fill(player.email)
  await login.getByLabel("Password").fill(newPassword)
  await solveCaptchaWidget(login)
  await login.getByRole("button", { name: "Log in" }).click()
  await expect(page.getByRole("banner").getByText(player.fullName)).toBeVisible()
  await world.screenshot(page, "journey-06-signed-in-with-new-password")

  // On the API as well: the new password signs in, the old one no longer does.
  expect(await signInStatus(world.baseUrl, player.email, newPassword)).toBe(200)
  expect(await signInStatus(world.baseUrl, player.email, player.password)).toBe(401)
})

test.describe("a visitor from a restricted country", () => {
  // 81.2.69.142 is in the United Kingdom; GB is restricted by default.
  test.use({ extraHTTPHeaders: { "X-Forwarded-For": "81.2.69.142" } })

  test("sees only the blocked page, with the country named and no way to log in", async ({ page, world }) => {
    await page.goto("/")
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Not available in United Kingdom/)
    await expect(page.getByText("United Kingdom", { exact: true })).toBeVisible()
    await expect(page.getByRole("button", { name: /log in/i })).toHaveCount(0)
    await expect(page.getByRole("button", { name: /sign up/i })).toHaveCount(0)
    await expect(page.getByRole("banner")).toHaveCount(0)
    await world.screenshot(page, "blocked-country")
  })
})
