/**
 * Money out in Chromium against the real server, as a player does it:
 * - an unverified player opens Cash out from the header, the amount is prefilled with minWithdraw,
 *   and the click shows 'Your identification and address has to be verified before cashout'; clicking
 *   it closes the modal and opens /profile/verification;
 * - a verified player (documents approved through the back-office API with a KYC token) with a card-deposited balance
 *   withdraws to a bank e-mail (the empty e-mail first: '* required'), the header balance drops at
 *   once, an operator approves, the payment sandbox pays, and /profile/withdrawals shows "Paid" live;
 *   a second withdrawal rejected by the operator returns its amount to the header balance;
 * - a verified player with USDT deposited on the e2e server's local chain (as in crypto.spec.ts)
 *   withdraws part of it to a crypto address, an operator approves, the hot wallet pays on the chain
 *   (the test mines the blocks and reads the address's token balance), and the withdrawals tab shows
 *   "Paid" with the transaction.
 * Screenshots of each step at 1280×800 and 390×844 go to test-results/screenshots/cashout-*.png.
 */
import type { Locator, Page } from "@playwright/test"
import { approveDocuments, tokenOf } from "./support/backoffice.ts"
import { evmRpcUrl, freshAddress, mine, tokenBalance, withChain } from "./support/chain.ts"
import { depositUsdtOnChain } from "./support/crypto.ts"
import {
  balance,
  banner,
  depositThirtyByCard,
  newPlayer,
  signedInThroughApi,
  welcomeBonusDeposit,
} from "./support/deposit.ts"
import { expect, test, type World } from "./support/fixtures.ts"
import { dismissToasts } from "./support/ui.ts"

const cashoutDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Cash out" })
const amountForm = (page: Page): Locator => cashoutDialog(page).getByRole("form", { name: "Cash out amount" })
const fiatForm = (page: Page): Locator => cashoutDialog(page).getByRole("form", { name: "Cash out to" })
const toast = (page: Page, text: string): Locator => page.getByText(text, { exact: true }).first()

/** A payments officer's decision on a withdrawal, through the back-office API with their token. */
const decide = async (world: World, id: string, action: "approve" | "reject", reason?: string) => {
  const payments = await tokenOf(world, "payments")
  const reply = await payments.call(
    "POST",
    `/withdrawals/${id}/${action}`,
    reason === undefined ? undefined : { reason },
  )
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
}
const withdrawalsOperator = {
  approve: (world: World, id: string) => decide(world, id, "approve"),
  reject: (world: World, id: string, reason: string) => decide(world, id, "reject", reason),
}

/** Registered through the API and signed in from the page's cookie jar; the home page loaded. */
const signedInPlayer = (page: Page, world: World, tag: string) =>
  signedInThroughApi(page, world, newPlayer(world, tag, "Katherine Johnson"))

/** Both documents uploaded in the verification tab, then approved by a KYC officer's token. */
const verify = async (page: Page, world: World, email: string): Promise<void> => {
  await page.goto("/profile/verification")
  const identity = page.getByRole("region", { name: "Identity document" })
  const address = page.getByRole("region", { name: "Proof of address" })
  await identity.getByLabel(/Choose a file/).setInputFiles({
    name: "passport.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]),
  })
  await identity.getByRole("button", { name: "Upload" }).click()
  await expect(identity.getByText("Waiting for review").first()).toBeVisible()
  await address.getByLabel(/Choose a file/).setInputFiles({
    name: "bill.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"),
  })
  await address.getByRole("button", { name: "Upload" }).click()
  await expect(address.getByText("Waiting for review").first()).toBeVisible()
  await approveDocuments(world, email)
}

/** Both sizes of every step: the desktop first, then the phone, back to the desktop. */
const shoot = async (page: Page, world: World, name: string): Promise<void> => {
  await world.screenshot(page, `cashout-${name}-1280`)
  await page.setViewportSize({ width: 390, height: 844 })
  await world.screenshot(page, `cashout-${name}-390`)
  await page.setViewportSize({ width: 1280, height: 800 })
}

const openCashout = async (page: Page): Promise<void> => {
  await banner(page).getByRole("button", { name: "Cash out" }).click()
  await expect(amountForm(page)).toBeVisible()
  await expect(amountForm(page).getByText("min 10.00 EUR, max 400.00 EUR")).toBeVisible()
  // Prefilled with minWithdraw once loaded.
  await expect(amountForm(page).getByLabel("Amount")).not.toHaveValue("")
}

