/**
 * The game page (`/game/{id}`): finds the game in the catalogue (its name, brand, category,
 * RTP, volatility and bet limits for the info panel, and the launch fields), then launches it in demo
 * or for real money (`POST …/game` → the URL the frame opens).
 *
 * - Real money needs a session: a visitor who asks for it gets the login modal and the game starts
 *   for real once they are signed in (or they go back to demo). A signed-in player opens in real
 *   money, a visitor in demo (a game without demo opens in real money, so asks a visitor to log in).
 * - The launch's refusals: GameNotFound, PlayBlocked (self-excluded: "You cannot play for real money
 *   while your account is excluded"; no wallet in the game's currency), GameUnavailable (Try again).
 * - While playing, the frame's messages: a refused bet for lack of money (`studio:error`
 *   INSUFFICIENT_FUNDS) shows a clear message with Deposit. A round's balance needs nothing here:
 *   the server pushes it to the session (auth.machine.ts), so a round costs the page no request.
 * - The frame must say it is there: the studio's page posts `studio:balance` once loaded (a frame's
 *   `load` fires for the browser's error page too). Blocked by the browser (a CSP violation the view
 *   reports) or silent for 15 s (the studio down, the network): "The game could not be loaded." and
 *   why, with Try again, which loads the frame anew.
 * - The reality check interrupts play: while its reminder shows, the page is `paused` —
 *   the view unmounts the frame, so nothing in it keeps playing and no bet can be sent from it — and
 *   "Continue playing" resumes with the frame loaded again (the round state lives on the server).
 *   The page follows the session actor's `realityCheck` child through an invoked watcher (PAUSE /
 *   RESUME); a reminder that shows before the frame does (during the launch) pauses it on arrival.
 */
