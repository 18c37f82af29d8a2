/**
 * Binding of machines/account/login.model.ts to the page (ui/account/LoginView.tsx) and the real server.
 * Every path signs in with a real player registered through the API; the sign-in outcomes are
 * arranged on the server (account missing, locked, cooling off), or on the way to it (a request
 * from a restricted country, a captcha the server refuses, a network failure).
 */
import { expect, type Locator, type Page } from "@playwright/test"
import type { EventObject } from "xstate"
import { model } from "../../../machines/account/login.model.ts"
import { fixtureSiteConfig } from "../../../machines/flowFixtures.ts"
import { AccountMessages, isBlockedDomain } from "../../../services/account-rules.ts"
import type { NewPlayer } from "../support/api.ts"
import type { World } from "../support/fixtures.ts"
import {
  type EventBinding,
  type FlowBinding,
  type StepContext,
  unbound,
  unproducible,
} from "../support/replay.ts"
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
  nextRequestFrom,
  REAL_BLOCKED_DOMAIN,
  RESTRICTED_IP,
  setAccountFlags,
  stringField,
  WRONG_CAPTCHA,
} from "./common.ts"

export interface LoginState {
  readonly player: NewPlayer
  /** The model's blocked address, on the real server's blocked domain. */
  readonly blockedEmail: string
  /** Whether the account's address is currently renamed away (so the sign-in meets no account). */
  hidden: boolean
  /** Whether the account is currently locked or cooling off (set by an earlier arrangement). */
  flagged: boolean
}

type Ctx = StepContext<LoginState>

const form = (page: Page): Locator => page.getByRole("form", { name: "Log in" })

/** The account exists under its address, unlocked, not cooling off. */
const accountUsable = async (ctx: Ctx): Promise<void> => {
  const { world, state } = ctx
  if (state.hidden) {
    await world.sql("UPDATE users SET email = $1 WHERE email = $2", [
      state.player.email,
      `gone-${state.player.email}`,
    ])
    state.hidden = false
  }
  if (state.flagged) {
    await setAccountFlags(world, state.player.email, { locked: false, coolOff: false })
    state.flagged = false
  }
}

const accountMissing = async (ctx: Ctx): Promise<void> => {
  await accountUsable(ctx)
  await ctx.world.sql("UPDATE users SET email = $2 WHERE email = $1", [
    ctx.state.player.email,
    `gone-${ctx.state.player.email}`,
  ])
  ctx.state.hidden = true
}

const signInOutcome = (event: EventObject): EventBinding<LoginState> => {
  if (event.type === "xstate.done.actor.signIn") {
    const output: unknown = (event as unknown as Record<string, unknown>).output
    const signedIn =
      typeof output === "object" && output !== null && "isAuthenticated" in output && output.isAuthenticated
    return signedIn
      ? { kind: "outcome", arrange: accountUsable }
      : unproducible("contractKept", "a sign-in answered 200 with no session (it signs in or fails typed)")
  }
  switch (errorTag(event)) {
    case "InvalidCredentials":
      return { kind: "outcome", arrange: accountMissing }
    case "AccountLocked":
      return {
        kind: "outcome",
        arrange: async (ctx) => {
          await accountUsable(ctx)
          await setAccountFlags(ctx.world, ctx.state.player.email, { locked: true, coolOff: false })
          ctx.state.flagged = true
        },
      }
    case "SelfExcluded":
      return {
        kind: "outcome",
        arrange: async (ctx) => {
          await accountUsable(ctx)
          await setAccountFlags(ctx.world, ctx.state.player.email, { locked: false, coolOff: true })
          ctx.state.flagged = true
        },
      }
    case "CountryRestricted":
      return {
        kind: "outcome",
        arrange: async (ctx) => {
          await accountUsable(ctx)
          await nextRequestFrom(ctx.page, "/signin", RESTRICTED_IP)
        },
      }
    case "CaptchaFailed":
      return {
        kind: "outcome",
        arrange: async (ctx) => {
          await accountUsable(ctx)
          await nextRequestAltered(ctx.page, "/signin", (body) => ({ ...body, captcha: WRONG_CAPTCHA }))
        },
      }
    case "RateLimited":
      return unproducible("rateLimitsRelaxed", "the sign-in is never refused as RateLimited")
    case "ClientError":
      return isTransportFailure(event)
        ? {
            kind: "outcome",
            arrange: async (ctx) => {
              await accountUsable(ctx)
              await nextRequestFails(ctx.page, "/signin")
            },
          }
        : unproducible("proxyOnly", "a bare status on /signin")
    default:
      return unbound(event)
  }
}

export const loginBinding: FlowBinding<LoginState> = {
  model,
  prepare: async (_page: Page, world: World) => {
    const player = await newPlayer(world, "login", "correct horse battery")
    return {
      player,
      blockedEmail: `${player.email.split("@")[0]}@${REAL_BLOCKED_DOMAIN}`,
      hidden: false,
      flagged: false,
    }
  },
  open: async ({ page }) => {
    await page.goto("/")
    await page.getByRole("banner").getByRole("button", { name: "Log in" }).click()
    await expect(form(page)).toBeVisible()
  },
  event: (event) => {
    switch (event.type) {
      case "CHANGE_EMAIL":
        return {
          kind: "action",
          run: async ({ page, state }, e) => {
            const value = stringField(e, "value")
            const blocked = isBlockedDomain(value, fixtureSiteConfig.blockedEmailDomains)
            await form(page)
              .getByLabel("Email")
              .fill(blocked ? state.blockedEmail : state.player.email)
          },
        }
      case "CHANGE_PASSWORD":
        return fillField(form, "Password")
      case "CAPTCHA_VERIFIED":
        return captchaBinding(form, "CAPTCHA_VERIFIED")
      case "CAPTCHA_RESET":
        return captchaBinding(form, "CAPTCHA_RESET")
      case "SUBMIT":
        return clickButton(form, "Log in")
      default:
        return signInOutcome(event)
    }
  },
  expectState: async ({ page, state }, step) => {
    if (step.stateIds.includes("login.signedIn")) {
      await expect(form(page)).toHaveCount(0)
      await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeVisible()
      await expect(page.getByRole("banner").getByText(state.player.fullName)).toBeVisible()
      return
    }
    if (step.stateIds.includes("login.editing")) {
      await expect(form(page).getByRole("button", { name: "Log in" })).toBeEnabled()
      await expectFormErrors(form(page), errorsOf(step))
      if (isTransportFailure(step.event))
        await expect(page.getByText(AccountMessages.signinDidNotWork)).toBeVisible()
      return
    }
    throw new Error(`no page assertion for ${step.stateIds.join(", ")}`)
  },
}
