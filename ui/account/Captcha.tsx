/**
 * The self-hosted ALTCHA captcha (altcha@3.2.2). The widget fetches its proof-of-work challenge from
 * our own server and solves it in inline (blob) web workers: no other host is contacted, the
 * "Protected by ALTCHA" footer and the logo link are hidden, and human-interaction collection is
 * off. It reports a verified payload or that the payload is gone (expired, error, reset); the flow
 * machine owns the payload and remounts this component (React `key`) once the payload is spent.
 * Checked in Chromium: one request (the challenge, on click), no links, a payload of base64 JSON
 * `{ challenge: { parameters, signature }, solution }` as server/captcha expects.
 */
import type {} from "altcha/types/react"
import { useEffect, useEffectEvent, useRef } from "react"

/** The challenge endpoint of the contract (user-service `captchaChallenge`). */
export const captchaChallengeUrl = "/user-service/api/v1/captcha/challenge"

const widgetConfiguration = JSON.stringify({
  hideFooter: true,
  hideLogo: true,
  humanInteractionSignature: false,
  auto: "off",
})

/** The `statechange` event's detail, checked rather than trusted. */
const readStateChange = (event: Event): { state: string; payload: string | null } | null => {
  if (!(event instanceof CustomEvent)) return null
  const detail: unknown = event.detail
  if (typeof detail !== "object" || detail === null || !("state" in detail)) return null
  const state = detail.state
  if (typeof state !== "string") return null
  const payload = "payload" in detail && typeof detail.payload === "string" ? detail.payload : null
  return { state, payload }
}

export const Captcha = ({
  onVerified,
  onReset,
  error,
  errorId,
}: {
  onVerified: (payload: string) => void
  onReset: () => void
  /** The machine's captcha message, if any. */
  error: string | undefined
  /** Id of the error element. */
  errorId: string
}) => {
  // A DOM handle for the listener only (presentational, not flow state).
  const widget = useRef<HTMLElement>(null)
  const verified = useEffectEvent(onVerified)
  const reset = useEffectEvent(onReset)

  useEffect(() => {
    // Loaded on first use: the widget (≈110 KB) stays out of the main bundle and never runs on the server.
    void import("altcha")
  }, [])

  useEffect(() => {
    const element = widget.current
    if (element === null) return
    const onStateChange = (event: Event) => {
      const change = readStateChange(event)
      if (change === null) return
      if (change.state === "verified" && change.payload !== null) verified(change.payload)
      else if (change.state !== "verifying") reset()
    }
    element.addEventListener("statechange", onStateChange)
    return () => element.removeEventListener("statechange", onStateChange)
  }, [])

  return (
    <div className="captcha">
      <altcha-widget
        ref={widget}
        challenge={captchaChallengeUrl}
        configuration={widgetConfiguration}
        name="captcha"
        aria-invalid={error ? true : undefined}
      />
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
