/**
 * The lobby (the home page): one statechart owns all of it. On start it loads, in
 * parallel, the catalogue in the session's currency (or EUR), the top, featured and new games, the
 * jackpots, the latest winners, the skin configuration and the CDN's recommended list, and the
 * favorites once the player is signed in. Each call that fails says so with its spec message
 * ("Get New Games did not work", …) and leaves its section empty; the others are unaffected. The
 * catalogue (all games, segments, search) can be retried.
 *
 * Regions: `catalogue` (loading → ready | failed), `jackpots` (read again every 30 s: the pools are
 * live), `favorites` (off for a visitor; loading → ready | failed; saving while a toggle is in
 * flight), `search` (typing debounces SEARCH with `after`). Segment, search and "more" are context:
 * the list starts at 12 and grows by 12 (spec: numberOfGames); a new search or segment starts at 12.
 * A visitor toggling a favorite gets the login modal (asked of the area).
 *
 * Each read goes through the lobby's query cache (services/lobby-queries.ts): a player back from
 * another screen sees the lists read a moment ago, reused until stale (spec: 5 minutes).
 */
import { Effect } from "effect"
import { assign, sendParent, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import type { RecommendedGames } from "../../services/cdn.ts"
import { playerGamesClient } from "../../services/clients/playerGames.ts"
import type {
  Category,
  FavoriteGame,
  FavoriteGames,
  Games,
  GamesAndCategories,
  Jackpots,
  SkinConfiguration,
  Winners,
} from "../../services/game-service.ts"
import { lobbyQueries } from "../../services/lobby-queries.ts"
import {
  catalogueCurrency,
  favoriteBody,
  filterGames,
  hasMore,
  isFavorite,
  JACKPOT_REFRESH_MS,
  LobbyMessages,
  nextCount,
  PAGE_SIZE,
  SEARCH_DEBOUNCE_MS,
} from "../../services/lobby-rules.ts"
import { notify } from "../../services/notify.ts"
import type { GamesRequest, SessionEvent, SessionStatus } from "./support.ts"

export interface LobbyInput {
  /** The session's currency (its default wallet), or null: the catalogue's bet limits are in it. */
  readonly currency: string | null
  readonly session: SessionStatus
}

/** A section whose call failed shows its message in place (and once as a toast). */
export type LobbySection =
  | "catalogue"
  | "top"
  | "featured"
  | "newGames"
  | "jackpots"
  | "winners"
  | "skin"
  | "recommended"
  | "favorites"

export interface LobbyContext {
  readonly currency: string
  readonly session: SessionStatus
  readonly games: Games
  readonly categories: ReadonlyArray<Category>
  readonly betLimits: GamesAndCategories["betLimits"]
  readonly top: Games
  readonly featured: Games
  readonly newGames: Games
  readonly jackpots: Jackpots
  readonly winners: Winners
  readonly skin: SkinConfiguration | null
  readonly recommended: RecommendedGames
  readonly favorites: FavoriteGames
  /** What the search field holds; `searchTerm` is what the list applies (after the debounce). */
  readonly searchInput: string
  readonly searchTerm: string
  /** The segment (category slug) the list is filtered to; null: all. */
  readonly segment: string | null
  /** Spec: numberOfGames, 12 then +12 per "more". */
  readonly numberOfGames: number
  /** The game whose favorite mark is being saved (spec: favoriteRequested). */
  readonly favoriteRequested: string | null
  readonly failed: ReadonlyArray<LobbySection>
}

export type LobbyEvent =
  | SessionEvent
  | { readonly type: "SEARCH"; readonly term: string }
  | { readonly type: "SEGMENT"; readonly segment: string | null }
  | { readonly type: "MORE" }
  | { readonly type: "TOGGLE_FAVORITE"; readonly gameId: string }
  | { readonly type: "RETRY" }

const sectionMessages: Readonly<Record<LobbySection, string>> = {
  catalogue: LobbyMessages.catalogue,
  top: LobbyMessages.topGames,
  featured: LobbyMessages.featuredGames,
  newGames: LobbyMessages.newGames,
  jackpots: LobbyMessages.jackpots,
  winners: LobbyMessages.winners,
  skin: LobbyMessages.skin,
  recommended: LobbyMessages.recommended,
  favorites: LobbyMessages.favorites,
}

export const sectionMessage = (section: LobbySection): string => sectionMessages[section]

const without = (failed: ReadonlyArray<LobbySection>, section: LobbySection) =>
  failed.filter((s) => s !== section)
const withFailure = (failed: ReadonlyArray<LobbySection>, section: LobbySection) => [
  ...without(failed, section),
  section,
]

/** The list the "all games" grid filters (segment and search). */
export const allGamesOf = (context: LobbyContext): Games =>
  filterGames(context.games, { term: context.searchTerm, segment: context.segment })

/** Each section's call; a failure is only its own. */
const list = (call: Effect.Effect<Games, unknown>) => fromEffect(() => call)

export const lobbyMachine = setup({
  types: {
    input: {} as LobbyInput,
    context: {} as LobbyContext,
    events: {} as LobbyEvent,
  },
  actors: {
    catalogue: fromEffect((currency: string) => lobbyQueries.catalogue.read(currency)),
    top: list(lobbyQueries.top.read),
    featured: list(lobbyQueries.featured.read),
    newGames: list(lobbyQueries.newGames.read),
    jackpots: fromEffect(() => lobbyQueries.jackpots.read),
    winners: fromEffect(() => lobbyQueries.winners.read),
    skin: fromEffect(() => lobbyQueries.skin.read),
    recommended: fromEffect(() => lobbyQueries.recommended.read),
    favorites: fromEffect(() => lobbyQueries.favorites.read),
    // Each answers with the whole new list: it is kept as the favorites just read.
    addFavorite: fromEffect((payload: FavoriteGame) =>
      Effect.tap(playerGamesClient.addFavorite({ payload }), lobbyQueries.favorites.set),
    ),
    removeFavorite: fromEffect((id: string) =>
      Effect.tap(playerGamesClient.removeFavorite({ params: { id } }), lobbyQueries.favorites.set),
    ),
  },
  guards: {
    isSignedIn: ({ context }) => context.session === "signedIn",
    sessionIsSignedIn: (_, params: { status: SessionStatus }) => params.status === "signedIn",
    sessionIsNotSignedIn: (_, params: { status: SessionStatus }) => params.status !== "signedIn",
    hasMore: ({ context }) => hasMore(allGamesOf(context).length, context.numberOfGames),
    isKnownGame: ({ context }, params: { gameId: string }) =>
      context.games.some((g) => g.id === params.gameId),
    isFavorite: ({ context }, params: { gameId: string }) => isFavorite(context.favorites, params.gameId),
    hasJackpots: ({ context }) => context.jackpots.length > 0,
  },
  actions: {
    notifyError: (_, params: { message: string }) => notify("error", params.message),
    failSection: assign(({ context }, params: { section: LobbySection }) => ({
      failed: withFailure(context.failed, params.section),
    })),
    clearSection: assign(({ context }, params: { section: LobbySection }) => ({
      failed: without(context.failed, params.section),
    })),
    setSession: assign((_, params: { status: SessionStatus }) => ({ session: params.status })),
    dropFavorites: assign(({ context }) => ({ favorites: [], failed: without(context.failed, "favorites") })),
    setSearchInput: assign((_, params: { term: string }) => ({ searchInput: params.term })),
    applySearch: assign(({ context }) => ({ searchTerm: context.searchInput, numberOfGames: PAGE_SIZE })),
    setSegment: assign((_, params: { segment: string | null }) => ({
      segment: params.segment,
      numberOfGames: PAGE_SIZE,
    })),
    showMore: assign(({ context }) => ({ numberOfGames: nextCount(context.numberOfGames) })),
    askForLogin: sendParent({ type: "OPEN_LOGIN" } satisfies GamesRequest),
    requestFavorite: assign((_, params: { gameId: string }) => ({ favoriteRequested: params.gameId })),
    useFavorites: assign(({ context }, params: { favorites: FavoriteGames }) => ({
      favorites: params.favorites,
      favoriteRequested: null,
      failed: without(context.failed, "favorites"),
    })),
    endFavoriteRequest: assign({ favoriteRequested: null }),
  },
  delays: {
    searchDebounce: SEARCH_DEBOUNCE_MS,
    jackpotRefresh: JACKPOT_REFRESH_MS,
  },
}).createMachine({
  id: "lobby",
  context: ({ input }) => ({
    currency: catalogueCurrency(input.currency),
    session: input.session,
    games: [],
    categories: [],
    betLimits: {},
    top: [],
    featured: [],
    newGames: [],
    jackpots: [],
    winners: [],
    skin: null,
    recommended: [],
    favorites: [],
    searchInput: "",
    searchTerm: "",
    segment: null,
    numberOfGames: PAGE_SIZE,
    favoriteRequested: null,
    failed: [],
  }),
  type: "parallel",
  on: {
    SEGMENT: { actions: { type: "setSegment", params: ({ event }) => ({ segment: event.segment }) } },
    MORE: { guard: "hasMore", actions: "showMore" },
  },
  // The sections that load once: each outcome fills its section or marks it failed, nothing more.
  invoke: [
    {
      id: "top",
      src: "top",
      onDone: { actions: assign({ top: ({ event }) => event.output }) },
      onError: {
        actions: [
          { type: "failSection", params: { section: "top" } },
          { type: "notifyError", params: { message: LobbyMessages.topGames } },
        ],
      },
    },
    {
      id: "featured",
      src: "featured",
      onDone: { actions: assign({ featured: ({ event }) => event.output }) },
      onError: {
        actions: [
          { type: "failSection", params: { section: "featured" } },
          { type: "notifyError", params: { message: LobbyMessages.featuredGames } },
        ],
      },
    },
    {
      id: "newGames",
      src: "newGames",
      onDone: { actions: assign({ newGames: ({ event }) => event.output }) },
      onError: {
        actions: [
          { type: "failSection", params: { section: "newGames" } },
          { type: "notifyError", params: { message: LobbyMessages.newGames } },
        ],
      },
    },
    {
      id: "winners",
      src: "winners",
      onDone: { actions: assign({ winners: ({ event }) => event.output }) },
      onError: { actions: { type: "failSection", params: { section: "winners" } } },
    },
    {
      id: "skin",
      src: "skin",
      onDone: { actions: assign({ skin: ({ event }) => event.output }) },
      // The default layout stands in: nothing the player needs to be told.
      onError: { actions: { type: "failSection", params: { section: "skin" } } },
    },
    {
      id: "recommended",
      src: "recommended",
      onDone: { actions: assign({ recommended: ({ event }) => event.output }) },
      onError: { actions: { type: "failSection", params: { section: "recommended" } } },
    },
  ],
  states: {
    catalogue: {
      initial: "loading",
      states: {
        loading: {
          invoke: {
            id: "catalogue",
            src: "catalogue",
            input: ({ context }) => context.currency,
            onDone: {
              target: "ready",
              actions: [
                assign({
                  games: ({ event }) => event.output.games,
                  categories: ({ event }) => [...event.output.categories].sort((a, b) => a.order - b.order),
                  betLimits: ({ event }) => event.output.betLimits,
                }),
                { type: "clearSection", params: { section: "catalogue" } },
              ],
            },
            onError: {
              target: "failed",
              actions: [
                { type: "failSection", params: { section: "catalogue" } },
                { type: "notifyError", params: { message: LobbyMessages.catalogue } },
              ],
            },
          },
        },
        ready: {},
        /** All games, segments and search need the catalogue: "Try again". */
        failed: { on: { RETRY: "loading" } },
      },
    },
    jackpots: {
      initial: "loading",
      states: {
        loading: {
          invoke: {
            id: "jackpots",
            src: "jackpots",
            onDone: {
              target: "waiting",
              actions: [
                assign({ jackpots: ({ event }) => event.output }),
                { type: "clearSection", params: { section: "jackpots" } },
              ],
            },
            onError: [
              // A refresh that fails keeps the last amounts and tries again on the next tick.
              { guard: "hasJackpots", target: "waiting" },
              {
                target: "waiting",
                actions: [
                  { type: "failSection", params: { section: "jackpots" } },
                  { type: "notifyError", params: { message: LobbyMessages.jackpots } },
                ],
              },
            ],
          },
        },
        waiting: { after: { jackpotRefresh: "loading" } },
      },
    },
    favorites: {
      initial: "choosing",
      on: {
        SESSION: [
          {
            guard: { type: "sessionIsSignedIn", params: ({ event }) => ({ status: event.status }) },
            target: ".choosing",
            actions: { type: "setSession", params: ({ event }) => ({ status: event.status }) },
          },
          {
            target: ".off",
            actions: [
              { type: "setSession", params: ({ event }) => ({ status: event.status }) },
              "dropFavorites",
            ],
          },
        ],
      },
      states: {
        choosing: { always: [{ guard: "isSignedIn", target: "loading" }, { target: "off" }] },
        /** A visitor (or a session being checked): no favorites; a toggle asks to log in. */
        off: {
          on: {
            TOGGLE_FAVORITE: {
              guard: { type: "isKnownGame", params: ({ event }) => ({ gameId: event.gameId }) },
              actions: "askForLogin",
            },
          },
        },
        loading: {
          invoke: {
            id: "favorites",
            src: "favorites",
            onDone: {
              target: "ready",
              actions: { type: "useFavorites", params: ({ event }) => ({ favorites: event.output }) },
            },
            onError: {
              target: "failed",
              actions: [
                { type: "failSection", params: { section: "favorites" } },
                { type: "notifyError", params: { message: LobbyMessages.favorites } },
              ],
            },
          },
        },
        /** The favorites could not be read: a toggle would overwrite what we do not know. */
        failed: { on: { RETRY: "loading" } },
        ready: {
          on: {
            TOGGLE_FAVORITE: [
              {
                guard: { type: "isFavorite", params: ({ event }) => ({ gameId: event.gameId }) },
                target: "removing",
                actions: { type: "requestFavorite", params: ({ event }) => ({ gameId: event.gameId }) },
              },
              {
                guard: { type: "isKnownGame", params: ({ event }) => ({ gameId: event.gameId }) },
                target: "adding",
                actions: { type: "requestFavorite", params: ({ event }) => ({ gameId: event.gameId }) },
              },
            ],
          },
        },
        adding: {
          invoke: {
            id: "addFavorite",
            src: "addFavorite",
            input: ({ context }) => {
              const game = context.games.find((g) => g.id === context.favoriteRequested)
              // Entered only through isKnownGame, so the game is in the catalogue.
              return game === undefined
                ? { id: "", launchId: "", category: "", name: "", provider: "" }
                : favoriteBody(game)
            },
            onDone: {
              target: "ready",
              actions: { type: "useFavorites", params: ({ event }) => ({ favorites: event.output }) },
            },
            onError: {
              target: "ready",
              actions: [
                "endFavoriteRequest",
                { type: "notifyError", params: { message: LobbyMessages.addFavorite } },
              ],
            },
          },
        },
        removing: {
          invoke: {
            id: "removeFavorite",
            src: "removeFavorite",
            input: ({ context }) => context.favoriteRequested ?? "",
            onDone: {
              target: "ready",
              actions: { type: "useFavorites", params: ({ event }) => ({ favorites: event.output }) },
            },
            onError: {
              target: "ready",
              actions: [
                "endFavoriteRequest",
                { type: "notifyError", params: { message: LobbyMessages.deleteFavorite } },
              ],
            },
          },
        },
      },
    },
    search: {
      initial: "idle",
      states: {
        idle: {
          on: {
            SEARCH: {
              target: "typing",
              actions: { type: "setSearchInput", params: ({ event }) => ({ term: event.term }) },
            },
          },
        },
        /**
         * Each keystroke restarts the wait (re-entering this state only: on the region it would
         * re-enter the whole parallel lobby); the list filters once typing pauses.
         */
        typing: {
          after: { searchDebounce: { target: "idle", actions: "applySearch" } },
          on: {
            SEARCH: {
              target: "typing",
              reenter: true,
              actions: { type: "setSearchInput", params: ({ event }) => ({ term: event.term }) },
            },
          },
        },
      },
    },
  },
})
