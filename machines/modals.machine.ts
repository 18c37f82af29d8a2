/**
 * The modal host (spec sections 2 and 4): one modal open at a time; login and register switch into
 * each other; content (token, url) is passed in; a loading modal. Each account modal invokes its
 * flow machine, so closing the modal stops the flow (and aborts its call). A flow ends with an
 * output the host routes to the shell: signed in, registered (go to /), re-check the session.
 * The tutorial video opens over the register form without ending it, so the form survives.
 *
 * The flows' code is not part of the first download: each account modal first `loading`s its flow
 * (at once when it was prefetched, see `prefetchFlows`), then runs it in `active`.
 */
import {
  assign,
  type DoneActorEvent,
  type ErrorActorEvent,
  enqueueActions,
  fromPromise,
  sendParent,
  sendTo,
  setup,
} from "xstate"
import { toCapturedError } from "../services/captured-error.ts"
import type { Currencies, SiteConfig } from "../services/cdn.ts"
import type { Fund, Profile } from "../services/profile-service.ts"
import type { SessionUser } from "../services/user-service.ts"
import type { confirmEmailMachine } from "./account/confirmEmail.machine.ts"
import type { forgotPasswordMachine } from "./account/forgotPassword.machine.ts"
import type { loginMachine } from "./account/login.machine.ts"
import type { registerMachine } from "./account/register.machine.ts"
import type { resetPasswordMachine } from "./account/resetPassword.machine.ts"
import type { FlowInput, FlowOutput } from "./flow.ts"
import { lazyLogic, lazyModule } from "./lazy.ts"
import type { CashoutOutput, cashoutMachine } from "./wallet/cashout.machine.ts"
import type { currencyMachine } from "./wallet/currency.machine.ts"
import type { depositMachine } from "./wallet/deposit.machine.ts"
import type { iframeMachine } from "./wallet/iframe.machine.ts"
import type { WalletOutput } from "./wallet/support.ts"

/** The account flows, each its own chunk (`import()`), keyed by the actor name the host invokes. */
export const accountFlows = {
  loginFlow: lazyLogic<typeof loginMachine>("login", () =>
    import("./account/login.machine.ts").then((m) => m.loginMachine),
  ),
  registerFlow: lazyLogic<typeof registerMachine>("register", () =>
    import("./account/register.machine.ts").then((m) => m.registerMachine),
  ),
  forgotPasswordFlow: lazyLogic<typeof forgotPasswordMachine>("forgot-password", () =>
    import("./account/forgotPassword.machine.ts").then((m) => m.forgotPasswordMachine),
  ),
  resetPasswordFlow: lazyLogic<typeof resetPasswordMachine>("reset-password", () =>
    import("./account/resetPassword.machine.ts").then((m) => m.resetPasswordMachine),
  ),
  confirmEmailFlow: lazyLogic<typeof confirmEmailMachine>("confirm-email", () =>
    import("./account/confirmEmail.machine.ts").then((m) => m.confirmEmailMachine),
  ),
} as const

/**
 * The money flows: the currency, deposit and iframe modals, one chunk (machines/wallet/flows.ts)
 * that also brings the profile form (the deposit's completion step); prefetched like the account flows.
 */
const loadWalletFlows = lazyModule(() => import("./wallet/flows.ts"))

export const walletFlows = {
  currencyFlow: lazyLogic<typeof currencyMachine>("currency", () =>
    loadWalletFlows().then((m) => m.currencyMachine),
  ),
  depositFlow: lazyLogic<typeof depositMachine>("deposit", () =>
    loadWalletFlows().then((m) => m.depositMachine),
  ),
  iframeFlow: lazyLogic<typeof iframeMachine>("iframe", () => loadWalletFlows().then((m) => m.iframeMachine)),
  // Money out: in the same chunk, it shares the wallet client.
  cashoutFlow: lazyLogic<typeof cashoutMachine>("cashout", () =>
    loadWalletFlows().then((m) => m.cashoutMachine),
  ),
} as const

export type AccountFlow = keyof typeof accountFlows | keyof typeof walletFlows

const flows = { ...accountFlows, ...walletFlows }

