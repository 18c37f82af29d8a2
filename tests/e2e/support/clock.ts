/**
 * Holding a state that ends by itself: the e-mail confirmation's message continues 3 s after it
 * shows, and a test that clicks in it or runs axe on it must not race that timer, however loaded
 * the machine is. The page's clock is stopped from the load on and moved forward by hand in small
 * steps (so the app boots and its calls settle) until the state shows; from then on it stands still.
 */
import type { Locator, Page } from "@playwright/test"

const STEP_MS = 25

export const loadAndHoldWhenShown = async (
  page: Page,
  load: () => Promise<unknown>,
  shown: Locator,
  timeoutMs = 20_000,
): Promise<void> => {
  // Stopped before the page loads: under load, a clock that ran during the load could already have
  // ended the state by the time a pause arrived. (Playwright replays the clock into the new page.)
  const startAt = Date.now()
  await page.clock.install({ time: startAt })
  await page.clock.pauseAt(startAt + 1_000)
  await load()
  await runUntilShown(page, shown, timeoutMs)
}

/**
 * Moves a stopped clock forward in small steps until `shown` is visible, then leaves it stopped:
 * for a held page whose player acted again (a retry) and whose next state ends by itself.
 */
export const runUntilShown = async (page: Page, shown: Locator, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!(await shown.isVisible())) {
    if (Date.now() > deadline) throw new Error(`not shown within ${timeoutMs} ms: ${shown.toString()}`)
    // Timers due in the next step fire; the page's own calls settle in real time meanwhile.
    await page.clock.runFor(STEP_MS)
    await new Promise((resolve) => setTimeout(resolve, STEP_MS))
  }
}

/**
 * Runs `work` on a page whose clock was stopped by `loadAndHoldWhenShown` when the work itself
 * needs the page's timers (axe-core chains `setTimeout(…, 0)` between its rules): the clock moves
 * 1 ms at a time while the work runs, far too little to end a state that lasts seconds. Returns
 * the page time that passed, so a caller can check it stayed below what it holds.
 */
export const whileHeld = async (page: Page, work: () => Promise<void>): Promise<number> => {
  const startedAt = await page.evaluate(() => Date.now())
  let running = true
  const pump = (async () => {
    while (running) {
      try {
        await page.clock.runFor(1)
      } catch (error) {
        // The clock is the context's, and axe finishes its run in a blank page of the same context
        // that it then closes: a step can meet that page closing. The next step goes on.
        if (page.isClosed() || !String(error).includes("has been closed")) throw error
      }
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })()
  try {
    await work()
    return (await page.evaluate(() => Date.now())) - startedAt
  } finally {
    running = false
    await pump
  }
}

/**
 * Loads, holds the state once it shows, runs `whileShown` on it (checks, a screenshot; the clock
 * moving 1 ms at a time as in `whileHeld`), then lets the page's time flow again: the state then
 * ends by itself, as it does for a player.
 */
export const holdWhileShown = async (
  page: Page,
  load: () => Promise<unknown>,
  shown: Locator,
  whileShown: () => Promise<void> = async () => {},
): Promise<void> => {
  await loadAndHoldWhenShown(page, load, shown)
  try {
    await whileHeld(page, whileShown)
  } finally {
    await page.clock.resume()
  }
}
