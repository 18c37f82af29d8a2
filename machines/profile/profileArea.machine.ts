/**
 * The profile area: `/profile` and its tabs — general (the profile form), deposits, bonuses, loyalty,
 * verification, sessions, security, responsible gaming, promo e-mail. The shell runs it while its
 * path is under `/profile` (its code is downloaded then) and sends it every new path as ROUTE; the
 * area runs the open tab's machine and routes what the tabs report to the shell: a changed account
 * (the session's copy of the profile is refreshed), a session that ended (re-check it), a
 * self-exclusion (home, signed out everywhere).
 *
 * It follows the session (the `auth` actor of the system) through an invoked watcher: a visitor who
 * is not signed in gets the login modal, and after signing in the tab they asked for.
 */
import {
  type ActorRefFrom,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  sendParent,
  setup,
} from "xstate"
import { toCapturedError } from "../../services/captured-error.ts"
import { type ProfileTab, profileTabOf } from "../../services/profile-tabs.ts"
import type { authMachine } from "../auth.machine.ts"
import type { betHistoryMachine } from "../games/betHistory.machine.ts"
import { lazyLogic } from "../lazy.ts"
import type { cryptoHistoryMachine } from "../wallet/cryptoHistory.machine.ts"
import type { depositHistoryMachine } from "../wallet/depositHistory.machine.ts"
import type { withdrawalsMachine } from "../wallet/withdrawals.machine.ts"
import { bonusesMachine } from "./bonuses.machine.ts"
import { changePasswordMachine } from "./changePassword.machine.ts"
import { loyaltyMachine } from "./loyalty.machine.ts"
import { profileFormMachine } from "./profileForm.machine.ts"
import { promoEmailMachine } from "./promoEmail.machine.ts"
import { responsibleGamingMachine } from "./responsibleGaming.machine.ts"
import { sessionsMachine } from "./sessions.machine.ts"
import type { TabOutput } from "./support.ts"
import { verificationDocumentMachine } from "./verificationDocument.machine.ts"

/**
 * The deposits tab comes with the money flows' chunk (it shares their wallet client): a static import
 * would split that client into a chunk of its own, one more file every first visit names.
 */
export const depositHistory = lazyLogic<typeof depositHistoryMachine>("deposits", () =>
  import("../wallet/depositHistory.machine.ts").then((m) => m.depositHistoryMachine),
)

/** The withdrawals tab comes with the cashout client: downloaded when the tab opens. */
export const withdrawalHistory = lazyLogic<typeof withdrawalsMachine>("withdrawals", () =>
  import("../wallet/withdrawals.machine.ts").then((m) => m.withdrawalsMachine),
)

/** The crypto deposits tab comes with the money flows' chunk too (the crypto client). */
export const cryptoHistory = lazyLogic<typeof cryptoHistoryMachine>("cryptoDeposits", () =>
  import("../wallet/cryptoHistory.machine.ts").then((m) => m.cryptoHistoryMachine),
)

/** The bets tab comes with the game calls' client: downloaded when the tab opens. */
export const betHistory = lazyLogic<typeof betHistoryMachine>("bets", () =>
  import("../games/betHistory.machine.ts").then((m) => m.betHistoryMachine),
)

export type SessionStatus = "checking" | "anonymous" | "signedIn"

export interface ProfileAreaInput {
  readonly path: string
}

export interface ProfileAreaContext {
  readonly path: string
  /** The tab the path names; null for an unknown address under /profile. */
  readonly tab: ProfileTab | null
}

export type ProfileAreaEvent =
  | { readonly type: "ROUTE"; readonly path: string }
  | { readonly type: "SESSION"; readonly status: SessionStatus }
  | { readonly type: "LOG_IN" }
  | { readonly type: "ACCOUNT_CHANGED" }
  /** The deposits (or bets) tab's code failed to download: try again. */
  | { readonly type: "RETRY" }

/** What the area asks of the shell. */
export type AreaRequest =
  | { readonly type: "OPEN_LOGIN" }
  | { readonly type: "AUTH_RECHECK" }
  | { readonly type: "ACCOUNT_CHANGED" }
  | { readonly type: "NAVIGATE"; readonly path: string }

/** What the shell must do when a tab ended, in order. */
export const shellRequestsForTab = (output: TabOutput): ReadonlyArray<AreaRequest> => {
  switch (output.type) {
    case "sessionEnded":
      return [{ type: "AUTH_RECHECK" }]
    // Signed out everywhere by the server: leave the area first, then learn the session is gone.
    case "selfExcluded":
      return [{ type: "NAVIGATE", path: "/" }, { type: "AUTH_RECHECK" }]
    case "saved":
      return [{ type: "ACCOUNT_CHANGED" }]
  }
}

type AuthSnapshot = ReturnType<ActorRefFrom<typeof authMachine>["getSnapshot"]>

