/**
 * The player's account in Chromium against the real server, as a new player uses it:
 * completing the profile (read-only afterwards), uploading both verification documents and seeing
 * "verified" once a KYC officer approved them through the back-office API; revoking another device's
 * session (that browser notices when it is looked at again); self-exclusion (signed out, sign-in
 * refused with the spec's message); the promo switch and the unsubscribe link of a real promotional
 * mail; a visitor of a tab's address signing in first; the password change; limits and the reality
 * check. Screenshots of each stage go to test-results/screenshots/.
 */
import type { Browser, Locator, Page, Response } from "@playwright/test"
import { API } from "./bindings/common.ts"
import { registerPlayer, signInStatus, solvedCaptcha } from "./support/api.ts"
import { approveDocuments } from "./support/backoffice.ts"
import { holdWhileShown } from "./support/clock.ts"
import { expect, test, type World } from "./support/fixtures.ts"
import { tokenLink } from "./support/mail.ts"
import { dismissToasts, solveCaptchaWidget } from "./support/ui.ts"

const banner = (page: Page): Locator => page.getByRole("banner")
const profileForm = (page: Page): Locator => page.getByRole("form", { name: "Profile" })
const tabs = (page: Page): Locator => page.getByRole("navigation", { name: "Account sections" })

/** A registered player (through the API, captcha solved), not signed in anywhere yet. */
const newPlayer = async (world: World, tag: string) => {
  const player = {
    fullName: "Ada Lovelace",
    email: world.uniqueEmail(tag),
    password: "analytical engine 1843",
    currency: "EUR",
  }
  await registerPlayer(world.baseUrl, player)
  return player
}

/** Signs in through the API from the page's own cookie jar: the next page load is signed in. */
const signInPage = async (page: Page, world: World, email: string, password: string): Promise<void> => {
  const response = await page.request.post(`${world.baseUrl}${API}/signin`, {
    data: { email, password, captcha: await solvedCaptcha(world.baseUrl) },
    headers: { origin: world.baseUrl },
  })
  expect(response.status()).toBe(200)
}

/** Logs in through the header's modal, as a player does (the real captcha solved in the page). */
const logInThroughModal = async (page: Page, email: string, password: string): Promise<Locator> => {
  const form = page.getByRole("form", { name: "Log in" })
  if ((await form.count()) === 0) await banner(page).getByRole("button", { name: "Log in" }).click()
  await form.getByLabel("Email").fill(email)
  await form.getByLabel("Password").fill(password)
  await solveCaptchaWidget(form)
  await form.getByRole("button", { name: "Log in" }).click()
  return form
}

const toast = (page: Page, text: string): Locator => page.getByText(text, { exact: true }).first()

const jpeg = {
  name: "passport.jpg",
  mimeType: "image/jpeg",
  buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]),
}
const pdf = {
  name: "electricity-bill.pdf",
  mimeType: "application/pdf",
  buffer: Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"),
}

