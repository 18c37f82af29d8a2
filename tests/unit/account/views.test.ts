/**
 * The account-flow views rendered (server-side, no DOM needed) from real actors: each projects the
 * machine's state with accessible labels and roles and the spec's exact texts, and sends nothing by
 * itself. The clicking is covered by the e2e tests.
 */

import { createElement } from "react"
import { renderToStaticMarkup } from "react-dom/server"
import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import { confirmEmailMachine } from "../../../machines/account/confirmEmail.machine.ts"
import { forgotPasswordMachine } from "../../../machines/account/forgotPassword.machine.ts"
import { loginMachine } from "../../../machines/account/login.machine.ts"
import { registerMachine } from "../../../machines/account/register.machine.ts"
import { resetPasswordMachine } from "../../../machines/account/resetPassword.machine.ts"
import { flowInput } from "../../../machines/flowFixtures.ts"
import { AccountMessages } from "../../../services/account-rules.ts"
import { InvalidToken } from "../../../services/errors.ts"
import type { ResetPasswordPayload } from "../../../services/user-service.ts"
import { captchaChallengeUrl } from "../../../ui/account/Captcha.tsx"
import { ConfirmEmailView } from "../../../ui/account/ConfirmEmailView.tsx"
import { ForgotPasswordView } from "../../../ui/account/ForgotPasswordView.tsx"
import { LoginView } from "../../../ui/account/LoginView.tsx"
import { RegisterView, readCookie } from "../../../ui/account/RegisterView.tsx"
import { ResetPasswordView } from "../../../ui/account/ResetPasswordView.tsx"
import { settle } from "./doubles.ts"

const never = <O, I>() => fromPromise<O, I>(() => new Promise<O>(() => {}))
const noop = () => {}

describe("LoginView", () => {
  const actor = createActor(loginMachine.provide({ actors: { signIn: never() } }), {
    input: flowInput(),
  }).start()

  it("renders labelled fields, the captcha from our own server, and the links", () => {
    const html = renderToStaticMarkup(
      createElement(LoginView, { actor, onSwitchToRegister: noop, onForgotPassword: noop }),
    )
    expect(html).toMatch(/<form class="flows" aria-label="Log in" novalidate="">/i)
    expect(html).toMatch(/<label[^>]*for="login-email"[^>]*>Email<\/label>/)
    expect(html).toMatch(/<label[^>]*for="login-password"[^>]*>Password<\/label>/)
    expect(html).toContain(`challenge="${captchaChallengeUrl}"`)
    expect(html).toContain("&quot;hideFooter&quot;:true")
    expect(html).toContain("Forgot password?")
    expect(html).toContain(">Sign up</button>")
    expect(html).toContain(">Log in</button>")
  })

  it("announces field errors with aria-invalid, aria-describedby and role=alert", () => {
    actor.send({ type: "SUBMIT" })
    const html = renderToStaticMarkup(
      createElement(LoginView, { actor, onSwitchToRegister: noop, onForgotPassword: noop }),
    )
    expect(html).toMatch(/id="login-email"[^>]*aria-invalid="true"[^>]*aria-describedby="login-email-error"/)
    expect(html).toContain(
      '<p id="login-email-error" class="field__error" role="alert">Doesn&#x27;t appear to be a valid email. Wanna give it another go?</p>',
    )
  })

  it("disables the form while signing in", () => {
    actor.send({ type: "CHANGE_EMAIL", value: "ada@lovelace.example" })
    actor.send({ type: "CHANGE_PASSWORD", value: "secret-password" })
    actor.send({ type: "CAPTCHA_VERIFIED", payload: "p" })
    actor.send({ type: "SUBMIT" })
    const html = renderToStaticMarkup(
      createElement(LoginView, { actor, onSwitchToRegister: noop, onForgotPassword: noop }),
    )
    expect(html).toContain('<fieldset class="flows__fieldset" disabled="">')
    expect(html).toContain('disabled="" aria-busy="true">Logging in…</button>')
  })
})

