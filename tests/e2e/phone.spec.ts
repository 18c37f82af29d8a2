/**
 * The shell on a phone (390×844 and 360×740), against the real server: the brand stays visible, the
 * header's menu offers Deposit, Cash out, Profile and Sign out and each reaches its place, and no
 * main screen scrolls sideways. Also the toasts (spec: "Toasts appear top-right for 5 seconds"): one
 * stack at the top right, two never overlap, each gone after about 5 s; and the focus a dialog gives
 * back to a button clicked with the mouse shows no focus ring.
 */
import type { Page } from "@playwright/test"
import { banner, depositDialog, newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { expect, test } from "./support/fixtures.ts"

const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 740 },
] as const

/** Every section of the account, by address (the spec's profile tabs). */
const PROFILE_PATHS = [
  "/profile",
  "/profile/deposits",
  "/profile/withdrawals",
  "/profile/crypto-deposits",
  "/profile/bets",
  "/profile/bonuses",
  "/profile/loyalty",
  "/profile/verification",
  "/profile/sessions",
  "/profile/security",
  "/profile/responsible-gaming",
  "/profile/promo",
] as const

const cashoutDialog = (page: Page) => page.getByRole("dialog", { name: "Cash out" })
const menuButton = (page: Page) => banner(page).getByRole("button", { name: "Menu" })
const menu = (page: Page) => page.locator("#account-menu")

/** Nothing wider than the screen: the page never scrolls sideways. */
const expectNoSidewaysScroll = async (page: Page, where: string): Promise<void> => {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }))
  expect(scrollWidth, `${where}: ${scrollWidth} px wide on a ${innerWidth} px screen`).toBeLessThanOrEqual(
    innerWidth,
  )
}

const openMenu = async (page: Page) => {
  await menuButton(page).click()
  await expect(menu(page)).toBeVisible()
  return menu(page)
}

for (const phone of PHONES) {
  test.describe(`phone ${phone.width}×${phone.height}`, () => {
    test.use({ viewport: phone })

    test("the brand shows; the menu offers Deposit, Cash out, Profile and Sign out, each reaching its place", async ({
      page,
      world,
    }) => {
      await signedInThroughApi(page, world, newPlayer(world, `phone-menu-${phone.width}`))
      const brand = banner(page).getByRole("link", { name: "Casino" })
      await expect(brand).toBeVisible()
      await expect(brand).toContainText("Casino")
      await expectNoSidewaysScroll(page, "lobby")

      const items = await openMenu(page)
      for (const name of ["Deposit", "Cash out", "Profile", "Sign out"]) {
        await expect(items.getByRole("button", { name, exact: true })).toBeVisible()
      }
      await expectNoSidewaysScroll(page, "open menu")
      // Escape closes it and gives the focus back to the menu button.
      await page.keyboard.press("Escape")
      await expect(menu(page)).toBeHidden()
      await expect(menuButton(page)).toBeFocused()

      await (await openMenu(page)).getByRole("button", { name: "Deposit", exact: true }).click()
      await expect(depositDialog(page)).toBeVisible()
      await expect(menu(page)).toBeHidden()
      await expectNoSidewaysScroll(page, "deposit dialog")
      await page.keyboard.press("Escape")
      await expect(depositDialog(page)).toHaveCount(0)
      // The focus is back where the dialog came from: the menu's button.
      await expect(menuButton(page)).toBeFocused()

      await (await openMenu(page)).getByRole("button", { name: "Cash out", exact: true }).click()
      await expect(cashoutDialog(page)).toBeVisible()
      await expectNoSidewaysScroll(page, "cash-out dialog")
      await page.keyboard.press("Escape")
      await expect(cashoutDialog(page)).toHaveCount(0)

      await (await openMenu(page)).getByRole("button", { name: "Profile", exact: true }).click()
      await expect(page).toHaveURL(/\/profile$/)
      await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible()
      await expect(menu(page)).toBeHidden()

      await (await openMenu(page)).getByRole("button", { name: "Sign out", exact: true }).click()
      await expect(banner(page).getByRole("button", { name: "Log in" })).toBeVisible()
      await expect(menuButton(page)).toHaveCount(0)
    })

    test("no screen scrolls sideways: lobby, every profile section, a game page", async ({ page, world }) => {
      await signedInThroughApi(page, world, newPlayer(world, `phone-fit-${phone.width}`))
      const game = page.locator('main a[href^="/game/"]').first()
      await expect(game).toBeVisible({ timeout: 15_000 })
      await expectNoSidewaysScroll(page, "lobby with games")
      await game.click()
      await expect(page).toHaveURL(/\/game\//)
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 15_000 })
      await expectNoSidewaysScroll(page, "game page")
      for (const path of PROFILE_PATHS) {
        await page.goto(path)
        await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible()
        await expect(
          page.getByRole("navigation", { name: "Account sections" }).locator('[aria-current="page"]'),
        ).toBeVisible()
        // The section has drawn (no spinner left).
        await expect(page.locator("main [aria-busy='true'], main .spinner")).toHaveCount(0, {
          timeout: 15_000,
        })
        await expectNoSidewaysScroll(page, path)
      }
    })

    test("a visitor's header and the log-in and sign-up dialogs fit", async ({ page }) => {
      await page.goto("/")
      await expect(banner(page).getByRole("link", { name: "Casino" })).toBeVisible()
      await expectNoSidewaysScroll(page, "lobby, visitor")
      await banner(page).getByRole("button", { name: "Log in" }).click()
      await expect(page.getByRole("dialog")).toBeVisible()
      await expectNoSidewaysScroll(page, "log-in dialog")
      await page.keyboard.press("Escape")
      await expect(page.getByRole("dialog")).toHaveCount(0)
      await banner(page).getByRole("button", { name: "Sign up" }).click()
      await expect(page.getByRole("dialog")).toBeVisible()
      await expectNoSidewaysScroll(page, "sign-up dialog")
    })
  })
}

