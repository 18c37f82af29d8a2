/**
 * Generated-path model of machines/couponCheck.machine.ts: a code typed, blanked, typed again while
 * waiting or after an answer; the pause; each answer of the check (what it grants, the server's
 * reason, a failure to check).
 */
import { CouponRejected, RateLimited } from "../services/errors.ts"
import { couponCheckMachine } from "./couponCheck.machine.ts"
import { transportError } from "./flowFixtures.ts"
import { defineModel } from "./model.ts"
import { welcomeOffer } from "./profile/fixtures.ts"

export const model = defineModel({
  name: "couponCheck",
  machine: couponCheckMachine,
  events: (snapshot) => [
    { type: "CODE", value: "welcome1" },
    { type: "CODE", value: "  " },
    ...(snapshot.matches("waiting") ? [{ type: "xstate.after.typingPause.couponCheck.waiting" }] : []),
    ...(snapshot.matches("checking")
      ? [
          {
            type: "xstate.done.actor.check",
            output: { couponName: "WELCOME1", promotion: welcomeOffer },
          },
          {
            type: "xstate.error.actor.check",
            error: new CouponRejected({ message: "This bonus code does not exist.", reason: "unknown" }),
          },
          {
            type: "xstate.error.actor.check",
            error: new RateLimited({ message: "slow", retryAfterSeconds: 60 }),
          },
          { type: "xstate.error.actor.check", error: transportError() },
        ]
      : []),
  ],
  projectContext: (snapshot) => ({ code: snapshot.context.code, message: snapshot.context.message !== null }),
})
