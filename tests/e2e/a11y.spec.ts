/**
 * Accessibility, measured: axe-core (WCAG 2.0/2.1/2.2 A and AA) on every screen and modal
 * state of the app, at desktop (1280×800) and mobile (390×844) widths, against the real server — a
 * serious or critical violation fails the test; moderate and minor ones are printed. Then the
 * keyboard-only journeys: logging in and registering with Tab, Shift+Tab, Enter, Space, arrows and
 * Escape only (the ALTCHA captcha, the 18+ checkbox and the currency list included), with the focus
 * going into each modal, back to its opener when it closes, and visibly marked wherever it lands.
 * Run only these: `npx playwright test tests/e2e/a11y.spec.ts`. See docs/accessibility.md.
 */
import type { Locator, Page } from "@playwright/test"
import { confirmContinueDelayMs } from "../../machines/account/confirmEmail.machine.ts"
import { API, RESTRICTED_IP } from "./bindings/common.ts"
import {
  expectAccessible,
  expectFocus,
  expectVisibleFocus,
  type Focused,
  focused,
  tabTo,
  VIEWPORTS,
} from "./support/a11y.ts"
import { postJson, registerPlayer, solvedCaptcha } from "./support/api.ts"
import { loadAndHoldWhenShown, whileHeld } from "./support/clock.ts"
import { expect, test, type World } from "./support/fixtures.ts"
import { tokenLink } from "./support/mail.ts"

const banner = (page: Page): Locator => page.getByRole("banner")
const dialog = (page: Page): Locator => page.getByRole("dialog")

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

/**
 * The header of a signed-in player: Sign out is a button of its own on a desktop, and inside the
 * header's menu on a phone (the menu button shows instead).
 */
const expectSignedInHeader = async (page: Page, width: number, timeout = 10_000): Promise<void> => {
  const name = width <= 720 ? "Menu" : "Sign out"
  await expect(banner(page).getByRole("button", { name, exact: true })).toBeVisible({ timeout })
}

const openHome = async (page: Page): Promise<void> => {
  await page.goto("/")
  await expect(banner(page)).toBeVisible()
}

const openModal = async (page: Page, button: "Log in" | "Sign up", form: string): Promise<Locator> => {
  await openHome(page)
  await banner(page).getByRole("button", { name: button }).click()
  const modal = page.getByRole("form", { name: form })
  await expect(modal).toBeVisible()
  return modal
}

