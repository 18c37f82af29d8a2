/**
 * View of machines/account/register.machine.ts (modal body only). It reports DOM facts to the machine: the
 * viewport width (for the welcome banner), the `clickId` cookie and the browser language at submit.
 * The currency dropdown is the host's (render prop); the terms open in a new tab so the form survives.
 */
import { useSelector } from "@xstate/react"
import { Checkbox, Label, Switch } from "radix-ui"
import { type ReactNode, useEffect, useRef } from "react"
import type { ActorRefFrom } from "xstate"
import type { registerMachine } from "../../machines/account/register.machine.ts"
import { Constants } from "../../services/rules.ts"
import { CouponFeedback } from "../components/CouponFeedback.tsx"
import { Captcha } from "./Captcha.tsx"
import { EmailField, FormError, NewPasswordField, SubmitButton, TextField } from "./fields.tsx"
import "./flows.css"

/** The value of one cookie of this page, or null (read at submit, never inside the machine). */
export const readCookie = (name: string, cookieString: string): string | null => {
  for (const part of cookieString.split(";")) {
    const separator = part.indexOf("=")
    if (separator === -1) continue
    if (part.slice(0, separator).trim() !== name) continue
    const raw = part.slice(separator + 1).trim()
    try {
      return decodeURIComponent(raw)
    } catch {
      return raw
    }
  }
  return null
}

/**
 * The tutorial video replaces the form on screen (the form's dialog closes, the video's opens):
 * set while the video is open, so the form, shown again, gives the focus back to the button that
 * opened it instead of starting over at the dialog's first control.
 */
let returnFocusToVideoButton = false

