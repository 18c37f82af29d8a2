/**
 * Generated-path model of machines/wallet/cryptoDeposit.machine.ts: a player with a USDT wallet opens
 * the crypto form. The address loads, fails (then Try again), is not offered (no account key for
 * the chain: the server's reason, no Try again) or finds the session gone; on the form:
 * both tabs, a copy that works or fails and its 2 s feedback (again while shown), the recent transfers
 * (loaded, failed, session gone), push events (a USDT deposit pending then credited, another
 * currency's, a balance), the push stream failing or (re)opening (the transfers read again), a
 * purchase widget opened (a known one, an unknown
 * id refused), its frame loaded, blocked by the browser or timed out (then Try again), and closed.
 */
import { CurrencyNotSupported, Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { cryptoDepositMachine } from "./cryptoDeposit.machine.ts"
import { fixtureCryptoCurrencies, fixtureCryptoHistory, usdtAddress } from "./fixtures.ts"

const gone = new Unauthenticated({ message: "Session expired" })
const notOffered = new CurrencyNotSupported({
  message: "USDT deposits are not available right now.",
  currency: "USDT",
})
const pending = {
  type: "cryptoDeposit",
  id: "t1",
  currency: "USDT",
  txHash: "0xabc",
  amount: "12000000",
  confirmations: 1,
  requiredConfirmations: 3,
  status: "pending",
} as const

export const model = defineModel({
  name: "cryptoDeposit",
  machine: cryptoDepositMachine,
  input: {
    currency: "USDT",
    currencies: fixtureCryptoCurrencies,
    promotionCoupon: null,
    today: "2026-11-23",
  },
  events: (snapshot) => [
    ...(snapshot.matches("loading")
      ? [
          { type: "xstate.done.actor.requestAddress", output: usdtAddress },
          { type: "xstate.error.actor.requestAddress", error: transportError() },
          { type: "xstate.error.actor.requestAddress", error: gone },
          { type: "xstate.error.actor.requestAddress", error: notOffered },
        ]
      : []),
    { type: "RETRY" },
    ...(snapshot.matches({ ready: { transfers: "loading" } })
      ? [
          { type: "xstate.done.actor.loadTransfers", output: fixtureCryptoHistory },
          { type: "xstate.error.actor.loadTransfers", error: transportError() },
          { type: "xstate.error.actor.loadTransfers", error: gone },
        ]
      : []),
    // While a widget's frame is open only its own events (and closing it) are offered: the other
    // regions' transitions are all reached with the list, and the frame's three states would
    // multiply them past the explorer's bound.
    ...(snapshot.matches({ ready: { buy: "widget" } })
      ? []
      : [
          { type: "TAB", tab: snapshot.context.tab === "deposit" ? "buy" : "deposit" },
          { type: "COPY" },
          { type: "xstate.done.actor.copyText", output: undefined },
          { type: "xstate.error.actor.copyText", error: new Error("NotAllowedError") },
          { type: "xstate.after.copyFeedback.cryptoDeposit.ready.copy.copied" },
          { type: "xstate.after.copyFeedback.cryptoDeposit.ready.copy.copyFailed" },
          ...(snapshot.context.transfers.length === 0
            ? [{ type: "PUSH", event: pending }]
            : [
                { type: "PUSH", event: { ...pending, confirmations: 3, status: "credited" } },
                { type: "PUSH", event: { ...pending, currency: "BTC" } },
                { type: "PUSH", event: { type: "balance", currency: "USDT", balance: "12000000" } },
              ]),
          { type: "xstate.error.actor.pushEvents", error: new Error("EventSource unavailable") },
          { type: "STREAM_OPENED" },
        ]),
    { type: "CHOOSE_WIDGET", id: "banxa" },
    { type: "CHOOSE_WIDGET", id: "unknown" },
    { type: "WIDGETS" },
    { type: "FRAME_LOADED" },
    { type: "FRAME_BLOCKED" },
    { type: "xstate.after.widgetTimeout.cryptoDeposit.ready.buy.widget.loading" },
    { type: "RETRY_WIDGET" },
  ],
  projectContext: (snapshot) => ({
    address: snapshot.context.address !== null,
    tab: snapshot.context.tab,
    widget: snapshot.context.widget?.id ?? null,
    transfers: snapshot.context.transfers.map((t) => t.status).join(","),
  }),
})
