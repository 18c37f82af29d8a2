/**
 * Bonuses in the browser, against the real server: a new player takes the welcome offer in the
 * profile's Bonuses tab, deposits 30 EUR by card, and finds 37.50 EUR of bonus money (125 %, spec
 * section 9) with its wagering of 375.00 EUR; forfeiting shows what is lost and asks first; a code
 * already used is refused with the server's reason.
 */
import { balance, depositThirtyByCard, newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { expect, test } from "./support/fixtures.ts"
import { dismissToasts } from "./support/ui.ts"

test("the welcome offer taken, paid with the first deposit, then forfeited", async ({ page, world }) => {
  test.setTimeout(120_000)
  await signedInThroughApi(page, world, newPlayer(world, "bonus"))

  await page.goto("/profile/bonuses")
  const offers = page
    .getByRole("list", { name: "Offers for your next deposit" })
    .getByRole("listitem")
    .filter({ hasText: "Welcome bonus" })
  await expect(offers).toContainText("125 % up to 50.00 EUR (+125 free spins)")
  await expect(offers).toContainText("wager it 10× within 30 days")
  await expect(page.getByText("No bonus is active. Take an offer below, then deposit.")).toBeVisible()
  await world.screenshot(page, "bonuses-01-offer")
  await offers.getByRole("button", { name: "Take offer" }).click()
  await expect(page.getByText("Offer taken: it is paid with your next qualifying deposit.")).toBeVisible()
  await expect(offers.getByText("Taken", { exact: true })).toBeVisible()
  await dismissToasts(page)

  await page.goto("/")
  await depositThirtyByCard(page)
  // The bonus arrives with the deposit's push: cash and bonus money apart in the header.
  await expect(balance(page)).toContainText("30.00 EUR + 37.50 bonus")
  await dismissToasts(page)

  await page.goto("/profile/bonuses")
  const card = page.getByRole("region", { name: "Welcome bonus" })
  await expect(card).toContainText("37.50 EUR bonus money of 37.50 EUR granted")
  await expect(card).toContainText("0.00 EUR of 375.00 EUR")
  await expect(card.getByRole("progressbar", { name: "Wagering progress" })).toHaveAttribute(
    "aria-valuenow",
    "0",
  )
  await expect(card).toContainText("5.00 EUR")
  await world.screenshot(page, "bonuses-02-active")

  await card.getByRole("button", { name: "Forfeit bonus" }).click()
  const dialog = page.getByRole("alertdialog", { name: "Forfeit this bonus?" })
  await expect(dialog).toContainText(
    "You lose 37.50 EUR of bonus money and what it has won. Your cash is not touched.",
  )
  await world.screenshot(page, "bonuses-03-forfeit")
  await dialog.getByRole("button", { name: "Forfeit bonus" }).click()
  await expect(page.getByText("The bonus was forfeited.")).toBeVisible()
  await expect(page.getByText("No bonus is active. Take an offer below, then deposit.")).toBeVisible()
  await expect(
    page.getByRole("list", { name: "History" }).getByRole("listitem").filter({ hasText: "Forfeited" }),
  ).toContainText("37.50 EUR")

  // The code of the offer already paid.
  await page.getByLabel("Bonus code").fill("WELCOME1")
  await page.getByRole("button", { name: "Use code" }).click()
  await expect(
    page.getByRole("alert").filter({ hasText: "You have already used this bonus code." }),
  ).toBeVisible()
})
