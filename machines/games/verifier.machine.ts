/**
 * The fairness verifier (`/fairness`): recomputes any round from its seeds with the
 * studio's own math, in the browser. The player picks the game, enters its bet options (JSON, as the
 * round's record shows them), the revealed server seed, the client seed and the nonce; the page
 * answers the outcome and payout multiplier, whether the jackpot draw hit, and sha256 of the server
 * seed to compare with the hash committed before play.
 *
 * Fields are checked here (a nonce is a whole number ≥ 0, options are JSON, seeds are not empty); a
 * seed or option the game refuses comes back as the math's message.
 */
import { assign, fromPromise, setup } from "xstate"
import {
  defaultOptions,
  loadVerifierGames,
  type VerifierGame,
  type VerifyRequest,
  type VerifyResult,
  verifyWithHash,
} from "./verifier-calls.ts"

export const VerifierMessages = {
  loadFailed: "The verifier could not be loaded.",
  badNonce: "The nonce is a whole number, 0 or more.",
  badOptions: 'The options must be JSON, e.g. {"target": 50}.',
  noSeeds: "Enter the server seed and the client seed.",
  noGame: "Choose a game.",
} as const

export type VerifierField = "serverSeed" | "clientSeed" | "nonce" | "options"

export interface VerifierContext {
  readonly games: ReadonlyArray<VerifierGame>
  readonly gameId: string
  readonly options: string
  readonly serverSeed: string
  readonly clientSeed: string
  readonly nonce: string
  readonly result: VerifyResult | null
  readonly problem: string | null
}

export type VerifierEvent =
  | { readonly type: "GAME"; readonly gameId: string }
  | { readonly type: "EDIT"; readonly field: VerifierField; readonly value: string }
  | { readonly type: "VERIFY" }
  | { readonly type: "RETRY" }

/** The request the fields make, or the message saying what is wrong with them. */
export const requestOf = (c: VerifierContext): VerifyRequest | string => {
  if (!c.games.some((g) => g.id === c.gameId)) return VerifierMessages.noGame
  if (c.serverSeed.trim() === "" || c.clientSeed === "") return VerifierMessages.noSeeds
  if (!/^\d{1,15}$/.test(c.nonce.trim())) return VerifierMessages.badNonce
  let options: unknown
  try {
    options = c.options.trim() === "" ? {} : JSON.parse(c.options)
  } catch {
    return VerifierMessages.badOptions
  }
  return {
    gameId: c.gameId,
    options,
    serverSeed: c.serverSeed.trim(),
    clientSeed: c.clientSeed,
    nonce: Number(c.nonce.trim()),
  }
}

const messageOf = (error: unknown): string =>
  error instanceof Error && error.message !== "" ? error.message : "This round could not be verified."

export const verifierMachine = setup({
  types: {
    context: {} as VerifierContext,
    events: {} as VerifierEvent,
  },
  actors: {
    games: fromPromise(() => loadVerifierGames()),
    verify: fromPromise<VerifyResult, VerifyRequest>(({ input }) => verifyWithHash(input)),
  },
  guards: {
    fieldsAreValid: ({ context }) => typeof requestOf(context) !== "string",
  },
  actions: {
    useGames: assign((_, params: { games: ReadonlyArray<VerifierGame> }) => {
      const first = params.games[0]
      return {
        games: params.games,
        gameId: first?.id ?? "",
        options: defaultOptions(first?.id ?? ""),
      }
    }),
    chooseGame: assign((_, params: { gameId: string }) => ({
      gameId: params.gameId,
      options: defaultOptions(params.gameId),
      result: null,
      problem: null,
    })),
    edit: assign((_, params: { field: VerifierField; value: string }) => ({
      [params.field]: params.value,
      problem: null,
    })),
    refuse: assign(({ context }) => {
      const request = requestOf(context)
      return { problem: typeof request === "string" ? request : null, result: null }
    }),
    useResult: assign((_, params: { result: VerifyResult }) => ({ result: params.result, problem: null })),
    sayFailure: assign((_, params: { error: unknown }) => ({
      problem: messageOf(params.error),
      result: null,
    })),
  },
}).createMachine({
  id: "verifier",
  context: {
    games: [],
    gameId: "",
    options: "{}",
    serverSeed: "",
    clientSeed: "",
    nonce: "0",
    result: null,
    problem: null,
  },
  initial: "loading",
  states: {
    loading: {
      invoke: {
        id: "games",
        src: "games",
        onDone: {
          target: "editing",
          actions: { type: "useGames", params: ({ event }) => ({ games: event.output }) },
        },
        onError: "loadFailed",
      },
    },
    loadFailed: { on: { RETRY: "loading" } },
    editing: {
      on: {
        GAME: { actions: { type: "chooseGame", params: ({ event }) => ({ gameId: event.gameId }) } },
        EDIT: {
          actions: { type: "edit", params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        VERIFY: [{ guard: "fieldsAreValid", target: "verifying" }, { actions: "refuse" }],
      },
    },
    verifying: {
      invoke: {
        id: "verify",
        src: "verify",
        input: ({ context }) => {
          const request = requestOf(context)
          // Entered only through fieldsAreValid: the request is a request.
          return typeof request === "string"
            ? { gameId: "", options: {}, serverSeed: "", clientSeed: "", nonce: 0 }
            : request
        },
        onDone: {
          target: "editing",
          actions: { type: "useResult", params: ({ event }) => ({ result: event.output }) },
        },
        onError: {
          target: "editing",
          actions: { type: "sayFailure", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
})
