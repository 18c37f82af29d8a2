/**
 * Bonuses in the browser, against the real server: a new player takes the welcome offer in the
 * profile's Bonuses tab, deposits 30 EUR by card, and finds 37.50 EUR of bonus money (125 %, spec
 * section 9) with its wagering of 375.00 EUR; forfeiting shows what is lost and asks first; a code
 * already used is refused with the server's reason. The deposit step checks a code as it is typed;
 * the 125 free spins are played in the game; an operator's bonus wagered once converts to cash; the
 * welcome banner's 125 spins, granted on joining, win before any deposit and are unlocked by the
 * first deposit's bonus (with its 25 % extra).
 */

import { randomBytes } from "node:crypto"
import type { Locator, Page } from "@playwright/test"
import { tokenOf } from "./support/backoffice.ts"
import {
  balance,
  banner,
  depositDialog,
  depositThirtyByCard,
  field,
  newPlayer,
  playWithCard,
  signedInThroughApi,
  takeWelcomeOffer,
  welcomeBonusDeposit,
} from "./support/deposit.ts"
import { expect, test } from "./support/fixtures.ts"
import { dismissToasts, fillRegistration } from "./support/ui.ts"

/**
 * From a card of the Bonuses tab to the game its spins are for, in real money: the studio's page
 * shows the grant ("Free spins: 125 of 125 left", "Bet 0.20 EUR — free"). The game's frame, its
 * banner and its Spin button.
 */
const openFreeSpins = async (card: Locator, page: Page, game: { id: string; name: string; bet: string }) => {
  await card.getByRole("link", { name: game.name }).click()
  await expect(page).toHaveURL(new RegExp(`/game/${game.id}$`))
  await page.getByRole("button", { name: "Real money" }).click()
  const frame = page.frameLocator(".game__frame")
  const free = frame.locator("#free")
  await expect(free).toHaveText("Free spins: 125 of 125 left")
  await expect(frame.getByText(`Bet ${game.bet} EUR — free`)).toBeVisible()
  return { free, spin: frame.getByRole("button", { name: "Spin", exact: true }) }
}

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
  await expect(page.getByText("Offer taken: the deposit step adds it to your next deposit.")).toBeVisible()
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

test("the deposit step shows this deposit's bonus with its terms; taken there, the deposit pays it", async ({
  page,
  world,
}) => {
  test.setTimeout(120_000)
  await signedInThroughApi(page, world, newPlayer(world, "bonus-deposit"))
  await banner(page).getByRole("button", { name: "Deposit", exact: true }).click()
  const dialog = depositDialog(page)
  const form = dialog.getByRole("form", { name: "Deposit amount" })
  await form.getByRole("button", { name: "30 EUR" }).click()
  await expect(
    form.getByText("This deposit gets 125% bonus + 125 free spins (up to 8,000 EUR)"),
  ).toBeVisible()
  // A typed code is checked as it is typed, with the server's reason.
  await form.getByText("I have a bonus code").click()
  await form.getByRole("textbox", { name: "Bonus code" }).fill("NOPE1")
  await expect(form.getByText("This bonus code does not exist.")).toBeVisible()
  await form.getByRole("textbox", { name: "Bonus code" }).fill("")
  await expect(form.getByText("This bonus code does not exist.")).toHaveCount(0)
  await form.getByText("I have a bonus code").click()
  // Never taken for the player: "No bonus" until the player takes it.
  await expect(form.getByRole("radio", { name: "No bonus" })).toBeChecked()
  const take = form.getByRole("radio", { name: /^Take the bonus/ })
  await expect(take).toHaveAccessibleName(
    "Take the bonus (wager it 10× within 30 days, bets up to 5.00 EUR while it is active)",
  )
  await take.check()
  await world.screenshot(page, "bonuses-04-deposit-choice")
  await playWithCard(page, form)
  await expect(balance(page)).toContainText("30.00 EUR + 37.50 bonus")
})

test("the welcome deposit's 125 free spins: granted to the game, played there, counted in the Bonuses tab", async ({
  page,
  world,
}) => {
  test.setTimeout(180_000)
  const player = newPlayer(world, "free-spins")
  await signedInThroughApi(page, world, player)
  await welcomeBonusDeposit(page)
  await dismissToasts(page)
  // The grant reaches the studio through the casino's outbox (within seconds).
  await expect
    .poll(
      async () =>
        (
          await world.sql<{ status: string }>(
            "SELECT f.status FROM free_round_grants f JOIN users u ON u.id = f.user_id WHERE u.email = $1 AND f.game_id = 'aurora-vault'",
            [player.email],
          )
        )[0]?.status,
      { timeout: 30_000 },
    )
    .toBe("active")

  await page.goto("/profile/bonuses")
  const card = page.getByRole("region", { name: "Welcome bonus" })
  await expect(card).toContainText("Free spins: 125 of 125 left at 0.20 EUR in Aurora Vault")
  const { free, spin } = await openFreeSpins(card, page, {
    id: "aurora-vault",
    name: "Aurora Vault",
    bet: "0.20",
  })
  for (const left of [124, 123, 122]) {
    await spin.click()
    await expect(free).toHaveText(`Free spins: ${left} of 125 left`)
    await expect(spin).toBeEnabled()
  }
  await world.screenshot(page, "bonuses-05-free-spins")
  // No cash was bet: the header's cash is still 30.00 EUR (what the spins won is bonus money).
  await expect(balance(page)).toContainText("30.00 EUR")

  await page.goto("/profile/bonuses")
  await expect(page.getByRole("region", { name: "Welcome bonus" })).toContainText(
    "Free spins: 122 of 125 left",
  )
})

