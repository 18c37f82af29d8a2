/**
 * Generated-path model of machines/profile/bonuses.machine.ts: the tab loads with an active bonus
 * and the welcome offer, with only history, or fails or finds the session gone; the active bonus is
 * read again on its timer (still active, converted, not readable, session gone); an offer is taken or declined (saved, gone meanwhile, failed); the bonus
 * is forfeited after its preview (or not, or it ended meanwhile); a code is redeemed, refused with
 * the server's reason, or not checked; the player opts out of offers.
 */
import {
  CouponRejected,
  PromotionNotFound,
  PromotionUnavailable,
  Unauthenticated,
} from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { bonusesMachine } from "./bonuses.machine.ts"
import { activeBonus, forfeitedBonus, welcomeOffer } from "./fixtures.ts"

const gone = new Unauthenticated({ message: "Session expired" })
const withBonus = {
  mine: { bonuses: [activeBonus, forfeitedBonus] },
  offers: { optedOut: false, promotions: [welcomeOffer] },
}
const historyOnly = { mine: { bonuses: [forfeitedBonus] }, offers: { optedOut: true, promotions: [] } }

export const model = defineModel({
  name: "bonuses",
  machine: bonusesMachine.provide({ actions: { toast: () => {} } }),
  events: [
    { type: "xstate.done.actor.load", output: withBonus },
    { type: "xstate.done.actor.load", output: historyOnly },
    { type: "xstate.error.actor.load", error: transportError() },
    { type: "xstate.error.actor.load", error: gone },
    { type: "RETRY" },
    { type: "REFRESH" },
    { type: "xstate.after.bonusRefresh.bonuses.ready.following" },
    { type: "xstate.done.actor.progress", output: { bonuses: [activeBonus] } },
    { type: "xstate.done.actor.progress", output: { bonuses: [{ ...activeBonus, status: "completed" }] } },
    { type: "xstate.error.actor.progress", error: transportError() },
    { type: "xstate.error.actor.progress", error: gone },
    { type: "ACCEPT", id: "welcome-1" },
    { type: "ACCEPT", id: "welcome-9" },
    { type: "DECLINE", id: "welcome-1" },
    { type: "xstate.done.actor.choose", output: { id: "welcome-1", accepted: true } },
    { type: "xstate.done.actor.choose", output: { id: "welcome-1", accepted: false } },
    {
      type: "xstate.error.actor.choose",
      error: new PromotionUnavailable({
        message: "This offer is not available to you now.",
        id: "welcome-1",
      }),
    },
    { type: "xstate.error.actor.choose", error: transportError() },
    { type: "xstate.error.actor.choose", error: gone },
    { type: "FORFEIT", id: activeBonus.id },
    { type: "FORFEIT", id: forfeitedBonus.id },
    { type: "CANCEL" },
    { type: "CONFIRM" },
    { type: "xstate.done.actor.forfeit", output: { ...activeBonus, status: "forfeited" } },
    {
      type: "xstate.error.actor.forfeit",
      error: new PromotionNotFound({ message: "There is no such bonus among yours.", id: activeBonus.id }),
    },
    { type: "xstate.error.actor.forfeit", error: transportError() },
    { type: "xstate.error.actor.forfeit", error: gone },
    { type: "CODE", value: "ab" },
    { type: "CODE", value: "welcome2" },
    { type: "REDEEM" },
    {
      type: "xstate.done.actor.redeem",
      output: { couponName: "WELCOME2", promotion: { ...welcomeOffer, id: "welcome-2", accepted: true } },
    },
    {
      type: "xstate.error.actor.redeem",
      error: new CouponRejected({
        message: "This bonus code is not for your next deposit.",
        reason: "not-eligible",
      }),
    },
    { type: "xstate.error.actor.redeem", error: transportError() },
    { type: "xstate.error.actor.redeem", error: gone },
    { type: "OPT_OUT" },
    { type: "xstate.done.actor.optOut", output: { optedOut: true, promotions: [] } },
    { type: "xstate.error.actor.optOut", error: transportError() },
    { type: "xstate.error.actor.optOut", error: gone },
  ],
  projectContext: (snapshot) => ({
    bonuses: snapshot.context.bonuses.length,
    offers: snapshot.context.offers.promotions.length,
    selected: snapshot.context.selected?.id ?? null,
    code: snapshot.context.code,
    codeError: snapshot.context.codeError,
    choice: snapshot.context.choice,
  }),
})
