/**
 * The fairness verifier (`/fairness`): recomputes any round from its seeds with the studio's own
 * maths, in the browser. The player picks the game (explicitly: the page starts on none), fills its
 * bet options in a form built for the game's kind (no JSON), the revealed server seed, the client
 * seed and the nonce; the page answers the outcome and payout multiplier, whether the jackpot draw
 * hit, and sha256 of the server seed to compare with the hash committed before play.
 *
 * `/fairness?round=<provider round id>` (the Verify link of every round, docs/fairness.md) loads that
 * round (the player's own: `GET …/history/bet/fairness`) and fills everything in. While the round's
 * server seed is still secret the page says so with the committed hash (RELOAD asks again once the
 * player rotated it); once known, the round is verified at once.
 *
 * Fields are checked here (a nonce is a whole number ≥ 0, seeds are not empty, option fields are
 * numbers where they must be); a value the game refuses comes back as the maths' message.
 */
import { assign, fromPromise, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { playerGamesClient } from "../../services/clients/playerGames.ts"
import { GameUnavailable, RoundNotFound, Unauthenticated } from "../../services/errors.ts"
import type { RoundFairness } from "../../services/game-service.ts"
import {
  defaultOptions,
  loadVerifierStart,
  type VerifierGame,
  type VerifierStart,
  type VerifyRequest,
  type VerifyResult,
  verifyWithHash,
} from "./verifier-calls.ts"
import {
  addRouletteBet,
  formOf,
  type OptionField,
  type OptionsForm,
  optionsOf,
  removeRouletteBet,
  setOption,
  setRouletteBet,
  toggleTile,
} from "./verifier-form.ts"

export const VerifierMessages = {
  loadFailed: "The verifier could not be loaded.",
  badNonce: "The nonce is a whole number, 0 or more.",
  noSeeds: "Enter the server seed and the client seed.",
  noGame: "Choose a game.",
  roundNotYours: "This round is not one of yours (or it does not exist).",
  roundSignIn: "Sign in to load your round.",
  roundUnavailable: "The game's provider did not answer: try again in a moment.",
  roundFailed: "Your round could not be loaded.",
} as const

export type VerifierField = "serverSeed" | "clientSeed" | "nonce"

export interface VerifierContext {
  readonly games: ReadonlyArray<VerifierGame>
  readonly gameId: string
  readonly form: OptionsForm
  readonly serverSeed: string
  readonly clientSeed: string
  readonly nonce: string
  /** The round of the address (`?round=`), or null: the page is filled in by hand. */
  readonly roundId: string | null
  /** The round as loaded (its committed hash; its server seed null while secret). */
  readonly round: RoundFairness | null
  readonly result: VerifyResult | null
  readonly problem: string | null
}

export type VerifierEvent =
  | { readonly type: "GAME"; readonly gameId: string }
  | { readonly type: "EDIT"; readonly field: VerifierField; readonly value: string }
  | { readonly type: "OPTION"; readonly field: OptionField; readonly value: string }
  | { readonly type: "TILE"; readonly tile: number }
  | { readonly type: "ADD_BET" }
  | { readonly type: "REMOVE_BET"; readonly index: number }
  | {
      readonly type: "BET"
      readonly index: number
      readonly field: "type" | "numbers" | "chips"
      readonly value: string
    }
  | { readonly type: "VERIFY" }
  /** Load the round again (after rotating the seed in the game). */
  | { readonly type: "RELOAD" }
  /** Leave the round that failed to load: verify another by hand. */
  | { readonly type: "BY_HAND" }
  | { readonly type: "RETRY" }

/** The request the fields make, or the message saying what is wrong with them. */
export const requestOf = (c: VerifierContext): VerifyRequest | string => {
  if (!c.games.some((g) => g.id === c.gameId)) return VerifierMessages.noGame
  if (c.serverSeed.trim() === "" || c.clientSeed === "") return VerifierMessages.noSeeds
  if (!/^\d{1,15}$/.test(c.nonce.trim())) return VerifierMessages.badNonce
  const options = optionsOf(c.form)
  if ("problem" in options) return options.problem
  return {
    gameId: c.gameId,
    options: options.options,
    serverSeed: c.serverSeed.trim(),
    clientSeed: c.clientSeed,
    nonce: Number(c.nonce.trim()),
  }
}

const messageOf = (error: unknown): string =>
  error instanceof Error && error.message !== "" ? error.message : "This round could not be verified."

const roundProblemOf = (error: unknown): string =>
  error instanceof RoundNotFound
    ? VerifierMessages.roundNotYours
    : error instanceof Unauthenticated
      ? VerifierMessages.roundSignIn
      : error instanceof GameUnavailable
        ? VerifierMessages.roundUnavailable
        : VerifierMessages.roundFailed

const blankRequest: VerifyRequest = { gameId: "", options: {}, serverSeed: "", clientSeed: "", nonce: 0 }

export const verifierMachine = setup({
  types: {
    context: {} as VerifierContext,
    events: {} as VerifierEvent,
  },
  actors: {
    start: fromPromise(() => loadVerifierStart()),
    round: fromEffect((roundId: string) => playerGamesClient.roundFairness({ query: { round: roundId } })),
    verify: fromPromise<VerifyResult, VerifyRequest>(({ input }) => verifyWithHash(input)),
  },
  guards: {
    fieldsAreValid: ({ context }) => typeof requestOf(context) !== "string",
    addressNamesRound: (_, params: { round: string | null }) => params.round !== null,
    seedIsRevealed: (_, params: { round: RoundFairness }) => params.round.serverSeed !== null,
    hasRound: ({ context }) => context.roundId !== null,
  },
  actions: {
    useStart: assign((_, params: { start: VerifierStart }) => ({
      games: params.start.games,
      roundId: params.start.round,
    })),
    chooseGame: assign(({ context }, params: { gameId: string }) => ({
      gameId: context.games.some((g) => g.id === params.gameId) ? params.gameId : "",
      form: defaultOptions(params.gameId),
      result: null,
      problem: null,
    })),
    edit: assign((_, params: { field: VerifierField; value: string }) => ({
      [params.field]: params.value,
      problem: null,
    })),
    setOption: assign(({ context }, params: { field: OptionField; value: string }) => ({
      form: setOption(context.form, params.field, params.value),
      problem: null,
    })),
    toggleTile: assign(({ context }, params: { tile: number }) => ({
      form: toggleTile(context.form, params.tile),
      problem: null,
    })),
    addBet: assign(({ context }) => ({ form: addRouletteBet(context.form), problem: null })),
    removeBet: assign(({ context }, params: { index: number }) => ({
      form: removeRouletteBet(context.form, params.index),
      problem: null,
    })),
    setBet: assign(
      ({ context }, params: { index: number; field: "type" | "numbers" | "chips"; value: string }) => ({
        form: setRouletteBet(context.form, params.index, params.field, params.value),
        problem: null,
      }),
    ),
    /** The loaded round fills every field; a seed typed in already stays while the real one is secret. */
    useRound: assign(({ context }, params: { round: RoundFairness }) => {
      const r = params.round
      const known = context.games.some((g) => g.id === r.gameId)
      return {
        round: r,
        gameId: known ? r.gameId : "",
        form: known ? formOf(r.kind, r.options) : formOf("none", {}),
        clientSeed: r.clientSeed,
        nonce: String(r.nonce),
        serverSeed: r.serverSeed ?? context.serverSeed,
        result: null,
        problem: null,
      }
    }),
    sayRoundFailure: assign((_, params: { error: unknown }) => ({ problem: roundProblemOf(params.error) })),
    forgetRound: assign({ roundId: null, round: null, problem: null }),
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
    form: { kind: "none" },
    serverSeed: "",
    clientSeed: "",
    nonce: "0",
    roundId: null,
    round: null,
    result: null,
    problem: null,
  },
  initial: "loading",
  states: {
    loading: {
      invoke: {
        id: "start",
        src: "start",
        onDone: [
          {
            guard: { type: "addressNamesRound", params: ({ event }) => ({ round: event.output.round }) },
            target: "loadingRound",
            actions: { type: "useStart", params: ({ event }) => ({ start: event.output }) },
          },
          {
            target: "editing",
            actions: { type: "useStart", params: ({ event }) => ({ start: event.output }) },
          },
        ],
        onError: "loadFailed",
      },
    },
    loadFailed: { on: { RETRY: "loading" } },
    loadingRound: {
      invoke: {
        id: "round",
        src: "round",
        input: ({ context }) => context.roundId ?? "",
        onDone: [
          {
            // The seed is known: verify at once (the page then shows the outcome beside the round).
            guard: { type: "seedIsRevealed", params: ({ event }) => ({ round: event.output }) },
            target: "verifying",
            actions: { type: "useRound", params: ({ event }) => ({ round: event.output }) },
          },
          {
            target: "editing",
            actions: { type: "useRound", params: ({ event }) => ({ round: event.output }) },
          },
        ],
        onError: {
          target: "roundFailed",
          actions: { type: "sayRoundFailure", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    roundFailed: {
      on: {
        RETRY: "loadingRound",
        BY_HAND: { target: "editing", actions: "forgetRound" },
      },
    },
    editing: {
      on: {
        GAME: { actions: { type: "chooseGame", params: ({ event }) => ({ gameId: event.gameId }) } },
        EDIT: {
          actions: { type: "edit", params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        OPTION: {
          actions: {
            type: "setOption",
            params: ({ event }) => ({ field: event.field, value: event.value }),
          },
        },
        TILE: { actions: { type: "toggleTile", params: ({ event }) => ({ tile: event.tile }) } },
        ADD_BET: { actions: "addBet" },
        REMOVE_BET: { actions: { type: "removeBet", params: ({ event }) => ({ index: event.index }) } },
        BET: {
          actions: {
            type: "setBet",
            params: ({ event }) => ({ index: event.index, field: event.field, value: event.value }),
          },
        },
        VERIFY: [{ guard: "fieldsAreValid", target: "verifying" }, { actions: "refuse" }],
        RELOAD: { guard: "hasRound", target: "loadingRound" },
      },
    },
    verifying: {
      invoke: {
        id: "verify",
        src: "verify",
        input: ({ context }) => {
          const request = requestOf(context)
          // Entered only with a valid request (fieldsAreValid, or a round loaded with its seed).
          return typeof request === "string" ? blankRequest : request
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