test("an operator's quick bonus: its code checked as typed, paid with the deposit, wagered on a slot until it converts", async ({
  page,
  world,
}) => {
  test.setTimeout(180_000)
  const tag = randomBytes(3).toString("hex").toUpperCase()
  const code = `QUICK${tag}`
  // 100 % of the deposit, wagered once: 30.00 EUR of slot bets converts it. A marketing officer's
  // token creates it through the back-office API.
  const marketing = await tokenOf(world, "marketing")
  const created = await marketing.call("POST", "/settings/promotions", {
    id: `e2e-quick-${tag.toLowerCase()}`,
    kind: "deposit_bonus",
    name: "Quick bonus",
    code,
    bands: ["above:100:0"],
    maxBonusEur: "100",
    wagering: "1",
    maxBetEur: "5",
    validDays: "7",
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  await signedInThroughApi(page, world, newPlayer(world, "quick-bonus"))
  await banner(page).getByRole("button", { name: "Deposit", exact: true }).click()
  const dialog = depositDialog(page)
  const form = dialog.getByRole("form", { name: "Deposit amount" })
  await form.getByRole("button", { name: "30 EUR" }).click()
  await form.getByText("I have a bonus code").click()
  await form.getByRole("textbox", { name: "Bonus code" }).fill(code.toLowerCase())
  await expect(form.getByText(`✓ ${code}: Quick bonus: 100 %`)).toBeVisible()
  await playWithCard(page, form)
  await expect(balance(page)).toContainText("30.00 EUR + 30.00 bonus")
  await dismissToasts(page)

  await page.goto("/game/fjord-fortunes")
  await page.getByRole("button", { name: "Real money" }).click()
  const game = page.frameLocator(".game__frame")
  await game.getByLabel("Bet (EUR)").fill("5.00")
  const spin = game.getByRole("button", { name: "Spin", exact: true })
  // Six bets of 5.00 EUR: 30.00 EUR wagered (slots count 100 %), the wagering met on the sixth.
  for (let round = 1; round <= 6; round++) {
    await spin.click()
    await expect(game.locator("#nonce")).toHaveText(String(round))
    await expect(spin).toBeEnabled()
  }
  await page.goto("/profile/bonuses")
  const history = page.getByRole("list", { name: "History" }).getByRole("listitem")
  await expect(history.filter({ hasText: "Quick bonus" })).toContainText("Converted to cash")
  await expect(page.getByText("No bonus is active. Take an offer below, then deposit.")).toBeVisible()
  // What the bonus money had become is cash now: no bonus in the header.
  await expect(balance(page)).not.toContainText("bonus")
  await world.screenshot(page, "bonuses-06-converted")
})

/** Minor units of EUR as the app writes them ("3.40"). */
const eurText = (cents: bigint) => `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`

test("the welcome banner's 125 free spins: played before any deposit, their winnings kept, unlocked by the first deposit's bonus", async ({
  page,
  world,
}) => {
  test.setTimeout(240_000)
  const player = newPlayer(world, "welcome-spins")
  await signedInThroughApi(page, world, player)
  const grant = async () =>
    (
      await world.sql<{ status: string; won: string; played: number }>(
        `SELECT f.status, f.won::text AS won, f.played FROM free_round_grants f JOIN users u ON u.id = f.user_id
         WHERE u.email = $1 AND f.game_id = 'viking-voyage'`,
        [player.email],
      )
    )[0]
  // Granted on joining; the studio has it within seconds (the casino's outbox).
  await expect.poll(async () => (await grant())?.status, { timeout: 30_000 }).toBe("active")

  await page.goto("/profile/bonuses")
  const card = page.getByRole("region", { name: "Welcome free spins" })
  await expect(card).toContainText("Free spins: 125 of 125 left at 0.10 EUR in Viking Voyage")
  await expect(card).toContainText("0.00 EUR won so far, kept for you")
  await expect(card).toContainText(
    "Deposit 20.00 EUR or more and take a bonus to unlock what they win, with an extra 25 % of that deposit as bonus money (up to 100.00 EUR in all)",
  )
  await world.screenshot(page, "bonuses-07-welcome-spins")

  // Played in the game until one spin wins (the outcome is the provably fair draw: not ours to pick).
  const { free, spin } = await openFreeSpins(card, page, {
    id: "viking-voyage",
    name: "Viking Voyage",
    bet: "0.10",
  })
  let won = 0n
  for (let left = 124; left >= 65 && won === 0n; left--) {
    await spin.click()
    await expect(free).toHaveText(`Free spins: ${left} of 125 left`)
    await expect(spin).toBeEnabled()
    await expect.poll(async () => (await grant())?.played, { timeout: 20_000 }).toBe(125 - left)
    won = BigInt((await grant())?.won ?? "0")
  }
  expect(won).toBeGreaterThan(0n)
  // Neither cash nor bonus money: the header shows no bonus, the cash is untouched.
  await expect(balance(page)).toContainText("0.00 EUR")
  await expect(balance(page)).not.toContainText("bonus")

  await page.goto("/profile/bonuses")
  await expect(page.getByRole("region", { name: "Welcome free spins" })).toContainText(
    `${eurText(won)} EUR won so far, kept for you`,
  )
  await takeWelcomeOffer(page)

  // The deposit step says what taking the bonus unlocks.
  await page.goto("/")
  await banner(page).getByRole("button", { name: "Deposit", exact: true }).click()
  const dialog = depositDialog(page)
  const form = dialog.getByRole("form", { name: "Deposit amount" })
  await form.getByRole("button", { name: "30 EUR" }).click()
  await expect(field(form, "Amount")).toHaveValue(/^30(\.00)?$/)
  await expect(form.getByRole("radio", { name: /^Take the bonus/ })).toBeChecked()
  await expect(form).toContainText(
    `Taking the bonus also unlocks the ${eurText(won)} EUR your free spins won, with an extra 25 % of this deposit.`,
  )
  await world.screenshot(page, "bonuses-08-unlock-hint")
  await playWithCard(page, form)

  // 37.50 EUR (125 %) + the winnings + 7.50 EUR (25 % of 30 EUR), all bonus money.
  const bonus = 3_750n + won + 750n
  await expect(balance(page)).toContainText(`30.00 EUR + ${eurText(bonus)} bonus`)
  await page.goto("/profile/bonuses")
  await expect(page.getByRole("region", { name: "Welcome bonus" })).toContainText(
    `${eurText(bonus)} EUR bonus money of ${eurText(bonus)} EUR granted`,
  )
  await expect(page.getByRole("region", { name: "Welcome free spins" })).toHaveCount(0)
  await expect(page.getByRole("list", { name: "History" })).toContainText("Unlocked")
})

test("a new player signs up with the code WELCOME1 and gets, with the first 30 EUR deposit, what the code promised", async ({
  page,
  world,
}) => {
  test.setTimeout(180_000)
  const player = newPlayer(world, "signup-code")
  await page.goto("/")
  await banner(page).getByRole("button", { name: "Sign up" }).click()
  await fillRegistration(page, { ...player, currency: "EUR" })
  const form = page.getByRole("form", { name: "Sign up" })
  await form.getByRole("switch", { name: "I have a bonus code" }).click()
  await form.getByRole("textbox", { name: "Bonus code" }).fill("welcome1")
  // Checked as it is typed: what the code grants, in the offer's words.
  await expect(form).toContainText("WELCOME1: Welcome bonus: 50 % up to 16.00 EUR (+100 free spins)")
  await world.screenshot(page, "bonuses-09-signup-code")
  await form.getByRole("button", { name: "Sign up" }).click()
  await expect(banner(page).getByText(player.fullName)).toBeVisible({ timeout: 20_000 })
  await dismissToasts(page)

  // The code was taken for the first deposit: the offer reads "Taken", and the deposit step has it chosen.
  await page.goto("/profile/bonuses")
  await expect(
    page
      .getByRole("list", { name: "Offers for your next deposit" })
      .getByRole("listitem")
      .filter({ hasText: "Welcome bonus" }),
  ).toContainText("Taken")
  // The welcome banner's spins came with joining.
  await expect(page.getByRole("region", { name: "Welcome free spins" })).toContainText(
    "Free spins: 125 of 125 left",
  )
  await page.goto("/")
  await banner(page).getByRole("button", { name: "Deposit", exact: true }).click()
  const dialog = depositDialog(page)
  const amount = dialog.getByRole("form", { name: "Deposit amount" })
  await amount.getByRole("button", { name: "30 EUR" }).click()
  await expect(
    amount.getByText("This deposit gets 125% bonus + 125 free spins (up to 8,000 EUR)"),
  ).toBeVisible()
  await expect(amount.getByRole("radio", { name: /^Take the bonus/ })).toBeChecked()
  await playWithCard(page, amount)

  // 125 % of 30 EUR and the band's 125 spins, as promised; wagered 10× (375.00 EUR).
  await expect(balance(page)).toContainText("30.00 EUR + 37.50 bonus")
  await page.goto("/profile/bonuses")
  const card = page.getByRole("region", { name: "Welcome bonus" })
  await expect(card).toContainText("37.50 EUR bonus money of 37.50 EUR granted")
  await expect(card).toContainText("0.00 EUR of 375.00 EUR")
  await expect(card).toContainText("Free spins: 125 of 125 left at 0.20 EUR in Aurora Vault")
})
