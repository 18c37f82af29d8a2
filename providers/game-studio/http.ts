/**
 * The studio's HTTP face, under /studio/ (docs/game-studio.md):
 *
 *   POST /studio/api/launch                       casino → studio, signed with the casino key
 *   POST /studio/api/games                        casino → studio, signed; the answer signed back
 *   POST /studio/api/freerounds                   casino → studio, signed: a free-rounds grant
 *   POST /studio/api/freerounds/cancel            casino → studio, signed: cancels a grant
 *   POST /studio/api/rounds/details               casino → studio, signed: a round's seeds (roundDetails.ts)
 *   GET  /studio/api/session/{id}                 the page's state: game, balance, seeds
 *   POST /studio/api/session/{id}/round           { bet, options, freeRound? } → outcome + balance
 *   POST /studio/api/session/{id}/mines/start     { bet, mines, freeRound? } → a mines round in play
 *   POST /studio/api/session/{id}/mines/open      { roundId, tile } → safe (the multiplier on offer) or a mine
 *   POST /studio/api/session/{id}/mines/cashout   { roundId } → the win (minesRounds.ts)
 *   POST /studio/api/session/{id}/seed            { clientSeed }
 *   POST /studio/api/session/{id}/rotate          reveals the server seed, commits the next
 *   GET  /studio/api/session/{id}/rounds          the recent rounds (seeds once revealed)
 *   GET  /studio/play/{id}                        the game page (pages.ts)
 *   GET  /studio/art/{imageId}.svg                generated art (art.ts)
 *   …/api/crash/…, …/api/session/{id}/crash/…    multiplayer crash (crash/http.ts)
 *
 * The session id (192 random bits) is the page's capability, as a provider's launch URL token is.
 * Refusals are JSON `{ error, message }`; nothing here answers 500 for a client's mistake.
 */
import { randomBytes } from "node:crypto"
import { Cause, Effect, Exit, Layer } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { followingAncestors } from "../../lib/hosts.ts"
import { GameWalletErrors } from "../../protocols/game-wallet/errors.ts"
import { decodeFreeRoundsCancel, decodeFreeRoundsGrant } from "../../protocols/game-wallet/free-rounds.ts"
import { decodeLaunchRequest } from "../../protocols/game-wallet/launch.ts"
import { acceptedSignature, SIGNATURE_HEADER, signBody } from "../../protocols/game-wallet/signature.ts"
import { catalogue, gameById } from "../../services/games/catalogue.ts"
import { gameArt } from "./art.ts"
import { listReady, publishedList, rtpOf } from "./catalogue.ts"
import { crashRoutes } from "./crash/http.ts"
import { gamePage, notFoundPage, pageCsp } from "./pages.ts"
import { roundDetailsRoute } from "./roundDetails.ts"
import { type Refusal, type SessionRow, Studio, StudioSettings } from "./Studio.ts"

export const STUDIO_PREFIX = "/studio"

const json = (status: number, body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })

const fail = (status: number, error: string, message: string) => json(status, { error, message })

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === "object" && v !== null && !Array.isArray(v)

const readJson = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const raw = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
  try {
    const value: unknown = JSON.parse(raw)
    return { raw, value }
  } catch {
    return { raw, value: undefined }
  }
})

/**
 * A request carrying a `requestId` (every one the casino sends) is taken once: its signature is
 * recorded, and the same bytes again are a replay. Without one (an older client) it is not tracked.
 */
const replayed = (
  studio: Studio["Service"],
  value: unknown,
  signature: { readonly t: number; readonly v1: string },
) =>
  isRecord(value) && typeof value.requestId === "string"
    ? Effect.map(studio.rememberRequest(signature), (fresh) => !fresh)
    : Effect.succeed(false)

const replayedAnswer = () => json(401, { error: GameWalletErrors.replayedSignature })

/**
 * A request from the casino: signed with the casino key and not a replay. The refusal to answer, or
 * the studio and the parsed body.
 */
const casinoRequest = Effect.gen(function* () {
  const studio = yield* Studio
  const request = yield* HttpServerRequest.HttpServerRequest
  const { raw, value } = yield* readJson
  const signature = acceptedSignature(studio.credentials.casinoKey, request.headers[SIGNATURE_HEADER], raw)
  if (signature === undefined)
    return { refusal: json(401, { error: GameWalletErrors.invalidSignature }) } as const
  if (yield* replayed(studio, value, signature)) return { refusal: replayedAnswer() } as const
  return { studio, raw, value } as const
})

