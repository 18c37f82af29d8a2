/**
 * Binding of machines/account/register.model.ts to the page (ui/account/RegisterView.tsx) and the real
 * server. Each path registers a fresh address (a throw-away domain when the path meets the
 * DISPOSABLE answer); a taken address is taken for real first; the other refusals are arranged on
 * the way to the server (a request from a restricted country, a field the server must refuse).
 */
import { expect, type Locator, type Page } from "@playwright/test"
import { model } from "../../../machines/account/register.model.ts"
import { fixtureSiteConfig } from "../../../machines/flowFixtures.ts"
import { isBlockedDomain } from "../../../services/account-rules.ts"
import { Constants } from "../../../services/rules.ts"
import { registerPlayer } from "../support/api.ts"
import { type FlowBinding, type StepContext, unbound, unproducible } from "../support/replay.ts"
import { skip } from "../support/skip-reasons.ts"
import {
  captchaBinding,
  clickButton,
  errorsOf,
  errorTag,
  expectFormErrors,
  fillField,
  isTransportFailure,
  nextRequestAltered,
  nextRequestFails,
  nextRequestFrom,
  REAL_BLOCKED_DOMAIN,
  RESTRICTED_IP,
  stringField,
  WRONG_CAPTCHA,
} from "./common.ts"

export interface RegisterState {
  /** The address the path registers (the model's well-formed one). */
  readonly email: string
  readonly blockedEmail: string
  /** Whether another account holds `email` right now (arranged for EmailTaken). */
  taken: boolean
}

type Ctx = StepContext<RegisterState>

const form = (page: Page): Locator => page.getByRole("form", { name: "Sign up" })

const emailStatusOf = (event: { readonly type: string }): string | null => {
  if (event.type !== "xstate.done.actor.validateEmail") return null
  const output: unknown = (event as unknown as Record<string, unknown>).output
  return typeof output === "object" &&
    output !== null &&
    "email_status" in output &&
    typeof output.email_status === "string"
    ? output.email_status
    : null
}

/** Frees the address again when an earlier step had it taken. */
const addressFree = async ({ world, state }: Ctx): Promise<void> => {
  if (!state.taken) return
  await world.sql("UPDATE users SET email = 'gone-' || email WHERE lower(email) = lower($1)", [state.email])
  state.taken = false
}

