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
  const close = page
    .getByRole("region", { name: /Notifications/ })
    .getByRole("button", { name: "Close toast" })
  for (let i = await close.count(); i > 0; i--) {
    await close.first().click()
  }
  await expect(close).toHaveCount(0)
}
