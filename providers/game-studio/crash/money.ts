/**
 * Multiplayer crash's money calls: the signed wallet call, the studio outbox that keeps a win or a
 * rollback until the casino acknowledges it, and the bodies of those calls (one round per bet, its
 * ids derived from the bet's id so a retry is the same call).
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { RollbackCall, WinCall } from "../../../protocols/game-wallet/wallet.ts"
import type { GameDefinition } from "../../../services/games/catalogue.ts"
import type { StudioConfig } from "../config.ts"
import { studioCredentials } from "../credentials.ts"
import type { SessionRow } from "../Studio.ts"
import { callWallet } from "../wallet.ts"

export const crashMoney = (sql: SqlClient.SqlClient, options: StudioConfig) => {
  const credentials = studioCredentials(options.secret, { sandbox: options.sandbox })
  const wallet = (op: "bet" | "win" | "rollback", body: string, timeoutMs: number) =>
    callWallet(options.walletUrl, credentials.walletSecret, op, body, timeoutMs)

  const queue = (roundId: string, transactionId: string, op: "win" | "rollback", body: string) =>
    sql`INSERT INTO studio_outbox (transaction_id, round_id, op, body, attempts, next_attempt_at)
        VALUES (${transactionId}, ${roundId}::uuid, ${op}, ${body}, 1, now() + interval '30 seconds')
        ON CONFLICT (transaction_id) DO NOTHING`

  /** One delivery now; the studio's outbox loop retries what is not acknowledged. */
  const deliver = (transactionId: string, op: "win" | "rollback", body: string) =>
    Effect.gen(function* () {
      const answer = yield* wallet(op, body, options.retryTimeoutMs)
      if (answer._tag === "Ok")
        yield* sql`UPDATE studio_outbox SET delivered_at = now(), answer = ${JSON.stringify(answer.body)}
                   WHERE transaction_id = ${transactionId} AND delivered_at IS NULL`
      else
        yield* sql`UPDATE studio_outbox SET last_error = ${answer.error},
                     next_attempt_at = now() + interval '1 second'
                   WHERE transaction_id = ${transactionId} AND delivered_at IS NULL`
      return answer
    })

  const who = (s: SessionRow) => ({
    sessionToken: s.casinoToken ?? "",
    playerId: s.playerId ?? "",
    currency: s.currency,
  })
  const winBody = (s: SessionRow, def: GameDefinition, id: string, amount: bigint) =>
    JSON.stringify({
      ...who(s),
      transactionId: `win-${id}`,
      roundId: id,
      gameId: def.launchId,
      amount: amount.toString(),
      roundClosed: true,
    } satisfies WinCall)
  const rollbackBody = (s: SessionRow, id: string) =>
    JSON.stringify({
      ...who(s),
      transactionId: `rollback-${id}`,
      roundId: id,
      refTransactionId: `bet-${id}`,
    } satisfies RollbackCall)

  return { wallet, queue, deliver, who, winBody, rollbackBody }
}