test("a new player completes the profile, uploads both documents, and sees them verified after the operator approved", async ({
  page,
  world,
}) => {
  // A whole journey (profile, two uploads, the operator's approval): the journeys' bound.
  test.setTimeout(180_000)
  const player = await newPlayer(world, "verify")
  await signInPage(page, world, player.email, player.password)

  // ── General tab: the header's account link, the profile form ──
  await page.goto("/")
  await banner(page)
    .getByRole("link", { name: /Your account/ })
    .click()
  await expect(page).toHaveURL(/\/profile$/)
  const form = profileForm(page)
  await expect(form.getByLabel("Email")).toHaveValue(player.email)
  await expect(form.getByLabel("Email")).toHaveAttribute("readonly", "")
  await expect(form.getByLabel("First name")).toHaveValue("Ada")
  await expect(page.getByText(/Last sign-in before this one|This is your first sign-in/)).toBeVisible()

  // A wrong postal code and a phone without its calling code are refused with their messages.
  await form.getByLabel("Phone").fill("2123 4567")
  await form.getByRole("button", { name: "Save" }).click()
  await expect(form.getByText("Choose the country calling code of this number")).toBeVisible()

  await form.getByLabel("Date of birth").fill("1985-12-10")
  await form.getByLabel("Gender").selectOption({ label: "Female" })
  await form.getByLabel("Country").selectOption({ label: "Malta" })
  await form.getByLabel("Calling code").selectOption({ label: "+356 Malta" })
  await form.getByLabel("City").fill("Valletta")
  await form.getByLabel("State / region").fill("Valletta")
  await form.getByLabel("Address", { exact: true }).fill("12 Republic Street")
  await form.getByLabel("Postal code").fill("VLT1117")
  await world.screenshot(page, "account-01-profile-filled")
  await form.getByRole("button", { name: "Save" }).click()
  await expect(toast(page, "Profile saved")).toBeVisible()

  // Filled fields come back read-only; the phone as the full number.
  await expect(form.getByLabel("City")).toHaveAttribute("readonly", "")
  await expect(form.getByLabel("Phone")).toHaveValue("+356 21234567")
  await expect(form.getByLabel("Date of birth")).toHaveValue("1985-12-10")
  await expect(form.getByLabel("Country")).toHaveValue("Malta")
  await world.screenshot(page, "account-02-profile-saved")
  // …and stay so after a reload (the deep link works too).
  await page.reload()
  await expect(profileForm(page).getByLabel("Gender")).toHaveValue("Female")
  await expect(profileForm(page).getByLabel("Gender")).toHaveAttribute("readonly", "")

  // ── Verification tab: both documents uploaded, then approved by the operator ──
  await dismissToasts(page)
  await tabs(page).getByRole("link", { name: "Verification" }).click()
  await expect(page).toHaveURL(/\/profile\/verification$/)
  const identity = page.getByRole("region", { name: "Identity document" })
  const address = page.getByRole("region", { name: "Proof of address" })
  await expect(identity.getByText("Not uploaded")).toBeVisible()

  // A file of another type is refused before anything is sent.
  await identity.getByLabel(/Choose a file/).setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("hello"),
  })
  await expect(identity.getByText("Choose a JPEG, PNG or PDF file.")).toBeVisible()

  await identity.getByLabel(/Choose a file/).setInputFiles(jpeg)
  await identity.getByRole("button", { name: "Upload" }).click()
  await expect(identity.getByText("Waiting for review").first()).toBeVisible()
  await address.getByLabel(/Choose a file/).setInputFiles(pdf)
  await address.getByRole("button", { name: "Upload" }).click()
  await expect(address.getByText("Waiting for review").first()).toBeVisible()
  await world.screenshot(page, "account-03-documents-pending")

  // Both wait in the KYC queue, then a KYC officer's token approves them.
  await approveDocuments(world, player.email)

  await page.reload()
  await expect(page.getByRole("status").filter({ hasText: "Verified." })).toBeVisible()
  await expect(identity.getByText("Approved").first()).toBeVisible()
  await expect(address.getByText("Approved").first()).toBeVisible()
  await expect(identity.getByRole("button", { name: "Upload" })).toHaveCount(0)
  await world.screenshot(page, "account-04-verified")
})

const signedInContext = async (
  browser: Browser,
  world: World,
  email: string,
  password: string,
  userAgent: string,
) => {
  const context = await browser.newContext({ baseURL: world.baseUrl, userAgent })
  const page = await context.newPage()
  await signInPage(page, world, email, password)
  return { context, page }
}

