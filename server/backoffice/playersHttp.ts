/**
 * Handlers of the back office's players group (services/backoffice/api/players.ts): the guard has
 * checked the address, the session and the permission; the rules are ./Players.ts.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BackofficeApi } from "../../services/backoffice/api.ts"
import { CurrentOperator } from "../../services/backoffice/middleware.ts"
import { actorOf } from "./Backoffice.ts"
import { type OperatorActor, Players } from "./Players.ts"

const currentActor = Effect.gen(function* () {
  const current = yield* CurrentOperator
  return {
    ...actorOf(current),
    operatorId: current.operator.id,
    email: current.operator.email,
  } satisfies OperatorActor
})

export const PlayersHandlers = HttpApiBuilder.group(
  BackofficeApi,
  "players",
  Effect.fn(function* (handlers) {
    const players = yield* Players
    return handlers
      .handle("searchPlayers", ({ query }) =>
        Effect.map(players.search(query.q), (found) => ({ players: found })),
      )
      .handle("getPlayer", ({ params }) => players.page(params.id.toLowerCase()))
      .handle("roundFairness", ({ params }) => players.roundFairness(params.id.toLowerCase(), params.round))
      .handle("lockPlayer", ({ params, payload }) =>
        Effect.flatMap(currentActor, (actor) => players.lock(actor, params.id.toLowerCase(), payload.reason)),
      )
      .handle("unlockPlayer", ({ params, payload }) =>
        Effect.flatMap(currentActor, (actor) =>
          players.unlock(actor, params.id.toLowerCase(), payload.reason),
        ),
      )
      .handle("signOutPlayer", ({ params }) =>
        Effect.flatMap(currentActor, (actor) => players.signOut(actor, params.id.toLowerCase())),
      )
      .handle("addNote", ({ params, payload }) =>
        Effect.flatMap(currentActor, (actor) =>
          players.addNote(actor, params.id.toLowerCase(), payload.body),
        ),
      )
      .handle("adjustBalance", ({ params, payload }) =>
        Effect.flatMap(currentActor, (actor) => players.adjust(actor, params.id.toLowerCase(), payload)),
      )
      .handle("listAdjustments", ({ query }) =>
        Effect.map(players.adjustments(query.status), (adjustments) => ({ adjustments })),
      )
      .handle("approveAdjustment", ({ params }) =>
        Effect.flatMap(currentActor, (actor) => players.approve(actor, params.adjustmentId.toLowerCase())),
      )
      .handle("rejectAdjustment", ({ params, payload }) =>
        Effect.flatMap(currentActor, (actor) =>
          players.reject(actor, params.adjustmentId.toLowerCase(), payload.reason),
        ),
      )
  }),
)
