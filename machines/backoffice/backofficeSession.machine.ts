/**
 * The back office's session: who is signed in, the two-step sign-in (password, then the TOTP code
 * or its enrolment), the screen shown, sign-out, and the end of a session — by the server (any call
 * answering 401 sends SESSION_ENDED) or after 30 minutes without activity, the server's own idle
 * limit, so the screen does not sit on data it can no longer refresh.
 *
 *   checking ─▶ signedIn | signedOut | blocked | unavailable
 *   signedOut ─SUBMIT_PASSWORD─▶ submittingPassword ─▶ secondFactor ─SUBMIT_CODE─▶ submittingCode ─▶ signedIn
 *   (a one-time password) ─▶ passwordRequired ─CHANGE_PASSWORD─▶ changingPassword ─▶ signedIn
 *   signedIn ─LOGOUT─▶ signingOut ─▶ signedOut;  signedIn ─SESSION_ENDED | idle─▶ signedOut
 */
import { assign, fromPromise, setup } from "xstate"
import { Forbidden, ForbiddenAddress, InvalidCode, LoginExpired } from "../../services/backoffice/errors.ts"
import type { LoggedOut, LoginStep, Me } from "../../services/backoffice/operators.ts"
import { type BackofficeScreen, pathOfScreen, screenAllowed } from "../../services/backoffice/screens.ts"
import {
  IncorrectPassword,
  InvalidCredentials,
  PasswordRejected,
  RateLimited,
  Unauthenticated,
} from "../../services/errors.ts"

export const SessionMessages = {
  unavailable: "The back office cannot be reached. Check the connection and try again.",
  blocked: "The back office cannot be reached from this address.",
  expired: "The sign-in took too long. Enter your e-mail and password again.",
  ended: "Your session ended. Sign in again to continue.",
  idle: "You were signed out after 30 minutes without activity.",
  failed: "Something went wrong. Try again.",
} as const

export interface SessionContext {
  readonly me: Me | null
  /** After the password: a code, or the enrolment of a new operator (its secret). */
  readonly step: LoginStep | null
  readonly screen: BackofficeScreen
  /** Why the last step failed, for the form. */
  readonly error: string | null
  /** Why the operator is signed out, for the sign-in page. */
  readonly notice: string | null
}

export type SessionEvent =
  | { readonly type: "SUBMIT_PASSWORD"; readonly email: string; readonly password: string }
  | { readonly type: "SUBMIT_CODE"; readonly code: string }
  | { readonly type: "CHANGE_PASSWORD"; readonly currentPassword: string; readonly newPassword: string }
  | { readonly type: "CANCEL" }
  | { readonly type: "RETRY" }
  | { readonly type: "LOGOUT" }
  | { readonly type: "SESSION_ENDED" }
  | { readonly type: "ACTIVITY" }
  | { readonly type: "NAVIGATE"; readonly screen: BackofficeScreen }

const messageOf = (error: unknown): string =>
  error instanceof InvalidCredentials ||
  error instanceof InvalidCode ||
  error instanceof RateLimited ||
  error instanceof IncorrectPassword ||
  error instanceof PasswordRejected ||
  error instanceof Forbidden
    ? error.message
    : SessionMessages.failed

