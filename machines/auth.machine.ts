/**
 * The session (spec section 4, "Auth"): checking → anonymous | authenticated. Profile and fund are
 * queried only inside `authenticated`, so an anonymous visitor can never trigger them; they go stale
 * after 5 minutes (spec section 9) and are fetched again. Sign-out keeps the spec's order: navigate
 * to /, call sign-out, then clear the user.
 *
 * A balance the server pushes (a bet, a win, a deposit credited) is written into the fund as it
 * comes: a round costs no profile or fund request. The fund alone is read again only when the push
 * names a wallet not known here, or when the stream (re)opens — what happened while it was closed
 * was not pushed. A higher loyalty level the server pushes is written in too (the header shows it)
 * and told in a toast.
 *
 * While authenticated: when the tab becomes visible again the session is verified, so a
 * device signed out from another one notices at once; and the reality check runs beside the account
 * (its own machine, downloaded on sign-in), whose "sign out" ends the session like the header's.
 */
import { assign, fromCallback, fromPromise, sendParent, sendTo, setup } from "xstate"
import { fromLazyEffect } from "../services/bridge.ts"
import { forgetLocalUser, rememberLocalUser } from "../services/local-user.ts"
import { notify } from "../services/notify.ts"
import type { Fund, Profile } from "../services/profile-service.ts"
import { forgetPlayerQueries } from "../services/query-cache.ts"
import { Constants, Messages } from "../services/rules.ts"
import type { Account, LoyaltyBadge } from "../services/session-calls.ts"
import type { AuthStatus, SessionUser } from "../services/user-service.ts"
import { lazyLogic, lazyModule } from "./lazy.ts"
import type { realityCheckMachine } from "./profile/realityCheck.machine.ts"

export type { Account }

export interface AuthContext {
  readonly user: SessionUser | null
  readonly profile: Profile | null
  readonly fund: Fund | null
  /** The loyalty level the header shows (null: not read yet, or not readable). */
  readonly loyalty: LoyaltyBadge | null
}

export type AuthEvent =
  | { readonly type: "SIGNED_IN"; readonly user: SessionUser }
  | { readonly type: "RECHECK" }
  | { readonly type: "REFRESH" }
  | { readonly type: "SIGN_OUT" }
  /** The page became visible again (the entry point's visibilitychange, through the shell). */
  | { readonly type: "PAGE_VISIBLE" }
  /** The server pushed a wallet's new balance (services/player-events.ts). */
  | {
      readonly type: "BALANCE"
      readonly currency: string
      readonly balance: string
      /** The wallet's bonus money, when it changed too. */
      readonly bonusBalance?: string | undefined
    }
  /** The push stream (re)opened: what changed while it was closed was not pushed. */
  | { readonly type: "STREAM_OPENED" }
  /** The wallets changed (one was added or made the default): the fund is read again. */
  | { readonly type: "FUND_CHANGED" }
  /** The server pushed that a page of this player answered the reality check's reminder. */
  | { readonly type: "REALITY_CHECK_ANSWERED" }
  /** The server pushed that the player reached a higher loyalty level. */
  | { readonly type: "LEVEL_UP"; readonly level: number; readonly name: string }

/**
 * The session's calls are their own chunk (services/session-calls.ts): the first screen does not
 * carry the contract tables they need. The entry point starts the download while the shell boots.
 */
export const loadSessionCalls = lazyModule(() => import("../services/session-calls.ts"))

/** The reality check's machine: downloaded when a session begins (it is no part of the first screen). */
export const realityCheck = lazyLogic<typeof realityCheckMachine>("reality-check", () =>
  import("./profile/realityCheck.machine.ts").then((m) => m.realityCheckMachine),
)

/**
 * Whether a failed account load means the session is gone (then the player is anonymous again): the
 * contract's `Unauthenticated`, recognised by its tag so the first screen does not carry every error
 * class of the contract (services/errors.ts) for this one check.
 */
export const isSessionGone = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "Unauthenticated"

/** The server's push events (services/player-events.ts, its own chunk): loaded once signed in. */
export const loadPlayerEvents = lazyModule(() => import("../services/player-events.ts"))