/** A fiat cashout to a bank e-mail; the toast, the modal gone. */
const cashOutToBank = async (page: Page, world: World | null, amount: string): Promise<void> => {
  await openCashout(page)
  const amountInput = amountForm(page).getByLabel("Amount")
  await expect(amountInput).toHaveAttribute("inputmode", "decimal")
  await expect(amountInput).toHaveAttribute("maxlength", "12")
  await amountInput.fill(amount)
  if (world !== null) await shoot(page, world, "02-amount")
  await amountForm(page).getByRole("button", { name: "Continue" }).click()
  await fiatForm(page).getByRole("tab", { name: "Bank Account" }).click()
  await fiatForm(page).getByRole("button", { name: "Cash out" }).click()
  await expect(fiatForm(page).getByText("required")).toBeVisible()
  if (world !== null) await shoot(page, world, "03-bank-required")
  await fiatForm(page)
    .getByLabel(/E-mail/)
    .fill("katherine@bank.example")
  await fiatForm(page).getByRole("button", { name: "Cash out" }).click()
  await expect(toast(page, "Cash out request has been sent!")).toBeVisible()
  await expect(cashoutDialog(page)).toHaveCount(0)
}

test("an unverified player is sent to /profile/verification", async ({ page, world }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await signedInPlayer(page, world, "cashout-unverified")
  await openCashout(page)
  const form = amountForm(page)
  // Check 1: below the minimum the button only looks disabled and nothing happens.
  await form.getByLabel("Amount").fill("0.01")
  await expect(form.getByRole("button", { name: "Continue" })).toHaveAttribute("aria-disabled", "true")
  // Playwright waits for an aria-disabled button to be enabled; the player's click arrives anyway.
  await form.getByRole("button", { name: "Continue" }).click({ force: true })
  await expect(form.getByRole("alert")).toHaveCount(0)
  await shoot(page, world, "01a-below-minimum")
  await form.getByLabel("Amount").fill("10")
  await form.getByRole("button", { name: "Continue" }).click()
  const message = form.getByRole("button", {
    name: /Your identification and address has to be verified before cashout/,
  })
  await expect(message).toBeVisible()
  await shoot(page, world, "01b-not-verified")
  await message.click()
  await expect(cashoutDialog(page)).toHaveCount(0)
  await expect(page).toHaveURL(/\/profile\/verification$/)
})

test("a verified player cashes out to a bank e-mail; approved and paid; a rejected one returns the funds", async ({
  page,
  world,
}) => {
  test.setTimeout(180_000)
  await page.setViewportSize({ width: 1280, height: 800 })
  const player = await signedInPlayer(page, world, "cashout-bank")
  await depositThirtyByCard(page)
  await verify(page, world, player.email)
  await page.goto("/")
  await expect(balance(page)).toContainText("30.00")

  // ── Not enough money (check 3) before anything is sent ──
  await openCashout(page)
  await amountForm(page).getByLabel("Amount").fill("300")
  await amountForm(page).getByRole("button", { name: "Continue" }).click()
  await expect(amountForm(page).getByRole("alert")).toContainText("not have enough money")
  await page.keyboard.press("Escape")
  await expect(cashoutDialog(page)).toHaveCount(0)

  // ── 12.50 EUR to a bank e-mail: held at once ──
  await cashOutToBank(page, world, "12.50")
  await expect(balance(page)).toContainText("17.50")
  await dismissToasts(page)
  await page.goto("/profile/withdrawals")
  const first = page.getByRole("list", { name: "Withdrawals" }).getByRole("listitem").first()
  await expect(first.getByTestId("withdrawal-status")).toHaveText("Requested")
  const firstId = await first.getAttribute("data-id")
  expect(firstId).not.toBeNull()
  await shoot(page, world, "04-requested")

  // ── The operator approves; the sandbox pays; the page follows live ──
  await withdrawalsOperator.approve(world, firstId ?? "")
  await expect(first.getByTestId("withdrawal-status")).toHaveText("Paid", { timeout: 60_000 })
  await expect(first.getByRole("list", { name: "Timeline" })).toContainText("Approved")
  await shoot(page, world, "05-paid")

  // ── A second one rejected: its amount comes back to the header ──
  await page.goto("/")
  await cashOutToBank(page, null, "10.00")
  await expect(balance(page)).toContainText("7.50")
  await page.goto("/profile/withdrawals")
  const second = page.getByRole("list", { name: "Withdrawals" }).getByRole("listitem").first()
  await expect(second.getByTestId("withdrawal-status")).toHaveText("Requested")
  const secondId = await second.getAttribute("data-id")
  expect(secondId).not.toBe(firstId)
  await withdrawalsOperator.reject(world, secondId ?? "", "Bank details do not match the account")
  await expect(second.getByTestId("withdrawal-status")).toHaveText("Rejected", { timeout: 30_000 })
  await expect(second).toContainText("Bank details do not match the account")
  await expect(balance(page)).toContainText("17.50", { timeout: 30_000 })
  await shoot(page, world, "06-rejected")
})

