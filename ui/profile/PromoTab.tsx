/** The promo e-mail tab: the same switch as in the general tab (`promoEmail` machine). */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { promoEmailMachine } from "../../machines/profile/promoEmail.machine.ts"
import { ProfileFormMessages } from "../../services/profile-form.ts"
import { Spinner } from "../components/Spinner.tsx"
import { LoadFailed, PromoSwitch } from "./fields.tsx"

export const PromoTab = ({ actor }: { actor: ActorRefFrom<typeof promoEmailMachine> }) => {
  const subscribed = useSelector(actor, (s) => s.context.subscribed)
  const view = useSelector(actor, (s) =>
    s.matches("loading")
      ? "loading"
      : s.matches("loadFailed")
        ? "loadFailed"
        : s.matches("saving")
          ? "saving"
          : "ready",
  )
  if (view === "loading") return <Spinner label="Loading your choice" />
  if (view === "loadFailed")
    return (
      <LoadFailed message={ProfileFormMessages.loadFailed} onRetry={() => actor.send({ type: "RETRY" })} />
    )
  return (
    <div className="profile__section panel">
      <h2>Promotional e-mails</h2>
      <p className="muted">
        Offers, free spins and news, a few times a month. Every one of them has a link to unsubscribe, no
        sign-in needed.
      </p>
      <PromoSwitch
        id="promo-tab-switch"
        subscribed={subscribed === true}
        busy={view === "saving"}
        onToggle={() => actor.send({ type: "TOGGLE" })}
      />
    </div>
  )
}