/** The session's status as the area needs it (signing out counts as checking: the shell leaves anyway). */
export const sessionStatusOf = (snapshot: AuthSnapshot): SessionStatus =>
  snapshot.matches("authenticated") ? "signedIn" : snapshot.matches("anonymous") ? "anonymous" : "checking"

const tabRoute = (tab: ProfileTab) => ({ guard: { type: "isTab" as const, params: { tab } }, target: tab })

/** Every tab invokes its machine the same way: its end is routed to the shell, a crash reported. */
const tabOutcome = {
  onDone: {
    target: "#profileArea.open.ended",
    actions: {
      type: "routeTabOutput" as const,
      params: ({ event }: { event: { output: TabOutput } }) => ({ output: event.output }),
    },
  },
  onError: {
    target: "#profileArea.open.ended",
    actions: {
      type: "reportCrash" as const,
      params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
    },
  },
}

export const profileAreaMachine = setup({
  types: {
    input: {} as ProfileAreaInput,
    context: {} as ProfileAreaContext,
    events: {} as ProfileAreaEvent,
    // Each child's id → its logic, so `snapshot.children.<id>` is typed as that actor.
    children: {} as {
      session: "watchSession"
      general: "general"
      loadDeposits: "loadDeposits"
      deposits: "deposits"
      loadWithdrawals: "loadWithdrawals"
      withdrawals: "withdrawals"
      loadCryptoDeposits: "loadCryptoDeposits"
      cryptoDeposits: "cryptoDeposits"
      loadBets: "loadBets"
      bets: "bets"
      idDocument: "document"
      billDocument: "document"
      bonuses: "bonuses"
      loyalty: "loyalty"
      sessions: "sessions"
      security: "security"
      responsibleGaming: "responsibleGaming"
      promo: "promo"
    },
  },
  actors: {
    /** Follows the session actor (systemId "auth") and reports its status as SESSION events. */
    watchSession: fromCallback<ProfileAreaEvent>(({ system, sendBack }) => {
      const auth: ActorRefFrom<typeof authMachine> | undefined = system.get("auth")
      if (auth === undefined) {
        sendBack({ type: "SESSION", status: "anonymous" })
        return () => {}
      }
      const report = (snapshot: AuthSnapshot) =>
        sendBack({ type: "SESSION", status: sessionStatusOf(snapshot) })
      report(auth.getSnapshot())
      const subscription = auth.subscribe(report)
      return () => subscription.unsubscribe()
    }),
    general: profileFormMachine,
    loadDeposits: fromPromise(() => depositHistory.load()),
    deposits: depositHistory.logic,
    loadWithdrawals: fromPromise(() => withdrawalHistory.load()),
    withdrawals: withdrawalHistory.logic,
    loadCryptoDeposits: fromPromise(() => cryptoHistory.load()),
    cryptoDeposits: cryptoHistory.logic,
    loadBets: fromPromise(() => betHistory.load()),
    bets: betHistory.logic,
    document: verificationDocumentMachine,
    bonuses: bonusesMachine,
    loyalty: loyaltyMachine,
    sessions: sessionsMachine,
    security: changePasswordMachine,
    responsibleGaming: responsibleGamingMachine,
    promo: promoEmailMachine,
  },
  guards: {
    isSignedIn: (_, params: { status: SessionStatus }) => params.status === "signedIn",
    isAnonymous: (_, params: { status: SessionStatus }) => params.status === "anonymous",
    isTab: ({ context }, params: { tab: ProfileTab }) => context.tab === params.tab,
    staysOnTab: ({ context }, params: { path: string }) =>
      profileTabOf(params.path) === context.tab && context.tab !== null,
  },
  actions: {
    route: assign((_, params: { path: string }) => ({ path: params.path, tab: profileTabOf(params.path) })),
    askForLogin: sendParent({ type: "OPEN_LOGIN" }),
    announceChange: sendParent({ type: "ACCOUNT_CHANGED" }),
    routeTabOutput: enqueueActions(({ enqueue }, params: { output: TabOutput }) => {
      for (const request of shellRequestsForTab(params.output)) enqueue.sendParent(request)
    }),
    /** A tab machine that crashed (typed failures are handled inside it) is unexpected. */
    reportCrash: sendParent((_, params: { error: unknown }) => ({
      type: "UNEXPECTED_ERROR",
      error: toCapturedError(params.error),
    })),
  },
}).createMachine({
  id: "profileArea",
  context: ({ input }) => ({ path: input.path, tab: profileTabOf(input.path) }),
  invoke: {
    id: "session",
    src: "watchSession",
    onError: { actions: { type: "reportCrash", params: ({ event }) => ({ error: event.error }) } },
  },
  on: {
    ROUTE: { actions: { type: "route", params: ({ event }) => ({ path: event.path }) } },
    ACCOUNT_CHANGED: { actions: "announceChange" },
  },
  initial: "waiting",
  states: {
    /** The session is still being checked: nothing to show yet. */
    waiting: {
      on: {
        SESSION: [
          {
            guard: { type: "isSignedIn", params: ({ event }) => ({ status: event.status }) },
            target: "open",
          },
          {
            guard: { type: "isAnonymous", params: ({ event }) => ({ status: event.status }) },
            target: "signedOut",
          },
        ],
      },
    },
    /** A visitor: the login modal opens (again on LOG_IN); signing in opens the tab asked for. */
    signedOut: {
      entry: "askForLogin",
      on: {
        LOG_IN: { actions: "askForLogin" },
        SESSION: {
          guard: { type: "isSignedIn", params: ({ event }) => ({ status: event.status }) },
          target: "open",
        },
      },
    },
    open: {
      initial: "route",
      on: {
        SESSION: {
          guard: { type: "isAnonymous", params: ({ event }) => ({ status: event.status }) },
          target: "signedOut",
        },
        ROUTE: [
          {
            guard: { type: "staysOnTab", params: ({ event }) => ({ path: event.path }) },
            actions: { type: "route", params: ({ event }) => ({ path: event.path }) },
          },
          {
            target: ".route",
            actions: { type: "route", params: ({ event }) => ({ path: event.path }) },
          },
        ],
      },
      states: {
        route: {
          always: [
            tabRoute("general"),
            tabRoute("deposits"),
            tabRoute("withdrawals"),
            tabRoute("cryptoDeposits"),
            tabRoute("bets"),
            tabRoute("bonuses"),
            tabRoute("loyalty"),
            tabRoute("verification"),
            tabRoute("sessions"),
            tabRoute("security"),
            tabRoute("responsibleGaming"),
            tabRoute("promo"),
            { target: "notFound" },
          ],
        },
        general: { invoke: { id: "general", src: "general", input: {}, ...tabOutcome } },
        /** Its code first (the money flows' chunk, usually prefetched already), then the tab. */
        deposits: {
          initial: "loading",
          states: {
            loading: {
              invoke: {
                id: "loadDeposits",
                src: "loadDeposits",
                onDone: "active",
                onError: "loadFailed",
              },
            },
            loadFailed: { on: { RETRY: "loading" } },
            active: {
              invoke: {
                id: "deposits",
                src: "deposits",
                // The server's days are UTC: the default range ends on today's UTC date.
                input: () => ({ today: new Date().toISOString().slice(0, 10) }),
                ...tabOutcome,
              },
            },
          },
        },
        /** Its code first (the cashout client), then the tab. */
        withdrawals: {
          initial: "loading",
          states: {
            loading: {
              invoke: {
                id: "loadWithdrawals",
                src: "loadWithdrawals",
                onDone: "active",
                onError: "loadFailed",
              },
            },
            loadFailed: { on: { RETRY: "loading" } },
            active: { invoke: { id: "withdrawals", src: "withdrawals", ...tabOutcome } },
          },
        },
        /** Its code first (the money flows' chunk), then the tab. */
        cryptoDeposits: {
          initial: "loading",
          states: {
            loading: {
              invoke: {
                id: "loadCryptoDeposits",
                src: "loadCryptoDeposits",
                onDone: "active",
                onError: "loadFailed",
              },
            },
            loadFailed: { on: { RETRY: "loading" } },
            active: {
              invoke: {
                id: "cryptoDeposits",
                src: "cryptoDeposits",
                // The server's days are UTC: the default range ends on today's UTC date.
                input: () => ({ today: new Date().toISOString().slice(0, 10) }),
                ...tabOutcome,
              },
            },
          },
        },
        /** Its code first (the game calls' client), then the tab. */
        bets: {
          initial: "loading",
          states: {
            loading: {
              invoke: { id: "loadBets", src: "loadBets", onDone: "active", onError: "loadFailed" },
            },
            loadFailed: { on: { RETRY: "loading" } },
            active: {
              invoke: {
                id: "bets",
                src: "bets",
                // The server's days are UTC: the default range ends on today's UTC date.
                input: () => ({ today: new Date().toISOString().slice(0, 10) }),
                ...tabOutcome,
              },
            },
          },
        },
        verification: {
          invoke: [
            { id: "idDocument", src: "document", input: { kind: "ID" }, ...tabOutcome },
            { id: "billDocument", src: "document", input: { kind: "BILL" }, ...tabOutcome },
          ],
        },
        bonuses: { invoke: { id: "bonuses", src: "bonuses", ...tabOutcome } },
        loyalty: { invoke: { id: "loyalty", src: "loyalty", ...tabOutcome } },
        sessions: { invoke: { id: "sessions", src: "sessions", ...tabOutcome } },
        security: { invoke: { id: "security", src: "security", ...tabOutcome } },
        responsibleGaming: { invoke: { id: "responsibleGaming", src: "responsibleGaming", ...tabOutcome } },
        promo: { invoke: { id: "promo", src: "promo", input: { subscribed: null }, ...tabOutcome } },
        /** An address under /profile that names no tab. */
        notFound: {},
        /** A tab ended (the session is gone, or the player excluded themselves): the shell moves on. */
        ended: {},
      },
    },
  },
})
