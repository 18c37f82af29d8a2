/** The back office's players: search, a player's page, and what an operator may do to a player. */
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { GameUnavailable, RoundNotFound } from "../../errors.ts"
import { RoundFairness } from "../../game-service.ts"
import { Audits, needs, Requires } from "../access.ts"
import { AdjustmentNotFound, AdjustmentRefused, BadInput, PlayerNotFound } from "../errors.ts"
import { BackofficeGuard } from "../middleware.ts"
import {
  Adjustment,
  AdjustmentParams,
  AdjustmentPayload,
  AdjustmentQuery,
  Adjustments,
  LockPayload,
  NoteCreated,
  NotePayload,
  PlayerLockState,
  PlayerPage,
  PlayerParams,
  PlayerRoundParams,
  PlayerSearchQuery,
  PlayerSearchResult,
  RejectPayload,
  SignedOut,
} from "../players.ts"

export class PlayersApi extends HttpApiGroup.make("players")
  .add(
    HttpApiEndpoint.get("searchPlayers", "/players", {
      query: PlayerSearchQuery,
      success: PlayerSearchResult,
      error: [BadInput],
    }).annotate(Requires, needs("players.read")),
    HttpApiEndpoint.get("getPlayer", "/players/:id", {
      params: PlayerParams,
      success: PlayerPage,
      error: [PlayerNotFound],
    }).annotate(Requires, needs("players.read")),
    // The round's provably-fair proof, as its player sees it (the same schema): whoever may read the
    // player's bets may check one. A read: nothing audited. The provider is asked each time (503 when
    // it does not answer), so a seed revealed since shows at once.
    HttpApiEndpoint.get("roundFairness", "/players/:id/rounds/:round/fairness", {
      params: PlayerRoundParams,
      success: RoundFairness,
      error: [PlayerNotFound, RoundNotFound, GameUnavailable],
    }).annotate(Requires, needs("players.read")),
    HttpApiEndpoint.post("lockPlayer", "/players/:id/lock", {
      params: PlayerParams,
      payload: LockPayload,
      success: PlayerLockState,
      error: [BadInput, PlayerNotFound],
    })
      .annotate(Requires, needs("players.lock"))
      .annotate(Audits, ["players.lock"]),
    HttpApiEndpoint.post("unlockPlayer", "/players/:id/unlock", {
      params: PlayerParams,
      payload: LockPayload,
      success: PlayerLockState,
      error: [BadInput, PlayerNotFound],
    })
      .annotate(Requires, needs("players.lock"))
      .annotate(Audits, ["players.unlock"]),
    HttpApiEndpoint.post("signOutPlayer", "/players/:id/sign-out", {
      params: PlayerParams,
      success: SignedOut,
      error: [PlayerNotFound],
    })
      .annotate(Requires, needs("players.lock"))
      .annotate(Audits, ["players.sign-out"]),
    // Every role that can see a player may leave a note on it.
    HttpApiEndpoint.post("addNote", "/players/:id/notes", {
      params: PlayerParams,
      payload: NotePayload,
      success: NoteCreated,
      error: [BadInput, PlayerNotFound],
    })
      .annotate(Requires, needs("players.read"))
      .annotate(Audits, ["players.note"]),
    HttpApiEndpoint.post("adjustBalance", "/players/:id/adjustments", {
      params: PlayerParams,
      payload: AdjustmentPayload,
      success: Adjustment,
      error: [BadInput, PlayerNotFound, AdjustmentRefused],
    })
      .annotate(Requires, needs("players.adjust"))
      .annotate(Audits, ["players.adjust.post", "players.adjust.request"]),
    HttpApiEndpoint.get("listAdjustments", "/adjustments", {
      query: AdjustmentQuery,
      success: Adjustments,
    }).annotate(Requires, needs("players.adjust")),
    HttpApiEndpoint.post("approveAdjustment", "/adjustments/:adjustmentId/approve", {
      params: AdjustmentParams,
      success: Adjustment,
      error: [AdjustmentNotFound, AdjustmentRefused],
    })
      .annotate(Requires, needs("players.adjust"))
      .annotate(Audits, ["players.adjust.approve"]),
    HttpApiEndpoint.post("rejectAdjustment", "/adjustments/:adjustmentId/reject", {
      params: AdjustmentParams,
      payload: RejectPayload,
      success: Adjustment,
      error: [BadInput, AdjustmentNotFound, AdjustmentRefused],
    })
      .annotate(Requires, needs("players.adjust"))
      .annotate(Audits, ["players.adjust.reject"]),
  )
  .middleware(BackofficeGuard)
  .prefix("/api/backoffice/v1") {}
