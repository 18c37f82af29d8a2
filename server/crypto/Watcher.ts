/**
 * The chain watcher (docs/crypto.md "Watcher"): one loop per configured network, started with the
 * server and stopped with it, each step in ONE SQL transaction under a transaction-scoped advisory
 * lock per network (`pg_try_advisory_xact_lock`): while one process scans a network, the others skip
 * it, and a process that dies mid-step has written nothing (its transaction rolls back).
 *
 * A step: read the cursor (last scanned height + hash); if the chain's hash at that height changed,
 * walk back through the recorded hashes to the fork point and undo the transfers of the replaced
 * blocks (orphaned; a credited one gets a reversal posting, or an operator alert when the player's
 * balance no longer covers it); scan the next blocks in a batch, recording each transfer to a
 * player's address once (UNIQUE (network, tx, output)); then recount confirmations (scanned tip −
 * height + 1) and credit each transfer that has its confirmations — once, under the ledger key
 * `crypto-deposit:<network>:<tx>:<output>` — or hold it when below minDeposit. Pushes go out after
 * the commit. Adapters: the UTXO ones from config (Esplora), plus any given to `Watcher.layer`
 * (the EVM adapter: `Watcher.layer([makeEvmAdapter(config)])`).
 */
import { Context, Duration, Effect, Layer } from "effect"
import { utxoNetworks } from "../../protocols/chains/networks.ts"
import { confirmationsAt } from "../../services/crypto-rules.ts"
import type { CryptoCurrency, Network } from "../../services/crypto-service.ts"
import { toEurCents } from "../../services/money-rules.ts"
import type { PlayerEvent } from "../../services/wallet-service.ts"
import { Bonuses } from "../bonuses/Bonuses.ts"
import { AppConfig, type AppConfigShape } from "../config.ts"
import { PlayerEvents } from "../events/PlayerEvents.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Jobs } from "../lifecycle/Jobs.ts"
import { Rates } from "../wallet/Rates.ts"
import { Wallets } from "../wallet/Wallets.ts"
import { Addresses } from "./Addresses.ts"
import type { BlockRef, ChainAdapter, ObservedTransfer } from "./chain.ts"
import { type CryptoDepositRow, CryptoDepositsRepo } from "./DepositsRepo.ts"
import { makeEsploraAdapter } from "./utxo/Esplora.ts"

/** Recorded block hashes kept below the cursor: the deepest reorg the watcher can undo. */
export const REORG_WINDOW = 100n

export interface StepReport {
  readonly network: Network
  /** False when another process held the network's lock (nothing done here). */
  readonly ran: boolean
  readonly scannedTo: bigint | null
  readonly reorgedTo: bigint | null
}

export interface WatcherShape {
  readonly networks: ReadonlyArray<Network>
  /** One step on every network (or one); chain errors are logged, not raised. */
  readonly tick: (network?: Network) => Effect.Effect<ReadonlyArray<StepReport>>
}

/** The idempotency key of a transfer's credit (a transfer mined again after a reorg: next generation). */
export const creditKey = (row: Pick<CryptoDepositRow, "network" | "txHash" | "outputIndex" | "generation">) =>
  `crypto-deposit:${row.network}:${row.txHash}:${row.outputIndex ?? -1}${row.generation > 0 ? `:g${row.generation}` : ""}`

/**
 * The UTXO adapters the configuration names: a network is watched when it has an explorer URL and
 * an xpub (without one it offers no deposit address, so nothing of ours can arrive on it).
 */
export const configuredAdapters = (config: AppConfigShape): ChainAdapter[] =>
  utxoNetworks
    .filter((n) => config.crypto.esploraUrls[n] !== "" && config.crypto.xpubs[n] !== undefined)
    .map((n) => makeEsploraAdapter(n, config.crypto.esploraUrls[n]))