test.describe("desktop 1280×800", () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test("the header has every action as a button and no menu; the profile uses the width", async ({
    page,
    world,
  }) => {
    await signedInThroughApi(page, world, newPlayer(world, "desk-header"))
    for (const name of ["Deposit", "Cash out", "Sign out"]) {
      await expect(banner(page).getByRole("button", { name, exact: true })).toBeVisible()
    }
    await expect(menuButton(page)).toBeHidden()
    await page.goto("/profile/deposits")
    const section = page.getByRole("region", { name: "Your account" })
    await expect(section).toBeVisible()
    const box = await section.boundingBox()
    expect(box?.width ?? 0).toBeGreaterThan(1100)
    // The sections in one row.
    const tabs = page.getByRole("navigation", { name: "Account sections" }).getByRole("link")
    const first = await tabs.first().boundingBox()
    const last = await tabs.last().boundingBox()
    expect(Math.abs((first?.y ?? 0) - (last?.y ?? 1))).toBeLessThan(2)
  })

  test("toasts: top right, one stack without overlap, each gone after about 5 s", async ({ page, world }) => {
    await signedInThroughApi(page, world, newPlayer(world, "toasts"))
    await page.goto("/profile/promo")
    const promo = page.getByRole("switch")
    await expect(promo).toBeEnabled()
    await promo.click()
    await expect(promo).toBeEnabled()
    await promo.click()
    const subscribed = page.getByText("You are subscribed", { exact: true })
    const unsubscribed = page.getByText("You are unsubscribed", { exact: true })
    await expect(subscribed).toBeVisible()
    await expect(unsubscribed).toBeVisible()
    const toastBox = async (text: string) => {
      const box = await page.locator("[data-sonner-toast]").filter({ hasText: text }).boundingBox()
      if (box === null) throw new Error(`the toast "${text}" has no box`)
      return box
    }
    const boxes = async () =>
      [await toastBox("You are subscribed"), await toastBox("You are unsubscribed")] as const
    // The second toast slides in: the boxes are read once the stack has settled (a stack that
    // piles toasts on top of each other never settles apart).
    await expect
      .poll(
        async () => {
          const [first, second] = await boxes()
          return (
            first.x < second.x + second.width &&
            second.x < first.x + first.width &&
            first.y < second.y + second.height &&
            second.y < first.y + first.height
          )
        },
        { message: "the two toasts overlap", timeout: 3_000 },
      )
      .toBe(false)
    // Top right: the right edges near the screen's, the tops in the upper part of the screen.
    for (const box of await boxes()) {
      expect(1280 - (box.x + box.width)).toBeLessThan(40)
      expect(box.y).toBeLessThan(300)
    }
    // 5 s: still there after the clicks, gone well before 10 s.
    const shownAt = Date.now()
    await expect(unsubscribed).toBeHidden({ timeout: 9_000 })
    expect(Date.now() - shownAt).toBeGreaterThan(2_500)
  })

  test("a dialog opened with the mouse gives the focus back to its button without a focus ring", async ({
    page,
    world,
  }) => {
    await signedInThroughApi(page, world, newPlayer(world, "focus-ring"))
    const deposit = banner(page).getByRole("button", { name: "Deposit", exact: true })
    await deposit.click()
    await expect(depositDialog(page)).toBeVisible()
    // Keys pressed inside the dialog would otherwise make Chromium draw the ring on the way back.
    await page.keyboard.press("Tab")
    await page.keyboard.press("Escape")
    await expect(depositDialog(page)).toHaveCount(0)
    await expect(deposit).toBeFocused()
    const outline = await deposit.evaluate((el) => getComputedStyle(el).outlineStyle)
    expect(outline).toBe("none")
  })
})
