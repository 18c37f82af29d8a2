/**
 * Binding of machines/account/forgotPassword.model.ts to the page (ui/account/ForgotPasswordView.tsx) and the
 * real server. The address typed is a real player's; a sent link must arrive in the outbox.
 */

import { expect, type Locator, type Page } from "@playwright/test"
import { model } from "../../../machines/account/forgotPassword.model.ts"
import { AccountMessages } from "../../../services/account-rules.ts"
import type { NewPlayer } from "../support/api.ts"
import { tokenLink } from "../support/mail.ts"
import { type FlowBinding, unbound, unproducible } from "../support/replay.ts"
import {
  clickButton,
  errorsOf,
  errorTag,
  expectFormErrors,
  isTransportFailure,
  newPlayer,
  nextRequestAltered,
  nextRequestFails,
  stringField,
} from "./common.ts"

export interface ForgotState {
  readonly player: NewPlayer
}

const form = (page: Page): Locator => page.getByRole("form", { name: "Forgot password" })

export const forgotPasswordBinding: FlowBinding<ForgotState> = {
  model,
  prepare: async (_page, world) => ({ player: await newPlayer(world, "forgot", "correct horse battery") }),
  open: async ({ page }) => {
    await page.goto("/")
    await page.getByRole("banner").getByRole("button", { name: "Log in" }).click()
    await page.getByRole("form", { name: "Log in" }).getByRole("button", { name: "Forgot password?" }).click()
    await expect(form(page)).toBeVisible()
  },
  event: (event) => {
    switch (event.type) {
      case "CHANGE_EMAIL":
        return {
          kind: "action",
          run: async ({ page, state }, e) => {
            const value = stringField(e, "value")
            // The model's well-formed address stands for the real player's; a malformed one is typed as is.
            await form(page)
              .getByLabel("Email")
              .fill(value === "ada@lovelace.example" ? state.player.email : value)
          },
        }
      case "SUBMIT":
        return clickButton(form, "Restore password")
      case "xstate.done.actor.forgotPassword":
        return { kind: "outcome", arrange: async () => {} }
      default:
        if (errorTag(event) === "ValidationFailed") {
          return {
            kind: "outcome",
            // A malformed address reaches the server only past the form's own check.
            arrange: ({ page }) =>
              nextRequestAltered(page, "/forgot-password", (body) => ({ ...body, email: "ada@" })),
          }
        }
        if (isTransportFailure(event)) {
          return { kind: "outcome", arrange: ({ page }) => nextRequestFails(page, "/forgot-password") }
        }
        return errorTag(event) === "RateLimited"
          ? unproducible("rateLimitsRelaxed", "the request is never refused as RateLimited")
          : unbound(event)
    }
  },
  expectState: async ({ page, world, state }, step) => {
    if (step.stateIds.includes("forgotPassword.sent")) {
      await expect(form(page)).toHaveCount(0)
      await expect(page.getByText(AccountMessages.forgotSent).first()).toBeVisible()
      // The player also got a confirmation mail at registration: wait for the reset mail itself
      // (it may be written after the answer), then check it links to the reset form.
      const mail = await world.mailTo(state.player.email, (m) =>
        m.links.some((l) => l.includes("reset-password")),
      )
      expect(tokenLink(mail).searchParams.get("modal")).toBe("reset-password")
      return
    }
    if (step.stateIds.includes("forgotPassword.editing")) {
      await expect(form(page).getByRole("button", { name: "Restore password" })).toBeEnabled()
      // Failures of the call are silent by the spec: only the form's own messages show.
      await expectFormErrors(form(page), errorsOf(step))
      return
    }
    throw new Error(`no page assertion for ${step.stateIds.join(", ")}`)
  },
}
