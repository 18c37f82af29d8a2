/**
 * The games area: the lobby (`/`, the home page), a game's page (`/game/{id}`) and the
 * fairness verifier (`/fairness`). The shell runs it while its path is one of these (its code is
 * downloaded then, like the profile area's) and sends it every new path there as ROUTE; the area
 * runs the page's machine and routes what the pages ask for: the login modal (to the shell), the
 * balance read again after a round (to the session), a re-check of the session (to the shell).
 *
 * It follows the session (the `auth` actor of the system) through an invoked watcher and tells the
 * open page each change (SESSION), with the session's currency (its default wallet's).
 */
import { type ActorRefFrom, assign, fromCallback, fromPromise, sendParent, sendTo, setup } from "xstate"
import { toCapturedError } from "../../services/captured-error.ts"
import type { authMachine } from "../auth.machine.ts"
import { lazyLogic } from "../lazy.ts"
import { gamePageMachine } from "./gamePage.machine.ts"
import { lobbyMachine } from "./lobby.machine.ts"
import type { GamesRequest, SessionStatus } from "./support.ts"
import type { verifierMachine } from "./verifier.machine.ts"

/** The verifier carries the studio's game math (services/games/): downloaded when /fairness opens. */
export const verifier = lazyLogic<typeof verifierMachine>("verifier", () =>
  import("./verifier.machine.ts").then((m) => m.verifierMachine),
)

export type GamesPage =
  | { readonly page: "lobby" }
  | { readonly page: "game"; readonly id: string }
  | { readonly page: "fairness" }
  | { readonly page: "none" }

/** The page an address names: `/`, `/game/{id}` (a game id's characters only), `/fairness`. */
export const gamesPageOf = (path: string): GamesPage => {
  const normalized = path.length > 1 ? path.replace(/\/+$/, "") : path
  if (normalized === "/") return { page: "lobby" }
  if (normalized === "/fairness") return { page: "fairness" }
  const match = /^\/game\/([a-z0-9][a-z0-9-]{0,63})$/.exec(normalized)
  return match?.[1] === undefined ? { page: "none" } : { page: "game", id: match[1] }
}

/** The game a `/game/{id}` address names ("" for any other). */
export const gameIdOf = (path: string): string => {
  const page = gamesPageOf(path)
  return page.page === "game" ? page.id : ""
}

export interface GamesAreaInput {
  readonly path: string
}

export interface GamesAreaContext {
  readonly path: string
  readonly session: SessionStatus
  /** The session's default wallet's currency, once signed in. */
  readonly currency: string | null
}

export type GamesAreaEvent =
  | { readonly type: "ROUTE"; readonly path: string }
  | { readonly type: "SESSION"; readonly status: SessionStatus; readonly currency: string | null }
  | GamesRequest
  /** The verifier's code failed to download: try again. */
  | { readonly type: "RETRY" }

type AuthSnapshot = ReturnType<ActorRefFrom<typeof authMachine>["getSnapshot"]>

const sessionStatusOf = (snapshot: AuthSnapshot): SessionStatus =>
  snapshot.matches("authenticated") ? "signedIn" : snapshot.matches("anonymous") ? "anonymous" : "checking"

/** The wallet the header shows: the default one, else EUR, else the first (spec section 3). */
const currencyOf = (snapshot: AuthSnapshot): string | null => {
  const fund = snapshot.context.fund
  return (
    (fund?.find((f) => f.default) ?? fund?.find((f) => f.currency === "EUR") ?? fund?.[0])?.currency ?? null
  )
}

const pageInput = ({ context }: { context: GamesAreaContext }) => ({
  session: context.session,
  currency: context.currency,
})

const crash = {
  actions: {
    type: "reportCrash" as const,
    params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
  },
}