test("revoking another device's session signs that browser out", async ({ browser, world }) => {
  const player = await newPlayer(world, "sessions")
  const chrome =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
  const phone =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"
  const desk = await signedInContext(browser, world, player.email, player.password, chrome)
  const other = await signedInContext(browser, world, player.email, player.password, phone)
  try {
    await other.page.goto("/")
    await expect(banner(other.page).getByRole("button", { name: "Sign out" })).toBeVisible()

    await desk.page.goto("/profile/sessions")
    // This browser, the phone, and the session the registration (through the API) opened.
    const devices = desk.page.getByRole("listitem").filter({ hasText: /Signed in/ })
    await expect(devices).toHaveCount(3)
    const current = devices.filter({ hasText: "This device" })
    await expect(current).toContainText("Chrome 131 on Linux")
    await expect(current).toHaveCount(1)
    // The current device is not revoked from here (sign out is in the header).
    await expect(current.getByRole("button", { name: /Sign out/ })).toHaveCount(0)
    await world.screenshot(desk.page, "account-05-sessions")

    const phoneRow = devices.filter({ hasText: "Safari 18 on iPhone" })
    await phoneRow.getByRole("button", { name: /Sign out/ }).click()
    const confirm = desk.page.getByRole("alertdialog", { name: "Sign out this device?" })
    await expect(confirm).toBeVisible()
    await world.screenshot(desk.page, "account-06-revoke-confirm")
    await confirm.getByRole("button", { name: "Sign it out" }).click()
    await expect(toast(desk.page, "The device was signed out.")).toBeVisible()
    await expect(devices).toHaveCount(2)
    await expect(phoneRow).toHaveCount(0)

    // The other browser notices as soon as its page is looked at again.
    await other.page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")))
    await expect(banner(other.page).getByRole("button", { name: "Log in" })).toBeVisible()
    await world.screenshot(other.page, "account-07-revoked-device-signed-out")
  } finally {
    await desk.context.close()
    await other.context.close()
  }
})

test("self-exclusion signs the player out everywhere and sign-in is refused until it ends", async ({
  page,
  world,
}) => {
  const player = await newPlayer(world, "exclude")
  await signInPage(page, world, player.email, player.password)
  await page.goto("/profile/responsible-gaming")
  const breaks = page.getByRole("group", { name: "Take a break" })
  await breaks.getByRole("button", { name: "24 hours" }).click()
  const confirm = page.getByRole("alertdialog")
  await expect(confirm).toContainText(
    "You will be signed out everywhere and cannot sign in until the period ends.",
  )
  await world.screenshot(page, "account-08-exclusion-confirm")
  await confirm.getByRole("button", { name: "Yes, sign me out" }).click()

  // Home, signed out.
  await expect(page).toHaveURL(/\/$/)
  await expect(banner(page).getByRole("button", { name: "Log in" })).toBeVisible()

  // Sign-in is refused with the spec's message (status 451), in the page and on the API.
  const form = await logInThroughModal(page, player.email, player.password)
  await expect(form.getByText("Your account is on cool off period, contact support!")).toBeVisible()
  await world.screenshot(page, "account-09-cool-off-refused")
  expect(await signInStatus(world.baseUrl, player.email, player.password)).toBe(451)
})