const launch = Effect.gen(function* () {
  const accepted = yield* casinoRequest
  if ("refusal" in accepted) return accepted.refusal
  const { studio, raw } = accepted
  const decoded = decodeLaunchRequest(raw)
  if (Exit.isFailure(decoded)) return badBody("launch", decoded.cause)
  const body = decoded.value
  const sessionToken = body.sessionToken ?? null
  const playerId = body.playerId ?? null
  if (!body.demo && (sessionToken === null || playerId === null)) {
    return fail(400, GameWalletErrors.badRequest, "A real-money launch needs sessionToken and playerId.")
  }
  const lang = body.lang !== undefined && /^[A-Za-z-]{2,16}$/.test(body.lang) ? body.lang : "en"
  const answer = yield* studio.launch({
    sessionToken,
    playerId,
    nickname: body.nickname ?? null,
    currency: body.currency,
    gameId: body.gameId,
    demo: body.demo,
    lang,
    platform: body.platform === "mobile" ? "mobile" : "desktop",
    lobbyUrl: body.lobbyUrl ?? null,
    // No rules sent: the studio's defaults (everything allowed, no minimum), as the protocol says.
    play: body.play ?? { autoplay: true, turbo: true, minRoundMs: 0 },
  })
  return "_tag" in answer ? json(answer.status, { error: answer.error }) : json(200, { url: answer.url })
})

const badBody = (what: string, cause: Cause.Cause<unknown>) =>
  fail(
    400,
    GameWalletErrors.badRequest,
    `The ${what} body does not follow the protocol: ${Cause.pretty(cause).slice(0, 300)}`,
  )

/** A free-rounds grant (freeRounds.ts): the same signature and replay rules as the launch. */
const freeRoundsGrant = Effect.gen(function* () {
  const accepted = yield* casinoRequest
  if ("refusal" in accepted) return accepted.refusal
  const decoded = decodeFreeRoundsGrant(accepted.raw)
  if (Exit.isFailure(decoded)) return badBody("free-rounds grant", decoded.cause)
  const outcome = yield* accepted.studio.freeRounds.grant(decoded.value)
  switch (outcome._tag) {
    case "Answer":
      return json(200, outcome.answer)
    case "UnknownGame":
      return json(404, { error: GameWalletErrors.unknownGame })
    case "BadRequest":
      return fail(400, GameWalletErrors.badRequest, outcome.message)
  }
})

const freeRoundsCancel = Effect.gen(function* () {
  const accepted = yield* casinoRequest
  if ("refusal" in accepted) return accepted.refusal
  const decoded = decodeFreeRoundsCancel(accepted.raw)
  if (Exit.isFailure(decoded)) return badBody("free-rounds cancel", decoded.cause)
  const answer = yield* accepted.studio.freeRounds.cancel(decoded.value.grantId)
  return answer === undefined ? json(404, { error: GameWalletErrors.unknownGrant }) : json(200, answer)
})

/**
 * The games list (docs/game-wallet-protocol.md, "Games list"): a casino asks with a request signed by
 * its casino key; the answer is signed with the wallet secret, the key this studio signs everything
 * it sends a casino with, so the casino knows the list is this studio's and fresh.
 */
const gamesList = Effect.gen(function* () {
  const accepted = yield* casinoRequest
  if ("refusal" in accepted) return accepted.refusal
  const { studio } = accepted
  // Just started: the exact RTPs are still being computed (server.ts); the casino retries shortly.
  if (!listReady())
    return HttpServerResponse.jsonUnsafe(
      {
        error: GameWalletErrors.notReady,
        message: "The games list is being prepared; try again in a second.",
      },
      { status: 503, headers: { "cache-control": "no-store", "retry-after": "1" } },
    )
  const text = JSON.stringify(publishedList(studio.publicUrl))
  return HttpServerResponse.text(text, {
    contentType: "application/json",
    headers: {
      "cache-control": "no-store",
      [SIGNATURE_HEADER]: signBody(studio.credentials.walletSecret, text),
    },
  })
})