describe("RegisterView", () => {
  const render = (actor: ReturnType<typeof start>) =>
    renderToStaticMarkup(
      createElement(RegisterView, {
        actor,
        onSwitchToLogin: noop,
        onOpenVideo: noop,
        currencySelect: ({ value }) => createElement("output", { "aria-label": "Currency" }, value),
      }),
    )
  const start = () =>
    createActor(registerMachine.provide({ actors: { validateEmail: never(), register: never() } }), {
      input: flowInput(),
    }).start()

  it("renders every field of the spec, the terms link in a new tab, the video link, and the currency", () => {
    const html = render(start())
    for (const label of ["Full name", "Email", "Password"]) expect(html).toContain(`>${label}</label>`)
    expect(html).toContain('<output aria-label="Currency">EUR</output>')
    expect(html).toContain('role="switch"')
    expect(html).toContain("I have a bonus code")
    expect(html).not.toContain(">Bonus code</label>")
    expect(html).toContain('role="checkbox"')
    expect(html).toContain(
      '<a href="/terms" target="_blank" rel="noopener noreferrer">Terms and Conditions</a>',
    )
    expect(html).toContain("Watch the tutorial video")
    expect(html).toContain(">Sign up</button>")
    expect(html).not.toContain("free spins")
  })

  it("reveals the bonus-code field when toggled and the banner on a wide viewport", () => {
    const actor = start()
    actor.send({ type: "TOGGLE_BONUS_CODE" })
    actor.send({ type: "VIEWPORT_CHANGED", width: 1280 })
    const html = render(actor)
    expect(html).toContain(">Bonus code</label>")
    expect(html).toContain('aria-label="Welcome bonus"')
    expect(html).toContain("125 free spins")
  })

  it("shows the terms error next to the checkbox", () => {
    const actor = start()
    actor.send({ type: "SUBMIT", clickId: null, language: "en" })
    const html = render(actor)
    expect(html).toMatch(/id="register-terms"[^>]*aria-invalid="true"/)
    expect(html).toContain(`role="alert">${AccountMessages.termsRequired}</p>`)
    expect(html).toContain(`role="alert">${AccountMessages.fullName}</p>`)
  })

  it("reads the clickId cookie", () => {
    expect(readCookie("clickId", "a=1; clickId=abc%20123; b=2")).toBe("abc 123")
    expect(readCookie("clickId", "a=1; xclickId=nope")).toBeNull()
    expect(readCookie("clickId", "")).toBeNull()
  })
})

describe("ForgotPasswordView and ResetPasswordView", () => {
  it("forgot password: an email field and a Restore password button", () => {
    const actor = createActor(forgotPasswordMachine.provide({ actors: { forgotPassword: never() } }), {
      input: flowInput(),
    }).start()
    const html = renderToStaticMarkup(createElement(ForgotPasswordView, { actor, onBackToLogin: noop }))
    expect(html).toContain(">Email</label>")
    expect(html).toContain(">Restore password</button>")
    expect(html).toContain(">Back to log in</button>")
  })

  it("reset password: new and confirm fields, Restore password, and the dead-link message", async () => {
    const actor = createActor(
      resetPasswordMachine.provide({
        actors: {
          resetPassword: fromPromise<void, ResetPasswordPayload>(() =>
            Promise.reject(new InvalidToken({ message: "x" })),
          ),
        },
        actions: { toast: noop },
      }),
      { input: flowInput("token") },
    ).start()
    let html = renderToStaticMarkup(createElement(ResetPasswordView, { actor }))
    expect(html).toContain(">New password</label>")
    expect(html).toContain(">Confirm password</label>")
    expect(html).toContain(">Restore password</button>")
    actor.send({ type: "SUBMIT" })
    html = renderToStaticMarkup(createElement(ResetPasswordView, { actor }))
    expect(html).toContain('role="alert">Please update values before continue</p>')
    actor.send({ type: "CHANGE_PASSWORD", value: "correct horse battery" })
    actor.send({ type: "CHANGE_CONFIRM_PASSWORD", value: "correct horse battery" })
    actor.send({ type: "CAPTCHA_VERIFIED", payload: "p" })
    actor.send({ type: "SUBMIT" })
    await settle()
    html = renderToStaticMarkup(createElement(ResetPasswordView, { actor }))
    expect(html).toContain("This password reset link is invalid, expired or already used.")
  })
})

describe("ConfirmEmailView", () => {
  it("shows progress, then the confirmation with a Continue button", async () => {
    let confirm: (value: { confirmed: boolean }) => void = noop
    const actor = createActor(
      confirmEmailMachine.provide({
        actors: {
          confirmAccount: fromPromise<{ confirmed: boolean }, { token: string }>(
            () =>
              new Promise((resolve) => {
                confirm = resolve
              }),
          ),
        },
      }),
      { input: flowInput("token") },
    ).start()
    let html = renderToStaticMarkup(createElement(ConfirmEmailView, { actor, onClose: noop }))
    expect(html).toContain('role="status"')
    expect(html).toContain("Confirming your e-mail…")
    confirm({ confirmed: true })
    await settle()
    html = renderToStaticMarkup(createElement(ConfirmEmailView, { actor, onClose: noop }))
    expect(html).toContain("Your email is confirmed. Thank you!")
    expect(html).toContain(">Continue</button>")
    actor.stop()
  })
})
