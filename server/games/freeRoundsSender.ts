/**
 * The free rounds' outbox towards the game providers (docs/game-wallet-protocol.md, "Free rounds"):
 * every second, the grants committed since (status `pending`) are sent to their integration's
 * `freeRoundsUrl`, and the grants whose bonus ended (`cancelling`) are withdrawn at `…/cancel`.
 * Each is signed with the casinoKey and carries a fresh requestId; a grant sent twice is one grant
 * (the provider keys it by grantId). A failure is retried with backoff (1, 2, 4 … 300 s) until the
 * provider answers. Runs in every server process: a grant may be sent twice at once, which the
 * provider's idempotency absorbs.
 */
import { randomBytes } from "node:crypto"
import { Duration, Effect, Layer } from "effect"
import { decodeFreeRoundsAnswer } from "../../protocols/game-wallet/free-rounds.ts"
import { SIGNATURE_HEADER, signBody } from "../../protocols/game-wallet/signature.ts"
import { FreeRoundsRepo, type GrantRow } from "../bonuses/FreeRoundsRepo.ts"
import type { GameProviderConfig } from "../config.ts"
import { Jobs } from "../lifecycle/Jobs.ts"
import { Integrations } from "./Integrations.ts"

const TIMEOUT_MS = 8_000

/** 1, 2, 4 … seconds after each failed attempt, at most 5 minutes. */
export const retrySeconds = (attempts: number): number => Math.min(2 ** Math.min(attempts, 9), 300)

type Sent = { readonly ok: true } | { readonly ok: false; readonly error: string }

const send = (integration: GameProviderConfig, grant: GrantRow): Effect.Effect<Sent> =>
  Effect.tryPromise({
    try: async (signal) => {
      const cancelling = grant.status === "cancelling"
      const requestId = randomBytes(16).toString("hex")
      const body = JSON.stringify(
        cancelling
          ? { requestId, grantId: grant.id }
          : {
              requestId,
              grantId: grant.id,
              playerId: grant.userId,
              currency: grant.currency,
              gameId: grant.launchId,
              rounds: grant.rounds,
              bet: grant.bet,
              expiresAt: grant.expiresAt.toISOString(),
            },
      )
      const url = cancelling
        ? `${integration.freeRoundsUrl.replace(/\/$/, "")}/cancel`
        : integration.freeRoundsUrl
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [SIGNATURE_HEADER]: signBody(integration.casinoKey, body),
        },
        body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
        redirect: "error",
      })
      const text = await response.text()
      // A cancel for a grant the provider never took: nothing to withdraw.
      if (cancelling && response.status === 404) return { ok: true } as const
      if (response.status !== 200)
        return { ok: false, error: `answered ${response.status}: ${text.slice(0, 200)}` } as const
      return decodeFreeRoundsAnswer(text)._tag === "Some"
        ? ({ ok: true } as const)
        : ({ ok: false, error: "an answer that is not a free-rounds answer" } as const)
    },
    catch: (e) => e,
  }).pipe(
    Effect.catch((e) =>
      Effect.succeed<Sent>({ ok: false, error: e instanceof Error ? e.message : "no answer" }),
    ),
  )

export const FreeRoundsSenderLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const grants = yield* FreeRoundsRepo
    const integrations = yield* Integrations
    const round = Effect.gen(function* () {
      const due = yield* grants.due(20)
      for (const grant of due) {
        const integration = yield* integrations.get(grant.integration)
        const from = grant.status === "cancelling" ? "cancelling" : "pending"
        const sent: Sent =
          integration === undefined
            ? { ok: false, error: `no integration ${grant.integration}` }
            : yield* send(integration, grant)
        if (sent.ok) yield* grants.sent(grant.id, from)
        else {
          yield* Effect.logWarning(`free rounds ${grant.id} (${from}) not delivered: ${sent.error}`)
          yield* grants.failed(grant.id, sent.error, retrySeconds(grant.attempts))
        }
      }
    })
    const jobs = yield* Jobs
    yield* jobs.every("games.free-rounds-outbox", round, Duration.seconds(1))
  }),
)