/**
 * Downloads every flow, the account and the money ones (the app calls it when the browser is idle
 * after the first screen, and when a pointer reaches a button that opens one).
 */
export const prefetchFlows = (): Promise<unknown> =>
  Promise.all(Object.values(flows).map((flow) => flow.load()))

/** A modal an e-mail link asks for: `/?modal=reset-password&token=…` or `/?modal=confirm-email&token=…`. */
export type ModalRequest =
  | { readonly modal: "reset-password"; readonly token: string }
  | { readonly modal: "confirm-email"; readonly token: string }

export const parseModalRequest = (search: string): ModalRequest | null => {
  const params = new URLSearchParams(search)
  const token = params.get("token")
  if (!token) return null
  const modal = params.get("modal")
  if (modal === "reset-password" || modal === "confirm-email") return { modal, token }
  return null
}

export interface ModalsInput {
  readonly siteConfig: SiteConfig
  readonly currencies: Currencies
  readonly request: ModalRequest | null
}

export interface ModalContent {
  readonly token: string | null
  readonly url: string | null
}

/** What the money modals start from: the session's profile and wallets, and the frame to show. */
export interface WalletContent {
  readonly profile: Profile | null
  readonly fund: Fund | null
  readonly frame: { readonly url: string; readonly depositId: string; readonly currency: string } | null
  /** The payment whose frame closed without a credit: the deposit dialog reopens on its outcome. */
  readonly check: { readonly depositId: string; readonly currency: string } | null
}

export interface ModalsContext {
  readonly siteConfig: SiteConfig
  readonly currencies: Currencies
  readonly request: ModalRequest | null
  readonly content: ModalContent
  readonly wallet: WalletContent
}

export type ModalsEvent =
  | { readonly type: "OPEN_LOGIN" }
  | { readonly type: "OPEN_REGISTER" }
  | { readonly type: "OPEN_FORGOT_PASSWORD" }
  | { readonly type: "OPEN_RESET_PASSWORD"; readonly token: string }
  | { readonly type: "OPEN_CONFIRM_EMAIL"; readonly token: string }
  | { readonly type: "OPEN_VIDEO"; readonly url?: string }
  | { readonly type: "SWITCH_TO_LOGIN" }
  | { readonly type: "SWITCH_TO_REGISTER" }
  | { readonly type: "CLOSE_VIDEO" }
  | { readonly type: "CLOSE" }
  | { readonly type: "SHOW_LOADING" }
  | { readonly type: "HIDE_LOADING" }
  | { readonly type: "OPEN_DEPOSIT"; readonly profile: Profile | null; readonly fund: Fund | null }
  | { readonly type: "OPEN_CURRENCY"; readonly fund: Fund | null }
  | { readonly type: "OPEN_CASHOUT"; readonly profile: Profile | null; readonly fund: Fund | null }
  /** From the deposit's profile-completion step: the session's copy of the profile is stale. */
  | { readonly type: "ACCOUNT_CHANGED" }

export type ShellRequest =
  | { readonly type: "SIGNED_IN"; readonly user: SessionUser }
  | { readonly type: "AUTH_RECHECK" }
  | { readonly type: "NAVIGATE"; readonly path: string }
  | { readonly type: "ACCOUNT_CHANGED" }

/**
 * What the shell must do after a flow finished, in order. Spec: after a successful registration the
 * player goes to /; forgot-password needs nothing.
 */
export const shellRequestsFor = (
  output: FlowOutput | WalletOutput | CashoutOutput,
): ReadonlyArray<ShellRequest> => {
  switch (output.type) {
    // Spec section 5: the verification message closes the modal and goes to /profile/verification.
    case "verificationNeeded":
      return [{ type: "NAVIGATE", path: "/profile/verification" }]
    case "sessionEnded":
      return [{ type: "AUTH_RECHECK" }]
    // A cashout that closed may have moved money to a pending withdrawal: the header balance is read again.
    case "cashoutClosed":
    case "fundChanged":
    case "closed":
      return [{ type: "ACCOUNT_CHANGED" }]
    case "frame":
      return []
    case "signedIn":
      return [{ type: "SIGNED_IN", user: output.user }]
    case "registered":
      return [
        { type: "SIGNED_IN", user: output.user },
        { type: "NAVIGATE", path: "/" },
      ]
    case "passwordReset":
    case "emailConfirmed":
      return [{ type: "AUTH_RECHECK" }]
    case "resetLinkSent":
      return []
  }
}

