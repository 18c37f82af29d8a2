/**
 * An operator's API tokens in Chromium against the real server: a payments officer makes one on
 * the API tokens screen (shown once), a script uses it (the officer's role, nothing more), the
 * screen lists its last use, and ending it there stops it. axe-core at desktop and phone width.
 */
import { expect } from "@playwright/test"
import { expectAccessible, VIEWPORTS } from "./support/a11y.ts"
import { addOperatorByCommand, signInToBackoffice } from "./support/backoffice.ts"
import { test } from "./support/fixtures.ts"

for (const viewport of VIEWPORTS) {
  test(`a token made on the screen works as its operator until it is ended there (${viewport.name})`, async ({
    page,
    world,
  }, testInfo) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height })
    const officer = await addOperatorByCommand(world, "payments", `Tokens ${viewport.name}`)
    await signInToBackoffice(page, officer, "/backoffice/tokens")
    await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible()
    await expect(page.getByText("No token yet.")).toBeVisible()

    await page.getByLabel("What it is for").fill("nightly payouts report")
    await page.getByLabel("Days").fill("30")
    await page.getByRole("button", { name: "Create token" }).click()
    const shown = page.getByRole("status").filter({ hasText: "it is shown only this once" })
    await expect(shown).toBeVisible()
    const token = await shown.getByLabel("Token").inputValue()
    expect(token).toMatch(/^bo_[A-Za-z0-9_-]{43}$/)
    await expectAccessible(page, testInfo, `backoffice tokens ${viewport.name}`)
    await world.screenshot(page, `backoffice-tokens-${viewport.name}`)

    // A script: no cookie, the token only. The officer's role, nothing more.
    const bearer = { authorization: `Bearer ${token}` }
    const me = await page.request.get("/api/backoffice/v1/me", { headers: bearer })
    expect(me.status()).toBe(200)
    expect(((await me.json()) as { operator: { email: string } }).operator.email).toBe(officer.email)
    expect((await page.request.get("/api/backoffice/v1/withdrawals", { headers: bearer })).status()).toBe(200)
    expect((await page.request.get("/api/backoffice/v1/operators", { headers: bearer })).status()).toBe(403)

    await page.getByRole("button", { name: "Done, hide it" }).click()
    await expect(shown).toBeHidden()
    const row = page.getByRole("row", { name: /nightly payouts report/ })
    await expect(row).toBeVisible()
    // The list says when and from where it was last used (the calls above).
    await page.getByRole("button", { name: "Refresh" }).click()
    await expect(row).not.toContainText("Never")

    await row.getByRole("button", { name: "End “nightly payouts report”" }).click()
    await expect(row.getByText(/^Ended /)).toBeVisible()
    expect((await page.request.get("/api/backoffice/v1/me", { headers: bearer })).status()).toBe(401)
  })
}
