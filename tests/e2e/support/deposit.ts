/**
 * The money-in steps a player takes in the browser, shared by the deposit spec and the games
 * journeys: the header's balance and Deposit, the deposit modal's amount, method and profile
 * steps, and the sandbox's card page inside the payment frame.
 */
import type { Locator, Page } from "@playwright/test"
import { API } from "../bindings/common.ts"
import { type NewPlayer, registerPlayer, solvedCaptcha } from "./api.ts"
import { expect, type World } from "./fixtures.ts"

export const banner = (page: Page): Locator => page.getByRole("banner")
export const depositDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Deposit" })
export const paymentDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Payment" })
export const paymentPage = (page: Page) => paymentDialog(page).frameLocator('iframe[title="Payment page"]')
export const balance = (page: Page): Locator => banner(page).getByRole("button", { name: /^Balance:/ })

/** A new EUR player (a password that passes the rules), with an e-mail unique to the run. */
export const newPlayer = (world: World, tag: string, fullName = "Grace Hopper"): NewPlayer => ({
  fullName,
  email: world.uniqueEmail(tag),
  password: "compiler cobol 1959",
  currency: "EUR",
})

/**
 * A player registered through the API and signed in from the page's cookie jar, for tests about
 * what comes after registration; the home page loaded with the empty balance in the header.
 */
export const signedInThroughApi = async (page: Page, world: World, player: NewPlayer): Promise<NewPlayer> => {
  await registerPlayer(world.baseUrl, player)
  const response = await page.request.post(`${world.baseUrl}${API}/signin`, {
    data: { email: player.email, password: player.password, captcha: await solvedCaptcha(world.baseUrl) },
    headers: { origin: world.baseUrl },
  })
  expect(response.status()).toBe(200)
  await page.goto("/")
  await expect(balance(page)).toContainText("0.00")
  return player
}

/**
 * A profile field by its label; a field the method needs is announced as "<label>, missing", the
 * phone's label carries its (aria-hidden) asterisk.
 */