/** A flow (or its download) that failed in a way it does not handle itself: reported, the modal closes. */
const closeOnCrash = {
  target: "#modals.closed",
  actions: {
    type: "reportCrash",
    params: ({ event }: { event: ErrorActorEvent }) => ({ error: event.error }),
  },
} as const

/**
 * Every account modal invokes its flow the same way: the flow's input from the host's context, its
 * outcome routed to the shell when it finishes, and a crash (not a typed failure — flows handle
 * those) reported as unexpected. Either way the modal closes.
 */
const flowInvoke = <const Id extends string, const Src extends AccountFlow>(id: Id, src: Src) =>
  ({
    id,
    src,
    input: ({ context }: { context: ModalsContext }) => flowInput({ context }),
    onDone: {
      target: "#modals.closed",
      actions: {
        type: "routeOutcome",
        params: ({ event }: { event: DoneActorEvent<FlowOutput> }) => ({ output: event.output }),
      },
    },
    onError: closeOnCrash,
  }) as const

/**
 * Waits for a flow's code; a download that fails (offline, a deploy replaced the chunk) closes the
 * modal and is reported like a crash — the player can open it again, which retries the download.
 */
const loadFlow = (flow: AccountFlow) =>
  ({
    id: "loadFlow",
    src: "loadFlow",
    input: flow,
    onDone: "active",
    onError: closeOnCrash,
  }) as const

const emptyContent: ModalContent = { token: null, url: null }
const noWallet: WalletContent = { profile: null, fund: null, frame: null, check: null }

const walletDone = {
  target: "#modals.closed",
  actions: {
    type: "routeOutcome",
    params: ({ event }: { event: DoneActorEvent<WalletOutput> }) => ({ output: event.output }),
  },
} as const

const cashoutDone = {
  target: "#modals.closed",
  actions: {
    type: "routeOutcome",
    params: ({ event }: { event: DoneActorEvent<CashoutOutput> }) => ({ output: event.output }),
  },
} as const

const flowInput = ({ context }: { context: ModalsContext }): FlowInput => ({
  siteConfig: context.siteConfig,
  currencies: context.currencies,
  token: context.content.token,
})

