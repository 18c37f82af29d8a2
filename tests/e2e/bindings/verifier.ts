/**
 * Binding of machines/games/verifier.model.ts to the verifier page (/fairness, ui/games/VerifierView.tsx).
 * The math runs in the browser: every round is really recomputed. The model's games map to the real
 * catalogue: its first game is the page's first (the list is sorted by name), its slot
 * ("aurora-reels") is the studio's Aurora Vault. A refusal of the math is arranged with bet options
 * the game refuses (a negative target) just before Verify.
 */
import { expect, type Page } from "@playwright/test"
import type { EventObject } from "xstate"
import { VerifierMessages } from "../../../machines/games/verifier.machine.ts"
import { model } from "../../../machines/games/verifier.model.ts"
import type { PathStep } from "../../../statecharts/paths.ts"
import { type EventBinding, type FlowBinding, unbound, unproducible } from "../support/replay.ts"
import { skip } from "../support/skip-reasons.ts"
import { contextOf, stringField } from "./common.ts"

const SLOT = { model: "aurora-reels", real: "aurora-vault" } as const

/** The binding keeps no per-path state. */
type VerifierState = Record<string, never>

const labels = {
  serverSeed: "Server seed (revealed)",
  clientSeed: "Client seed",
  nonce: "Nonce",
  options: "Bet options (JSON)",
} as const

const isField = (value: string): value is keyof typeof labels => value in labels

const outcome = (page: Page) => page.getByRole("region", { name: "Outcome" })
const knownMessages: ReadonlyArray<string> = Object.values(VerifierMessages)

const event = (e: EventObject): EventBinding<VerifierState> => {
  switch (e.type) {
    case "xstate.done.actor.games":
      return { kind: "outcome", arrange: async () => {} }
    case "xstate.error.actor.games":
      return unproducible(
        "contractKept",
        "the games list is compiled into the page: loading it cannot fail in the browser",
      )
    case "RETRY":
      return unproducible("notSentByApp", "Retry is only offered after the games list failed to load")
    case "GAME":
      return {
        kind: "action",
        run: async ({ page }) => {
          const id = stringField(e, "gameId")
          await page.getByLabel("Game").selectOption(id === SLOT.model ? SLOT.real : id)
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
    case "VERIFY":
      return {
        kind: "action",
        run: async ({ page }) => {
          await page.getByRole("button", { name: "Verify" }).click()
        },
      }
    case "xstate.done.actor.verify":
      return { kind: "outcome", arrange: async () => {} }
    case "xstate.error.actor.verify":
      return {
        kind: "outcome",
        arrange: async ({ page }) => {
          await page.getByLabel(labels.options, { exact: true }).fill('{"target":-5}')
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
    // The refusal is arranged with a target the game refuses: a slot takes no target.
    for (const [index, step] of path.steps.entries()) {
      const before = path.steps[index - 1]
      if (
        step.event.type === "xstate.error.actor.verify" &&
        before !== undefined &&
        contextOf(before).gameId === SLOT.model
      )
        return skip(
          "pathContradicts",
          "a slot's math takes any bet options: its verification cannot be refused by them",
        )
    }
    return null
  },
  expectState: async ({ page }, step: PathStep) => {
    const ctx = contextOf(step)
    if (!step.stateIds.includes("verifier.editing"))
      throw new Error(`no page assertion for ${step.stateIds.join(", ")}`)
    if (ctx.gameId === SLOT.model) await expect(page.getByLabel("Game")).toHaveValue(SLOT.real)
    await expect(page.getByLabel(labels.nonce, { exact: true })).toHaveValue(String(ctx.nonce))
    if (ctx.options === "{not json")
      await expect(page.getByLabel(labels.options, { exact: true })).toHaveValue("{not json")
    const problem = ctx.problem
    const alerts = page.getByRole("alert")
    if (typeof problem === "string" && knownMessages.includes(problem))
      await expect(alerts).toHaveText(problem)
    else if (typeof problem === "string") await expect(alerts).toHaveCount(1)
    else await expect(alerts).toHaveCount(0)
    await expect(outcome(page)).toHaveCount(ctx.result === true ? 1 : 0)
  },
}