test("the promo switch flips after the server answered, and the mail's unsubscribe link works without signing in", async ({
  page,
  browser,
  world,
}) => {
  const player = await newPlayer(world, "promo")
  // The welcome offer goes to confirmed players who accept promotional mail: confirm first.
  const confirmation = await world.mailTo(player.email, (m) => tokenLink(m).searchParams.has("token"))
  await signInPage(page, world, player.email, player.password)
  // The message continues by itself after 3 s: held until seen, however loaded the machine is.
  await holdWhileShown(
    page,
    () => page.goto(tokenLink(confirmation).toString()),
    page.getByRole("status").filter({ hasText: "Your email is confirmed. Thank you!" }),
  )
  await expect(page.getByRole("dialog")).toHaveCount(0, { timeout: 15_000 })

  await page.goto("/profile/promo")
  const promoSwitch = page.getByRole("switch", { name: /promotional e-mails/ })
  await expect(promoSwitch).toHaveAttribute("aria-checked", "false")
  await promoSwitch.click()
  await expect(toast(page, "You are subscribed")).toBeVisible()
  await expect(promoSwitch).toHaveAttribute("aria-checked", "true")
  await world.screenshot(page, "account-10-promo-subscribed")

  // The welcome offer, with its unsubscribe link; opened in a browser that is not signed in.
  const offer = await world.mailTo(player.email, (m) =>
    m.links.some((link) => link.includes("/unsubscribe/")),
  )
  const link = offer.links.find((l) => l.includes("/unsubscribe/"))
  if (link === undefined) throw new Error("no unsubscribe link in the promotional mail")
  expect(new URL(link).origin).toBe(world.baseUrl)
  const visitor = await browser.newContext({ baseURL: world.baseUrl })
  try {
    const mailPage = await visitor.newPage()
    await mailPage.goto(link)
    await expect(mailPage.getByRole("status")).toContainText("You are unsubscribed")
    await expect(mailPage.getByRole("status")).toContainText(player.email)
    await world.screenshot(mailPage, "account-11-unsubscribed-from-mail")
    // A link that is not ours says so.
    await mailPage.goto("/unsubscribe/not-a-real-link")
    await expect(mailPage.getByRole("alert")).toContainText("This unsubscribe link is not valid")
  } finally {
    await visitor.close()
  }

  // Back in the account, the switch is off.
  await page.goto("/profile/promo")
  await expect(page.getByRole("switch", { name: /promotional e-mails/ })).toHaveAttribute(
    "aria-checked",
    "false",
  )
})

test("a visitor of a tab's address logs in first, then sees that tab", async ({ page, world }) => {
  const player = await newPlayer(world, "deeplink")
  await page.goto("/profile/security")
  const form = page.getByRole("form", { name: "Log in" })
  await expect(form).toBeVisible()
  await expect(page.getByText("Log in to see your account.")).toBeVisible()
  await logInThroughModal(page, player.email, player.password)
  await expect(page.getByRole("form", { name: "Change password" })).toBeVisible()
  await expect(page).toHaveURL(/\/profile\/security$/)
  await expect(tabs(page).getByRole("link", { name: "Security" })).toHaveAttribute("aria-current", "page")
})

test("the password change keeps the reset rules, and the new password signs in", async ({ page, world }) => {
  const player = await newPlayer(world, "password")
  await signInPage(page, world, player.email, player.password)
  await page.goto("/profile/security")
  const form = page.getByRole("form", { name: "Change password" })
  await form.getByLabel("Current password").fill(player.password)
  await form.getByLabel("New password", { exact: true }).fill("short")
  await form.getByRole("button", { name: "Change password" }).click()
  await expect(form.getByText("Password is too short, min 8 characters")).toBeVisible()
  await form.getByLabel("New password", { exact: true }).fill("difference engine 1822")
  await form.getByLabel("Confirm new password").fill("difference engine 1822")
  await form.getByRole("button", { name: "Change password" }).click()
  await expect(
    toast(page, "Your password has been changed. Your other devices were signed out."),
  ).toBeVisible()
  expect(await signInStatus(world.baseUrl, player.email, "difference engine 1822")).toBe(200)
  expect(await signInStatus(world.baseUrl, player.email, player.password)).toBe(401)
})

test("deposit limits and the reality check are saved and shown", async ({ page, world }) => {
  const player = await newPlayer(world, "limits")
  await signInPage(page, world, player.email, player.password)
  await page.goto("/profile/responsible-gaming")
  const limits = page.getByRole("form", { name: "Limits" })
  await limits.getByLabel("Per day (EUR)").fill("fifty")
  await limits.getByRole("button", { name: "Save limits" }).click()
  await expect(limits.getByText(/Enter an amount in euros/)).toBeVisible()
  await limits.getByLabel("Per day (EUR)").fill("50")
  await limits
    .getByLabel("Remind me how long I have been playing")
    .selectOption({ label: "Every 30 minutes" })
  await limits.getByRole("button", { name: "Save limits" }).click()
  await expect(toast(page, "Your limits are saved")).toBeVisible()
  await expect(limits.getByText("€50.00 left now")).toBeVisible()
  await world.screenshot(page, "account-12-limits")
  // Raising it waits 24 hours: shown as pending, with the time it applies.
  await limits.getByLabel("Per day (EUR)").fill("80")
  await limits.getByRole("button", { name: "Save limits" }).click()
  await expect(toast(page, "Your limits are saved. An increase takes effect after 24 hours.")).toBeVisible()
  await expect(limits.getByText(/from .*: €80\.00/)).toBeVisible()
  await page.reload()
  await expect(page.getByLabel("Remind me how long I have been playing")).toHaveValue("30")
})