const signedOut = { user: null, profile: null, fund: null, loyalty: null } as const

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
  },
  actors: {
    checkSession: fromLazyEffect(() => loadSessionCalls().then((m) => m.checkSession)),
    loadAccount: fromLazyEffect(() => loadSessionCalls().then((m) => m.loadAccount)),
    loadFund: fromLazyEffect(() => loadSessionCalls().then((m) => m.loadFund)),
    signOut: fromLazyEffect(() => loadSessionCalls().then((m) => m.signOut)),
    loadRealityCheck: fromPromise(() => realityCheck.load()),
    realityCheck: realityCheck.logic,
    /**
     * A wallet's new balance, a reality check answered elsewhere, and each (re)opening of the stream.
     * A deposit's or a withdrawal's own event needs nothing here: its balance comes as a balance event.
     */
    pushEvents: fromCallback<AuthEvent>(({ sendBack }) => {
      // No push this session when the module fails to load: the fund still refreshes when stale.
      const stop = loadPlayerEvents().then(
        (m) =>
          m.subscribePlayerEvents(
            (event) => {
              if (event.type === "balance")
                sendBack({
                  type: "BALANCE",
                  currency: event.currency,
                  balance: event.balance,
                  bonusBalance: event.bonusBalance,
                })
              else if (event.type === "realityCheck") sendBack({ type: "REALITY_CHECK_ANSWERED" })
              else if (event.type === "loyalty")
                sendBack({ type: "LEVEL_UP", level: event.level, name: event.name })
            },
            () => sendBack({ type: "STREAM_OPENED" }),
          ),
        () => undefined,
      )
      return () => void stop.then((unsubscribe) => unsubscribe?.())
    }),
  },
  delays: {
    queryStale: Constants.queryStaleMs,
  },
  guards: {
    isAuthenticated: (_, params: { status: AuthStatus }) =>
      params.status.isAuthenticated && params.status.user !== null,
    isSessionGone: (_, params: { error: unknown }) => isSessionGone(params.error),
    isSameUser: ({ context }, params: { status: AuthStatus }) =>
      params.status.isAuthenticated && params.status.user?.id === context.user?.id,
    /** The pushed balance is of a wallet this session knows: it is written in, nothing is read. */
    isKnownWallet: ({ context }, params: { currency: string }) =>
      context.fund?.some((w) => w.currency === params.currency) === true,
  },
  actions: {
    notifyError: (_, params: { message: string }) => notify("error", params.message),
    notifyLevelUp: (_, params: { name: string }) => notify("success", Messages.levelUp(params.name)),
    setLoyalty: assign({ loyalty: (_, params: LoyaltyBadge) => params }),
    setBalance: assign({
      fund: ({ context }, params: { currency: string; balance: string; bonusBalance?: string | undefined }) =>
        context.fund?.map((w) =>
          w.currency !== params.currency
            ? w
            : params.bonusBalance === undefined
              ? { ...w, balance: params.balance }
              : { ...w, balance: params.balance, bonusBalance: params.bonusBalance },
        ) ?? null,
    }),
    // A session starting or ending drops the reads kept for the last one (services/query-cache.ts).
    rememberUser: (_, params: { user: SessionUser }) => {
      forgetPlayerQueries()
      rememberLocalUser({ name: params.user.fullName, userId: params.user.id })
    },
    forgetUser: () => {
      forgetPlayerQueries()
      forgetLocalUser()
    },
    /** Sign-out navigates to / first; the shell owns the address bar. */
    navigateHome: sendParent({ type: "NAVIGATE", path: "/" }),
    showLoading: sendParent({ type: "SHOW_LOADING" }),
    hideLoading: sendParent({ type: "HIDE_LOADING" }),
  },
}).createMachine({
  id: "auth",
  context: signedOut,
  initial: "checking",
  states: {
    checking: {
      invoke: {
        id: "checkSession",
        src: "checkSession",
        onDone: [
          {
            guard: { type: "isAuthenticated", params: ({ event }) => ({ status: event.output }) },
            target: "authenticated",
            actions: [
              assign({ user: ({ event }) => event.output.user }),
              { type: "rememberUser", params: ({ event }) => ({ user: event.output.user as SessionUser }) },
            ],
          },
          { target: "anonymous", actions: [assign(signedOut), "forgetUser"] },
        ],
        onError: {
          target: "anonymous",
          actions: [
            assign(signedOut),
            { type: "notifyError", params: { message: Messages.authCheckFailed } },
          ],
        },
      },
    },
    anonymous: {
      on: {
        SIGNED_IN: {
          target: "authenticated",
          actions: [
            assign({ user: ({ event }) => event.user }),
            { type: "rememberUser", params: ({ event }) => ({ user: event.user }) },
          ],
        },
        RECHECK: "checking",
      },
    },
    authenticated: {
      type: "parallel",
      // The stream cannot fail the session: without it the fund still refreshes when stale.
      invoke: { id: "pushEvents", src: "pushEvents", onError: {} },
      on: {
        SIGNED_IN: {
          target: "authenticated",
          reenter: true,
          actions: [
            assign({ user: ({ event }) => event.user, profile: null, fund: null, loyalty: null }),
            { type: "rememberUser", params: ({ event }) => ({ user: event.user }) },
          ],
        },
        RECHECK: "checking",
        SIGN_OUT: "signingOut",
        LEVEL_UP: {
          actions: [
            { type: "setLoyalty", params: ({ event }) => ({ level: event.level, name: event.name }) },
            { type: "notifyLevelUp", params: ({ event }) => ({ name: event.name }) },
          ],
        },
      },
      states: {
        account: {
          initial: "loadingAccount",
          states: {
            loadingAccount: {
              // A change pushed while loading: read again, so the answer is not older than the push.
              on: {
                BALANCE: { target: "loadingAccount", reenter: true },
                FUND_CHANGED: { target: "loadingAccount", reenter: true },
                STREAM_OPENED: { target: "loadingAccount", reenter: true },
              },
              invoke: {
                id: "loadAccount",
                src: "loadAccount",
                onDone: {
                  target: "ready",
                  actions: assign({
                    profile: ({ event }) => event.output.profile,
                    fund: ({ event }) => event.output.fund,
                    loyalty: ({ event }) => event.output.loyalty,
                  }),
                },
                onError: [
                  {
                    guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
                    target: "#auth.anonymous",
                    actions: [assign(signedOut), "forgetUser"],
                  },
                  {
                    target: "ready",
                    actions: { type: "notifyError", params: { message: Messages.fundFailed } },
                  },
                ],
              },
            },
            ready: {
              after: { queryStale: "loadingAccount" },
              on: {
                REFRESH: "loadingAccount",
                BALANCE: [
                  {
                    guard: { type: "isKnownWallet", params: ({ event }) => ({ currency: event.currency }) },
                    actions: { type: "setBalance", params: ({ event }) => event },
                  },
                  { target: "loadingFund" },
                ],
                FUND_CHANGED: "loadingFund",
                STREAM_OPENED: "loadingFund",
                PAGE_VISIBLE: "verifying",
              },
            },
            /** The wallets alone are read again (the profile is not: nothing of it changed). */
            loadingFund: {
              on: {
                BALANCE: { target: "loadingFund", reenter: true },
                FUND_CHANGED: { target: "loadingFund", reenter: true },
                STREAM_OPENED: { target: "loadingFund", reenter: true },
                REFRESH: "loadingAccount",
              },
              invoke: {
                id: "loadFund",
                src: "loadFund",
                onDone: { target: "ready", actions: assign({ fund: ({ event }) => event.output }) },
                onError: [
                  {
                    guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
                    target: "#auth.anonymous",
                    actions: [assign(signedOut), "forgetUser"],
                  },
                  {
                    target: "ready",
                    actions: { type: "notifyError", params: { message: Messages.fundFailed } },
                  },
                ],
              },
            },
            /** Back on the page: still signed in here? (The session may have been revoked elsewhere.) */
            verifying: {
              invoke: {
                id: "verifySession",
                src: "checkSession",
                onDone: [
                  {
                    guard: { type: "isSameUser", params: ({ event }) => ({ status: event.output }) },
                    target: "ready",
                  },
                  // Another player signed in meanwhile (another tab): start over with them.
                  {
                    guard: { type: "isAuthenticated", params: ({ event }) => ({ status: event.output }) },
                    target: "#auth.checking",
                  },
                  { target: "#auth.anonymous", actions: [assign(signedOut), "forgetUser"] },
                ],
                // Offline for a moment: nothing is known, keep the session as it was.
                onError: "ready",
              },
            },
          },
        },
        realityCheck: {
          initial: "loading",
          states: {
            loading: {
              invoke: { id: "loadRealityCheck", src: "loadRealityCheck", onDone: "running", onError: "off" },
            },
            running: {
              invoke: {
                id: "realityCheck",
                src: "realityCheck",
                // Its only end: the player chose to sign out from the reminder.
                onDone: "#auth.signingOut",
                onError: "off",
              },
              on: {
                // The settings changed (a save in the profile area): read the interval again.
                REFRESH: { actions: sendTo("realityCheck", { type: "REFRESH" }) },
                // Another page answered a reminder: one this page shows may be answered already.
                REALITY_CHECK_ANSWERED: { actions: sendTo("realityCheck", { type: "ANSWERED_ELSEWHERE" }) },
              },
            },
            /** No reminders this session: its code could not be downloaded. */
            off: {},
          },
        },
      },
    },
    signingOut: {
      entry: ["navigateHome", "showLoading"],
      exit: "hideLoading",
      invoke: {
        id: "signOut",
        src: "signOut",
        onDone: { target: "anonymous", actions: [assign(signedOut), "forgetUser"] },
        onError: {
          target: "#auth.authenticated.account.ready",
          actions: { type: "notifyError", params: { message: Messages.signoutFailed } },
        },
      },
    },
  },
})