// The calls are provided by the page (ui/backoffice/main.tsx), not imported here: the /statecharts
// visualizer, part of the player's build, charts this machine, and the back office's clients and
// schemas would otherwise come with it (and the effect functions they use into the player's core).
const notProvided = (name: string) => () =>
  Promise.reject(new Error(`${name} is provided by the back office's page (ui/backoffice/main.tsx)`))

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { readonly screen: BackofficeScreen },
  },
  delays: {
    /** The server ends a session after 30 minutes without a call (BACKOFFICE_IDLE_MINUTES). */
    idleTimeout: 30 * 60_000,
  },
  actors: {
    me: fromPromise<Me>(notProvided("me")),
    login: fromPromise<LoginStep, { readonly email: string; readonly password: string }>(
      notProvided("login"),
    ),
    loginTotp: fromPromise<Me, string>(notProvided("loginTotp")),
    logout: fromPromise<typeof LoggedOut.Type>(notProvided("logout")),
    changePassword: fromPromise<Me, { readonly currentPassword: string; readonly newPassword: string }>(
      notProvided("changePassword"),
    ),
  },
  guards: {
    isUnauthenticated: (_, params: { error: unknown }) => params.error instanceof Unauthenticated,
    isAddressRefused: (_, params: { error: unknown }) => params.error instanceof ForbiddenAddress,
    isLoginExpired: (_, params: { error: unknown }) => params.error instanceof LoginExpired,
    /** Signed in with a generated one-time password: nothing else until the operator picks one. */
    mustChangePassword: (_, params: { me: Me }) => params.me.operator.mustChangePassword,
    mayOpen: ({ context, event }) =>
      event.type === "NAVIGATE" && context.me !== null && screenAllowed(event.screen, context.me.permissions),
  },
  actions: {
    setMe: assign((_, params: { me: Me }) => ({ me: params.me, step: null, error: null, notice: null })),
    setStep: assign((_, params: { step: LoginStep }) => ({ step: params.step, error: null })),
    showError: assign((_, params: { error: unknown }) => ({ error: messageOf(params.error) })),
    clearError: assign({ error: null }),
    signOutWith: assign((_, params: { notice: string | null }) => ({
      me: null,
      step: null,
      error: null,
      notice: params.notice,
    })),
    openScreen: assign(({ event }) => (event.type === "NAVIGATE" ? { screen: event.screen } : {})),
    /** The address bar follows the screen (provided by the page; nothing here touches the DOM). */
    pushPath: (_, _params: { path: string }) => undefined,
    /** A screen the role may not see (an old link) falls back to the dashboard. */
    settleScreen: assign(({ context }) =>
      context.me !== null && !screenAllowed(context.screen, context.me.permissions)
        ? { screen: "dashboard" as const }
        : {},
    ),
  },
}).createMachine({
  id: "backofficeSession",
  context: ({ input }) => ({ me: null, step: null, screen: input.screen, error: null, notice: null }),
  initial: "checking",
  states: {
    checking: {
      invoke: {
        id: "me",
        src: "me",
        onDone: [
          {
            guard: { type: "mustChangePassword", params: ({ event }) => ({ me: event.output }) },
            target: "passwordRequired",
            actions: { type: "setMe", params: ({ event }) => ({ me: event.output }) },
          },
          { target: "signedIn", actions: { type: "setMe", params: ({ event }) => ({ me: event.output }) } },
        ],
        onError: [
          {
            guard: { type: "isUnauthenticated", params: ({ event }) => ({ error: event.error }) },
            target: "signedOut",
          },
          {
            guard: { type: "isAddressRefused", params: ({ event }) => ({ error: event.error }) },
            target: "blocked",
          },
          { target: "unavailable" },
        ],
      },
    },
    unavailable: { on: { RETRY: "checking" } },
    blocked: {},
    signedOut: {
      on: { SUBMIT_PASSWORD: { target: "submittingPassword", actions: "clearError" } },
    },
    submittingPassword: {
      invoke: {
        id: "login",
        src: "login",
        input: ({ event }) =>
          event.type === "SUBMIT_PASSWORD"
            ? { email: event.email, password: event.password }
            : { email: "", password: "" },
        onDone: {
          target: "secondFactor",
          actions: { type: "setStep", params: ({ event }) => ({ step: event.output }) },
        },
        onError: [
          {
            guard: { type: "isAddressRefused", params: ({ event }) => ({ error: event.error }) },
            target: "blocked",
          },
          {
            target: "signedOut",
            actions: { type: "showError", params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    secondFactor: {
      on: {
        SUBMIT_CODE: { target: "submittingCode", actions: "clearError" },
        CANCEL: { target: "signedOut", actions: { type: "signOutWith", params: { notice: null } } },
      },
    },
    submittingCode: {
      invoke: {
        id: "loginTotp",
        src: "loginTotp",
        input: ({ event }) => (event.type === "SUBMIT_CODE" ? event.code.trim() : ""),
        onDone: [
          {
            guard: { type: "mustChangePassword", params: ({ event }) => ({ me: event.output }) },
            target: "passwordRequired",
            actions: { type: "setMe", params: ({ event }) => ({ me: event.output }) },
          },
          { target: "signedIn", actions: { type: "setMe", params: ({ event }) => ({ me: event.output }) } },
        ],
        onError: [
          {
            guard: { type: "isLoginExpired", params: ({ event }) => ({ error: event.error }) },
            target: "signedOut",
            actions: { type: "signOutWith", params: { notice: SessionMessages.expired } },
          },
          {
            target: "secondFactor",
            actions: { type: "showError", params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    passwordRequired: {
      on: {
        CHANGE_PASSWORD: { target: "changingPassword", actions: "clearError" },
        LOGOUT: "signingOut",
      },
    },
    changingPassword: {
      invoke: {
        id: "changePassword",
        src: "changePassword",
        input: ({ event }) =>
          event.type === "CHANGE_PASSWORD"
            ? { currentPassword: event.currentPassword, newPassword: event.newPassword }
            : { currentPassword: "", newPassword: "" },
        onDone: {
          target: "signedIn",
          actions: { type: "setMe", params: ({ event }) => ({ me: event.output }) },
        },
        onError: [
          {
            guard: { type: "isUnauthenticated", params: ({ event }) => ({ error: event.error }) },
            target: "signedOut",
            actions: { type: "signOutWith", params: { notice: SessionMessages.ended } },
          },
          {
            target: "passwordRequired",
            actions: { type: "showError", params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    signedIn: {
      entry: "settleScreen",
      after: {
        idleTimeout: {
          target: "signedOut",
          actions: { type: "signOutWith", params: { notice: SessionMessages.idle } },
        },
      },
      on: {
        ACTIVITY: { target: "signedIn", reenter: true },
        NAVIGATE: {
          guard: "mayOpen",
          target: "signedIn",
          reenter: true,
          actions: [
            "openScreen",
            {
              type: "pushPath",
              params: ({ event }) => ({ path: pathOfScreen(event.screen) }),
            },
          ],
        },
        LOGOUT: "signingOut",
        SESSION_ENDED: {
          target: "signedOut",
          actions: { type: "signOutWith", params: { notice: SessionMessages.ended } },
        },
      },
    },
    signingOut: {
      invoke: {
        id: "logout",
        src: "logout",
        onDone: { target: "signedOut", actions: { type: "signOutWith", params: { notice: null } } },
        // The cookie may already be dead; the operator is signed out here either way.
        onError: { target: "signedOut", actions: { type: "signOutWith", params: { notice: null } } },
      },
    },
  },
})
