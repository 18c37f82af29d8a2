/**
 * Binding of machines/account/confirmEmail.model.ts to the page (ui/account/ConfirmEmailView.tsx) and the
 * real server. Each path opens the real confirmation link mailed to a new player; a dead link is a
 * token already used; the continue timer is the browser's real one.
 */
import { expect, type Page } from "@playwright/test"
import { confirmEmailTexts } from "../../../machines/account/confirmEmail.machine.ts"
import { model } from "../../../machines/account/confirmEmail.model.ts"
import type { GeneratedPath } from "../../../statecharts/paths.ts"
import type { NewPlayer } from "../support/api.ts"
import { loadAndHoldWhenShown, runUntilShown } from "../support/clock.ts"
import type { World } from "../support/fixtures.ts"
import { tokenLink } from "../support/mail.ts"
import { type FlowBinding, type StepContext, unbound, unproducible } from "../support/replay.ts"
import { clickButton, errorTag, isTransportFailure, newPlayer, nextRequestFails } from "./common.ts"

export interface ConfirmState {
  readonly player: NewPlayer
  readonly link: string
}

type Ctx = StepContext<ConfirmState>

const dialog = (page: Page) => page.getByRole("dialog")
const confirmedMessage = (page: Page) =>
  dialog(page).getByRole("status").filter({ hasText: confirmEmailTexts.confirmed })

/** Any answer of the confirmation call: the message, or one of the alerts. */
const answerShown = (page: Page) => confirmedMessage(page).or(dialog(page).getByRole("alert"))

const clicksContinue = (path: GeneratedPath): boolean =>
  path.steps.some((step) => step.event.type === "CONTINUE")

const setTokenUsed = async ({ world, state }: Ctx, used: boolean): Promise<void> => {
  await world.sql(
    `UPDATE email_tokens SET used_at = CASE WHEN $2::boolean THEN now() ELSE NULL END
      WHERE purpose = 'confirm' AND user_id = (SELECT id FROM users WHERE lower(email) = lower($1))`,
    [state.player.email, used],
  )
}

const isConfirmed = async (world: World, email: string): Promise<boolean> => {
  const rows = await world.sql<{ confirmed: boolean }>(
    "SELECT confirmed_at IS NOT NULL AS confirmed FROM users WHERE lower(email) = lower($1)",
    [email],
  )
  return rows[0]?.confirmed === true
}

export const confirmEmailBinding: FlowBinding<ConfirmState> = {
  model,
  prepare: async (_page, world) => {
    const player = await newPlayer(world, "confirm", "correct horse battery")
    const mail = await world.mailTo(player.email, (m) => m.links.some((l) => l.includes("confirm-email")))
    return { player, link: tokenLink(mail).toString() }
  },
  open: async ({ page, state, path }) => {
    // A path that clicks Continue would race the modal's own continue timer (3 s): it stops the
    // page's clock from the load on, moving it by hand until the call's first answer shows, so only
    // the player ends the wait.
    if (!clicksContinue(path)) return void (await page.goto(state.link))
    await loadAndHoldWhenShown(page, () => page.goto(state.link), answerShown(page))
  },
  event: (event) => {
    switch (event.type) {
      case "CONTINUE":
        return clickButton(dialog, "Continue")
      case "RETRY":
        return {
          kind: "action",
          run: async ({ page, path }) => {
            await dialog(page).getByRole("button", { name: "Try again" }).click()
            // On a held clock the retried call's answer is moved to by hand, as the first one was.
            if (clicksContinue(path)) await runUntilShown(page, answerShown(page))
          },
        }
      case "xstate.after.continueDelay.confirmEmail.confirmed":
        // The browser's own timer: nothing to arrange, the next assertion waits for it.
        return { kind: "outcome", arrange: async () => {} }
      case "xstate.done.actor.confirmAccount": {
        const output: unknown = (event as unknown as Record<string, unknown>).output
        const confirmed =
          typeof output === "object" && output !== null && "confirmed" in output && output.confirmed
        return confirmed
          ? { kind: "outcome", arrange: (ctx) => setTokenUsed(ctx, false) }
          : unproducible(
              "contractKept",
              "a confirmation is answered confirmed: true or InvalidToken, never false",
            )
      }
      default:
        if (errorTag(event) === "InvalidToken")
          return { kind: "outcome", arrange: (ctx) => setTokenUsed(ctx, true) }
        if (isTransportFailure(event)) {
          return { kind: "outcome", arrange: ({ page }) => nextRequestFails(page, "/account/confirm") }
        }
        return errorTag(event) === "ClientError"
          ? unproducible("proxyOnly", "a bare status on /account/confirm")
          : unbound(event)
    }
  },
  expectState: async ({ page, world, state }, step) => {
    if (step.stateIds.includes("confirmEmail.done")) {
      // The database first: a page that has not opened its modal yet also shows no dialog.
      await expect.poll(() => isConfirmed(world, state.player.email)).toBe(true)
      await expect(dialog(page)).toHaveCount(0)
      return
    }
    if (step.stateIds.includes("confirmEmail.confirmed")) {
      // Quick, and nothing else here: the modal continues by itself after confirmContinueDelayMs, and
      // a path may still have to click Continue. The database is checked once the flow is done.
      await expect(confirmedMessage(page)).toBeVisible()
      return
    }
    if (step.stateIds.includes("confirmEmail.invalid")) {
      await expect(
        dialog(page).getByRole("alert").filter({ hasText: confirmEmailTexts.invalid }),
      ).toBeVisible()
      return
    }
    if (step.stateIds.includes("confirmEmail.unreachable")) {
      await expect(
        dialog(page).getByRole("alert").filter({ hasText: confirmEmailTexts.unreachable }),
      ).toBeVisible()
      await expect(dialog(page).getByRole("button", { name: "Try again" })).toBeEnabled()
      expect(await isConfirmed(world, state.player.email)).toBe(false)
      return
    }
    throw new Error(`no page assertion for ${step.stateIds.join(", ")}`)
  },
}
