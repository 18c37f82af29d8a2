/**
 * What a bonus code field says as the code is typed: a projection of the couponCheck machine the
 * host flow invokes (machines/couponCheck.machine.ts). Announced politely to screen readers.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import { type couponCheckMachine, couponFeedback } from "../../machines/couponCheck.machine.ts"

type CouponActor = ActorRefFrom<typeof couponCheckMachine>

const Feedback = ({ actor, id }: { actor: CouponActor; id: string }) => {
  const feedback = useSelector(actor, couponFeedback)
  return (
    <p id={id} className={`coupon-feedback coupon-feedback--${feedback?.tone ?? "info"}`} aria-live="polite">
      {feedback === null ? null : (
        <>
          {feedback.tone === "ok" ? <span aria-hidden="true">✓ </span> : null}
          {feedback.text}
        </>
      )}
    </p>
  )
}

export const CouponFeedback = ({ actor, id }: { actor: CouponActor | undefined; id: string }) =>
  actor === undefined ? null : <Feedback actor={actor} id={id} />
