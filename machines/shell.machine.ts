/**
 * The app shell (spec section 2, "App shell"): nothing renders until the client IP is known; a
 * visitor from a restricted country sees only the blocked page; anything unexpected is reported
 * through the error logger and the 500 page appears. When ready, the shell hosts the long-lived
 * session (auth) and modal-host actors and routes what they ask for: navigation, sign-in, re-checks.
 *
 * The shell owns the address bar. While the path is under /profile it runs the profile area (its
 * code is downloaded on first need, like the modal flows) and hands it every new path there, so
 * switching tabs does not restart the area; it routes what the area asks for (the login modal, a
 * refresh of the session's profile, a re-check, going home).
 */
import { Data, Effect } from "effect"
import { assign, fromPromise, sendTo, setup } from "xstate"
import { fromEffect, runForActor } from "../services/bridge.ts"
import { type CapturedError, toCapturedError } from "../services/captured-error.ts"
import {
  CdnFiles,
  Currencies,
  type Currencies as CurrenciesType,
  RestrictedCountries,
  SiteConfig,
  type SiteConfig as SiteConfigType,
} from "../services/cdn.ts"
import { fetchCdnFile } from "../services/client.ts"
import { ipClient } from "../services/clients/ip.ts"
import type { ClientIp } from "../services/ip-service.ts"
import { isGamesPath, isProfilePath, isRestrictedCountry, Messages } from "../services/rules.ts"
import type { SessionUser } from "../services/user-service.ts"
import { authMachine, loadSessionCalls } from "./auth.machine.ts"
import type { gamesAreaMachine } from "./games/gamesArea.machine.ts"
import { lazyLogic } from "./lazy.ts"
import { type ModalRequest, modalsMachine, parseModalRequest } from "./modals.machine.ts"
import type { profileAreaMachine } from "./profile/profileArea.machine.ts"

/** The profile area's machine (and, through it, every tab's): downloaded when a /profile path opens. */
export const profileArea = lazyLogic<typeof profileAreaMachine>("profile", () =>
  import("./profile/profileArea.machine.ts").then((m) => m.profileAreaMachine),
)

/** The lobby, the game pages and the verifier: downloaded when one of their paths opens. */
export const gamesArea = lazyLogic<typeof gamesAreaMachine>("games", () =>
  import("./games/gamesArea.machine.ts").then((m) => m.gamesAreaMachine),
)

export type { CapturedError }
export { toCapturedError }

export interface BootData {
  readonly ip: ClientIp
  readonly restricted: ReadonlyArray<string>
  readonly siteConfig: SiteConfigType
  readonly currencies: CurrenciesType
}

export interface ShellInput {
  readonly path: string
  readonly search: string
}

export interface ShellContext {
  readonly path: string
  readonly ip: ClientIp | null
  readonly siteConfig: SiteConfigType | null
  readonly currencies: CurrenciesType
  /** A modal asked for by an e-mail link (`?modal=…&token=…`), opened once the shell is ready. */
  readonly modalRequest: ModalRequest | null
  readonly error: CapturedError | null
}

export type ShellEvent =
  | { readonly type: "NAVIGATE"; readonly path: string; readonly reloadIfSame?: boolean }
  | { readonly type: "LOCATION_CHANGED"; readonly path: string }
  | { readonly type: "UNEXPECTED_ERROR"; readonly error: CapturedError }
  | { readonly type: "SIGNED_IN"; readonly user: SessionUser }
  | { readonly type: "AUTH_RECHECK" }
  | { readonly type: "SHOW_LOADING" }
  | { readonly type: "HIDE_LOADING" }
  /** From the profile area: a visitor must sign in first. */
  | { readonly type: "OPEN_LOGIN" }
  /** From the profile area: the account changed, the session's copy of the profile is stale. */
  | { readonly type: "ACCOUNT_CHANGED" }
  /** From the entry point: the page became visible again. */
  | { readonly type: "PAGE_VISIBLE" }

/** Spec section 7: the IP service's client throws 'Authentication failed!' on any failed call. */
export class IpServiceFailed extends Data.TaggedError("IpServiceFailed")<{
  readonly message: string
  readonly cause: unknown
}> {}

/**
 * Spec section 8: a failed client-IP call reads 'Client Ip went wrong' in the state (and the error
 * report); its cause is the service's own 'Authentication failed!'.
 */
export class ClientIpFailed extends Data.TaggedError("ClientIpFailed")<{
  readonly message: string
  readonly cause: IpServiceFailed
}> {}

