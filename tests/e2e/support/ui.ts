/** Page helpers shared by the e2e specs and the path bindings. */
import { expect, type Locator, type Page } from "@playwright/test"

/**
 * Solves the real ALTCHA widget inside `scope`: clicks its checkbox (forced: the input is styled
 * over) and waits until the widget reports `verified` after the proof of work in the browser.
 */
export const solveCaptchaWidget = async (scope: Locator): Promise<void> => {
  const widget = scope.locator("altcha-widget")
  await expect(widget).toHaveCount(1)
  await widget.locator('input[type="checkbox"]').click({ force: true })
  await expect(widget.locator('[data-state="verified"]')).toHaveCount(1, { timeout: 20_000 })
}

/** What the widget does when its solution expires: back to unverified (the flow drops the payload). */
export const resetCaptchaWidget = async (scope: Locator): Promise<void> => {
  const widget = scope.locator("altcha-widget")
  await widget.evaluate((element) => {
    if (!("reset" in element) || typeof element.reset !== "function") {
      throw new Error("the altcha widget has no reset()")
    }
    element.reset()
  })
  await expect(widget.locator('[data-state="verified"]')).toHaveCount(0)
}

/**
 * Closes every toast (their close buttons). Toasts sit top-right, over the header's buttons, and
 * hovering one pauses its timer: a player closes it before reaching the button beneath.
 */
export const dismissToasts = async (page: Page): Promise<void> => {
  // A toast can leave by itself (its timer, a re-render) between being found and being clicked:
  // each attempt is short and the whole is retried until no close button is left.
  const close = page
    .getByRole("region", { name: /Notifications/ })
    .getByRole("button", { name: "Close toast" })
  await expect(async () => {
    if ((await close.count()) > 0) await close.first().click({ timeout: 2_000 })
    await expect(close).toHaveCount(0, { timeout: 1_000 })
  }).toPass({ timeout: 30_000 })
}

export interface PlayerInPage {
  readonly fullName: string
  readonly email: string
  readonly password: string
  readonly currency: string
}

/** Fills the open "Sign up" form as a player would (name, e-mail, password, currency, 18+, captcha). */
export const fillRegistration = async (page: Page, player: PlayerInPage): Promise<void> => {
  const form = page.getByRole("form", { name: "Sign up" })
  await form.getByLabel("Full name").fill(player.fullName)
  await form.getByLabel("Email").fill(player.email)
  await form.getByLabel("Password", { exact: true }).fill(player.password)
  await form.getByRole("button", { name: "Currency" }).click()
  await form.getByRole("option", { name: new RegExp(`\\b${player.currency}\\b`) }).click()
  await expect(form.getByRole("button", { name: "Currency" })).toContainText(player.currency)
  await form.getByRole("checkbox", { name: /18\+/ }).click()
  await solveCaptchaWidget(form)
}

/** A new player from the home page: the header's Sign up, the form, signed in (name in the header). */
export const signUpInPage = async (page: Page, player: PlayerInPage): Promise<void> => {
  await page.goto("/")
  await page.getByRole("banner").getByRole("button", { name: "Sign up" }).click()
  await fillRegistration(page, player)
  await page.getByRole("form", { name: "Sign up" }).getByRole("button", { name: "Sign up" }).click()
  await expect(page.getByRole("banner").getByText(player.fullName)).toBeVisible({ timeout: 20_000 })
  await dismissToasts(page)
}