export const field = (form: Locator, label: string): Locator =>
  form.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}[\\s*]*(,\\s*missing)?$`))

/** Screenshots `<prefix>-amount` and `<prefix>-methods` when a world and a prefix are given. */
export interface Shots {
  readonly world: World
  readonly prefix: string
}

/** Deposit from the header → a quick amount → Play with: the method list. */
export const chooseAmount = async (
  page: Page,
  shots: Shots | undefined,
  euros: 30 | 75 | 100,
): Promise<Locator> => {
  await banner(page).getByRole("button", { name: "Deposit", exact: true }).click()
  const dialog = depositDialog(page)
  const form = dialog.getByRole("form", { name: "Deposit amount" })
  await form.getByRole("button", { name: `${euros} EUR` }).click()
  await expect(field(form, "Amount")).toHaveValue(new RegExp(`^${euros}(\\.00)?$`))
  await expect(field(form, "Currency")).toHaveValue("EUR")
  const play = form.getByRole("button", { name: "Play with" })
  await expect(play).toBeEnabled()
  await expect(form.getByRole("button", { name: `${euros} EUR` })).toHaveAttribute("aria-pressed", "true")
  if (shots !== undefined) await shots.world.screenshot(page, `${shots.prefix}-amount`)
  await play.click()
  await expect(dialog.getByRole("list", { name: "Payment methods" })).toBeVisible()
  if (shots !== undefined) await shots.world.screenshot(page, `${shots.prefix}-methods`)
  return dialog
}

export const chooseMethod = async (dialog: Locator, name: "Card" | "Skrill"): Promise<void> => {
  await dialog
    .getByRole("list", { name: "Payment methods" })
    .getByRole("button", { name: new RegExp(`^${name}`) })
    .click()
}

/** The profile-completion step with the fields the card needs (spec section 5). */
export const completeCardProfile = async (page: Page, world: World | undefined): Promise<void> => {
  const form = depositDialog(page).getByRole("form", { name: "Profile" })
  await expect(form).toBeVisible()
  // Exactly the card's missing fields: nothing the card does not need.
  await expect(field(form, "Date of birth")).toHaveCount(0)
  await field(form, "Country").selectOption({ label: "Malta" })
  await field(form, "Address").fill("12 Republic Street")
  await field(form, "Postal code").fill("VLT1117")
  await field(form, "City").fill("Valletta")
  await field(form, "State / region").fill("Valletta")
  await field(form, "Calling code").selectOption({ label: "+356 Malta" })
  await field(form, "Phone").fill("2123 4567")
  if (world !== undefined) await world.screenshot(page, "deposit-03-profile-completion")
  await form.getByRole("button", { name: "Save and continue" }).click()
}

/** The sandbox's card page inside the frame: the test card, a future expiry, any CVC, then Pay. */
export const payByCard = async (page: Page, world: World | undefined, number: string): Promise<void> => {
  const card = paymentPage(page)
  await expect(card.getByLabel("Card number")).toBeVisible()
  // On a busy machine the card page's script can start after a field was typed and reset it: the
  // fields are typed until they all hold their values.
  await expect(async () => {
    await card.getByLabel("Name on the card").fill("Grace Hopper")
    await card.getByLabel("Card number").fill(number)
    await card.getByLabel("Expiry (MM/YY)").fill("12/39")
    await card.getByLabel("Security code (CVC)").fill("123")
    await expect(card.getByLabel("Name on the card")).toHaveValue("Grace Hopper", { timeout: 1000 })
    await expect(card.getByLabel("Card number")).toHaveValue(/\d{4}/, { timeout: 1000 })
    await expect(card.getByLabel("Expiry (MM/YY)")).toHaveValue(/\d/, { timeout: 1000 })
  }).toPass({ timeout: 20_000 })
  if (world !== undefined) await world.screenshot(page, "deposit-04-card-page")
  await card.getByRole("button", { name: /^Pay / }).click()
}

/** A signed-in player's first card deposit of 30 EUR, the approving test card: the header shows 30.00. */
/** From the open amount form: "Play with", the card method, the profile, the approved test card. */
export const playWithCard = async (page: Page, form: Locator): Promise<void> => {
  await form.getByRole("button", { name: "Play with" }).click()
  await chooseMethod(depositDialog(page), "Card")
  await completeCardProfile(page, undefined)
  await expect(paymentDialog(page)).toBeVisible({ timeout: 20_000 })
  await payByCard(page, undefined, "4242 4242 4242 4242")
  await expect(paymentDialog(page)).toHaveCount(0, { timeout: 20_000 })
}

export const depositThirtyByCard = async (page: Page): Promise<void> => {
  const dialog = await chooseAmount(page, undefined, 30)
  await chooseMethod(dialog, "Card")
  await completeCardProfile(page, undefined)
  await expect(paymentDialog(page)).toBeVisible({ timeout: 20_000 })
  await payByCard(page, undefined, "4242 4242 4242 4242")
  await expect(paymentDialog(page)).toHaveCount(0, { timeout: 20_000 })
  await expect(balance(page)).toContainText("30.00")
}

/** The welcome offer taken in the open Bonuses tab (the deposit step then preselects it). */
export const takeWelcomeOffer = async (page: Page): Promise<void> => {
  await page
    .getByRole("list", { name: "Offers for your next deposit" })
    .getByRole("listitem")
    .filter({ hasText: "Welcome bonus" })
    .getByRole("button", { name: "Take offer" })
    .click()
  await expect(page.getByText("Offer taken: the deposit step adds it to your next deposit.")).toBeVisible()
}

/** The welcome offer taken in the Bonuses tab, then a first deposit of 30 EUR: 37.50 EUR of bonus money. */
export const welcomeBonusDeposit = async (page: Page): Promise<void> => {
  await page.goto("/profile/bonuses")
  await takeWelcomeOffer(page)
  await page.goto("/")
  await depositThirtyByCard(page)
  await expect(balance(page)).toContainText("30.00 EUR + 37.50 bonus")
}