/** Everything the shell must know before it may render anything. */
export const loadBoot = Effect.gen(function* () {
  const [ip, restricted, siteConfig, currencies] = yield* Effect.all(
    [
      ipClient.currentIp().pipe(
        Effect.mapError((cause) => new IpServiceFailed({ message: Messages.ipServiceFailed, cause })),
        Effect.mapError((cause) => new ClientIpFailed({ message: Messages.clientIpFailed, cause })),
      ),
      fetchCdnFile(CdnFiles.restrictedCountries, RestrictedCountries),
      fetchCdnFile(CdnFiles.siteConfig, SiteConfig),
      fetchCdnFile(CdnFiles.currencies, Currencies),
    ],
    { concurrency: "unbounded" },
  )
  const data: BootData = { ip, restricted: restricted.map((r) => r.code), siteConfig, currencies }
  return data
})

export const shellMachine = setup({
  types: {
    input: {} as ShellInput,
    context: {} as ShellContext,
    events: {} as ShellEvent,
  },
  actors: {
    boot: fromEffect(() => loadBoot),
    // The reporter is its own chunk: only a visit that goes wrong downloads it.
    reportError: fromPromise<void, CapturedError>(({ input, signal }) =>
      import("../services/error-reporting.ts").then((m) =>
        runForActor(m.reportUnexpectedError(input), signal),
      ),
    ),
    auth: authMachine,
    modals: modalsMachine,
    loadProfileArea: fromPromise(() => profileArea.load()),
    profileArea: profileArea.logic,
    loadGamesArea: fromPromise(() => gamesArea.load()),
    gamesArea: gamesArea.logic,
  },
  guards: {
    isOnProfilePath: ({ context }) => isProfilePath(context.path),
    staysInProfile: (_, params: { path: string }) => isProfilePath(params.path),
    isOnGamesPath: ({ context }) => isGamesPath(context.path),
    isRestricted: (_, params: { data: BootData }) =>
      isRestrictedCountry(params.data.ip.isoCode, params.data.restricted),
    isSamePathReload: ({ context, event }) =>
      event.type === "NAVIGATE" && event.reloadIfSame === true && event.path === context.path,
  },
  actions: {
    /** history.pushState — provided by the entry point (machines stay free of DOM). */
    pushHistory: (_, _params: { path: string }) => {},
    /** location.reload — spec: navigating home while already on / reloads the page. */
    reloadPage: () => {},
    /** Drop the one-time `?modal=…&token=…` from the address bar once consumed. */
    clearModalQuery: () => {},
    /** The page title falls back to the product name. */
    setTitle: (_, _params: { title: string }) => {},
    /**
     * The session check runs as soon as the shell is ready and its calls are their own chunk: start
     * downloading it with the boot calls. A failure here is retried (and reported) by the check.
     */
    prefetchSessionCalls: () => {
      loadSessionCalls().catch(() => undefined)
    },
    /**
     * The area the address asks for is downloaded while the boot calls are on the wire, not after
     * them: the first screen waits for one round trip less. Nothing renders before the boot answers;
     * a failure here is retried (and reported) by the area's own loading state.
     */
    prefetchArea: ({ context }) => {
      if (isGamesPath(context.path)) gamesArea.load().catch(() => undefined)
      else if (isProfilePath(context.path)) profileArea.load().catch(() => undefined)
    },
  },
}).createMachine({
  id: "shell",
  context: ({ input }) => ({
    path: input.path,
    ip: null,
    siteConfig: null,
    currencies: [],
    modalRequest: parseModalRequest(input.search),
    error: null,
  }),
  initial: "booting",
  on: {
    UNEXPECTED_ERROR: {
      target: ".crashed",
      actions: assign({ error: ({ event }) => event.error }),
    },
  },
  states: {
    booting: {
      entry: ["prefetchSessionCalls", "prefetchArea"],
      invoke: {
        id: "boot",
        src: "boot",
        onDone: [
          {
            guard: { type: "isRestricted", params: ({ event }) => ({ data: event.output }) },
            target: "blocked",
            actions: assign({
              ip: ({ event }) => event.output.ip,
              siteConfig: ({ event }) => event.output.siteConfig,
            }),
          },
          {
            target: "ready",
            actions: [
              assign({
                ip: ({ event }) => event.output.ip,
                siteConfig: ({ event }) => event.output.siteConfig,
                currencies: ({ event }) => event.output.currencies,
              }),
              { type: "setTitle", params: ({ event }) => ({ title: event.output.siteConfig.productName }) },
            ],
          },
        ],
        onError: {
          target: "crashed",
          actions: assign({ error: ({ event }) => toCapturedError(event.error) }),
        },
      },
    },
    /** Only the blocked page renders; no session, no modals, no further calls. */
    blocked: {
      on: { UNEXPECTED_ERROR: {} },
    },
    ready: {
      entry: [{ type: "clearModalQuery" }],
      invoke: [
        {
          id: "auth",
          systemId: "auth",
          src: "auth",
          onError: {
            target: "crashed",
            actions: assign({ error: ({ event }) => toCapturedError(event.error) }),
          },
        },
        {
          id: "modals",
          systemId: "modals",
          src: "modals",
          input: ({ context }) => ({
            // `ready` is entered only from boot's onDone, which assigned the site config.
            siteConfig: context.siteConfig as SiteConfigType,
            currencies: context.currencies,
            request: context.modalRequest,
          }),
          onError: {
            target: "crashed",
            actions: assign({ error: ({ event }) => toCapturedError(event.error) }),
          },
        },
      ],
      on: {
        NAVIGATE: [
          { guard: "isSamePathReload", actions: "reloadPage" },
          {
            target: ".route",
            actions: [
              assign({ path: ({ event }) => event.path }),
              { type: "pushHistory", params: ({ event }) => ({ path: event.path }) },
            ],
          },
        ],
        LOCATION_CHANGED: { target: ".route", actions: assign({ path: ({ event }) => event.path }) },
        SIGNED_IN: {
          actions: sendTo("auth", ({ event }) => ({ type: "SIGNED_IN" as const, user: event.user })),
        },
        AUTH_RECHECK: { actions: sendTo("auth", { type: "RECHECK" as const }) },
        SHOW_LOADING: { actions: sendTo("modals", { type: "SHOW_LOADING" as const }) },
        HIDE_LOADING: { actions: sendTo("modals", { type: "HIDE_LOADING" as const }) },
        OPEN_LOGIN: { actions: sendTo("modals", { type: "OPEN_LOGIN" as const }) },
        ACCOUNT_CHANGED: { actions: sendTo("auth", { type: "REFRESH" as const }) },
        PAGE_VISIBLE: { actions: sendTo("auth", { type: "PAGE_VISIBLE" as const }) },
      },
      initial: "route",
      states: {
        /** Which screen the path asks for: the profile area runs a machine of its own. */
        route: {
          always: [
            { guard: "isOnProfilePath", target: "profile" },
            { guard: "isOnGamesPath", target: "games" },
            { target: "page" },
          ],
        },
        page: {},
        profile: {
          initial: "loading",
          states: {
            loading: {
              invoke: {
                id: "loadProfileArea",
                src: "loadProfileArea",
                onDone: "active",
                onError: {
                  target: "#shell.crashed",
                  actions: assign({ error: ({ event }) => toCapturedError(event.error) }),
                },
              },
            },
            active: {
              invoke: {
                id: "profileArea",
                src: "profileArea",
                input: ({ context }) => ({ path: context.path }),
                onError: {
                  target: "#shell.crashed",
                  actions: assign({ error: ({ event }) => toCapturedError(event.error) }),
                },
              },
              // Another tab of the area: the area switches, it does not start over.
              on: {
                NAVIGATE: {
                  guard: { type: "staysInProfile", params: ({ event }) => ({ path: event.path }) },
                  actions: [
                    assign({ path: ({ event }) => event.path }),
                    { type: "pushHistory", params: ({ event }) => ({ path: event.path }) },
                    sendTo("profileArea", ({ event }) => ({ type: "ROUTE" as const, path: event.path })),
                  ],
                },
                LOCATION_CHANGED: {
                  guard: { type: "staysInProfile", params: ({ event }) => ({ path: event.path }) },
                  actions: [
                    assign({ path: ({ event }) => event.path }),
                    sendTo("profileArea", ({ event }) => ({ type: "ROUTE" as const, path: event.path })),
                  ],
                },
              },
            },
          },
        },
        /**
         * The lobby, a game, the verifier: one area. Moving between its pages starts it again (its
         * code is downloaded once; the session is known at once), which keeps the first download small.
         */
        games: {
          initial: "loading",
          states: {
            loading: {
              invoke: {
                id: "loadGamesArea",
                src: "loadGamesArea",
                onDone: "active",
                onError: {
                  target: "#shell.crashed",
                  actions: assign({ error: ({ event }) => toCapturedError(event.error) }),
                },
              },
            },
            active: {
              invoke: {
                id: "gamesArea",
                src: "gamesArea",
                input: ({ context }) => ({ path: context.path }),
                onError: {
                  target: "#shell.crashed",
                  actions: assign({ error: ({ event }) => toCapturedError(event.error) }),
                },
              },
            },
          },
        },
      },
    },
    /** The 500 page. The report is best-effort: whether or not it arrives, the page shows. */
    crashed: {
      initial: "reporting",
      on: { UNEXPECTED_ERROR: {} },
      states: {
        reporting: {
          invoke: {
            id: "reportError",
            src: "reportError",
            input: ({ context }) => context.error ?? { name: "Error", message: "Unknown error" },
            onDone: "shown",
            onError: "shown",
          },
        },
        shown: {},
      },
    },
  },
})
