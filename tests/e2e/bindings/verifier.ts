/**
 * Binding of machines/games/verifier.model.ts to the verifier page (/fairness, ui/games/VerifierView.tsx).
 * The maths runs in the browser: every round is really recomputed. The model's games are the real
 * catalogue's (dice, roulette, mines). A round named in the address needs a round played for real
 * money: tests/e2e/verify.spec.ts plays it (Bets tab → Verify), so those paths are skipped here. A
 * refusal of the maths is arranged with a dice target the game refuses (0.5: under 1 % to win) just
 * before Verify.
 */
import { expect, type Page } from "@playwright/test"
import type { EventObject } from "xstate"
import { VerifierMessages } from "../../../machines/games/verifier.machine.ts"
import { model } from "../../../machines/games/verifier.model.ts"
import type { PathStep } from "../../../statecharts/paths.ts"
import { type EventBinding, type FlowBinding, unbound, unproducible } from "../support/replay.ts"
import { skip } from "../support/skip-reasons.ts"
import { contextOf, stringField } from "./common.ts"

/** The binding keeps no per-path state. */
type VerifierState = Record<string, never>

const labels = {
  serverSeed: "Server seed (revealed)",
  clientSeed: "Client seed",
  nonce: "Nonce",
} as const

const optionLabels = {
  target: "Target",
  direction: "Roll",
  mines: "Mines",
  rows: "Rows",
  risk: "Risk",
} as const

const isField = (value: string): value is keyof typeof labels => value in labels
const isOption = (value: string): value is keyof typeof optionLabels => value in optionLabels

const outcome = (page: Page) => page.getByRole("region", { name: "Outcome" })
const knownMessages: ReadonlyArray<string> = Object.values(VerifierMessages)
const byRound = "a round in the address needs a real-money round: tests/e2e/verify.spec.ts plays it"

const numberField = (e: EventObject, field: string): number => {
  const value: unknown = (e as unknown as Record<string, unknown>)[field]
  if (typeof value !== "number") throw new Error(`${e.type} has no number "${field}"`)
  return value
}

const event = (e: EventObject): EventBinding<VerifierState> => {
  switch (e.type) {
    case "xstate.done.actor.start": {
      const output = (e as unknown as { output?: { round?: unknown } }).output
      return output?.round === null
        ? { kind: "outcome", arrange: async () => {} }
        : unproducible("playedElsewhere", byRound)
    }
    case "xstate.error.actor.start":
      return unproducible(
        "contractKept",
        "the games list is compiled into the page: loading it cannot fail in the browser",
      )
    case "RETRY":
      return unproducible("notSentByApp", "Try again is only offered after a load failed")
    case "xstate.done.actor.round":
    case "xstate.error.actor.round":
    case "RELOAD":
    case "BY_HAND":
      return unproducible("playedElsewhere", byRound)
    case "GAME":
      return {
        kind: "action",
        run: async ({ page }) => {
          await page.getByLabel("Game").selectOption(stringField(e, "gameId"))
        },
      }
    case "EDIT":
      return {
        kind: "action",
        run: async ({ page }) => {
          const field = stringField(e, "field")
          if (!isField(field)) throw new Error(`no field ${field}`)
          await page.getByLabel(labels[field], { exact: true }).fill(stringField(e, "value"))
        },
      }
    case "OPTION":
      return {
        kind: "action",
        run: async ({ page }) => {
          const field = stringField(e, "field")
          if (!isOption(field)) throw new Error(`no option ${field}`)
          const control = page.getByLabel(optionLabels[field], { exact: true })
          if (field === "target") await control.fill(stringField(e, "value"))
          else await control.selectOption(stringField(e, "value"))
        },
      }
    case "TILE":
      return {
        kind: "action",
        run: async ({ page }) => {
          await page
            .getByRole("button", { name: new RegExp(`^Tile ${numberField(e, "tile") + 1}(,|$)`) })
            .click()
        },
      }
    case "ADD_BET":
      return {
        kind: "action",
        run: async ({ page }) => {
          await page.getByRole("button", { name: "Add a bet" }).click()
        },
      }
    case "REMOVE_BET":
      return {
        kind: "action",
        run: async ({ page }) => {
          await page.getByRole("button", { name: `Remove bet ${numberField(e, "index") + 1}` }).click()
        },
      }
    case "BET":
      return {
        kind: "action",
        run: async ({ page }) => {
          const index = numberField(e, "index")
          const field = stringField(e, "field")
          const control = page.locator(`#verifier-bet-${index}-${field}`)
          if (field === "type") await control.selectOption(stringField(e, "value"))
          else await control.fill(stringField(e, "value"))
        },
      }
    case "VERIFY":
      return {
        kind: "action",
        run: async ({ page }) => {
          await page.getByRole("button", { name: "Verify", exact: true }).click()
        },
      }
    case "xstate.done.actor.verify":
      return { kind: "outcome", arrange: async () => {} }
    case "xstate.error.actor.verify":
      return {
        kind: "outcome",
        arrange: async ({ page }) => {
          await page.getByLabel("Target", { exact: true }).fill("0.5")
        },
      }
    default:
      return unbound(e)
  }
}

export const verifierBinding: FlowBinding<VerifierState> = {
  model,
  prepare: async () => ({}),
  open: async ({ page }) => {
    await page.goto("/fairness")
    await expect(page.getByRole("heading", { name: "Provably fair: verify a round" })).toBeVisible()
  },
  event,
  unproducible: (path) => {
    // The refusal is arranged with a dice target: the other games have none.
    for (const [index, step] of path.steps.entries()) {
      const before = path.steps[index - 1]
      if (
        step.event.type === "xstate.error.actor.verify" &&
        before !== undefined &&
        contextOf(before).form !== "dice"
      )
        return skip("pathContradicts", "only a dice round is refused here, by its target")
    }
    return null
  },
  expectState: async ({ page }, step: PathStep) => {
    const ctx = contextOf(step)
    if (!step.stateIds.includes("verifier.editing"))
      throw new Error(`no page assertion for ${step.stateIds.join(", ")}`)
    await expect(page.getByLabel("Game")).toHaveValue(String(ctx.gameId))
    await expect(page.getByLabel(labels.nonce, { exact: true })).toHaveValue(String(ctx.nonce))
    // The options form of the game's kind; never a JSON text area.
    await expect(page.locator("textarea")).toHaveCount(0)
    if (ctx.form === "dice") await expect(page.getByLabel("Target", { exact: true })).toBeVisible()
    if (ctx.form === "mines") await expect(page.getByRole("button", { name: /^Tile \d+/ })).toHaveCount(25)
    if (ctx.form === "roulette") await expect(page.getByRole("button", { name: "Add a bet" })).toBeVisible()
    const problem = ctx.problem
    const alerts = page.getByRole("alert")
    if (typeof problem === "string" && knownMessages.includes(problem))
      await expect(alerts).toHaveText(problem)
    else if (typeof problem === "string") await expect(alerts).toHaveCount(1)
    else await expect(alerts).toHaveCount(0)
    await expect(outcome(page)).toHaveCount(ctx.result === true ? 1 : 0)
  },
}