test("a verified player cashes out USDT to a crypto address; approved, paid on the local chain", async ({
  page,
  world,
}) => {
  test.setTimeout(180_000)
  const rpc = evmRpcUrl()
  // One journey at a time on the chain (support/chain.ts): its blocks count only its transfers.
  await withChain(async () => {
    await page.setViewportSize({ width: 1280, height: 800 })
    const player = await signedInPlayer(page, world, "cashout-crypto")
    const deposit = await depositUsdtOnChain(page, world, 25_000_000n, "25.00")
    await verify(page, world, player.email)
    await page.goto("/")

    // ── 15 USDT to an address of the player's elsewhere ──
    const to = freshAddress()
    await openCashout(page)
    const form = amountForm(page)
    await form.getByLabel("Currency").selectOption("USDT")
    await expect(form.locator(".cashout__withdrawable")).toHaveText("Withdrawable 25.00 USDT (Erc20)")
    // Check 4: the empty address first.
    await form.getByLabel(/USDT \(Erc20\) address/).fill("")
    await form.getByLabel("Amount").fill("15")
    await form.getByRole("button", { name: "Cash out" }).click()
    await expect(form.getByText("required")).toBeVisible()
    await shoot(page, world, "07-crypto-required")
    await form.getByLabel(/USDT \(Erc20\) address/).fill(to)
    await shoot(page, world, "08-crypto-amount")
    await form.getByRole("button", { name: "Cash out" }).click()
    await expect(toast(page, "Cash out request has been sent!")).toBeVisible()
    await expect(cashoutDialog(page)).toHaveCount(0)
    await dismissToasts(page)

    await page.goto("/profile/withdrawals")
    const item = page.getByRole("list", { name: "Withdrawals" }).getByRole("listitem").first()
    await expect(item.getByTestId("withdrawal-status")).toHaveText("Requested")
    await expect(item).toContainText("15.00 USDT (Erc20)")
    await expect(item).toContainText(to)
    const id = await item.getAttribute("data-id")
    expect(id).not.toBeNull()

    // ── The operator approves; the hot wallet signs and broadcasts; the test mines it ──
    await withdrawalsOperator.approve(world, id ?? "")
    await expect(item.getByTestId("withdrawal-status")).toHaveText("Sent", { timeout: 30_000 })
    expect(await tokenBalance(rpc, deposit.tokenContract, to)).toBe(0n)
    await mine(rpc, 1)
    // The chain shows the transfer to that address.
    expect(await tokenBalance(rpc, deposit.tokenContract, to)).toBe(15_000_000n)
    const txHash = await item.locator(".withdrawals__tx code").getAttribute("title")
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/)
    await shoot(page, world, "09-crypto-sent")
    // Its second confirmation (WITHDRAW_CONFIRMATIONS=2 in the e2e server): paid, live.
    await mine(rpc, 1)
    await expect(item.getByTestId("withdrawal-status")).toHaveText("Paid", { timeout: 30_000 })
    await expect(item.getByRole("list", { name: "Timeline" })).toContainText("Approved")
    await expect(item.getByRole("list", { name: "Timeline" })).toContainText("Sent")
    await shoot(page, world, "10-crypto-paid")
  })
})

test("cashing out with an active bonus says what is forfeited and asks first", async ({ page, world }) => {
  test.setTimeout(180_000)
  await page.setViewportSize({ width: 1280, height: 800 })
  const player = await signedInPlayer(page, world, "cashout-bonus")
  // The welcome offer taken, then a first deposit of 30 EUR: 37.50 EUR of bonus money (125 %).
  await welcomeBonusDeposit(page)
  await verify(page, world, player.email)
  await page.goto("/")
  await dismissToasts(page)

  await openCashout(page)
  await amountForm(page).getByLabel("Amount").fill("10")
  await amountForm(page).getByRole("button", { name: "Continue" }).click()
  await fiatForm(page).getByRole("button", { name: "Cash out" }).click()
  const question = cashoutDialog(page).getByRole("alertdialog", { name: "Forfeit your bonus?" })
  await expect(question).toContainText(
    "You have an active bonus (Welcome bonus). Cashing out now forfeits it: 37.50 EUR of bonus money goes back to the casino. Your cash is not touched.",
  )
  await shoot(page, world, "07-forfeit-question")
  // Keeping the bonus goes back; nothing was sent.
  await question.getByRole("button", { name: "Keep my bonus" }).click()
  await expect(fiatForm(page)).toBeVisible()

  await fiatForm(page).getByRole("button", { name: "Cash out" }).click()
  await cashoutDialog(page).getByRole("button", { name: "Forfeit the bonus and cash out" }).click()
  await expect(toast(page, "Cash out request has been sent!")).toBeVisible()
  await expect(cashoutDialog(page)).toHaveCount(0)
  // 10.00 EUR held for the withdrawal, the bonus money gone back to the casino.
  await expect(balance(page)).toContainText("20.00 EUR")
  await expect(balance(page)).not.toContainText("bonus")
  await page.goto("/profile/bonuses")
  await expect(
    page.getByRole("list", { name: "History" }).getByRole("listitem").filter({ hasText: "Forfeited" }),
  ).toContainText("37.50 EUR")
})
