/**
 * A machine with every construct the statechart toolkit must read and draw, beyond what the real
 * machines use today: guard combinators, inline guards/actions/actors, built-in actions, numeric
 * and named delays, a wildcard, a self transition, transitions from a state into its descendants
 * and from a state out to its ancestor, a multi-target transition into parallel regions.
 */
import {
  and,
  assign,
  createMachine,
  emit,
  fromPromise,
  log,
  not,
  or,
  raise,
  sendParent,
  setup,
  stateIn,
} from "xstate"

// Untyped `createMachine` (implementations provided after) because `setup` forbids an inline `src`.
export const kitchenSinkMachine = createMachine({
  id: "kitchen",
  context: { count: 0 },
  initial: "idle",
  on: {
    RESET: ".idle",
    "*": { actions: "track" },
  },
  states: {
    idle: {
      description: "Waiting for GO",
      tags: ["start", "calm"],
      entry: ["track", assign({ count: 0 })],
      exit: [log("bye")],
      on: {
        GO: { target: "busy", guard: and(["isReady", not("isOpen")]) },
        PING: { actions: [raise({ type: "PONG" }), () => {}] },
        SELF: { target: "idle", reenter: true },
        EITHER: { target: "busy", guard: or(["isReady", stateIn("#kitchen.idle")]) },
        INLINE: { target: "busy", guard: ({ context }) => context.count > 0 },
        SHOUT: { actions: [emit({ type: "shouted" }), sendParent({ type: "SHOUTED" })] },
      },
      after: { 300: "busy", slow: { target: "busy", actions: "track" } },
    },
    busy: {
      invoke: [
        { id: "load", src: "fetcher", onDone: "done", onError: "idle" },
        { id: "side", src: fromPromise(async () => 2) },
      ],
      on: { SPLIT: { target: ["#kitchen.both.left.b", "#kitchen.both.right.d"] } },
    },
    both: {
      type: "parallel",
      onDone: "done",
      on: { ENTER_RIGHT: ".right.d" },
      states: {
        left: { initial: "a", states: { a: { on: { NEXT: "b" } }, b: { type: "final" } } },
        right: { initial: "c", states: { c: { on: { UP: "#kitchen.both" } }, d: { type: "final" } } },
      },
    },
    done: { type: "final" },
  },
}).provide({
  guards: { isReady: () => true, isOpen: () => false },
  actions: { track: () => {} },
  delays: { slow: 2500 },
  actors: { fetcher: fromPromise(async () => 1) },
})

/**
 * The size the biggest flows will reach (~30 states, nested two levels, timers, invokes, retries):
 * a stand-in for the deposit flow, so layout readability is checked at that scale today.
 */
export const largeFlowMachine = setup({
  guards: {
    isCrypto: () => false,
    isValidAmount: () => true,
    hasRetriesLeft: () => true,
    isConfirmed: () => true,
  },
  actions: { track: () => {}, showError: () => {}, clearError: () => {} },
  actors: {
    loadMethods: fromPromise(async () => []),
    createPayment: fromPromise(async () => ({})),
    pollStatus: fromPromise(async () => ({})),
    createAddress: fromPromise(async () => ({})),
  },
  delays: { pollEvery: 5000 },
}).createMachine({
  id: "deposit",
  initial: "loading",
  on: { CLOSE: ".closed", HELP: { actions: "track" } },
  states: {
    loading: {
      invoke: { id: "loadMethods", src: "loadMethods", onDone: "choosing", onError: "loadFailed" },
    },
    loadFailed: { on: { RETRY: "loading" } },
    choosing: {
      on: {
        PICK: [{ guard: "isCrypto", target: "crypto" }, { target: "fiat" }],
        SEARCH: { actions: "track" },
      },
    },
    fiat: {
      initial: "amount",
      on: { BACK: "choosing" },
      states: {
        amount: {
          on: {
            CHANGE: { actions: "clearError" },
            CONTINUE: [{ guard: "isValidAmount", target: "details" }, { actions: "showError" }],
          },
        },
        details: { on: { BACK: "amount", SUBMIT: "creating" } },
        creating: {
          invoke: { id: "createPayment", src: "createPayment", onDone: "redirecting", onError: "failed" },
        },
        redirecting: { on: { PROVIDER_RETURNED: "polling", PROVIDER_CANCELLED: "cancelled" } },
        polling: {
          invoke: {
            id: "pollStatus",
            src: "pollStatus",
            onDone: [{ guard: "isConfirmed", target: "#deposit.success" }, { target: "waiting" }],
            onError: "failed",
          },
        },
        waiting: { after: { pollEvery: "polling" }, on: { REFRESH: "polling" } },
        failed: {
          on: { RETRY: [{ guard: "hasRetriesLeft", target: "creating" }, { target: "#deposit.gaveUp" }] },
        },
        cancelled: { on: { AGAIN: "amount" } },
      },
    },
    crypto: {
      initial: "coin",
      on: { BACK: "choosing" },
      states: {
        coin: { on: { PICK_COIN: "network" } },
        network: { on: { PICK_NETWORK: "address", BACK: "coin" } },
        address: {
          initial: "generating",
          states: {
            generating: {
              invoke: { id: "createAddress", src: "createAddress", onDone: "shown", onError: "failed" },
            },
            shown: {
              on: { COPY: { actions: "track" }, SHOW_QR: "qr" },
              after: { 900000: "expired" },
            },
            qr: { on: { HIDE_QR: "shown" } },
            expired: { on: { REGENERATE: "generating" } },
            failed: { on: { RETRY: "generating" } },
          },
          on: { TX_SEEN: "confirming" },
        },
        confirming: {
          initial: "pending",
          states: {
            pending: {
              on: { CONFIRMATION: [{ guard: "isConfirmed", target: "done" }, { target: "pending" }] },
            },
            done: { type: "final" },
          },
          onDone: "#deposit.success",
        },
      },
    },
    success: { entry: "track", on: { DONE: "closed" } },
    gaveUp: { on: { CONTACT_SUPPORT: { actions: "track" }, DONE: "closed" } },
    closed: { type: "final" },
  },
})