export const gamesAreaMachine = setup({
  types: {
    input: {} as GamesAreaInput,
    context: {} as GamesAreaContext,
    events: {} as GamesAreaEvent,
    children: {} as {
      session: "watchSession"
      lobby: "lobby"
      game: "game"
      loadVerifier: "loadVerifier"
      verifier: "verifier"
    },
  },
  actors: {
    /** Follows the session actor (systemId "auth"): its status and currency as SESSION events. */
    watchSession: fromCallback<GamesAreaEvent>(({ system, sendBack }) => {
      const auth: ActorRefFrom<typeof authMachine> | undefined = system.get("auth")
      if (auth === undefined) {
        sendBack({ type: "SESSION", status: "anonymous", currency: null })
        return () => {}
      }
      let last = ""
      const report = (snapshot: AuthSnapshot) => {
        const status = sessionStatusOf(snapshot)
        const currency = currencyOf(snapshot)
        // The session actor changes often (its fund, its reality check): tell only what matters here.
        if (`${status}:${currency}` === last) return
        last = `${status}:${currency}`
        sendBack({ type: "SESSION", status, currency })
      }
      report(auth.getSnapshot())
      const subscription = auth.subscribe(report)
      return () => subscription.unsubscribe()
    }),
    lobby: lobbyMachine,
    game: gamePageMachine,
    loadVerifier: fromPromise(() => verifier.load()),
    verifier: verifier.logic,
  },
  guards: {
    isPage: ({ context }, params: { page: GamesPage["page"] }) =>
      gamesPageOf(context.path).page === params.page,
    isSamePage: ({ context }, params: { path: string }) => {
      const now = gamesPageOf(context.path)
      const next = gamesPageOf(params.path)
      return JSON.stringify(now) === JSON.stringify(next)
    },
    isSettled: (_, params: { status: SessionStatus }) => params.status !== "checking",
  },
  actions: {
    route: assign((_, params: { path: string }) => ({ path: params.path })),
    useSession: assign((_, params: { status: SessionStatus; currency: string | null }) => ({
      session: params.status,
      currency: params.currency,
    })),
    askForLogin: sendParent({ type: "OPEN_LOGIN" }),
    recheckSession: sendParent({ type: "AUTH_RECHECK" }),
    tellLobby: sendTo("lobby", ({ context }) => ({ type: "SESSION" as const, status: context.session })),
    tellGame: sendTo("game", ({ context }) => ({ type: "SESSION" as const, status: context.session })),
    reportCrash: sendParent((_, params: { error: unknown }) => ({
      type: "UNEXPECTED_ERROR",
      error: toCapturedError(params.error),
    })),
  },
}).createMachine({
  id: "gamesArea",
  context: ({ input }) => ({ path: input.path, session: "checking", currency: null }),
  invoke: { id: "session", src: "watchSession", onError: crash },
  on: {
    ROUTE: [
      {
        guard: { type: "isSamePage", params: ({ event }) => ({ path: event.path }) },
        actions: { type: "route", params: ({ event }) => ({ path: event.path }) },
      },
      { target: ".route", actions: { type: "route", params: ({ event }) => ({ path: event.path }) } },
    ],
    SESSION: { actions: { type: "useSession", params: ({ event }) => event } },
    OPEN_LOGIN: { actions: "askForLogin" },
    AUTH_RECHECK: { actions: "recheckSession" },
  },
  initial: "waiting",
  states: {
    /**
     * The session is still being checked: the lobby's favorites and the game's default mode depend
     * on it, so the page starts once it is known (the check runs with the boot: usually at once).
     */
    waiting: {
      on: {
        SESSION: {
          guard: { type: "isSettled", params: ({ event }) => ({ status: event.status }) },
          target: "route",
          actions: { type: "useSession", params: ({ event }) => event },
        },
      },
    },
    route: {
      always: [
        { guard: { type: "isPage", params: { page: "lobby" } }, target: "lobby" },
        { guard: { type: "isPage", params: { page: "game" } }, target: "game" },
        { guard: { type: "isPage", params: { page: "fairness" } }, target: "fairness" },
        { target: "notFound" },
      ],
    },
    lobby: {
      invoke: { id: "lobby", src: "lobby", input: pageInput, onError: crash },
      on: {
        SESSION: {
          actions: [{ type: "useSession", params: ({ event }) => event }, "tellLobby"],
        },
      },
    },
    game: {
      invoke: {
        id: "game",
        src: "game",
        input: ({ context }) => ({
          ...pageInput({ context }),
          gameId: gameIdOf(context.path),
          // Spec section 7: platform 'desktop' (the studio's pages adapt to the frame's width).
          platform: "desktop" as const,
          lang: "en",
        }),
        onError: crash,
      },
      on: {
        SESSION: {
          actions: [{ type: "useSession", params: ({ event }) => event }, "tellGame"],
        },
      },
    },
    /** Its code first (the studio's game math), then the verifier. */
    fairness: {
      initial: "loading",
      states: {
        loading: {
          invoke: { id: "loadVerifier", src: "loadVerifier", onDone: "active", onError: "loadFailed" },
        },
        loadFailed: { on: { RETRY: "loading" } },
        active: { invoke: { id: "verifier", src: "verifier", onError: crash } },
      },
    },
    notFound: {},
  },
})
