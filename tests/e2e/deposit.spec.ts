/**
 * Money in, in Chromium, against the real server and the payment sandbox beside it (its own port),
 * as a new player does it: register, open Deposit from the header, pick 30 EUR, choose Card, complete
 * the profile the card needs, and pay on the sandbox's card page inside the payment frame — with the first
 * gateway of the cascade down, so the flow moves on to the second and the `payment_config` cookie
 * marks the first 'Failed to process'. Then a declined card (the dialog says why; Try again pays), a
 * payment abandoned on the card page that expires, and a Skrill deposit. The frame closes
 * by itself (the server's push, or the fund poll) and the header's balance follows.
 *
 * Gateway rules are the sandbox's runtime rules (its control endpoint), reset to `up` after each
 * test. The file runs serially: a rule is server-wide, and the other tests use the same cascade.
 * Screenshots of each stage go to test-results/screenshots/deposit-*.png.
 */
import {
  balance,
  chooseAmount,
  chooseMethod,
  completeCardProfile,
  depositDialog,
  field,
  newPlayer,
  payByCard,
  paymentDialog,
  paymentPage,
  signedInThroughApi,
} from "./support/deposit.ts"
import { expect, test } from "./support/fixtures.ts"
import { paymentCookie, paymentSandboxUrl, setGatewayRule } from "./support/payments.ts"
import { signUpInPage } from "./support/ui.ts"

test.describe.configure({ mode: "serial" })

/** The default card cascade (server/config.ts defaultCardCascade): the first two. */
const FIRST_GATEWAY = "paystudio"
const SECOND_GATEWAY = "payweb"

test.afterEach(async () => {
  await setGatewayRule(FIRST_GATEWAY, "up")
})

test("a new player deposits 30 EUR by card: profile completed first, the first gateway down, the second pays, the header shows 30.00", async ({
  page,
  context,
  world,
}) => {
  // A whole journey (sign-up, profile, cascade, payment page, webhook): minutes on a busy machine.
  test.setTimeout(180_000)
  expect(await setGatewayRule(FIRST_GATEWAY, "down")).toBe("down")

  // ── Register through the header, as a new player ──
  const player = newPlayer(world, "card")
  await signUpInPage(page, player)
  await expect(balance(page)).toContainText("0.00")

  // ── Amount, method, profile completion ──
  const dialog = await chooseAmount(page, { world, prefix: "deposit-01" }, 30)
  await chooseMethod(dialog, "Card")
  await completeCardProfile(page, world)

  // ── The cascade: the first gateway refused (503), the second opened its page in the frame ──
  await expect(paymentDialog(page)).toBeVisible({ timeout: 20_000 })
  const frame = paymentDialog(page).locator('iframe[title="Payment page"]')
  // The sandbox's page, on the sandbox's own origin.
  await expect(frame).toHaveAttribute(
    "src",
    new RegExp(`^${paymentSandboxUrl()}/sandbox-pay/card/${SECOND_GATEWAY}/pay/`),
  )
  const cookie = await paymentCookie(context)
  expect(cookie?.tabs).toEqual({ [FIRST_GATEWAY]: "Failed to process" })
  expect(cookie?.depositAmount).toMatch(/^30(\.00)?$/)
  expect(cookie?.currency).toBe("EUR")

  // ── Pay with the approving test card; the frame closes and the balance is credited ──
  await payByCard(page, world, "4242 4242 4242 4242")
  await expect(paymentDialog(page)).toHaveCount(0, { timeout: 20_000 })
  await expect(page.getByText("Your deposit is credited", { exact: true }).first()).toBeVisible()
  await expect(balance(page)).toContainText("30.00")
  await world.screenshot(page, "deposit-05-credited")

  // The profile the card needed was saved on the way (read-only afterwards on the general tab).
  await page.goto("/profile")
  await expect(page.getByRole("form", { name: "Profile" }).getByLabel("City")).toHaveValue("Valletta")

  // ── The deposits tab: the credited card payment, through the gateway that took it ──
  await page
    .getByRole("navigation", { name: "Account sections" })
    .getByRole("link", { name: "Deposits", exact: true })
    .click()
  await expect(page).toHaveURL(/\/profile\/deposits$/)
  const history = page.getByRole("list", { name: "Deposits" })
  const credited = history.getByRole("listitem").filter({ hasText: `Card · ${SECOND_GATEWAY}` })
  await expect(credited).toContainText("30.00 EUR")
  await expect(credited).toContainText("Completed")
  await world.screenshot(page, "deposit-10-history")
  // A range with nothing in it says so.
  const range = page.getByRole("form", { name: "Deposits between" })
  await range.getByLabel("From").fill("2020-01-01")
  await range.getByLabel("To").fill("2020-01-31")
  await range.getByRole("button", { name: "Show" }).click()
  await expect(page.getByText("No deposits from 2020-01-01 to 2020-01-31.")).toBeVisible()
})

