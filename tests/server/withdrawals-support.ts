/**
 * Helpers for the withdrawal tests (tests/server/withdrawals.*.test.ts): a player whose identity and
 * address documents are approved (as an operator's decision leaves them), funds put on a wallet by
 * a real ledger posting from a house account, and the calls of the cashout group.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { Ledger } from "../../server/ledger/Ledger.ts"
import { newPlayer, type Player, PROFILE } from "./account-support.ts"
import type { TestServer } from "./harness.ts"
import { userIdOf } from "./money-support.ts"
import type { Reply } from "./users-support.ts"

export { PROFILE }

/** A valid, checksummed ETH address (the "abandon … about" test vector's first account). */
export const ETH_ADDRESS = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
export const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"

export interface Cashier extends Player {
  readonly userId: string
}

/** Approves the player's ID and BILL documents (rows as the operator's approval writes them). */
export const verify = async (
  server: TestServer,
  userId: string,
  kinds: ReadonlyArray<"ID" | "BILL"> = ["ID", "BILL"],
) => {
  for (const kind of kinds)
    await server.query(
      `INSERT INTO verification_documents
         (user_id, kind, status, file_name, content_type, size, sha256, reviewed_at, reviewed_by)
       VALUES ($1, $2, 'APPROVED', 'doc.pdf', 'application/pdf', 1, repeat('a', 64), now(), 'test')`,
      [userId, kind],
    )
}

/** Puts `amount` minor units on the player's `currency` wallet (house → player, one posting). */
export const fund = (server: TestServer, userId: string, amount: bigint, currency = "EUR") =>
  server.run(
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const player = yield* ledger.playerAccount(userId, currency)
      if (player === undefined) return yield* Effect.die(new Error(`no ${currency} wallet`))
      const house = yield* ledger.systemAccountId("house", "test-funding", currency)
      yield* ledger.post({
        kind: "test.funding",
        idempotencyKey: `test-funding:${randomUUID()}`,
        entries: [
          { accountId: house, currency, amount: -amount },
          { accountId: player.id, currency, amount },
        ],
      })
    }).pipe(Effect.orDie),
  )

/** A registered player; verified and funded with `eur` cents unless told otherwise. */
export const newCashier = async (
  server: TestServer,
  tag: string,
  options: { readonly verified?: boolean; readonly eur?: bigint } = {},
): Promise<Cashier> => {
  const player = await newPlayer(server, tag)
  const userId = await userIdOf(server, player.email)
  if (options.verified !== false) await verify(server, userId)
  const eur = options.eur ?? 100_000n
  if (eur > 0n) await fund(server, userId, eur)
  return { ...player, userId }
}

/** Adds a wallet in `currency` for the player (the contract's add-currency call). */
export const addWallet = async (player: Player, currency: string) => {
  const res = await player.browser.post(`${PROFILE}/profile/currency`, { currency })
  if (res.status !== 200) throw new Error(`add ${currency}: ${res.status} ${JSON.stringify(res.body)}`)
}

export const withdrawable = (player: Player, currency?: string): Promise<Reply> =>
  player.browser.get(
    `${PROFILE}/profile/withdrawable${currency === undefined ? "" : `?currency=${currency}`}`,
  )

export const bankWithdraw = (player: Player, amount: string, email = "payee@example.com", currency = "EUR") =>
  player.browser.post(`${PROFILE}/profile/bank/withdraw`, { amount, currency, email })

export const skrillWithdraw = (player: Player, amount: string, currency = "EUR") =>
  player.browser.post(`${PROFILE}/profile/skrill/withdraw`, { amount, currency })

export const cryptoWithdraw = (player: Player, amount: string, currency: string, address: string) =>
  player.browser.post(`${PROFILE}/profile/crypto/withdraw`, { amount, currency, address })

export const balance = async (server: TestServer, userId: string, currency = "EUR"): Promise<bigint> => {
  const rows = await server.query<{ balance: string }>(
    "SELECT balance::text AS balance FROM ledger_accounts WHERE kind = 'player_cash' AND user_id = $1 AND currency = $2",
    [userId, currency],
  )
  return BigInt(rows[0]?.balance ?? "0")
}

export const pendingBalance = async (server: TestServer, currency = "EUR"): Promise<bigint> => {
  const rows = await server.query<{ balance: string }>(
    "SELECT balance::text AS balance FROM ledger_accounts WHERE kind = 'pending_withdrawal' AND currency = $1",
    [currency],
  )
  return BigInt(rows[0]?.balance ?? "0")
}

export const statusOf = async (server: TestServer, id: string): Promise<string | undefined> => {
  const rows = await server.query<{ status: string }>("SELECT status FROM withdrawals WHERE id = $1", [id])
  return rows[0]?.status
}
