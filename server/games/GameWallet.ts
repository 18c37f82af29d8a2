/**
 * The seamless wallet (docs/game-wallet-protocol.md): the providers' signed balance / bet / win /
 * rollback calls — the signature checked, the body decoded against the protocol, then settled in
 * the ledger: bets and wins by the batched writer (settlementBatch.ts), the rest and whatever a
 * batch hands back one by one (walletCalls.ts). Accepted signatures are pruned once the tolerance
 * refuses their replays anyway.
 */
import { Context, Duration, Effect, Layer } from "effect"
import { GameWalletErrors } from "../../protocols/game-wallet/errors.ts"
import { type AcceptedSignature, acceptedSignature } from "../../protocols/game-wallet/signature.ts"
import {
  decodeWalletCall,
  isWalletOp,
  type WalletOp as WalletCallOp,
} from "../../protocols/game-wallet/wallet.ts"
import type { GameProviderConfig } from "../config.ts"
import { AppConfig } from "../config.ts"
import { PlayerEvents } from "../events/PlayerEvents.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Jobs } from "../lifecycle/Jobs.ts"
import { Integrations } from "./Integrations.ts"
import { type BatchJob, makeSettlementBatcher } from "./settlementBatch.ts"
import { WalletBatchRepo } from "./WalletBatchRepo.ts"
import { WalletRepo } from "./WalletRepo.ts"
import { betFingerprint, makeWalletCalls, winFingerprint, winJackpot } from "./walletCalls.ts"
import { answer, badRequest, invalidSignature, type WalletAnswer } from "./walletDecisions.ts"

const E = GameWalletErrors

/** How often the accepted signatures past the tolerance are forgotten. */
const PRUNE_EVERY = Duration.minutes(1)
/** Kept this much longer than the tolerance: instances' clocks may differ by a little. */
const PRUNE_MARGIN_SECONDS = 60

export interface GameWalletShape {
  /** One provider call: the raw body as signed, the X-Signature header. Never fails. */
  readonly handle: (
    provider: string,
    op: string,
    rawBody: string,
    signature: string | undefined,
  ) => Effect.Effect<WalletAnswer>
}

const make = Effect.gen(function* () {
  const repo = yield* WalletRepo
  const ledger = yield* Ledger
  const events = yield* PlayerEvents
  const integrations = yield* Integrations
  const config = yield* AppConfig
  const batchRepo = yield* WalletBatchRepo

  const { replayOf, balance, bet, win, rollback, houseOf, poolOf } = yield* makeWalletCalls

  /** The one-call path of a call a batch hands back; a database failure is a 500, as in `handle`. */
  const single = (job: BatchJob): Effect.Effect<WalletAnswer> =>
    (job.op === "bet"
      ? bet(job.integration, job.call, job.signature)
      : win(job.integration, job.call, job.signature)
    ).pipe(
      Effect.catchTag("SqlError", (e) =>
        Effect.logError("games: wallet call failed", e).pipe(Effect.as(answer(500, { error: E.internal }))),
      ),
    )

  const batcher = config.settlementBatching
    ? yield* makeSettlementBatcher({
        repo: batchRepo,
        ledger,
        transaction: repo.transaction,
        houseOf,
        poolOf,
        replay: (job) =>
          repo
            .findCall(job.integration, job.call.transactionId)
            .pipe(
              Effect.flatMap((existing) =>
                existing === undefined
                  ? single(job)
                  : Effect.succeed(replayOf(existing, job.op, job.fingerprint)),
              ),
            ),
        single,
        publish: (pushes) =>
          events.publishMany(
            pushes.map((p) => ({
              userId: p.userId,
              event: { type: "balance", currency: p.currency, balance: p.balance.toString() },
            })),
          ),
      })
    : undefined

  const dispatch = (
    integration: GameProviderConfig,
    op: WalletCallOp,
    rawBody: string,
    signature: AcceptedSignature,
  ) =>
    Effect.gen(function* () {
      switch (op) {
        case "balance": {
          const d = decodeWalletCall.balance(rawBody)
          return d._tag === "Success" ? yield* balance(d.value, signature) : badRequest("not a balance call")
        }
        case "bet": {
          const d = decodeWalletCall.bet(rawBody)
          if (d._tag !== "Success") return badRequest("not a bet call")
          const call = d.value
          return batcher === undefined
            ? yield* bet(integration.code, call, signature)
            : yield* batcher.submit({
                op: "bet",
                integration: integration.code,
                call,
                signature,
                fingerprint: betFingerprint(call),
              })
        }
        case "win": {
          const d = decodeWalletCall.win(rawBody)
          if (d._tag !== "Success") return badRequest("not a win call")
          const call = d.value
          // A win naming a jackpot pays a whole pool: decided on its own, under the pool's lock; a
          // free round's win opens its round and counts against its grant (walletFreeRound.ts).
          return batcher === undefined ||
            winJackpot(integration.code, call) !== null ||
            call.freeRoundGrantId !== undefined
            ? yield* win(integration.code, call, signature)
            : yield* batcher.submit({
                op: "win",
                integration: integration.code,
                call,
                signature,
                fingerprint: winFingerprint(integration.code, call),
              })
        }
        case "rollback": {
          const d = decodeWalletCall.rollback(rawBody)
          return d._tag === "Success"
            ? yield* rollback(integration.code, d.value, signature)
            : badRequest("not a rollback call")
        }
      }
    })

  const handle: GameWalletShape["handle"] = (provider, op, rawBody, signature) =>
    Effect.gen(function* () {
      const integration = yield* integrations.get(provider)
      if (integration === undefined) return answer(404, { error: E.unknownProvider })
      const accepted = acceptedSignature(
        integration.walletSecret,
        signature,
        rawBody,
        Math.floor(Date.now() / 1000),
        config.webhookToleranceSeconds,
      )
      if (accepted === undefined) return invalidSignature
      if (!isWalletOp(op)) return answer(404, { error: E.unknownOperation })
      return yield* dispatch(integration, op, rawBody, accepted)
    }).pipe(
      Effect.catchTag("SqlError", (e) =>
        Effect.logError("games: wallet call failed", e).pipe(Effect.as(answer(500, { error: E.internal }))),
      ),
    )

  const jobs = yield* Jobs
  // Forgets the signatures whose replays the tolerance refuses anyway, for the server's lifetime.
  yield* jobs.every(
    "games.signature-prune",
    Effect.suspend(() =>
      repo.pruneSignatures(
        Math.floor(Date.now() / 1000) - config.webhookToleranceSeconds - PRUNE_MARGIN_SECONDS,
      ),
    ),
    PRUNE_EVERY,
  )

  return { handle } satisfies GameWalletShape
})

export class GameWallet extends Context.Service<GameWallet, GameWalletShape>()("casino/server/GameWallet") {
  static readonly layer = Layer.effect(GameWallet, make).pipe(
    Layer.provide(Layer.mergeAll(WalletRepo.layer, WalletBatchRepo.layer)),
  )
}