const make = (extra: ReadonlyArray<ChainAdapter>) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const repo = yield* CryptoDepositsRepo
    const addresses = yield* Addresses
    const ledger = yield* Ledger
    const wallets = yield* Wallets
    const rates = yield* Rates
    const events = yield* PlayerEvents
    const bonuses = yield* Bonuses
    const adapters = [...configuredAdapters(config), ...extra]

    const depositEvent = (row: CryptoDepositRow, status: string, confirmations: number): PlayerEvent => ({
      type: "cryptoDeposit",
      id: row.id,
      currency: row.currency,
      txHash: row.txHash,
      amount: row.amount,
      confirmations,
      requiredConfirmations: row.requiredConfirmations,
      status,
    })

    const step = (adapter: ChainAdapter) => {
      const network = adapter.network
      const pushes: Array<{ readonly userId: string; readonly event: PlayerEvent }> = []
      const push = (userId: string, event: PlayerEvent) => pushes.push({ userId, event })

      /** Undo what the replaced blocks above `fork` carried. */
      const undoAbove = (fork: bigint) =>
        Effect.gen(function* () {
          for (const row of yield* repo.liveAbove(network, fork)) {
            if (row.status !== "credited" || row.ledgerTransactionId === null) {
              yield* repo.markOrphaned(row.id, null)
              push(row.userId, depositEvent(row, "orphaned", 0))
              continue
            }
            const player = yield* ledger.playerAccount(row.userId, row.currency)
            const clearing = yield* ledger.systemAccountId(
              "gateway_clearing",
              `chain:${network}`,
              row.currency,
            )
            const amount = BigInt(row.amount)
            const reversed = yield* ledger
              .post({
                kind: "crypto_deposit_reversal",
                idempotencyKey: `crypto-reversal:${creditKey(row).slice("crypto-deposit:".length)}`,
                entries: [
                  { accountId: player?.id ?? "", currency: row.currency, amount: -amount },
                  { accountId: clearing, currency: row.currency, amount },
                ],
                metadata: { cryptoDepositId: row.id, network, txHash: row.txHash, reason: "reorg" },
              })
              .pipe(
                Effect.map((posted) => ({ ok: true as const, posted })),
                Effect.catchTag("InsufficientFunds", () => Effect.succeed({ ok: false as const })),
                Effect.catchTag(["LedgerConflict", "InvalidPosting"], Effect.die),
              )
            if (!reversed.ok) {
              // The player spent it already: the reversal would overdraw. Keep the credit, tell an operator.
              yield* repo.alert(
                "reorg_reversal_uncovered",
                row.id,
                `${row.amount} ${row.currency} of ${row.txHash} was credited, then its block was replaced; the balance no longer covers a reversal`,
              )
              yield* Effect.logError(
                `crypto watcher: reorg reversal of ${row.id} not covered: operator alert`,
              )
              continue
            }
            yield* repo.markOrphaned(row.id, reversed.posted.transactionId)
            push(row.userId, depositEvent(row, "orphaned", 0))
            const balance = player === undefined ? undefined : reversed.posted.balances.get(player.id)
            if (balance !== undefined)
              push(row.userId, { type: "balance", currency: row.currency, balance: balance.toString() })
          }
          yield* repo.forgetScannedAbove(network, fork)
        })

      /** Where the recorded chain and the real one part: the highest recorded height whose hash still matches. */
      const forkPoint = (from: bigint) =>
        Effect.gen(function* () {
          for (let h = from; h >= 0n; h--) {
            const recorded = yield* repo.scannedHash(network, h)
            if (recorded === undefined) return null
            if ((yield* adapter.blockHash(h)) === recorded) return h
          }
          return null
        })

      const credit = (row: CryptoDepositRow, confirmations: number) =>
        Effect.gen(function* () {
          const rate = yield* rates.get(row.currency)
          const amount = BigInt(row.amount)
          if (rate !== undefined && amount < rate.minDeposit) {
            // docs/crypto.md "Below the minimum": held, shown to the player, listed for an operator.
            yield* repo.markBelowMinimum(row.id, confirmations)
            yield* repo.alert(
              "below_minimum",
              row.id,
              `${row.amount} ${row.currency} is below minDeposit ${rate.minDeposit}`,
            )
            push(row.userId, depositEvent(row, "below_minimum", confirmations))
            return
          }
          if ((yield* wallets.find(row.userId, row.currency)) === undefined)
            yield* wallets
              .add(row.userId, row.currency)
              .pipe(Effect.catchTag("WalletExists", () => Effect.void))
          // The player's bonus lock before their accounts (the ledger's order): a credit may pay a bonus.
          yield* bonuses.lockPlayer(row.userId)
          const player = yield* ledger.playerAccount(row.userId, row.currency)
          if (player === undefined)
            return yield* Effect.die(new Error(`no ${row.currency} account for ${row.userId}`))
          const clearing = yield* ledger.systemAccountId("gateway_clearing", `chain:${network}`, row.currency)
          const posted = yield* ledger
            .post(
              {
                kind: "crypto_deposit",
                idempotencyKey: creditKey(row),
                entries: [
                  { accountId: clearing, currency: row.currency, amount: -amount },
                  { accountId: player.id, currency: row.currency, amount },
                ],
                metadata: { cryptoDepositId: row.id, network, txHash: row.txHash, blockHash: row.blockHash },
              },
              (transactionId) => repo.markCredited(row.id, confirmations, transactionId),
            )
            .pipe(Effect.catchTag(["LedgerConflict", "InsufficientFunds", "InvalidPosting"], Effect.die))
          push(row.userId, depositEvent(row, "credited", confirmations))
          // The bonus of the code named with the address request (docs/bonuses.md, "Crypto deposits"),
          // in this same transaction: the credit and its bonus commit together. A transfer mined again
          // after a reorg finds the choice taken: it is credited, not paid a second bonus.
          const grant = posted.replayed
            ? undefined
            : yield* bonuses.awardForCryptoDeposit({
                id: row.id,
                userId: row.userId,
                currency: row.currency,
                amount,
                amountEurCents:
                  rate === undefined ? 0n : toEurCents(amount, rate.eurRate, rate.subunitsToUnit),
              })
          const balance = posted.balances.get(player.id)
          if (balance !== undefined)
            push(row.userId, {
              type: "balance",
              currency: row.currency,
              balance: balance.toString(),
              ...(grant === undefined ? {} : { bonusBalance: grant.balance.toString() }),
            })
        })

      const body = Effect.gen(function* () {
        if (!(yield* repo.tryLockNetwork(network)))
          return { network, ran: false, scannedTo: null, reorgedTo: null } satisfies StepReport
        const tip = yield* adapter.tip
        let cursor = yield* repo.cursor(network)
        let reorgedTo: bigint | null = null
        if (cursor === undefined) {
          // First start: from the block before the tip (nothing older can pay an address handed out now).
          const start = tip.height > 0n ? tip.height - 1n : 0n
          const hash = start === tip.height ? tip.hash : yield* adapter.blockHash(start)
          if (hash === null) return yield* Effect.die(new Error(`${network}: no block at ${start}`))
          cursor = { height: start, hash }
          yield* repo.recordScanned(network, [cursor])
          yield* repo.setCursor(network, cursor)
        } else if ((yield* adapter.blockHash(cursor.height)) !== cursor.hash) {
          const fork = yield* forkPoint(cursor.height - 1n)
          if (fork === null) {
            yield* repo.alert(
              "reorg_too_deep",
              null,
              `${network}: no recorded block matches the chain below ${cursor.height}`,
            )
            return yield* Effect.die(
              new Error(`${network}: reorg deeper than the recorded ${REORG_WINDOW} blocks`),
            )
          }
          yield* Effect.logWarning(`crypto watcher: ${network} reorg, back from ${cursor.height} to ${fork}`)
          yield* undoAbove(fork)
          const hash = yield* repo.scannedHash(network, fork)
          cursor = { height: fork, hash: hash ?? "" }
          reorgedTo = fork
        }
        // Scan the next batch, recording the hash of every block scanned.
        const to =
          tip.height < cursor.height + BigInt(config.crypto.scanBatch)
            ? tip.height
            : cursor.height + BigInt(config.crypto.scanBatch)
        if (to > cursor.height) {
          const watched = yield* addresses.watched(network)
          const scanned: BlockRef[] = []
          for (let h = cursor.height + 1n; h <= to; h++) {
            const hash = yield* adapter.blockHash(h)
            if (hash === null) return yield* Effect.die(new Error(`${network}: no block at ${h}`))
            scanned.push({ height: h, hash })
          }
          const transfers: ReadonlyArray<ObservedTransfer> = yield* adapter.transfersIn(
            cursor.height + 1n,
            to,
            (a) => watched.has(a),
          )
          // A block replaced between reading its hash and its transactions: try again next step.
          const hashes = new Map(scanned.map((b) => [b.height, b.hash] as const))
          if (transfers.some((t) => hashes.get(t.block.height) !== t.block.hash))
            return yield* Effect.die(new Error(`${network}: the chain moved during the scan; retrying`))
          for (const t of transfers) {
            const owner = watched.get(t.to)
            if (owner === undefined) continue
            const required = config.crypto.confirmations[t.currency as CryptoCurrency]
            // New rows are pushed below, with their first confirmation count.
            yield* repo.upsertTransfer(t, owner.userId, required)
          }
          yield* repo.recordScanned(network, scanned)
          const last = scanned.at(-1)
          if (last !== undefined) {
            cursor = last
            yield* repo.setCursor(network, last)
          }
        } else if (reorgedTo !== null) yield* repo.setCursor(network, cursor)
        // Confirmations against what was scanned and verified, then credits.
        let keepFrom = cursor.height - REORG_WINDOW
        for (const row of yield* repo.pendingOf(network)) {
          const height = BigInt(row.blockHeight)
          const confirmations = confirmationsAt(height, cursor.height)
          const recorded = yield* repo.scannedHash(network, height)
          if (confirmations >= row.requiredConfirmations && recorded === row.blockHash) {
            yield* credit(row, confirmations)
            continue
          }
          // Its credit compares the recorded hash: kept while the transfer is open, even when it
          // needs more confirmations than the window is deep.
          if (height < keepFrom) keepFrom = height
          if (confirmations !== row.confirmations) {
            yield* repo.setConfirmations(row.id, confirmations)
            push(row.userId, depositEvent(row, "pending", confirmations))
          }
        }
        yield* repo.pruneScannedBelow(network, keepFrom)
        return { network, ran: true, scannedTo: cursor.height, reorgedTo } satisfies StepReport
      })

      return repo.transaction(body).pipe(
        Effect.tap(() => Effect.forEach(pushes, (p) => events.publish(p.userId, p.event), { discard: true })),
        Effect.catchTag("ChainUnavailable", (e) =>
          Effect.logWarning(`crypto watcher: ${network} unavailable: ${e.message}`).pipe(
            Effect.as({ network, ran: false, scannedTo: null, reorgedTo: null } satisfies StepReport),
          ),
        ),
        Effect.catchCause((cause) =>
          Effect.logError(`crypto watcher: ${network} step failed`, cause).pipe(
            Effect.as({ network, ran: false, scannedTo: null, reorgedTo: null } satisfies StepReport),
          ),
        ),
      )
    }

    const tick = (network?: Network) =>
      Effect.forEach(
        adapters.filter((a) => network === undefined || a.network === network),
        step,
      )

    const jobs = yield* Jobs
    if (config.crypto.watcherEnabled && adapters.length > 0)
      // Once for the cluster (its lease); the first step waits a moment: the server is still starting.
      yield* jobs.every("crypto.watcher", tick(), Duration.seconds(config.crypto.pollSeconds), {
        firstAfter: Duration.seconds(1),
      })

    return { networks: adapters.map((a) => a.network), tick } satisfies WatcherShape
  })

export class Watcher extends Context.Service<Watcher, WatcherShape>()("casino/server/crypto/Watcher") {
  /** The watcher over the configured UTXO adapters plus `extra` (the EVM adapter, when merged). */
  static readonly layer = (extra: ReadonlyArray<ChainAdapter> = []) => Layer.effect(Watcher, make(extra))
}
