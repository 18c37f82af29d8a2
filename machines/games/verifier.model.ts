/**
 * Generated-path model of machines/games/verifier.machine.ts: the games load (or not, and retried);
 * a game chosen, fields edited, refused (bad nonce, bad options, no seeds), a round verified, and one
 * the math refuses.
 */
import { defineModel } from "../model.ts"
import { verifierMachine } from "./verifier.machine.ts"

const games = [
  { id: "dice-classic", name: "Dice", kind: "dice", brand: "Odd Owl" },
  { id: "aurora-reels", name: "Aurora Reels", kind: "slot", brand: "Northern Reels" },
]

export const model = defineModel({
  name: "verifier",
  machine: verifierMachine,
  events: [
    { type: "xstate.done.actor.games", output: games },
    { type: "xstate.error.actor.games", error: new TypeError("Failed to fetch dynamically imported module") },
    { type: "RETRY" },
    { type: "GAME", gameId: "aurora-reels" },
    { type: "EDIT", field: "serverSeed", value: "a".repeat(64) },
    { type: "EDIT", field: "clientSeed", value: "my-seed" },
    { type: "EDIT", field: "nonce", value: "-1" },
    { type: "EDIT", field: "options", value: "{not json" },
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
  ],
  projectContext: (snapshot) => ({
    gameId: snapshot.context.gameId,
    games: snapshot.context.games.length,
    seeds: snapshot.context.serverSeed !== "" && snapshot.context.clientSeed !== "",
    nonce: snapshot.context.nonce,
    options: snapshot.context.options,
    result: snapshot.context.result !== null,
    problem: snapshot.context.problem,
  }),
})