export const RegisterView = ({
  actor,
  onSwitchToLogin,
  onOpenVideo,
  currencySelect,
}: {
  actor: ActorRefFrom<typeof registerMachine>
  onSwitchToLogin: () => void
  onOpenVideo: (url: string) => void
  currencySelect: (props: { value: string; onChange: (code: string) => void }) => ReactNode
}) => {
  const fullName = useSelector(actor, (s) => s.context.fullName)
  const fullNameLooksValid = useSelector(actor, (s) => s.context.fullNameLooksValid)
  const email = useSelector(actor, (s) => s.context.email)
  const password = useSelector(actor, (s) => s.context.password)
  const passwordLooksLong = useSelector(actor, (s) => s.context.passwordLooksLong)
  const currency = useSelector(actor, (s) => s.context.currency)
  const bonusCodeOpen = useSelector(actor, (s) => s.context.bonusCodeOpen)
  const registrationCode = useSelector(actor, (s) => s.context.registrationCode)
  const coupon = useSelector(actor, (s) => s.children.coupon)
  const terms = useSelector(actor, (s) => s.context.terms)
  const errors = useSelector(actor, (s) => s.context.errors)
  const captchaKey = useSelector(actor, (s) => s.context.captchaKey)
  const bannerVisible = useSelector(actor, (s) => s.context.bannerVisible)
  const tutorialVideoUrl = useSelector(actor, (s) => s.context.tutorialVideoUrl)
  const busy = useSelector(actor, (s) => s.matches("checkingEmail") || s.matches("submitting"))

  const videoButton = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (!returnFocusToVideoButton) return
    returnFocusToVideoButton = false
    videoButton.current?.focus()
  }, [])

  useEffect(() => {
    const report = () => actor.send({ type: "VIEWPORT_CHANGED", width: window.innerWidth })
    report()
    window.addEventListener("resize", report)
    return () => window.removeEventListener("resize", report)
  }, [actor])

  return (
    <div className={bannerVisible ? "flows-register flows-register--with-banner" : "flows-register"}>
      {bannerVisible ? (
        <aside className="flows__banner" aria-label="Welcome bonus">
          <p className="flows__banner-eyebrow">Welcome bonus</p>
          <p className="flows__banner-title">{Constants.welcomeFreeSpins} free spins</p>
        </aside>
      ) : null}
      <form
        className="flows"
        aria-label="Sign up"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          actor.send({
            type: "SUBMIT",
            clickId: readCookie("clickId", document.cookie),
            language: navigator.language,
          })
        }}
      >
        <fieldset className="flows__fieldset" disabled={busy}>
          <TextField
            id="register-full-name"
            label="Full name"
            type="text"
            autoComplete="name"
            maxLength={50}
            value={fullName}
            success={fullNameLooksValid}
            error={errors.fullName}
            onChange={(value) => actor.send({ type: "CHANGE_FULL_NAME", value })}
          />
          <EmailField
            id="register-email"
            value={email}
            error={errors.email}
            onChange={(value) => actor.send({ type: "CHANGE_EMAIL", value })}
          />
          <NewPasswordField
            id="register-password"
            label="Password"
            value={password}
            success={passwordLooksLong}
            error={errors.password}
            onChange={(value) => actor.send({ type: "CHANGE_PASSWORD", value })}
          />
          <div className="field">
            {currencySelect({
              value: currency,
              onChange: (code) => actor.send({ type: "CHANGE_CURRENCY", code }),
            })}
          </div>
          <div className="flows__toggle">
            <Switch.Root
              id="register-bonus-toggle"
              className="flows__switch-root"
              checked={bonusCodeOpen}
              onCheckedChange={() => actor.send({ type: "TOGGLE_BONUS_CODE" })}
            >
              <Switch.Thumb className="flows__switch-thumb" />
            </Switch.Root>
            <Label.Root htmlFor="register-bonus-toggle">I have a bonus code</Label.Root>
          </div>
          {bonusCodeOpen ? (
            <TextField
              id="register-bonus-code"
              label="Bonus code"
              type="text"
              autoComplete="off"
              maxLength={64}
              value={registrationCode}
              error={undefined}
              onChange={(value) => actor.send({ type: "CHANGE_BONUS_CODE", value })}
            />
          ) : null}
          {bonusCodeOpen ? <CouponFeedback actor={coupon} id="register-bonus-code-check" /> : null}
          <div className="flows__terms">
            <div className="flows__toggle">
              <Checkbox.Root
                id="register-terms"
                className="flows__checkbox"
                checked={terms}
                aria-invalid={errors.terms ? true : undefined}
                aria-describedby={errors.terms ? "register-terms-error" : undefined}
                onCheckedChange={(checked) => actor.send({ type: "SET_TERMS", accepted: checked === true })}
              >
                <Checkbox.Indicator className="flows__checkbox-indicator">✓</Checkbox.Indicator>
              </Checkbox.Root>
              <Label.Root htmlFor="register-terms">
                I am 18+ and accept the{" "}
                <a href="/terms" target="_blank" rel="noopener noreferrer">
                  Terms and Conditions
                </a>
              </Label.Root>
            </div>
            {errors.terms ? (
              <p id="register-terms-error" className="field__error" role="alert">
                {errors.terms}
              </p>
            ) : null}
          </div>
          <Captcha
            key={captchaKey}
            errorId="register-captcha-error"
            error={errors.captcha}
            onVerified={(payload) => actor.send({ type: "CAPTCHA_VERIFIED", payload })}
            onReset={() => actor.send({ type: "CAPTCHA_RESET" })}
          />
          <FormError message={errors.form} />
          <SubmitButton busy={busy} label="Sign up" busyLabel="Creating your account…" />
        </fieldset>
        <p className="flows__aside">
          <button
            ref={videoButton}
            type="button"
            className="link-button"
            onClick={() => {
              returnFocusToVideoButton = true
              onOpenVideo(tutorialVideoUrl)
            }}
          >
            Watch the tutorial video
          </button>
        </p>
        <p className="flows__switch">
          Already have an account?{" "}
          <button type="button" className="link-button" onClick={onSwitchToLogin}>
            Log in
          </button>
        </p>
      </form>
    </div>
  )
}