export const modalsMachine = setup({
  types: {
    input: {} as ModalsInput,
    context: {} as ModalsContext,
    events: {} as ModalsEvent,
  },
  actors: {
    loadFlow: fromPromise<void, AccountFlow>(({ input }) => flows[input].load()),
    loginFlow: accountFlows.loginFlow.logic,
    registerFlow: accountFlows.registerFlow.logic,
    forgotPasswordFlow: accountFlows.forgotPasswordFlow.logic,
    resetPasswordFlow: accountFlows.resetPasswordFlow.logic,
    confirmEmailFlow: accountFlows.confirmEmailFlow.logic,
    currencyFlow: walletFlows.currencyFlow.logic,
    depositFlow: walletFlows.depositFlow.logic,
    iframeFlow: walletFlows.iframeFlow.logic,
    cashoutFlow: walletFlows.cashoutFlow.logic,
  },
  guards: {
    opensFrame: (_, params: { output: WalletOutput }) => params.output.type === "frame",
    /** The frame closed without the money (declined, expired, or no outcome yet): the deposit says which. */
    frameNotCredited: ({ context }, params: { output: WalletOutput }) =>
      params.output.type === "closed" && !params.output.credited && context.wallet.frame !== null,
    requestsResetPassword: ({ context }) => context.request?.modal === "reset-password",
    requestsConfirmEmail: ({ context }) => context.request?.modal === "confirm-email",
  },
  actions: {
    /** Routes a finished flow's outcome to the shell (session update, re-check, navigation). */
    routeOutcome: enqueueActions(
      ({ enqueue }, params: { output: FlowOutput | WalletOutput | CashoutOutput }) => {
        for (const request of shellRequestsFor(params.output)) enqueue.sendParent(request)
      },
    ),
    /** A flow that crashed (not a typed failure — those are handled inside the flow) is unexpected. */
    reportCrash: sendParent((_, params: { error: unknown }) => ({
      type: "UNEXPECTED_ERROR",
      error: toCapturedError(params.error),
    })),
    accountChanged: sendParent({ type: "ACCOUNT_CHANGED" }),
    clearContent: assign({ content: emptyContent, wallet: noWallet }),
  },
}).createMachine({
  id: "modals",
  context: ({ input }) => ({
    siteConfig: input.siteConfig,
    currencies: input.currencies,
    request: input.request,
    content: input.request ? { token: input.request.token, url: null } : emptyContent,
    wallet: noWallet,
  }),
  initial: "opening",
  on: {
    OPEN_LOGIN: ".login",
    OPEN_REGISTER: ".register",
    OPEN_FORGOT_PASSWORD: ".forgotPassword",
    OPEN_RESET_PASSWORD: {
      target: ".resetPassword",
      actions: assign({ content: ({ event }) => ({ token: event.token, url: null }) }),
    },
    OPEN_CONFIRM_EMAIL: {
      target: ".confirmEmail",
      actions: assign({ content: ({ event }) => ({ token: event.token, url: null }) }),
    },
    OPEN_VIDEO: {
      target: ".video",
      actions: assign({
        content: ({ context, event }) => ({
          token: null,
          url: event.url ?? context.siteConfig.tutorialVideoUrl,
        }),
      }),
    },
    SHOW_LOADING: ".loading",
    OPEN_DEPOSIT: {
      target: ".deposit",
      actions: assign({
        wallet: ({ event }) => ({ profile: event.profile, fund: event.fund, frame: null, check: null }),
      }),
    },
    OPEN_CURRENCY: {
      target: ".currency",
      actions: assign({ wallet: ({ event }) => ({ ...noWallet, fund: event.fund }) }),
    },
    OPEN_CASHOUT: {
      target: ".cashout",
      actions: assign({
        wallet: ({ event }) => ({ profile: event.profile, fund: event.fund, frame: null, check: null }),
      }),
    },
    ACCOUNT_CHANGED: { actions: "accountChanged" },
  },
  states: {
    /** Decides the first modal: the one an e-mail link asked for, or none. */
    opening: {
      always: [
        { guard: "requestsResetPassword", target: "resetPassword" },
        { guard: "requestsConfirmEmail", target: "confirmEmail" },
        { target: "closed" },
      ],
    },
    closed: {
      entry: "clearContent",
    },
    login: {
      initial: "loading",
      on: {
        SWITCH_TO_REGISTER: "register",
        CLOSE: "closed",
      },
      states: {
        loading: { invoke: loadFlow("loginFlow") },
        active: { invoke: flowInvoke("login", "loginFlow") },
      },
    },
    register: {
      initial: "loading",
      on: {
        SWITCH_TO_LOGIN: "login",
        CLOSE: "closed",
      },
      states: {
        loading: { invoke: loadFlow("registerFlow") },
        active: {
          initial: "form",
          invoke: flowInvoke("register", "registerFlow"),
          states: {
            form: {
              on: {
                OPEN_VIDEO: {
                  target: "video",
                  actions: assign({
                    content: ({ context, event }) => ({
                      token: null,
                      url: event.url ?? context.siteConfig.tutorialVideoUrl,
                    }),
                  }),
                },
              },
            },
            /** The tutorial video, shown instead of the form while the register flow stays alive. */
            video: {
              on: {
                CLOSE_VIDEO: { target: "form", actions: "clearContent" },
                OPEN_VIDEO: {},
                CLOSE: { target: "form", actions: "clearContent" },
              },
            },
          },
        },
      },
    },
    forgotPassword: {
      initial: "loading",
      on: {
        SWITCH_TO_LOGIN: "login",
        CLOSE: "closed",
      },
      states: {
        loading: { invoke: loadFlow("forgotPasswordFlow") },
        active: { invoke: flowInvoke("forgotPassword", "forgotPasswordFlow") },
      },
    },
    resetPassword: {
      initial: "loading",
      on: { CLOSE: "closed" },
      states: {
        loading: { invoke: loadFlow("resetPasswordFlow") },
        active: { invoke: flowInvoke("resetPassword", "resetPasswordFlow") },
      },
    },
    confirmEmail: {
      initial: "loading",
      on: { CLOSE: "closed" },
      states: {
        loading: { invoke: loadFlow("confirmEmailFlow") },
        active: { invoke: flowInvoke("confirmEmail", "confirmEmailFlow") },
      },
    },
    video: {
      on: { CLOSE: "closed", CLOSE_VIDEO: "closed" },
    },
    currency: {
      initial: "loading",
      on: { CLOSE: "closed" },
      states: {
        loading: { invoke: loadFlow("currencyFlow") },
        active: {
          invoke: {
            id: "currency",
            src: "currencyFlow",
            input: ({ context }) => ({ currencies: context.currencies, fund: context.wallet.fund }),
            onDone: walletDone,
            onError: closeOnCrash,
          },
        },
      },
    },
    deposit: {
      initial: "loading",
      on: { CLOSE: "closed" },
      states: {
        loading: { invoke: loadFlow("depositFlow") },
        active: {
          invoke: {
            id: "deposit",
            src: "depositFlow",
            input: ({ context }) => ({
              currencies: context.currencies,
              siteConfig: context.siteConfig,
              profile: context.wallet.profile,
              fund: context.wallet.fund,
              check: context.wallet.check,
            }),
            onDone: [
              // The deposit hands over to the iframe modal with the page its call answered.
              {
                guard: { type: "opensFrame", params: ({ event }) => ({ output: event.output }) },
                target: "#modals.iframe",
                actions: assign({
                  wallet: ({ context, event }) => ({
                    ...context.wallet,
                    frame: event.output.type === "frame" ? event.output : null,
                    check: null,
                  }),
                }),
              },
              walletDone,
            ],
            onError: closeOnCrash,
          },
        },
      },
    },
    /** The payment page; closing it by hand also has the session read its fund again. */
    iframe: {
      initial: "loading",
      on: { CLOSE: { target: "closed", actions: "accountChanged" } },
      states: {
        loading: { invoke: loadFlow("iframeFlow") },
        active: {
          invoke: {
            id: "iframe",
            src: "iframeFlow",
            // The deposit's hand-over always sets the frame; an empty page is what an absent one shows.
            input: ({ context }) =>
              context.wallet.frame ?? { url: "about:blank", depositId: "", currency: "" },
            onDone: [
              // Declined or expired is said in the deposit dialog, with Try again and another method;
              // the session still reads its fund again.
              {
                guard: { type: "frameNotCredited", params: ({ event }) => ({ output: event.output }) },
                target: "#modals.deposit",
                actions: [
                  assign({
                    wallet: ({ context }) => ({
                      ...context.wallet,
                      frame: null,
                      check:
                        context.wallet.frame === null
                          ? null
                          : {
                              depositId: context.wallet.frame.depositId,
                              currency: context.wallet.frame.currency,
                            },
                    }),
                  }),
                  "accountChanged",
                ],
              },
              walletDone,
            ],
            onError: closeOnCrash,
          },
        },
      },
    },
    /**
     * The cashout. Once its flow runs, CLOSE is the flow's own: it hides at once, clears its
     * content and resets its form after 500 ms (spec section 9), then ends — and the host closes.
     */
    cashout: {
      initial: "loading",
      on: { CLOSE: "closed" },
      states: {
        loading: { invoke: loadFlow("cashoutFlow") },
        active: {
          on: { CLOSE: { actions: sendTo("cashout", { type: "CLOSE" }) } },
          invoke: {
            id: "cashout",
            src: "cashoutFlow",
            input: ({ context }) => ({
              currencies: context.currencies,
              fund: context.wallet.fund,
              profile: context.wallet.profile,
            }),
            onDone: cashoutDone,
            onError: closeOnCrash,
          },
        },
      },
    },
    loading: {
      on: { HIDE_LOADING: "closed", SHOW_LOADING: {} },
    },
  },
})
