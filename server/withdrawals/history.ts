/**
 * A player's withdrawals as the histories show them: the withdrawals tab (with timelines), and the
 * rows of the fiat and crypto histories (`GET /profile/fiat/withdraw`, `GET /profile/crypto/withdraw`).
 */
import { Effect } from "effect"
import type { WithdrawalStatus } from "../../services/cashout-service.ts"
import { networkOf } from "../../services/crypto-rules.ts"
import type { CryptoTransfer } from "../../services/crypto-service.ts"
import type { FiatPayment } from "../../services/wallet-service.ts"
import { AppConfig } from "../config.ts"
import { isCryptoCurrency, toWithdrawal } from "./model.ts"
import { WithdrawalsRepo } from "./WithdrawalsRepo.ts"

export const makeHistory = Effect.gen(function* () {
  const config = yield* AppConfig
  const repo = yield* WithdrawalsRepo

  const ofPlayer = (userId: string) =>
    Effect.gen(function* () {
      const rows = yield* repo.ofPlayer(userId)
      const steps = yield* repo.stepsOf(rows.map((r) => r.id))
      return rows.map((r) => toWithdrawal(r, steps))
    }).pipe(Effect.orDie)

  const fiatStatus = (s: WithdrawalStatus): FiatPayment["status"] =>
    s === "paid" ? "completed" : s === "rejected" || s === "failed" ? "failed" : "pending"

  const fiatHistory = (userId: string, from: Date, to: Date) =>
    repo.historyOf(userId, ["skrill", "bank"], from, to).pipe(
      Effect.map((rows) =>
        rows.map(
          (r): FiatPayment => ({
            id: r.id,
            // The fiat history's rows are deposit-shaped: both rails show as the e-wallet method,
            // the provider names the rail ("skrill" or "bank"). GET /profile/withdrawals has it all.
            method: "skrill",
            provider: r.provider,
            amount: r.amount,
            currency: r.currency,
            status: fiatStatus(r.status),
            reason: r.reason,
            createdAt: r.createdAt.toISOString(),
            updatedAt: r.updatedAt.toISOString(),
          }),
        ),
      ),
      Effect.orDie,
    )

  const cryptoHistory = (userId: string, from: Date, to: Date) =>
    repo.historyOf(userId, ["crypto"], from, to).pipe(
      Effect.map((rows) =>
        rows.flatMap((r): ReadonlyArray<CryptoTransfer> => {
          if (!isCryptoCurrency(r.currency)) return []
          return [
            {
              id: r.id,
              currency: r.currency,
              network: networkOf[r.currency],
              txHash: r.txHash ?? "",
              outputIndex: null,
              address: r.destination,
              amount: r.amount,
              confirmations: r.status === "paid" ? config.withdrawConfirmations : 0,
              requiredConfirmations: config.withdrawConfirmations,
              status: r.status,
              createdAt: r.createdAt.toISOString(),
              updatedAt: r.updatedAt.toISOString(),
            },
          ]
        }),
      ),
      Effect.orDie,
    )

  return { ofPlayer, fiatHistory, cryptoHistory }
})