test("a declined card: the dialog says why and offers Try again; a good card then pays; the history keeps the reason", async ({
  page,
  world,
}) => {
  test.setTimeout(180_000)
  // On a phone's screen: the modal's steps are looked at there too.
  await page.setViewportSize({ width: 390, height: 844 })
  await signedInThroughApi(page, world, newPlayer(world, "declined"))
  // The signed-in header (balance, Deposit, account, Sign out) fits: no sideways scrolling.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  const dialog = await chooseAmount(page, { world, prefix: "deposit-mobile-01" }, 30)
  await chooseMethod(dialog, "Card")
  await completeCardProfile(page, undefined)

  await expect(paymentDialog(page)).toBeVisible({ timeout: 20_000 })
  await expect(paymentPage(page).getByLabel("Card number")).toBeVisible()
  await world.screenshot(page, "deposit-mobile-02-card-page")
  // The sandbox's "Insufficient funds" test card.
  await payByCard(page, undefined, "4000 0000 0000 9995")
  await expect(paymentDialog(page)).toHaveCount(0, { timeout: 20_000 })

  // The deposit dialog comes back with the reason in words and the two ways on.
  const declined = depositDialog(page)
  await expect(declined.getByText("Payment declined")).toBeVisible({ timeout: 20_000 })
  await expect(declined.getByText("Your bank declined the payment: insufficient funds.")).toBeVisible()
  await expect(declined.getByRole("button", { name: "Choose another method" })).toBeVisible()
  await world.screenshot(page, "deposit-06-declined")

  // Try again: the same card method and amount, a new payment — paid with the approving card.
  await declined.getByRole("button", { name: "Try again" }).click()
  await expect(paymentDialog(page)).toBeVisible({ timeout: 20_000 })
  await payByCard(page, undefined, "4242 4242 4242 4242")
  await expect(paymentDialog(page)).toHaveCount(0, { timeout: 20_000 })
  await expect(page.getByText("Your deposit is credited", { exact: true }).first()).toBeVisible()
  await expect(balance(page)).toContainText("30.00")

  // On the deposits tab (a phone's screen): the credited one, and the declined one with its reason.
  await page.goto("/profile/deposits")
  const rows = page.getByRole("list", { name: "Deposits" }).getByRole("listitem")
  await expect(rows).toHaveCount(2)
  await expect(rows.nth(0)).toContainText("Completed")
  await expect(rows.nth(1)).toContainText("Failed")
  await expect(rows.nth(1)).toContainText("Your bank declined the payment: insufficient funds.")
  await world.screenshot(page, "deposit-mobile-03-history")
})

test("a payment abandoned on the card page shows Started, then Expired once DEPOSIT_EXPIRY_MINUTES passed", async ({
  page,
  world,
}) => {
  const player = await signedInThroughApi(page, world, newPlayer(world, "abandoned"))
  const dialog = await chooseAmount(page, undefined, 30)
  await chooseMethod(dialog, "Card")
  await completeCardProfile(page, undefined)
  await expect(paymentPage(page).getByLabel("Card number")).toBeVisible({ timeout: 20_000 })
  // The player walks away from the card page.
  await paymentDialog(page).getByRole("button", { name: "Close", exact: true }).click()
  await expect(paymentDialog(page)).toHaveCount(0)

  await page.goto("/profile/deposits")
  const row = page.getByRole("list", { name: "Deposits" }).getByRole("listitem").first()
  await expect(row).toContainText("Started")
  // An hour and a minute later (the default DEPOSIT_EXPIRY_MINUTES is 60): the server's sweeper
  // (every DEPOSIT_SWEEP_SECONDS: 2 s for these tests) marks it expired.
  await world.sql(
    `UPDATE deposits SET created_at = now() - interval '61 minutes'
     WHERE user_id = (SELECT id FROM users WHERE email = $1) AND status = 'initiated'`,
    [player.email],
  )
  await expect(async () => {
    await page.reload()
    await expect(row).toContainText("Expired", { timeout: 5_000 })
  }).toPass({ timeout: 60_000, intervals: [1_000] })
  await world.screenshot(page, "deposit-11-expired")
})

test("a Skrill deposit approved on its page credits the balance", async ({ page, world }) => {
  await signedInThroughApi(page, world, newPlayer(world, "skrill"))
  const dialog = await chooseAmount(page, undefined, 75)
  await chooseMethod(dialog, "Skrill")

  // Skrill needs more than the card (spec section 5): gender and date of birth too.
  const form = dialog.getByRole("form", { name: "Profile" })
  await expect(form).toBeVisible()
  await field(form, "Date of birth").fill("1906-12-09")
  await field(form, "Gender").selectOption({ label: "Female" })
  await field(form, "Country").selectOption({ label: "Malta" })
  await field(form, "Address").fill("12 Republic Street")
  await field(form, "Postal code").fill("VLT1117")
  await field(form, "City").fill("Valletta")
  await world.screenshot(page, "deposit-07-skrill-profile")
  await form.getByRole("button", { name: "Save and continue" }).click()

  await expect(paymentDialog(page)).toBeVisible({ timeout: 20_000 })
  const skrill = paymentPage(page)
  await skrill.getByLabel("E-mail").fill("grace@wallet.example")
  await skrill.getByLabel("Password").fill("secret")
  await skrill.getByRole("button", { name: "Sign in" }).click()
  const approve = skrill.getByRole("button", { name: /^Approve / })
  await expect(approve).toBeVisible()
  await world.screenshot(page, "deposit-08-skrill-approve")
  await approve.click()

  await expect(paymentDialog(page)).toHaveCount(0, { timeout: 20_000 })
  await expect(balance(page)).toContainText("75.00")
  await world.screenshot(page, "deposit-09-skrill-credited")

  // The deposits tab (its address opened directly) lists it as Skrill, completed.
  await page.goto("/profile/deposits")
  const skrillDeposit = page.getByRole("list", { name: "Deposits" }).getByRole("listitem").first()
  await expect(skrillDeposit).toContainText("75.00 EUR")
  await expect(skrillDeposit).toContainText("Skrill")
  await expect(skrillDeposit).toContainText("Completed")
})