/** The session of the path, or a 404 answer. */
const withSession = <E, R>(
  f: (s: SessionRow, studio: Studio["Service"]) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
) =>
  Effect.gen(function* () {
    const studio = yield* Studio
    const id = (yield* HttpRouter.params).id ?? ""
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(id)) return fail(404, "UNKNOWN_SESSION", "No such game session.")
    const s = yield* studio.session(id)
    if (s === undefined) return fail(404, "UNKNOWN_SESSION", "No such game session.")
    return yield* f(s, studio)
  })

const describeGame = (gameId: string) => {
  const def = gameById(gameId)
  if (def === undefined) return null
  return {
    id: def.id,
    name: def.name,
    brand: def.brand,
    kind: def.kind,
    volatility: def.volatility,
    rtp: rtpOf(def.id),
    jackpot:
      def.jackpot === null ? null : { id: def.jackpot.id, name: def.jackpot.name, odds: def.jackpot.odds },
  }
}

const state = withSession((s, studio) =>
  Effect.gen(function* () {
    const seed = yield* studio.seedState(s)
    const balance = yield* studio.balance(s)
    const def = gameById(s.gameId)
    const freeRounds = def === undefined ? null : yield* studio.freeRounds.current(s, def.launchId)
    return json(200, {
      sessionId: s.id,
      demo: s.demo,
      currency: s.currency,
      game: describeGame(s.gameId),
      balance: balance.balance,
      ...(balance.error === undefined ? {} : { balanceMessage: balance.error }),
      seed,
      lobbyUrl: s.lobbyUrl,
      freeRounds,
      play: { autoplay: s.autoplay, turbo: s.turbo, minRoundMs: s.minRoundMs },
      // A mines round still in play: a page that reloads resumes it.
      ...(def?.kind === "mines" ? { minesRound: yield* studio.mines.current(s) } : {}),
    })
  }),
)

/** A bet as the page sends it: minor units, "100" (or a whole number); undefined if not one. */
const betOf = (raw: unknown): bigint | undefined => {
  const bet =
    typeof raw === "string" && /^\d{1,15}$/.test(raw)
      ? BigInt(raw)
      : typeof raw === "number" && Number.isSafeInteger(raw) && raw > 0
        ? BigInt(raw)
        : undefined
  return bet === undefined || bet <= 0n ? undefined : bet
}

const badBet = () => fail(400, "BAD_BET", 'bet: a positive whole number of minor units, e.g. "100".')

const isRefusal = (answer: object): answer is Refusal => "_tag" in answer && answer._tag === "Refusal"

/** A refusal as `{ error, message }` with its status, or the answer. */
const answerOf = <A extends object>(answer: A | Refusal) =>
  isRefusal(answer) ? fail(answer.status, answer.error, answer.message) : json(200, answer)

const round = withSession((s, studio) =>
  Effect.gen(function* () {
    const { value } = yield* readJson
    if (!isRecord(value)) return fail(400, "BAD_REQUEST", "Send { bet, options }.")
    const bet = betOf(value.bet)
    if (bet === undefined) return badBet()
    return answerOf(yield* studio.round(s, bet, value.options ?? {}, value.freeRound === true))
  }),
)

/** Mines tile by tile (minesRounds.ts): the start, one tile, the cash-out. */
const minesStart = withSession((s, studio) =>
  Effect.gen(function* () {
    const { value } = yield* readJson
    if (!isRecord(value)) return fail(400, "BAD_REQUEST", "Send { bet, mines }.")
    const bet = betOf(value.bet)
    if (bet === undefined) return badBet()
    return answerOf(yield* studio.mines.start(s, bet, value.mines, value.freeRound === true))
  }),
)

const minesOpen = withSession((s, studio) =>
  Effect.gen(function* () {
    const { value } = yield* readJson
    if (!isRecord(value) || typeof value.roundId !== "string")
      return fail(400, "BAD_REQUEST", "Send { roundId, tile }.")
    return answerOf(yield* studio.mines.open(s, value.roundId, value.tile))
  }),
)

const minesCashout = withSession((s, studio) =>
  Effect.gen(function* () {
    const { value } = yield* readJson
    if (!isRecord(value) || typeof value.roundId !== "string")
      return fail(400, "BAD_REQUEST", "Send { roundId }.")
    return answerOf(yield* studio.mines.cashout(s, value.roundId))
  }),
)

