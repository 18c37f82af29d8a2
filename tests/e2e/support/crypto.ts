/**
 * The crypto deposit steps a player takes in the browser, shared by the crypto and cashout specs:
 * Deposit → USDT (the crypto form), what the server answers for that address, and a whole deposit on
 * the e2e server's local chain (the test pays, mines, the page shows it credited).
 */
import type { Locator, Page } from "@playwright/test"
import { evmRpcUrl, mine, sendToken } from "./chain.ts"
import { banner, depositDialog } from "./deposit.ts"
import { expect, type World } from "./fixtures.ts"

export const CRYPTO_DEPOSIT_PATH = "/profile-service/api/v1/profile/crypto/deposit"

/** Deposit → currency USDT: the crypto form opens (the wallet is added first when missing). */
export const openUsdtForm = async (page: Page): Promise<Locator> => {
  await banner(page).getByRole("button", { name: "Deposit" }).click()
  const dialog = depositDialog(page)
  await expect(dialog.getByRole("button", { name: /Play with/ })).toBeVisible()
  // The crypto entries are enabled once the wallets have loaded.
  await expect(dialog.getByRole("option", { name: "USDT (Erc20)" })).toBeEnabled()
  await dialog.getByLabel("Currency").selectOption("USDT")
  return dialog
}

export interface UsdtDepositAnswer {
  readonly address: string
  readonly tokenContract: string
  readonly confirmations: number
}

/** The server's answer for USDT (the signed-in player's address, the token, the confirmations). */
export const usdtDepositAnswer = async (page: Page, world: World): Promise<UsdtDepositAnswer> => {
  const response = await page.request.post(`${world.baseUrl}${CRYPTO_DEPOSIT_PATH}`, {
    data: { currency: "USDT" },
    headers: { origin: world.baseUrl },
  })
  expect(response.status()).toBe(200)
  return (await response.json()) as UsdtDepositAnswer
}

/**
 * A whole USDT deposit on the local chain: the form open, the test pays `amount` minor units to the
 * shown address and mines the confirmations, the transfer shows "Credited"; the dialog closed.
 */
export const depositUsdtOnChain = async (page: Page, world: World, amount: bigint, text: string) => {
  const dialog = await openUsdtForm(page)
  const deposit = dialog.getByRole("tabpanel", { name: "Deposit" })
  await expect(deposit.locator("#crypto-address")).toHaveText(/^0x[0-9a-fA-F]{40}$/)
  const answer = await usdtDepositAnswer(page, world)
  await sendToken(evmRpcUrl(), answer.tokenContract, answer.address, amount)
  await mine(evmRpcUrl(), answer.confirmations - 1)
  await expect(deposit.getByRole("listitem").filter({ hasText: `${text} USDT (Erc20)` })).toContainText(
    "Credited",
    { timeout: 30_000 },
  )
  await page.keyboard.press("Escape")
  await expect(dialog).toHaveCount(0)
  return answer
}
