/**
 * Generated-path model of machines/games/verifier.machine.ts: the start loads (or not, and retried),
 * with or without a round in the address; the round loads with its seed still secret (then reloaded)
 * or revealed (verified at once), or fails (not the player's, signed out, provider down, network),
 * retried or left for the form by hand; a game chosen, its options edited per kind (a target, a
 * direction, a mines tile, roulette bets added, edited and removed), fields refused (bad nonce, no
 * seeds, a target that is not a number), a round verified, and one the maths refuses.
 */
import { GameUnavailable, RoundNotFound, Unauthenticated } from "../../services/errors.ts"
import type { RoundFairness } from "../../services/game-service.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { verifierMachine } from "./verifier.machine.ts"
import type { VerifierGame } from "./verifier-calls.ts"
import { optionsOf } from "./verifier-form.ts"

const games: ReadonlyArray<VerifierGame> = [
  { id: "dice-classic", name: "Dice", kind: "dice", brand: "Odd Owl" },
  { id: "european-roulette", name: "Roulette", kind: "roulette", brand: "Odd Owl" },
  { id: "mines", name: "Mines", kind: "mines", brand: "Odd Owl" },
]

const round = (serverSeed: string | null): RoundFairness => ({
  roundId: "9b2f2c56-3c1e-4c57-9f0e-0a4a3c6b1d2e",
  gameId: "dice-classic",
  gameName: "Dice",
  kind: "dice",
  options: { target: 40, direction: "over" },
  clientSeed: "my-seed",
  nonce: 4,
  serverSeedHash: "ab".repeat(32),
  serverSeed,
  currency: "EUR",
  bet: "100",
  win: "0",
  roundNumber: 5,
  at: "2026-11-28T03:00:00.000Z",
})

export const model = defineModel({
  name: "verifier",
  machine: verifierMachine,
  events: (snapshot) => {
    const c = snapshot.context
    const started = c.games.length > 0
    const inForm = snapshot.matches("editing")
    return [
      { type: "xstate.done.actor.start", output: { games, round: null } },
      { type: "xstate.done.actor.start", output: { games, round: "9b2f2c56-3c1e-4c57-9f0e-0a4a3c6b1d2e" } },
      {
        type: "xstate.error.actor.start",
        error: new TypeError("Failed to fetch dynamically imported module"),
      },
      { type: "RETRY" },
      ...(snapshot.matches("loadingRound")
        ? [
            { type: "xstate.done.actor.round", output: round(null) },
            { type: "xstate.done.actor.round", output: round("cd".repeat(32)) },
            ...(c.round === null
              ? [
                  {
                    type: "xstate.error.actor.round",
                    error: new RoundNotFound({ message: "not yours", roundId: "x" }),
                  },
                  { type: "xstate.error.actor.round", error: new Unauthenticated({ message: "Sign in" }) },
                  {
                    type: "xstate.error.actor.round",
                    error: new GameUnavailable({ message: "down", provider: "studio" }),
                  },
                  { type: "xstate.error.actor.round", error: transportError() },
                ]
              : []),
          ]
        : []),
      { type: "BY_HAND" },
      { type: "RELOAD" },
      ...(started && inForm && c.round === null && c.gameId === ""
        ? [
            { type: "GAME", gameId: "dice-classic" },
            { type: "GAME", gameId: "european-roulette" },
            { type: "GAME", gameId: "mines" },
          ]
        : []),
      ...(inForm && c.form.kind === "dice"
        ? [
            { type: "OPTION", field: "target", value: "abc" },
            { type: "OPTION", field: "direction", value: "over" },
          ]
        : []),
      ...(inForm && c.form.kind === "mines" ? [{ type: "TILE", tile: 3 }] : []),
      ...(inForm && c.form.kind === "roulette"
        ? [
            { type: "ADD_BET" },
            { type: "REMOVE_BET", index: 0 },
            { type: "BET", index: 0, field: "numbers", value: "x" },
          ]
        : []),
      ...(inForm && c.serverSeed === ""
        ? [{ type: "EDIT", field: "serverSeed", value: "a".repeat(64) }]
        : []),
      ...(inForm && c.clientSeed === "" ? [{ type: "EDIT", field: "clientSeed", value: "my-seed" }] : []),
      ...(inForm && c.nonce === "0" ? [{ type: "EDIT", field: "nonce", value: "-1" }] : []),
      { type: "VERIFY" },
      {
        type: "xstate.done.actor.verify",
        output: {
          multiplier: "20000",
          detail: { roll: 12.34 },
          jackpotHit: false,
          serverSeedHash: "ab".repeat(32),
        },
      },
      { type: "xstate.error.actor.verify", error: new Error("target must be between 2 and 98") },
    ]
  },
  projectContext: (snapshot) => ({
    gameId: snapshot.context.gameId,
    games: snapshot.context.games.length,
    form: snapshot.context.form.kind,
    options: "options" in optionsOf(snapshot.context.form),
    seeds: snapshot.context.serverSeed !== "" && snapshot.context.clientSeed !== "",
    nonce: snapshot.context.nonce,
    roundId: snapshot.context.roundId !== null,
    round:
      snapshot.context.round === null
        ? null
        : snapshot.context.round.serverSeed === null
          ? "secret"
          : "revealed",
    result: snapshot.context.result !== null,
    problem: snapshot.context.problem,
  }),
})