const seed = withSession((s, studio) =>
  Effect.gen(function* () {
    const { value } = yield* readJson
    const clientSeed = isRecord(value) ? value.clientSeed : undefined
    if (typeof clientSeed !== "string" || !/^[\x21-\x7e]{1,64}$/.test(clientSeed)) {
      return fail(400, "BAD_CLIENT_SEED", "The client seed is 1–64 printable characters without spaces.")
    }
    return json(200, yield* studio.setClientSeed(s, clientSeed))
  }),
)

const rotate = withSession((s, studio) => Effect.map(studio.rotate(s), answerOf))

const rounds = withSession((s, studio) => Effect.map(studio.rounds(s, 50), (r) => json(200, { rounds: r })))

const page = Effect.gen(function* () {
  const studio = yield* Studio
  const settings = yield* StudioSettings
  const id = (yield* HttpRouter.params).id ?? ""
  const s = /^[A-Za-z0-9_-]{20,64}$/.test(id) ? yield* studio.session(id) : undefined
  const def = s === undefined ? undefined : gameById(s.gameId)
  const nonce = randomBytes(16).toString("base64")
  const request = yield* HttpServerRequest.HttpServerRequest
  // A casino on this machine is framing it under the host the player typed (lib/hosts.ts).
  const csp = pageCsp(nonce, followingAncestors(settings.frameAncestors, request.headers.host))
  yield* HttpEffect.appendPreResponseHandler((_req, response) =>
    Effect.succeed(
      HttpServerResponse.setHeaders(response, {
        "content-security-policy": csp,
        "cache-control": "no-store",
        "referrer-policy": "same-origin",
      }),
    ),
  )
  const marked = { sandbox: settings.sandbox }
  const free = s === undefined || def === undefined ? null : yield* studio.freeRounds.current(s, def.launchId)
  const html =
    s === undefined || def === undefined ? notFoundPage(nonce, marked) : gamePage(nonce, s, def, marked, free)
  return HttpServerResponse.text(html, {
    status: s === undefined ? 404 : 200,
    contentType: "text/html; charset=utf-8",
  })
})

const art = Effect.gen(function* () {
  const file = (yield* HttpRouter.params).file ?? ""
  const match = /^([a-z0-9-]{1,64})\.svg$/.exec(file)
  const def = match?.[1] === undefined ? undefined : catalogue.find((g) => g.imageId === match[1])
  if (def === undefined) return fail(404, "UNKNOWN_IMAGE", "No such image.")
  return HttpServerResponse.text(gameArt(def), {
    contentType: "image/svg+xml",
    headers: {
      "cache-control": "public, max-age=86400",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  })
})

const catchAll = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>) =>
  effect.pipe(
    Effect.catchCause((cause) =>
      Effect.as(
        Effect.logError("studio: request failed", cause),
        fail(503, "UNAVAILABLE", "The game is unavailable for a moment; please try again."),
      ),
    ),
  )

const P = STUDIO_PREFIX
export const studioRoutes = Layer.mergeAll(
  HttpRouter.add("POST", `${P}/api/launch`, catchAll(launch)),
  HttpRouter.add("POST", `${P}/api/games`, catchAll(gamesList)),
  HttpRouter.add("POST", `${P}/api/freerounds`, catchAll(freeRoundsGrant)),
  HttpRouter.add("POST", `${P}/api/freerounds/cancel`, catchAll(freeRoundsCancel)),
  HttpRouter.add("GET", `${P}/api/session/:id`, catchAll(state)),
  HttpRouter.add("POST", `${P}/api/session/:id/round`, catchAll(round)),
  HttpRouter.add("POST", `${P}/api/session/:id/mines/start`, catchAll(minesStart)),
  HttpRouter.add("POST", `${P}/api/session/:id/mines/open`, catchAll(minesOpen)),
  HttpRouter.add("POST", `${P}/api/session/:id/mines/cashout`, catchAll(minesCashout)),
  HttpRouter.add("POST", `${P}/api/session/:id/seed`, catchAll(seed)),
  HttpRouter.add("POST", `${P}/api/session/:id/rotate`, catchAll(rotate)),
  HttpRouter.add("GET", `${P}/api/session/:id/rounds`, catchAll(rounds)),
  HttpRouter.add("GET", `${P}/play/:id`, catchAll(page)),
  HttpRouter.add("GET", `${P}/art/:file`, catchAll(art)),
  roundDetailsRoute,
  crashRoutes(P),
)