import { type ActorRefFrom, assign, fromCallback, type SnapshotFrom, sendParent, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { gamesClient } from "../../services/clients/games.ts"
import { GameNotFound, GameUnavailable, PlayBlocked, Unauthenticated } from "../../services/errors.ts"
import type { Game, GamesAndCategories, LaunchPayload, LaunchResponse } from "../../services/game-service.ts"
import { catalogueCurrency } from "../../services/lobby-rules.ts"
import type { authMachine } from "../auth.machine.ts"
import type { realityCheckMachine } from "../profile/realityCheck.machine.ts"
import type { FrameMessage, GamesRequest, SessionEvent, SessionStatus } from "./support.ts"

export type PlayMode = "demo" | "real"

export const GamePageMessages = {
  notFound: "This game does not exist (any more).",
  excluded: "You cannot play for real money while your account is excluded",
  noWallet: "You have no wallet in a currency this game takes. Add one from your balance first.",
  demoOnly: "This game can only be played in demo mode.",
  unavailable: "The game could not be started. Please try again in a moment.",
  loadFailed: "The game could not be loaded.",
  frameBlocked: "Your browser blocked it on this address.",
  frameTimeout: "The game studio did not answer in time.",
  insufficientFunds: "Your balance is too low for this bet. Deposit to keep playing, or lower the bet.",
  paused: "Play is paused for your reality check.",
} as const

export interface GamePageInput {
  readonly gameId: string
  readonly session: SessionStatus
  /** The session's currency (its default wallet), or null. */
  readonly currency: string | null
  readonly platform: "desktop" | "mobile"
  readonly lang: string
  /** How long the game's frame has to say it is there (default FRAME_TIMEOUT_MS; tests shorten it). */
  readonly frameTimeoutMs?: number
}

/** Why the game's frame is not shown: the browser blocked it, or it never said it was there. */
export type FrameFailure = "blocked" | "timeout"

/** How long a game's frame has to say it is there. */
export const FRAME_TIMEOUT_MS = 15_000

export interface GamePageContext extends GamePageInput {
  readonly game: Game | null
  readonly betLimits: { readonly min: string; readonly max: string } | null
  /** The game's segment as the lobby names it ("Video slots"). */
  readonly categoryName: string
  readonly catalogueCurrency: string
  /** Null until the game is known (then the default for the session). */
  readonly mode: PlayMode | null
  readonly launch: LaunchResponse | null
  /** What refused the launch, shown in place of the frame. */
  readonly message: string | null
  /** A reality check reminder is showing: play waits for the player's answer. */
  readonly paused: boolean
  /** Bumped by Try again and when play resumes: the view loads a new frame. */
  readonly frameAttempt: number
  readonly frameFailure: FrameFailure | null
}

export type GamePageEvent =
  | SessionEvent
  | { readonly type: "PLAY"; readonly mode: PlayMode }
  | { readonly type: "RETRY" }
  | { readonly type: "FRAME"; readonly message: FrameMessage }
  /** The browser refused to frame the game (the view's `securitypolicyviolation` for its origin). */
  | { readonly type: "FRAME_BLOCKED" }
  | { readonly type: "DISMISS" }
  /** The reality check's reminder showed (or the session is being signed out from it). */
  | { readonly type: "PAUSE" }
  /** The reminder was answered with "Continue playing" (or the session ended). */
  | { readonly type: "RESUME" }

/**
 * The launch call's body (spec section 7) for the page's game and mode. The launch runs only once
 * the catalogue named the game; without it the fields are empty and the server refuses (404).
 */
export const launchPayload = (context: GamePageContext): LaunchPayload => ({
  id: context.game?.id ?? context.gameId,
  gameName: context.game?.name ?? "",
  demo: context.mode !== "real",
  lang: context.lang,
  launchId: context.game?.launchId ?? "",
  imageId: context.game?.imageId ?? "",
  platform: context.platform,
  provider: context.game?.provider ?? "",
  category: context.game?.category ?? "",
})

type AuthSnapshot = SnapshotFrom<typeof authMachine>
type RealityCheckActor = ActorRefFrom<typeof realityCheckMachine>

/**
 * Whether play waits for the player, read from the session actor: its reality check shows a
 * reminder, or the reminder's "Sign out" was chosen (the check ended, the session is signing out:
 * play does not come back in between).
 */
export const isPlayPaused = (auth: AuthSnapshot): boolean => {
  if (auth.matches("signingOut")) return true
  const check = auth.children.realityCheck as RealityCheckActor | undefined
  const snapshot = check?.getSnapshot()
  return snapshot !== undefined && (snapshot.status === "done" || snapshot.matches("reminding"))
}

/** The message a PlayBlocked refusal shows. */
export const blockedMessage = (error: PlayBlocked): string => {
  switch (error.reason) {
    case "excluded":
      return GamePageMessages.excluded
    case "currency":
      return GamePageMessages.noWallet
    case "demo-only":
      return GamePageMessages.demoOnly
  }
}

export const gamePageMachine = setup({
  types: {
    input: {} as GamePageInput,
    context: {} as GamePageContext,
    events: {} as GamePageEvent,
  },
  actors: {
    catalogue: fromEffect((currency: string) => gamesClient.gamesAndCategories({ params: { currency } })),
    launch: fromEffect((payload: LaunchPayload) => gamesClient.launch({ payload })),
    /**
     * Follows the session actor (systemId "auth") and its `realityCheck` child: PAUSE when play must
     * wait, RESUME when it may go on (only changes are told; the first report is at once). Without a
     * session actor (a test of the page alone) it tells nothing.
     */
    watchRealityCheck: fromCallback<GamePageEvent>(({ system, sendBack }) => {
      const auth: ActorRefFrom<typeof authMachine> | undefined = system.get("auth")
      if (auth === undefined) return () => {}
      let paused = false
      let check: RealityCheckActor | undefined
      let checkSubscription: { unsubscribe: () => void } | undefined
      const report = () => {
        const snapshot = auth.getSnapshot()
        // The reality check starts and ends with the session: follow whichever one runs now.
        const current = snapshot.children.realityCheck as RealityCheckActor | undefined
        if (current !== check) {
          checkSubscription?.unsubscribe()
          check = current
          checkSubscription = current?.subscribe({ next: report, error: report, complete: report })
        }
        const now = isPlayPaused(snapshot)
        if (now === paused) return
        paused = now
        sendBack({ type: now ? "PAUSE" : "RESUME" })
      }
      report()
      const subscription = auth.subscribe(report)
      return () => {
        subscription.unsubscribe()
        checkSubscription?.unsubscribe()
      }
    }),
  },
  guards: {
    knowsGame: ({ context }, params: { catalogue: GamesAndCategories }) =>
      params.catalogue.games.some((g) => g.id === context.gameId),
    wantsRealWithoutSession: ({ context }) => context.mode === "real" && context.session !== "signedIn",
    isSignedIn: (_, params: { status: SessionStatus }) => params.status === "signedIn",
    leftSession: ({ context }, params: { status: SessionStatus }) =>
      context.mode === "real" && params.status === "anonymous",
    canPlay: ({ context }, params: { mode: PlayMode }) =>
      params.mode === "real" || context.game?.demo === true,
    isBlocked: (_, params: { error: unknown }) => params.error instanceof PlayBlocked,
    isNotFound: (_, params: { error: unknown }) => params.error instanceof GameNotFound,
    isSessionGone: (_, params: { error: unknown }) => params.error instanceof Unauthenticated,
    isUnavailable: (_, params: { error: unknown }) => params.error instanceof GameUnavailable,
    isLowBalance: (_, params: { message: FrameMessage }) => params.message.type === "insufficientFunds",
    isPaused: ({ context }) => context.paused,
  },
  delays: {
    frameTimeout: ({ context }) => context.frameTimeoutMs ?? FRAME_TIMEOUT_MS,
  },
  actions: {
    useCatalogue: assign(({ context }, params: { catalogue: GamesAndCategories }) => {
      const game = params.catalogue.games.find((g) => g.id === context.gameId) ?? null
      return {
        game,
        betLimits: game === null ? null : (params.catalogue.betLimits[game.id] ?? null),
        categoryName:
          params.catalogue.categories.find((c) => c.slug === game?.category)?.name ?? game?.category ?? "",
        catalogueCurrency: params.catalogue.currency,
        // A player opens in real money, a visitor in demo; a game without demo only for real.
        mode: game?.demo && context.session !== "signedIn" ? "demo" : "real",
      } satisfies Partial<GamePageContext>
    }),
    setMode: assign((_, params: { mode: PlayMode }) => ({ mode: params.mode, message: null })),
    setSession: assign((_, params: { status: SessionStatus }) => ({ session: params.status })),
    useLaunch: assign((_, params: { launch: LaunchResponse }) => ({ launch: params.launch, message: null })),
    dropLaunch: assign({ launch: null }),
    frameFailed: assign((_, params: { failure: FrameFailure }) => ({ frameFailure: params.failure })),
    reloadFrame: assign(({ context }) => ({ frameAttempt: context.frameAttempt + 1, frameFailure: null })),
    pause: assign({ paused: true }),
    resume: assign({ paused: false }),
    say: assign((_, params: { message: string }) => ({ message: params.message })),
    sayBlocked: assign((_, params: { error: unknown }) => ({
      message:
        params.error instanceof PlayBlocked ? blockedMessage(params.error) : GamePageMessages.unavailable,
    })),
    askForLogin: sendParent({ type: "OPEN_LOGIN" } satisfies GamesRequest),
    recheckSession: sendParent({ type: "AUTH_RECHECK" } satisfies GamesRequest),
  },
}).createMachine({
  id: "gamePage",
  context: ({ input }) => ({
    ...input,
    game: null,
    betLimits: null,
    categoryName: "",
    catalogueCurrency: catalogueCurrency(input.currency),
    mode: null,
    launch: null,
    message: null,
    paused: false,
    frameAttempt: 0,
    frameFailure: null,
  }),
  initial: "loading",
  // The reality check is followed on every state: a reminder may show before the frame does.
  invoke: {
    id: "realityCheck",
    src: "watchRealityCheck",
    // Without the watcher the reminder still shows (the app's dialog); the frame is not paused.
    onError: { actions: "resume" },
  },
  on: {
    SESSION: { actions: { type: "setSession", params: ({ event }) => ({ status: event.status }) } },
    PAUSE: { actions: "pause" },
    RESUME: { actions: "resume" },
  },
  states: {
    loading: {
      invoke: {
        id: "catalogue",
        src: "catalogue",
        input: ({ context }) => context.catalogueCurrency,
        onDone: [
          {
            guard: { type: "knowsGame", params: ({ event }) => ({ catalogue: event.output }) },
            target: "starting",
            actions: { type: "useCatalogue", params: ({ event }) => ({ catalogue: event.output }) },
          },
          { target: "notFound" },
        ],
        onError: "loadFailed",
      },
    },
    loadFailed: { on: { RETRY: "loading" } },
    notFound: {},
    /** Real money needs a session first. */
    starting: {
      always: [{ guard: "wantsRealWithoutSession", target: "needsLogin" }, { target: "launching" }],
    },
    needsLogin: {
      entry: "askForLogin",
      on: {
        SESSION: {
          guard: { type: "isSignedIn", params: ({ event }) => ({ status: event.status }) },
          target: "launching",
          actions: { type: "setSession", params: ({ event }) => ({ status: event.status }) },
        },
        PLAY: {
          guard: { type: "canPlay", params: ({ event }) => ({ mode: event.mode }) },
          target: "starting",
          actions: { type: "setMode", params: ({ event }) => ({ mode: event.mode }) },
        },
      },
    },
    launching: {
      entry: "dropLaunch",
      invoke: {
        id: "launch",
        src: "launch",
        input: ({ context }) => launchPayload(context),
        onDone: {
          target: "playing",
          actions: { type: "useLaunch", params: ({ event }) => ({ launch: event.output }) },
        },
        onError: [
          {
            guard: { type: "isBlocked", params: ({ event }) => ({ error: event.error }) },
            target: "refused",
            actions: { type: "sayBlocked", params: ({ event }) => ({ error: event.error }) },
          },
          {
            guard: { type: "isNotFound", params: ({ event }) => ({ error: event.error }) },
            target: "notFound",
          },
          {
            // The session ended meanwhile: the shell re-checks it; signing in again resumes.
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "needsLogin",
            actions: ["recheckSession", { type: "setSession", params: { status: "anonymous" } }],
          },
          {
            target: "unavailable",
            actions: { type: "say", params: { message: GamePageMessages.unavailable } },
          },
        ],
      },
    },
    playing: {
      initial: "loading",
      on: {
        PAUSE: { target: ".paused", actions: "pause" },
        PLAY: {
          guard: { type: "canPlay", params: ({ event }) => ({ mode: event.mode }) },
          target: "starting",
          actions: { type: "setMode", params: ({ event }) => ({ mode: event.mode }) },
        },
        // Signed out while playing for real money: the frame's session is gone too.
        SESSION: {
          guard: { type: "leftSession", params: ({ event }) => ({ status: event.status }) },
          target: "starting",
          actions: { type: "setSession", params: ({ event }) => ({ status: event.status }) },
        },
      },
      states: {
        /** The frame is loading: the studio's page says it is there with its first message. */
        loading: {
          // The reminder showed while the game was starting: its frame waits for the answer.
          always: { guard: "isPaused", target: "paused" },
          after: {
            frameTimeout: {
              target: "failed",
              actions: { type: "frameFailed", params: { failure: "timeout" } },
            },
          },
          on: {
            FRAME: [
              {
                guard: { type: "isLowBalance", params: ({ event }) => ({ message: event.message }) },
                target: "lowBalance",
              },
              { target: "frame" },
            ],
            FRAME_BLOCKED: {
              target: "failed",
              actions: { type: "frameFailed", params: { failure: "blocked" } },
            },
          },
        },
        frame: {
          on: {
            FRAME: {
              guard: { type: "isLowBalance", params: ({ event }) => ({ message: event.message }) },
              target: "lowBalance",
            },
          },
        },
        /** "Your balance is too low…" with Deposit (the view opens the deposit modal) and Dismiss. */
        lowBalance: { on: { DISMISS: "frame" } },
        /** "The game could not be loaded." and why; Try again loads a new frame. */
        failed: { on: { RETRY: { target: "loading", actions: "reloadFrame" } } },
        /**
         * A reality check reminder is showing: no frame (the view unmounts it), "play is paused". The
         * answer "Continue playing" loads the frame again; "Sign out" ends the session (and the page).
         */
        paused: { on: { RESUME: { target: "loading", actions: ["resume", "reloadFrame"] } } },
      },
    },
    /** PlayBlocked: the reason, and demo mode when the game has it. */
    refused: {
      on: {
        PLAY: {
          guard: { type: "canPlay", params: ({ event }) => ({ mode: event.mode }) },
          target: "starting",
          actions: { type: "setMode", params: ({ event }) => ({ mode: event.mode }) },
        },
      },
    },
    unavailable: {
      on: {
        RETRY: "launching",
        PLAY: {
          guard: { type: "canPlay", params: ({ event }) => ({ mode: event.mode }) },
          target: "starting",
          actions: { type: "setMode", params: ({ event }) => ({ mode: event.mode }) },
        },
      },
    },
  },
})
