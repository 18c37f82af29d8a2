/**
 * Binding of machines/account/resetPassword.model.ts to the page (ui/account/ResetPasswordView.tsx) and the
 * real server. Each path opens a real reset link: a player is registered, asks for a reset through
 * the API, and the link is taken from the outbox. Outcomes are arranged on the server: the reused
 * password is the player's current one, a dead link is a token already used.
 */

import { expect, type Locator, type Page } from "@playwright/test"
import { resetLinkInvalidMessage } from "../../../machines/account/resetPassword.machine.ts"
import { model } from "../../../machines/account/resetPassword.model.ts"
import { AccountMessages } from "../../../services/account-rules.ts"
import { type NewPlayer, postJson, signInStatus } from "../support/api.ts"
import type { World } from "../support/fixtures.ts"
import { tokenLink } from "../support/mail.ts"
import { type FlowBinding, type StepContext, unbound, unproducible } from "../support/replay.ts"
import {
  captchaBinding,
  clickButton,
  errorsOf,
  errorTag,
  expectFormErrors,
  fillField,
  isTransportFailure,
  newPlayer,
  nextRequestAltered,
  nextRequestFails,
  WRONG_CAPTCHA,
} from "./common.ts"

/** The password every path ends up typing (the model's last, valid value). */
const NEW_PASSWORD = "correct horse battery"

export interface ResetState {
  readonly player: NewPlayer
  /** A second player whose password is not NEW_PASSWORD: its hash replaces the first's when needed. */
  readonly donor: NewPlayer
  readonly link: string
}

type Ctx = StepContext<ResetState>

const form = (page: Page): Locator => page.getByRole("form", { name: "Reset password" })

const requestResetLink = async (world: World, email: string): Promise<string> => {
  const result = await postJson(world.baseUrl, "/forgot-password", { email })
  expect(result.status, JSON.stringify(result.body)).toBe(200)
  return tokenLink(
    await world.mailTo(email, (m) => m.links.some((l) => l.includes("reset-password"))),
  ).toString()
}

/** The player's current password is not NEW_PASSWORD, and none of the earlier ones was. */
const passwordIsFresh = async ({ world, state }: Ctx): Promise<void> => {
  await world.sql(
    `UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE lower(email) = lower($2))
      WHERE lower(email) = lower($1)`,
    [state.player.email, state.donor.email],
  )
  await world.sql(
    "DELETE FROM password_history WHERE user_id = (SELECT id FROM users WHERE lower(email) = lower($1))",
    [state.player.email],
  )
}

const usesReusedPassword = (ctx: Ctx): Promise<void> => {
  // prepare registered the player with NEW_PASSWORD for every path that meets this outcome.
  expect(ctx.state.player.password).toBe(NEW_PASSWORD)
  return Promise.resolve()
}

export const resetPasswordBinding: FlowBinding<ResetState> = {
  model,
  prepare: async (_page, world, path) => {
    const rejected = path.steps.some((s) => errorTag(s.event) === "PasswordRejected")
    const player = await newPlayer(world, "reset", rejected ? NEW_PASSWORD : "an older password 1")
    const donor = await newPlayer(world, "donor", "the donor's password 2")
    return { player, donor, link: await requestResetLink(world, player.email) }
  },
  open: async ({ page, state }) => {
    await page.goto(state.link)
    await expect(form(page)).toBeVisible()
  },
  event: (event) => {
    switch (event.type) {
      case "CHANGE_PASSWORD":
        return fillField(form, "New password")
      case "CHANGE_CONFIRM_PASSWORD":
        return fillField(form, "Confirm password")
      case "CAPTCHA_VERIFIED":
        return captchaBinding(form, "CAPTCHA_VERIFIED")
      case "CAPTCHA_RESET":
        return captchaBinding(form, "CAPTCHA_RESET")
      case "SUBMIT":
        return clickButton(form, "Restore password")
      case "xstate.done.actor.resetPassword":
        return { kind: "outcome", arrange: passwordIsFresh }
      default:
        switch (errorTag(event)) {
          case "PasswordRejected":
            return { kind: "outcome", arrange: usesReusedPassword }
          case "InvalidToken":
            return {
              kind: "outcome",
              arrange: async ({ world, state }) => {
                await world.sql(
                  `UPDATE email_tokens SET used_at = now()
                    WHERE purpose = 'reset' AND user_id = (SELECT id FROM users WHERE lower(email) = lower($1))`,
                  [state.player.email],
                )
              },
            }
          case "CaptchaFailed":
            return {
              kind: "outcome",
              arrange: ({ page }) =>
                nextRequestAltered(page, "/account/reset-password", (body) => ({
                  ...body,
                  captcha: WRONG_CAPTCHA,
                })),
            }
          case "RateLimited":
            return unproducible("rateLimitsRelaxed", "the reset is never refused as RateLimited")
          case "SchemaError":
            return unproducible("contractKept", "an answer that does not decode with the contract's schema")
          default:
            return isTransportFailure(event)
              ? { kind: "outcome", arrange: ({ page }) => nextRequestFails(page, "/account/reset-password") }
              : unbound(event)
        }
    }
  },
  expectState: async ({ page, world, state }, step) => {
    if (step.stateIds.includes("resetPassword.done")) {
      await expect(form(page)).toHaveCount(0)
      await expect(page.getByText(AccountMessages.resetSuccess).first()).toBeVisible()
      expect(await signInStatus(world.baseUrl, state.player.email, NEW_PASSWORD)).toBe(200)
      return
    }
    if (step.stateIds.includes("resetPassword.linkInvalid")) {
      await expect(page.getByRole("alert").filter({ hasText: resetLinkInvalidMessage })).toBeVisible()
      await expect(form(page)).toHaveCount(0)
      return
    }
    if (step.stateIds.includes("resetPassword.editing")) {
      await expect(form(page).getByRole("button", { name: "Restore password" })).toBeEnabled()
      await expectFormErrors(form(page), errorsOf(step))
      if (errorTag(step.event) === "PasswordRejected") {
        await expect(page.getByText(AccountMessages.resetRejected).first()).toBeVisible()
      }
      return
    }
    throw new Error(`no page assertion for ${step.stateIds.join(", ")}`)
  },
}
