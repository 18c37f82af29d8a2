/**
 * View of machines/wallet/iframe.machine.ts (modal body): the payment page in a frame. The frame's
 * `load` events go to the machine (the first is the page, the next one the provider's return), and
 * so does what says whether the page is there at all: its `payments:ready` message (only from this
 * frame's window and the page's origin), or the browser's refusal to frame it (a CSP violation
 * naming the page's origin). A page that could not be loaded is said in words, with Try again.
 */
import { useSelector } from "@xstate/react"
import { useEffect, useRef } from "react"
import type { ActorRefFrom } from "xstate"
import { IframeMessages, type iframeMachine } from "../../machines/wallet/iframe.machine.ts"
import { Spinner } from "../components/Spinner.tsx"
import "./wallet.css"

type IframeActor = ActorRefFrom<typeof iframeMachine>

const originOf = (url: string): string | null => {
  try {
    return new URL(url, window.location.href).origin
  } catch {
    return null
  }
}

const PaymentFrame = ({ actor, url }: { actor: IframeActor; url: string }) => {
  const frame = useRef<HTMLIFrameElement>(null)
  useEffect(() => {
    const origin = originOf(url)
    const onMessage = (event: MessageEvent) => {
      if (frame.current === null || event.source !== frame.current.contentWindow) return
      if (event.origin !== origin) return
      const data: unknown = event.data
      if (typeof data === "object" && data !== null && "type" in data && data.type === "payments:ready")
        actor.send({ type: "FRAME_READY" })
    }
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (event.effectiveDirective === "frame-src" && originOf(event.blockedURI) === origin)
        actor.send({ type: "FRAME_BLOCKED" })
    }
    window.addEventListener("message", onMessage)
    document.addEventListener("securitypolicyviolation", onViolation)
    return () => {
      window.removeEventListener("message", onMessage)
      document.removeEventListener("securitypolicyviolation", onViolation)
    }
  }, [actor, url])
  return (
    <iframe
      ref={frame}
      className="payment-frame"
      title="Payment page"
      src={url}
      onLoad={() => actor.send({ type: "FRAME_LOADED" })}
    />
  )
}

export const IframeView = ({ actor }: { actor: IframeActor }) => {
  const url = useSelector(actor, (s) => s.context.url)
  const attempt = useSelector(actor, (s) => s.context.frameAttempt)
  const settling = useSelector(actor, (s) => s.matches("settling"))
  const failed = useSelector(actor, (s) => s.matches({ open: { frame: "failed" } }))
  const failure = useSelector(actor, (s) => s.context.frameFailure)
  if (settling) return <Spinner label="Checking your payment" />
  if (failed)
    return (
      <div className="payment-frame payment-frame--failed" role="alert">
        <p>
          <strong>{IframeMessages.loadFailed}</strong>
        </p>
        {failure === null ? null : <p>{IframeMessages[failure]}</p>}
        <button
          type="button"
          className="button button--primary"
          onClick={() => actor.send({ type: "RETRY" })}
        >
          Try again
        </button>
      </div>
    )
  return <PaymentFrame key={attempt} actor={actor} url={url} />
}
