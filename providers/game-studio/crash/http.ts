/**
 * Multiplayer crash's routes (engine.ts; docs/game-studio.md, "Multiplayer crash"):
 *
 *   GET  /studio/api/crash/{gameId}/events       Server-Sent Events: snapshot, betting, running, bet,
 *                                                cashout, busted (one JSON object per `data:` line)
 *   GET  /studio/api/crash/{gameId}/state        the same snapshot as JSON, for a late joiner
 *   GET  /studio/api/crash/{gameId}/games        the finished games: number, bust, hash (+ chain)
 *   GET  /studio/api/crash-rounds/{roundId}      one bet's proof (the round id the casino saw)
 *   GET  /studio/crash-rounds/{roundId}          the same as a page that checks it in the browser
 *   GET  /studio/api/session/{id}/crash          the session's bet in the current game and its name
 *   POST /studio/api/session/{id}/crash/bet      { bet, autoCashout? } in the betting phase
 *   POST /studio/api/session/{id}/crash/cashout  while running: at the server's multiplier
 *
 * The table routes are public (no personal data: players are pseudonyms); the session routes take
 * the session id as their capability, as the other game routes do.
 */
import { randomBytes } from "node:crypto"
import { Effect, Layer, Queue, Stream } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { gameById } from "../../../services/games/catalogue.ts"
import { pageCsp } from "../pages.ts"
import { playerKey, Studio } from "../Studio.ts"
import { Crash, type CrashEvent, pseudonym } from "./engine.ts"
import { crashProofPage } from "./proofPage.ts"

const json = (status: number, body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })
const fail = (status: number, error: string, message: string) => json(status, { error, message })
const unknownGame = () => fail(404, "UNKNOWN_GAME", "No such crash game.")

const gameParam = Effect.gen(function* () {
  const crash = yield* Crash
  const gameId = (yield* HttpRouter.params).gameId ?? ""
  return { crash, gameId: /^[a-z0-9-]{1,64}$/.test(gameId) && crash.isCrash(gameId) ? gameId : undefined }
})

const encoder = new TextEncoder()
const frame = (e: CrashEvent) => encoder.encode(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
const KEEPALIVE_MS = 15_000

const events = Effect.gen(function* () {
  const { crash, gameId } = yield* gameParam
  if (gameId === undefined) return unknownGame()
  const body = Stream.callback<Uint8Array>((queue) =>
    Effect.acquireRelease(
      Effect.promise(async () => {
        const stop = await crash.subscribe(gameId, (e) => {
          Queue.offerUnsafe(queue, frame(e))
        })
        // A comment line now and then keeps proxies from closing a quiet stream.
        const ping = setInterval(() => Queue.offerUnsafe(queue, encoder.encode(": ping\n\n")), KEEPALIVE_MS)
        return () => {
          clearInterval(ping)
          stop()
        }
      }),
      (stop) => Effect.sync(stop),
    ),
  )
  return HttpServerResponse.stream(body, {
    contentType: "text/event-stream",
    headers: { "cache-control": "no-store", "x-accel-buffering": "no" },
  })
})

const state = Effect.gen(function* () {
  const { crash, gameId } = yield* gameParam
  if (gameId === undefined) return unknownGame()
  return json(200, yield* Effect.promise(() => crash.snapshot(gameId)))
})

const games = Effect.gen(function* () {
  const { crash, gameId } = yield* gameParam
  if (gameId === undefined) return unknownGame()
  const snapshot = yield* Effect.promise(() => crash.snapshot(gameId))
  const list = yield* Effect.promise(() => crash.games(gameId, 100))
  return json(200, {
    gameId,
    terminatingHash: snapshot.terminatingHash,
    salt: snapshot.salt,
    chainLength: snapshot.chainLength,
    games: list,
  })
})

const roundProof = Effect.gen(function* () {
  const crash = yield* Crash
  const id = (yield* HttpRouter.params).roundId ?? ""
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id))
    return fail(404, "UNKNOWN_ROUND", "No such round.")
  const proof = yield* Effect.promise(() => crash.round(id))
  return proof === undefined ? fail(404, "UNKNOWN_ROUND", "No such round.") : json(200, proof)
})

