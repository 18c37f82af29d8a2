/**
 * The studio's dice in the game page's frame, as a player uses its Fairness panel: what the panel
 * commits to before the next round, and the server seed a rotation reveals (docs/fairness.md).
 */
import { expect, type FrameLocator, type Page } from "@playwright/test"

/** The studio's play page inside the game page's frame. */
export const studioFrame = (page: Page): FrameLocator => page.frameLocator(".game__frame")

export interface DiceFairness {
  readonly game: FrameLocator
  /** The SHA-256 of the active server seed, shown before any round is played with it. */
  readonly committedHash: string
  readonly clientSeed: string
  /** The nonce of the next round. */
  readonly nonce: number
}

/** dice-classic opened for real money (the frame shows `balance` EUR), its Fairness panel open. */
export const openDiceFairness = async (page: Page, balance: string): Promise<DiceFairness> => {
  await page.goto("/game/dice-classic")
  await page.getByRole("button", { name: "Real money" }).click()
  await expect(page.getByRole("button", { name: "Real money" })).toHaveAttribute("aria-pressed", "true")
  const game = studioFrame(page)
  await expect(game.getByText(`Balance: ${balance} EUR`)).toBeVisible()
  await game.getByText("Fairness", { exact: true }).click()
  await expect(game.locator("#hash")).toHaveText(/^[0-9a-f]{64}$/)
  return {
    game,
    committedHash: (await game.locator("#hash").innerText()).trim(),
    clientSeed: await game.getByLabel("Client seed").inputValue(),
    nonce: Number((await game.locator("#nonce").innerText()).trim()),
  }
}

/** Rotates the server seed in an open Fairness panel: the seed it reveals. */
export const rotateServerSeed = async (game: FrameLocator): Promise<string> => {
  await game.getByRole("button", { name: "Rotate server seed" }).click()
  const revealed = game.getByText(/^Revealed server seed: /)
  await expect(revealed).toBeVisible()
  const serverSeed =
    /^Revealed server seed: ([0-9a-f]+) /.exec((await revealed.innerText()).trim())?.[1] ?? ""
  expect(serverSeed).toMatch(/^[0-9a-f]{64}$/)
  return serverSeed
}
