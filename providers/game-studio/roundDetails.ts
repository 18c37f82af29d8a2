/**
 * Round details (docs/game-wallet-protocol.md, "Round details"): the casino asks, signed with its
 * casino key, for one of its player's real-money rounds; the studio answers what the casino's
 * verifier needs (game, kind, options, client seed, nonce, the committed hash, and the server seed
 * once rotated), signed with the wallet secret as the games list is.
 *
 *   POST /studio/api/rounds/details   { requestId, roundId, playerId } → RoundDetails | 404 UNKNOWN_ROUND
 */
import { Effect, Exit, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { GameWalletErrors } from "../../protocols/game-wallet/errors.ts"
import { decodeRoundDetailsRequest, type RoundDetails } from "../../protocols/game-wallet/round-details.ts"
import { acceptedSignature, SIGNATURE_HEADER, signBody } from "../../protocols/game-wallet/signature.ts"
import { gameById } from "../../services/games/catalogue.ts"
import { Studio } from "./Studio.ts"

export const ROUND_DETAILS_PATH = "/studio/api/rounds/details"

const json = (status: number, body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface Row {
  readonly roundId: string
  readonly gameId: string
  readonly options: unknown
  readonly clientSeed: string
  readonly nonce: string
  readonly serverSeedHash: string
  readonly serverSeed: string | null
}

const details = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const studio = yield* Studio
    const request = yield* HttpServerRequest.HttpServerRequest
    const raw = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
    const signature = acceptedSignature(studio.credentials.casinoKey, request.headers[SIGNATURE_HEADER], raw)
    if (signature === undefined) return json(401, { error: GameWalletErrors.invalidSignature })
    const decoded = decodeRoundDetailsRequest(raw)
    if (Exit.isFailure(decoded))
      return json(400, {
        error: GameWalletErrors.badRequest,
        message: "Send { requestId, roundId, playerId }.",
      })
    // Every request carries a requestId: the same signed bytes twice are a replay.
    if (!(yield* studio.rememberRequest(signature)))
      return json(401, { error: GameWalletErrors.replayedSignature })
    const { roundId, playerId } = decoded.value
    const unknown = json(404, { error: GameWalletErrors.unknownRound })
    if (!uuid.test(roundId)) return unknown
    // Only the player's own real-money rounds; the server seed only once rotated (revealed_at set).
    const rows = yield* sql<Row>`
      SELECT r.id::text AS "roundId", r.game_id AS "gameId", r.options, r.client_seed AS "clientSeed",
        r.nonce::text AS "nonce", k.hash AS "serverSeedHash",
        CASE WHEN k.revealed_at IS NULL THEN NULL ELSE k.server_seed END AS "serverSeed"
      FROM studio_rounds r
        JOIN studio_seeds k ON k.id = r.seed_id
        JOIN studio_sessions s ON s.id = r.session_id
      WHERE r.id = ${roundId}::uuid AND NOT s.demo AND s.player_id = ${playerId}`
    const row = rows[0]
    const def = row === undefined ? undefined : gameById(row.gameId)
    if (row === undefined || def === undefined) return unknown
    const answer: RoundDetails = {
      roundId: row.roundId,
      gameId: def.id,
      kind: def.kind,
      options: typeof row.options === "string" ? JSON.parse(row.options) : row.options,
      clientSeed: row.clientSeed,
      nonce: Number(row.nonce),
      serverSeedHash: row.serverSeedHash,
      serverSeed: row.serverSeed,
    }
    const text = JSON.stringify(answer)
    return HttpServerResponse.text(text, {
      contentType: "application/json",
      headers: {
        "cache-control": "no-store",
        [SIGNATURE_HEADER]: signBody(studio.credentials.walletSecret, text),
      },
    })
  }).pipe(
    Effect.catchCause((cause) =>
      Effect.as(
        Effect.logError("studio: round details failed", cause),
        json(503, { error: "UNAVAILABLE", message: "Try again in a moment." }),
      ),
    ),
  )

/** The route, bound to the studio's database (the page routes reach it through Studio). */
export const roundDetailsRoute = Layer.unwrap(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return HttpRouter.add("POST", ROUND_DETAILS_PATH, details(sql))
  }),
)
