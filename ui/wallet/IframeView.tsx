/**
 * View of machines/wallet/iframe.machine.ts (modal body): the payment page in a frame. The frame's
 * `load` events go to the machine (the first is the page, the next one the provider's return).
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { iframeMachine } from "../../machines/wallet/iframe.machine.ts"
import { Spinner } from "../components/Spinner.tsx"
import "./wallet.css"

export const IframeView = ({ actor }: { actor: ActorRefFrom<typeof iframeMachine> }) => {
  const url = useSelector(actor, (s) => s.context.url)
  const settling = useSelector(actor, (s) => s.matches("settling"))
  if (settling) return <Spinner label="Checking your payment" />
  return (
    <iframe
      className="payment-frame"
      title="Payment page"
      src={url}
      onLoad={() => actor.send({ type: "FRAME_LOADED" })}
    />
  )
}