test("the reality check reminds the player how long they have been signed in, to continue or sign out", async ({
  page,
  world,
}) => {
  const player = await newPlayer(world, "reality")
  await signInPage(page, world, player.email, player.password)
  // The page's clock is driven by the test: fifteen minutes pass in a moment.
  await page.clock.install()
  await page.goto("/profile/responsible-gaming")
  const limits = page.getByRole("form", { name: "Limits" })
  await limits
    .getByLabel("Remind me how long I have been playing")
    .selectOption({ label: "Every 15 minutes" })
  // Saving makes the reality check read its settings again; its timer starts when they arrive.
  const reread = page.waitForResponse(
    (r) =>
      r.url().endsWith("/profile-service/api/v1/profile/responsible-gaming") &&
      r.request().method() === "GET",
  )
  await limits.getByRole("button", { name: "Save limits" }).click()
  await expect(toast(page, "Your limits are saved")).toBeVisible()
  await (await reread).finished()

  // Minute by minute, so a timer the page schedules a moment after a step still fires at 15:00
  // (one jump of 15 minutes taken before the timer exists would skip to the next reminder).
  const minutesPass = async (minutes: number) => {
    for (let m = 0; m < minutes; m++) await page.clock.fastForward("01:00")
  }
  await minutesPass(15)
  const reminder = page.getByRole("alertdialog", { name: "Reality check" })
  await expect(reminder).toContainText("You have been signed in for 15 min")
  await world.screenshot(page, "account-13-reality-check")

  // A reload while it shows does not skip it: the server still owes it. The page's clock
  // is driven, the server's is real: the sign-in moves 15 minutes back so both agree on the time.
  await world.sql(
    `UPDATE sessions SET created_at = created_at - interval '15 minutes'
     WHERE user_id = (SELECT id FROM users WHERE email = $1) AND revoked_at IS NULL`,
    [player.email],
  )
  await page.reload()
  await expect(reminder).toContainText("You have been signed in for 15 min")
  // A second tab of the same session shows it too; answered there, the first tab's closes as well
  // (the server pushes the answer; the first tab reads its session's state again).
  const secondTab = await page.context().newPage()
  await secondTab.goto("/profile/responsible-gaming")
  const secondReminder = secondTab.getByRole("alertdialog", { name: "Reality check" })
  await expect(secondReminder).toContainText("You have been signed in for 15 min")
  const isRealityCheck = (method: string) => (r: Response) =>
    r.url().endsWith("/profile-service/api/v1/profile/reality-check") && r.request().method() === method
  const saved = secondTab.waitForResponse(isRealityCheck("PUT"))
  await secondReminder.getByRole("button", { name: "Continue playing" }).click()
  await expect(secondReminder).toHaveCount(0)
  expect((await saved).status()).toBe(200)
  await expect(reminder).toHaveCount(0)
  await secondTab.close()

  // Answered on the server: a reload now waits for the next one.
  const checked = page.waitForResponse(isRealityCheck("GET"))
  await page.reload()
  await (await checked).finished()
  await expect(limits).toBeVisible()
  await expect(reminder).toHaveCount(0)

  await minutesPass(15)
  await expect(reminder).toContainText("You have been signed in for 30 min")
  await reminder.getByRole("button", { name: "Sign out" }).click()
  await expect(banner(page).getByRole("button", { name: "Log in" })).toBeVisible()
  await expect(page).toHaveURL(/\/$/)
})