/** The proof as a page (opened in its own tab from the crash page): checked by the player's browser. */
const proofPage = Effect.gen(function* () {
  const crash = yield* Crash
  const id = (yield* HttpRouter.params).roundId ?? ""
  const proof = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)
    ? yield* Effect.promise(() => crash.round(id))
    : undefined
  const nonce = randomBytes(16).toString("base64")
  const headers = { "content-security-policy": pageCsp(nonce, []), "cache-control": "no-store" }
  if (proof === undefined)
    return HttpServerResponse.text("<!doctype html><title>No such round</title><p>No such crash round.</p>", {
      status: 404,
      contentType: "text/html; charset=utf-8",
      headers,
    })
  const name = gameById(proof.gameId)?.name ?? proof.gameId
  return HttpServerResponse.text(crashProofPage(nonce, name, proof), {
    contentType: "text/html; charset=utf-8",
    headers,
  })
})

const withSession = (
  f: (
    s: NonNullable<Effect.Success<ReturnType<Studio["Service"]["session"]>>>,
    crash: Crash["Service"],
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>,
) =>
  Effect.gen(function* () {
    const studio = yield* Studio
    const crash = yield* Crash
    const id = (yield* HttpRouter.params).id ?? ""
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(id)) return fail(404, "UNKNOWN_SESSION", "No such game session.")
    const s = yield* studio.session(id)
    if (s === undefined) return fail(404, "UNKNOWN_SESSION", "No such game session.")
    if (!crash.isCrash(s.gameId)) return fail(404, "UNKNOWN_GAME", "This session is not at a crash game.")
    return yield* f(s, crash)
  })

const readBody = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const raw = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
  try {
    const value: unknown = JSON.parse(raw)
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Readonly<Record<string, unknown>>)
      : undefined
  } catch {
    return undefined
  }
})

const mine = withSession((s, crash) =>
  Effect.succeed(json(200, { name: pseudonym(playerKey(s)), bet: crash.mine(s) })),
)

const bet = withSession((s, crash) =>
  Effect.gen(function* () {
    const value = yield* readBody
    if (value === undefined) return fail(400, "BAD_REQUEST", "Send { bet, autoCashout }.")
    const amount =
      typeof value.bet === "string" && /^\d{1,15}$/.test(value.bet)
        ? BigInt(value.bet)
        : typeof value.bet === "number" && Number.isSafeInteger(value.bet) && value.bet > 0
          ? BigInt(value.bet)
          : undefined
    if (amount === undefined || amount <= 0n)
      return fail(400, "BAD_BET", 'bet: a positive whole number of minor units, e.g. "100".')
    const rawAuto = value.autoCashout
    let auto: number | null = null
    if (rawAuto !== undefined && rawAuto !== null && rawAuto !== "") {
      const x = typeof rawAuto === "string" ? Number(rawAuto) : rawAuto
      if (typeof x !== "number" || !Number.isFinite(x) || Math.abs(Math.round(x * 100) - x * 100) > 1e-6)
        return fail(400, "BAD_OPTIONS", "autoCashout: a multiplier with at most 2 decimals, e.g. 2.5.")
      auto = Math.round(x * 100)
    }
    const answer = yield* Effect.promise(() => crash.bet(s, amount, auto))
    return answer._tag === "Refusal" ? fail(answer.status, answer.error, answer.message) : json(200, answer)
  }),
)

const cashout = withSession((s, crash) =>
  Effect.gen(function* () {
    const answer = yield* Effect.promise(() => crash.cashout(s))
    return answer._tag === "Refusal" ? fail(answer.status, answer.error, answer.message) : json(200, answer)
  }),
)

const catchAll = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>) =>
  effect.pipe(
    Effect.catchCause((cause) =>
      Effect.as(
        Effect.logError("studio crash: request failed", cause),
        fail(503, "UNAVAILABLE", "The game is unavailable for a moment; please try again."),
      ),
    ),
  )

export const crashRoutes = (prefix: "/studio") =>
  Layer.mergeAll(
    HttpRouter.add("GET", `${prefix}/api/crash/:gameId/events`, catchAll(events)),
    HttpRouter.add("GET", `${prefix}/api/crash/:gameId/state`, catchAll(state)),
    HttpRouter.add("GET", `${prefix}/api/crash/:gameId/games`, catchAll(games)),
    HttpRouter.add("GET", `${prefix}/api/crash-rounds/:roundId`, catchAll(roundProof)),
    HttpRouter.add("GET", `${prefix}/crash-rounds/:roundId`, catchAll(proofPage)),
    HttpRouter.add("GET", `${prefix}/api/session/:id/crash`, catchAll(mine)),
    HttpRouter.add("POST", `${prefix}/api/session/:id/crash/bet`, catchAll(bet)),
    HttpRouter.add("POST", `${prefix}/api/session/:id/crash/cashout`, catchAll(cashout)),
  )