export const registerBinding: FlowBinding<RegisterState> = {
  model,
  prepare: async (_page, world, path) => {
    const disposable = path.steps.some((s) => emailStatusOf(s.event) === "DISPOSABLE")
    const local = world.uniqueEmail("register").split("@")[0] ?? "e2e-register"
    return {
      email: disposable ? `${local}@mailinator.com` : `${local}@example.com`,
      blockedEmail: `${local}@${REAL_BLOCKED_DOMAIN}`,
      taken: false,
    }
  },
  open: async ({ page }) => {
    await page.goto("/")
    await page.getByRole("banner").getByRole("button", { name: "Sign up" }).click()
    await expect(form(page)).toBeVisible()
  },
  unproducible: (path) => {
    const statuses = path.steps.map((s) => emailStatusOf(s.event)).filter((s) => s !== null)
    if (statuses.includes("DISPOSABLE") && statuses.includes("VALID")) {
      return skip(
        "pathContradicts",
        "one address cannot be both disposable and valid for the real e-mail check",
      )
    }
    return null
  },
  event: (event) => {
    switch (event.type) {
      case "CHANGE_FULL_NAME":
        return fillField(form, "Full name")
      case "CHANGE_EMAIL":
        return {
          kind: "action",
          run: async ({ page, state }, e) => {
            const blocked = isBlockedDomain(stringField(e, "value"), fixtureSiteConfig.blockedEmailDomains)
            await form(page)
              .getByLabel("Email")
              .fill(blocked ? state.blockedEmail : state.email)
          },
        }
      case "CHANGE_PASSWORD":
        return fillField(form, "Password", { exact: true })
      case "CHANGE_CURRENCY":
        return {
          kind: "action",
          run: async ({ page }, e) => {
            const code = stringField(e, "code")
            await form(page).getByRole("button", { name: "Currency" }).click()
            await form(page)
              .getByRole("option", { name: new RegExp(`\\b${code}\\b`) })
              .click()
            await expect(form(page).getByRole("button", { name: "Currency" })).toContainText(code)
          },
        }
      case "TOGGLE_BONUS_CODE":
        return {
          kind: "action",
          run: async ({ page }) => {
            const toggle = form(page).getByRole("switch", { name: "I have a bonus code" })
            const wasOn = (await toggle.getAttribute("aria-checked")) === "true"
            await toggle.click()
            await expect(form(page).getByLabel("Bonus code", { exact: true })).toHaveCount(wasOn ? 0 : 1)
          },
        }
      case "CHANGE_BONUS_CODE":
        return fillField(form, "Bonus code", { exact: true })
      case "VIEWPORT_CHANGED":
        return {
          kind: "action",
          run: async ({ page }, e) => {
            const width = Number((e as unknown as Record<string, unknown>).width)
            await page.setViewportSize({ width, height: 900 })
            await expect(page.getByRole("complementary", { name: "Welcome bonus" })).toHaveCount(
              width > Constants.registerBannerMinWidth ? 1 : 0,
            )
          },
        }
      case "SET_TERMS":
        return {
          kind: "action",
          run: async ({ page }) => {
            const terms = form(page).getByRole("checkbox", { name: /18\+/ })
            await terms.click()
            await expect(terms).toHaveAttribute("aria-checked", "true")
          },
        }
      case "CAPTCHA_VERIFIED":
        return captchaBinding(form, "CAPTCHA_VERIFIED")
      case "CAPTCHA_RESET":
        return captchaBinding(form, "CAPTCHA_RESET")
      case "SUBMIT":
        return clickButton(form, "Sign up")
      case "xstate.error.actor.coupon":
        // The code checker's own failures are its states (couponCheck.model.ts covers them); the
        // invoked machine itself never throws, so the form never hears this.
        return unproducible("notSentByApp", "the bonus-code checker machine ends only with the form")
      case "xstate.done.actor.validateEmail":
        // The real check answers for the address prepare chose: VALID, or DISPOSABLE on a throw-away domain.
        return { kind: "outcome", arrange: addressFree }
      case "xstate.error.actor.validateEmail":
        return isTransportFailure(event)
          ? { kind: "outcome", arrange: ({ page }) => nextRequestFails(page, "/registration/validate") }
          : unbound(event)
      case "xstate.done.actor.register": {
        const output: unknown = (event as unknown as Record<string, unknown>).output
        const signedIn =
          typeof output === "object" &&
          output !== null &&
          "isAuthenticated" in output &&
          output.isAuthenticated === true
        return signedIn
          ? { kind: "outcome", arrange: addressFree }
          : unproducible("contractKept", "a registration answered 200 with no session")
      }
      default:
        switch (errorTag(event)) {
          case "EmailTaken":
            return {
              kind: "outcome",
              arrange: async ({ world, state }) => {
                await registerPlayer(world.baseUrl, {
                  email: state.email,
                  password: "someone else's password",
                  fullName: "Charles Babbage",
                  currency: "EUR",
                })
                state.taken = true
              },
            }
          case "RegistrationRefused":
            return {
              kind: "outcome",
              // The form refuses a blocked domain itself; the server's own refusal needs it past the form.
              arrange: ({ page, state }) =>
                nextRequestAltered(page, "/registration", (body) => ({ ...body, email: state.blockedEmail })),
            }
          case "ValidationFailed":
            return {
              kind: "outcome",
              arrange: ({ page }) =>
                nextRequestAltered(page, "/registration", (body) => ({ ...body, fullName: "X" })),
            }
          case "CountryRestricted":
            return {
              kind: "outcome",
              arrange: ({ page }) => nextRequestFrom(page, "/registration", RESTRICTED_IP),
            }
          case "CaptchaFailed":
            return {
              kind: "outcome",
              arrange: ({ page }) =>
                nextRequestAltered(page, "/registration", (body) => ({ ...body, captcha: WRONG_CAPTCHA })),
            }
          case "RateLimited":
            return unproducible("rateLimitsRelaxed", "the registration is never refused as RateLimited")
          case "ClientError":
            return unproducible("proxyOnly", "a bare status on /registration")
          default:
            return unbound(event)
        }
    }
  },
  expectState: async ({ page, world, state }, step) => {
    if (step.stateIds.includes("register.registered")) {
      await expect(form(page)).toHaveCount(0)
      await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeVisible()
      const rows = await world.sql("SELECT 1 FROM users WHERE lower(email) = lower($1)", [state.email])
      expect(rows.length).toBe(1)
      return
    }
    if (step.stateIds.includes("register.editing")) {
      await expect(form(page).getByRole("button", { name: "Sign up" })).toBeEnabled()
      await expectFormErrors(form(page), errorsOf(step))
      return
    }
    throw new Error(`no page assertion for ${step.stateIds.join(", ")}`)
  },
}
