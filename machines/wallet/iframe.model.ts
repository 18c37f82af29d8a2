/**
 * Generated-path model of machines/wallet/iframe.machine.ts: a card deposit's page in the frame; the
 * fund is read (once failing), polled every 15 s, and the balance changes or not; push events for
 * this deposit (completed, failed, pending), for another deposit, and a balance event; the frame's
 * page saying it is there (before or after its `load`), blocked by the browser or silent past its
 * timeout and tried again; the return navigation; the 10-minute close and the settle window.
 */
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { fixtureFund, redirectAnswer } from "./fixtures.ts"
import { iframeMachine } from "./iframe.machine.ts"

const credited = [{ ...fixtureFund[0], balance: "4250" }].filter((e) => e !== undefined)
const depositId = redirectAnswer.depositId
const deposit = (status: "completed" | "failed" | "pending", id = depositId) => ({
  type: "PUSH",
  event: { type: "deposit", depositId: id, status, amount: "3000", currency: "EUR" },
})

export const model = defineModel({
  name: "iframe",
  // Toasts need a page; traversal runs the machine alone (the push subscription never starts).
  machine: iframeMachine.provide({ actions: { toast: () => {} } }),
  input: { url: redirectAnswer.redirectUrl, depositId, currency: "EUR" },
  events: (snapshot) => [
    { type: "FRAME_LOADED" },
    { type: "FRAME_READY" },
    { type: "FRAME_BLOCKED" },
    { type: "RETRY" },
    { type: "xstate.after.frameTimeout.iframe.open.frame.loading" },
    { type: "xstate.done.actor.loadFund", output: fixtureFund },
    { type: "xstate.done.actor.loadFund", output: credited },
    { type: "xstate.error.actor.loadFund", error: transportError() },
    // The push stream failing leaves the frame on its poll (no transition target).
    { type: "xstate.error.actor.pushEvents", error: transportError() },
    { type: "xstate.error.actor.settleFund", error: transportError() },
    { type: "xstate.done.actor.settleFund", output: fixtureFund },
    { type: "xstate.done.actor.settleFund", output: credited },
    { type: "xstate.error.actor.settleFund", error: transportError() },
    { type: "xstate.error.actor.pushEvents", error: new Error("no EventSource") },
    { type: "xstate.after.poll.iframe.open.balance.waiting" },
    { type: "xstate.after.autoClose.iframe.open" },
    { type: "xstate.after.settle.iframe.settling" },
    deposit("completed"),
    deposit("failed"),
    deposit("pending"),
    deposit("completed", "another-deposit"),
    ...(snapshot.context.baseline === null
      ? []
      : [{ type: "PUSH", event: { type: "balance", currency: "EUR", balance: "4250" } }]),
  ],
  projectContext: (snapshot) => ({
    baseline: snapshot.context.baseline,
    result: snapshot.context.result,
    pageLoaded: snapshot.context.pageLoaded,
    frameFailure: snapshot.context.frameFailure,
  }),
})