for (const viewport of VIEWPORTS) {
  test.describe(`axe at ${viewport.name} width (${viewport.width}×${viewport.height})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } })
    // Several axe runs per test, each followed by a screenshot per undecided contrast (the
    // visualizer has some fifty texts): slow on the shared two-core machine, not stuck.
    test.describe.configure({ timeout: 180_000 })

    test("home and header, visitor", async ({ page }, testInfo) => {
      await openHome(page)
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible()
      await expect(banner(page).getByRole("button", { name: "Log in" })).toBeVisible()
      await expectAccessible(page, testInfo, "home visitor")
    })

    test("home and header, signed in (balance, wallets, unconfirmed e-mail notice)", async ({
      page,
      world,
    }, testInfo) => {
      const player = await newPlayer(world, "a11y-home")
      await signInPage(page, world, player.email, player.password)
      await openHome(page)
      await expectSignedInHeader(page, viewport.width)
      await expect(page.getByRole("heading", { name: "Your wallets" })).toBeVisible()
      await expect(page.getByRole("status").filter({ hasText: "confirm your e-mail" })).toBeVisible()
      await expectAccessible(page, testInfo, "home signed in")
    })

    test("login modal: empty, then its errors after an invalid submit", async ({ page }, testInfo) => {
      const form = await openModal(page, "Log in", "Log in")
      await expectAccessible(page, testInfo, "login")
      await form.getByRole("button", { name: "Log in" }).click()
      await expect(form.getByRole("alert").first()).toBeVisible()
      await expectAccessible(page, testInfo, "login errors")
    })

    test("register modal: empty, bonus code open, currency list open, errors, tutorial video", async ({
      page,
    }, testInfo) => {
      const form = await openModal(page, "Sign up", "Sign up")
      await expectAccessible(page, testInfo, "register")

      await form.getByRole("switch", { name: "I have a bonus code" }).click()
      await expect(form.getByLabel("Bonus code", { exact: true })).toBeVisible()
      // Checked as it is typed: what the code grants.
      await form.getByLabel("Bonus code", { exact: true }).fill("welcome1")
      await expect(form.getByText(/^✓ WELCOME1: Welcome bonus: 50 % up to 16.00 EUR/)).toBeVisible()
      await expectAccessible(page, testInfo, "register bonus code open")

      const currency = form.getByRole("button", { name: "Currency" })
      await currency.click()
      await expect(currency).toHaveAttribute("aria-expanded", "true")
      await expect(form.getByRole("listbox").first()).toBeVisible()
      await expectAccessible(page, testInfo, "register currency list open")
      await currency.click()
      await expect(form.getByRole("listbox")).toHaveCount(0)

      await form.getByRole("button", { name: "Sign up" }).click()
      await expect(form.getByRole("alert").first()).toBeVisible()
      await expectAccessible(page, testInfo, "register errors")

      await form.getByRole("button", { name: "Watch the tutorial video" }).click()
      await expect(dialog(page).getByRole("heading", { name: "How to play" })).toBeVisible()
      await expect(dialog(page).locator("iframe, video")).toBeVisible()
      await expectAccessible(page, testInfo, "tutorial video")
    })

    test("forgot password: form, its error, and the link-sent toast", async ({ page, world }, testInfo) => {
      const login = await openModal(page, "Log in", "Log in")
      await login.getByRole("button", { name: "Forgot password?" }).click()
      const form = page.getByRole("form", { name: "Forgot password" })
      await expect(form).toBeVisible()
      await expectAccessible(page, testInfo, "forgot password")
      await form.getByRole("button", { name: "Restore password" }).click()
      await expect(form.getByRole("alert")).toBeVisible()
      await expectAccessible(page, testInfo, "forgot password error")
      await form.getByLabel("Email").fill(world.uniqueEmail("a11y-forgot"))
      await form.getByRole("button", { name: "Restore password" }).click()
      await expect(page.getByText("Reset password link is sent!").first()).toBeVisible()
      await expectAccessible(page, testInfo, "forgot password sent toast")
    })

    test("reset password, opened from a real reset link", async ({ page, world }, testInfo) => {
      const player = await newPlayer(world, "a11y-reset")
      const confirmation = await world.mailTo(player.email)
      expect((await postJson(world.baseUrl, "/forgot-password", { email: player.email })).status).toBe(200)
      const mail = await world.mailTo(player.email, (m) => m.file !== confirmation.file)
      await page.goto(tokenLink(mail).toString())
      const form = page.getByRole("form", { name: "Reset password" })
      await expect(form).toBeVisible()
      await expectAccessible(page, testInfo, "reset password")
      await form.getByRole("button", { name: "Restore password" }).click()
      await expect(form.getByRole("alert").first()).toBeVisible()
      await expectAccessible(page, testInfo, "reset password errors")
    })

    test("e-mail confirmation from a real link: confirmed, then the spent link", async ({
      page,
      world,
    }, testInfo) => {
      const player = await newPlayer(world, "a11y-confirm")
      const link = tokenLink(await world.mailTo(player.email)).toString()
      // The message continues by itself after 3 s; axe takes longer: the page's clock holds it.
      const confirmed = page.getByRole("status").filter({ hasText: "Your email is confirmed" })
      await loadAndHoldWhenShown(page, () => page.goto(link), confirmed)
      const pageMs = await whileHeld(page, () => expectAccessible(page, testInfo, "confirm email confirmed"))
      // Still the confirmed state that was audited: its page time stayed below the 3 s it lasts.
      expect(pageMs).toBeLessThan(confirmContinueDelayMs)
      await expect(confirmed).toBeVisible()
      await page.clock.resume()
      await page.goto(link)
      await expect(dialog(page).getByRole("alert")).toBeVisible()
      await expectAccessible(page, testInfo, "confirm email invalid link")
    })

    test("profile area: general, verification and sessions tabs, their errors and dialog", async ({
      page,
      browser,
      world,
    }, testInfo) => {
      const player = await newPlayer(world, "a11y-profile")
      // A second device, so the sessions tab offers a revocation.
      const other = await browser.newContext({ baseURL: world.baseUrl })
      await signInPage(await other.newPage(), world, player.email, player.password)
      await other.close()
      await signInPage(page, world, player.email, player.password)

      await page.goto("/profile")
      const form = page.getByRole("form", { name: "Profile" })
      await expect(form.getByLabel("Email")).toBeVisible()
      await expect(form.getByRole("switch")).toBeVisible()
      await expectAccessible(page, testInfo, "profile general")
      await form.getByLabel("Phone").fill("12")
      await form.getByRole("button", { name: "Save" }).click()
      await expect(form.getByRole("alert").first()).toBeVisible()
      await expectAccessible(page, testInfo, "profile general errors")

      await page.goto("/profile/verification")
      await expect(page.getByText("Not uploaded").first()).toBeVisible()
      await expectAccessible(page, testInfo, "profile verification")
      await page
        .getByRole("region", { name: "Identity document" })
        .getByLabel(/Choose a file/)
        .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") })
      await expect(page.getByRole("alert").first()).toBeVisible()
      await expectAccessible(page, testInfo, "profile verification error")

      await page.goto("/profile/sessions")
      await expect(page.getByText("This device")).toBeVisible()
      await expectAccessible(page, testInfo, "profile sessions")
      await page
        .getByRole("button", { name: /^Sign out .*\(/ })
        .first()
        .click()
      await expect(page.getByRole("alertdialog")).toBeVisible()
      await expectAccessible(page, testInfo, "profile sessions revoke dialog")
    })

    test("profile area: security, responsible gaming and promo tabs, errors and dialog", async ({
      page,
      world,
    }, testInfo) => {
      const player = await newPlayer(world, "a11y-profile-2")
      await signInPage(page, world, player.email, player.password)
      await page.goto("/profile/security")
      const security = page.getByRole("form", { name: "Change password" })
      await expect(security).toBeVisible()
      await expectAccessible(page, testInfo, "profile security")
      await security.getByRole("button", { name: "Change password" }).click()
      await expect(security.getByRole("alert").first()).toBeVisible()
      await expectAccessible(page, testInfo, "profile security errors")

      await page.goto("/profile/responsible-gaming")
      await expect(page.getByRole("form", { name: "Limits" })).toBeVisible()
      await expectAccessible(page, testInfo, "profile responsible gaming")
      await page.getByRole("button", { name: "1 week" }).click()
      await expect(page.getByRole("alertdialog")).toBeVisible()
      await expectAccessible(page, testInfo, "profile self-exclusion dialog")
      await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click()

      await page.goto("/profile/promo")
      await expect(page.getByRole("switch")).toBeVisible()
      await expectAccessible(page, testInfo, "profile promo")
    })

    test("profile area for a visitor, and the unsubscribe page of a link that is not valid", async ({
      page,
    }, testInfo) => {
      await page.goto("/profile")
      await expect(page.getByRole("form", { name: "Log in" })).toBeVisible()
      await page.getByRole("form", { name: "Log in" }).press("Escape")
      await expect(page.getByText("Log in to see your account.")).toBeVisible()
      await expectAccessible(page, testInfo, "profile visitor")
      await page.goto("/unsubscribe/not-a-real-link")
      await expect(page.getByRole("alert")).toContainText("This unsubscribe link is not valid")
      await expectAccessible(page, testInfo, "unsubscribe invalid link")
    })

    test("terms", async ({ page }, testInfo) => {
      await page.goto("/terms")
      await expect(page.getByRole("heading", { level: 1, name: "Terms and Conditions" })).toBeVisible()
      await expectAccessible(page, testInfo, "terms")
    })

    test("404: an unknown route shows Page not found with a way home", async ({ page }, testInfo) => {
      const response = await page.goto("/no-such-page")
      // The SPA fallback serves index.html; the app says "not found" (docs/decisions.md).
      expect(response?.status()).toBe(200)
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible()
      await expect(page.getByRole("main").getByRole("link", { name: /lobby/i })).toHaveAttribute("href", "/")
      await expectAccessible(page, testInfo, "404")
    })

    test("500: a boot call fails and the error page shows", async ({ page }, testInfo) => {
      await page.route("**/cdn/currencies.json", (route) =>
        route.fulfill({ status: 500, contentType: "text/plain", body: "boom" }),
      )
      await page.goto("/")
      await expect(page.getByRole("heading", { level: 1, name: "500" })).toBeVisible()
      await expect(page.getByRole("link", { name: "Go Back" })).toBeVisible()
      await expectAccessible(page, testInfo, "500")
    })

    test.describe("from a restricted country", () => {
      test.use({ extraHTTPHeaders: { "X-Forwarded-For": RESTRICTED_IP } })

      test("the blocked page", async ({ page }, testInfo) => {
        await page.goto("/")
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Not available in/)
        await expectAccessible(page, testInfo, "blocked")
      })
    })

    test("statechart visualizer: chart, a selected state, a path being stepped", async ({
      page,
    }, testInfo) => {
      await page.goto("/statecharts?machine=login")
      await expect(page.locator('svg[data-chart="login"]')).toBeVisible()
      await expectAccessible(page, testInfo, "statecharts")
      await page.locator('svg[data-chart="login"] [data-state-id="login.submitting"]').first().click()
      await expect(page.getByTestId("state-details")).toContainText("submitting")
      await expectAccessible(page, testInfo, "statecharts state selected")
      await page.getByTestId("state-details").locator("[data-path-index]").first().click()
      await expect(page.getByTestId("stepper")).toBeVisible()
      await expectAccessible(page, testInfo, "statecharts path stepper")
    })
  })
}

// ── Keyboard only ───────────────────────────────────────────────────────────────────────────

const isButton = (name: string) => (f: Focused) =>
  (f.tag === "button" || f.role === "button") && f.name === name
const isField = (id: string) => (f: Focused) => f.tag === "input" && f.id === id
const isCaptcha = (f: Focused) => f.tag === "input" && f.type === "checkbox" && f.id.startsWith("altcha")

/** Space on the focused ALTCHA checkbox, then the proof of work runs in the page until verified. */
const solveCaptchaByKeyboard = async (page: Page, scope: Locator): Promise<void> => {
  await page.keyboard.press("Space")
  await expect(scope.locator("altcha-widget [data-state='verified']")).toHaveCount(1, { timeout: 20_000 })
}

for (const viewport of VIEWPORTS) {
  test.describe(`keyboard only at ${viewport.name} width`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } })

    test("log in: open with Enter, Escape returns focus, fields, captcha, submit", async ({
      page,
      world,
    }) => {
      const player = await newPlayer(world, "a11y-kbd-login")
      await openHome(page)

      await tabTo(page, isButton("Log in"), { what: "the header's Log in" })
      await page.keyboard.press("Enter")
      await expect(dialog(page)).toBeVisible()
      await expectFocus(page, (f) => f.inDialog && f.dialogTitle === "Log in", "the Log in dialog")

      // Escape closes the modal and gives the focus back to the button that opened it.
      await page.keyboard.press("Escape")
      await expect(dialog(page)).toHaveCount(0)
      await expectFocus(page, (f) => !f.inDialog && isButton("Log in")(f), "the header's Log in again")

      await page.keyboard.press("Enter")
      const form = page.getByRole("form", { name: "Log in" })
      await expect(form).toBeVisible()
      await expectFocus(page, (f) => f.inDialog, "the Log in dialog")

      await tabTo(page, isField("login-email"), { what: "Email" })
      await page.keyboard.type(player.email)
      await tabTo(page, isField("login-password"), { what: "Password" })
      await page.keyboard.type(player.password)
      await tabTo(page, isCaptcha, { what: "the captcha checkbox" })
      await solveCaptchaByKeyboard(page, form)
      await tabTo(page, (f) => f.tag === "button" && f.type === "submit", { what: "Log in (submit)" })
      await page.keyboard.press("Enter")

      // Signed in (at mobile width Sign out is in the header's menu).
      await expectSignedInHeader(page, viewport.width, 20_000)
      await expect(dialog(page)).toHaveCount(0)
    })

    test("register: fields, currency list, bonus switch, 18+, captcha, tutorial video and back", async ({
      page,
      world,
    }) => {
      const email = world.uniqueEmail("a11y-kbd-register")
      await openHome(page)

      await tabTo(page, isButton("Sign up"), { what: "the header's Sign up" })
      await page.keyboard.press("Enter")
      const form = page.getByRole("form", { name: "Sign up" })
      await expect(form).toBeVisible()
      await expectFocus(page, (f) => f.inDialog && f.dialogTitle === "Sign up", "the Sign up dialog")

      // The tutorial video opens from the form and gives the focus back to it when closed.
      await tabTo(page, isButton("Watch the tutorial video"), { what: "Watch the tutorial video" })
      await page.keyboard.press("Enter")
      await expect(dialog(page).getByRole("heading", { name: "How to play" })).toBeVisible()
      await expectFocus(page, (f) => f.inDialog && f.dialogTitle === "How to play", "the video dialog")
      await page.keyboard.press("Escape")
      await expect(form).toBeVisible()
      await expectFocus(page, isButton("Watch the tutorial video"), "Watch the tutorial video again")

      await tabTo(page, isField("register-full-name"), { what: "Full name", backwards: true })
      await page.keyboard.type("Ada Lovelace")
      await tabTo(page, isField("register-email"), { what: "Email" })
      await page.keyboard.type(email)
      await tabTo(page, isField("register-password"), { what: "Password" })
      await page.keyboard.type("analytical engine 1843")

      // Currency: Enter opens the list with the focus on the chosen option; arrows move; Enter picks.
      const trigger = form.getByRole("button", { name: "Currency" })
      await tabTo(page, (f) => f.tag === "button" && f.name.startsWith("Currency"), { what: "Currency" })
      await page.keyboard.press("Enter")
      await expect(trigger).toHaveAttribute("aria-expanded", "true")
      await expectFocus(page, (f) => f.role === "option", "an option of the currency list")
      // Escape closes the list only (not the dialog) and returns to the trigger.
      await page.keyboard.press("Escape")
      await expect(trigger).toHaveAttribute("aria-expanded", "false")
      await expect(form).toBeVisible()
      await expectFocus(page, (f) => f.name.startsWith("Currency"), "the currency trigger")
      await page.keyboard.press("Enter")
      await expectFocus(page, (f) => f.role === "option", "an option of the currency list")
      for (let i = 0; i < 20 && !(await focused(page))?.name.includes("USD"); i++) {
        await page.keyboard.press("ArrowDown")
        expectVisibleFocus(await focused(page))
      }
      await expectFocus(page, (f) => f.role === "option" && f.name.includes("USD"), "the USD option")
      await page.keyboard.press("Enter")
      await expect(trigger).toHaveAttribute("aria-expanded", "false")
      await expect(trigger).toContainText("USD")
      await expectFocus(page, (f) => f.name.startsWith("Currency"), "the currency trigger")

      // The bonus-code switch opens its field with Space, and closes it again.
      const bonus = await tabTo(page, (f) => f.role === "switch", { what: "the bonus code switch" })
      expect(bonus.name).toContain("bonus code")
      await page.keyboard.press("Space")
      await expect(form.getByLabel("Bonus code", { exact: true })).toBeVisible()
      await tabTo(page, isField("register-bonus-code"), { what: "Bonus code" })
      await tabTo(page, (f) => f.role === "switch", { what: "the bonus code switch", backwards: true })
      await page.keyboard.press("Space")
      await expect(form.getByLabel("Bonus code", { exact: true })).toHaveCount(0)

      await tabTo(page, (f) => f.role === "checkbox" && f.name.includes("18+"), { what: "the 18+ checkbox" })
      await page.keyboard.press("Space")
      await expect(form.getByRole("checkbox", { name: /18\+/ })).toHaveAttribute("aria-checked", "true")

      await tabTo(page, isCaptcha, { what: "the captcha checkbox" })
      await solveCaptchaByKeyboard(page, form)
      await tabTo(page, (f) => f.tag === "button" && f.type === "submit", { what: "Sign up (submit)" })
      await page.keyboard.press("Enter")

      await expectSignedInHeader(page, viewport.width, 20_000)
      await expect(dialog(page)).toHaveCount(0)
    })
  })
}
