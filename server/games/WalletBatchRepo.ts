/**
 * The SQL of the batched settlement (settlementBatch.ts): a batch of bets and wins claims its ids
 * and reads everything its decisions need in ONE statement, and completes its calls and rounds in
 * ONE more — whatever the number of calls. The rows are those of WalletRepo.ts; balances are never
 * written here (the ledger's `postMany` books them between the two).
 *
 * Each statement takes its rows as one JSON parameter (`jsonb_to_recordset`): the text never
 * changes with the batch's size, so PostgreSQL plans it once per connection, and PGlite binds it
 * as postgres.js does. Inserts are ordered by their unique key, so two batches (of two servers)
 * claiming overlapping ids take them in one order and never wait on each other in a cycle.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { BetContext } from "./WalletRepo.ts"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

/** One call of a batch, as claimed. */
export interface BatchClaim {
  readonly op: "bet" | "win"
  readonly integration: string
  readonly transactionId: string
  readonly roundId: string
  readonly userId: string
  readonly currency: string
  readonly amount: bigint
  readonly jackpotShare: bigint
  readonly fingerprint: string
  /** A bet's session token's hash and its game's launch id (the provider's `gameId`). */
  readonly tokenHash: string | null
  readonly launchId: string | null
  /** The accepted signature (hex) and its time. */
  readonly signature: string
  readonly signedAt: number
}

/** What the claim statement answers for one call (in the batch's order). */
export interface ClaimedRow {
  readonly freshSignature: boolean
  /** Undefined when the id was taken (by a committed call): a replay. */
  readonly claimId: string | undefined
  /** The player's cash account in the call's currency (a bet's: its session's). */
  readonly accountId: string | undefined
  /** A bet's session context (undefined for a win, or when the token is unknown). */
  readonly context: BetContext | undefined
  /**
   * A bonus is in play (the player has an active one in the call's currency, or the round was
   * played with bonus money): the one-call path settles it, with the bonus rules.
   */
  readonly bonus: boolean
  /** The call's round as it stands, if it exists. */
  readonly round:
    | {
        readonly userId: string
        readonly currency: string
        readonly status: "open" | "settled" | "rolled-back"
      }
    | undefined
}

export interface BetDone {
  readonly claimId: string
  readonly integration: string
  readonly roundId: string
  readonly userId: string
  readonly gameId: string
  readonly currency: string
  readonly amount: bigint
  readonly response: unknown
  readonly ledgerTx: string
}

export interface WinDone {
  readonly claimId: string
  readonly integration: string
  readonly roundId: string
  readonly amount: bigint
  readonly closed: boolean
  /** Its round was rolled back: the round is left as it is, the call marked void. */
  readonly voided: boolean
  readonly response: unknown
  readonly ledgerTx: string | null
}

export interface WalletBatchRepoShape {
  /** ONE statement: records the signatures, claims the ids, reads sessions, rounds and wallets. */
  readonly claimMany: (calls: ReadonlyArray<BatchClaim>) => Sql<ReadonlyArray<ClaimedRow>>
  /**
   * ONE statement: adds the bets to their rounds (created on a first bet), the wins to theirs,
   * completes those calls with their answers, deletes the claims of refused calls and the
   * signatures of calls handed back to the one-by-one path. Answers how many bets found their
   * round (fewer than given: a round is another player's — the caller must roll back).
   */
  readonly finishMany: (done: {
    readonly bets: ReadonlyArray<BetDone>
    readonly wins: ReadonlyArray<WinDone>
    readonly dropClaims: ReadonlyArray<string>
    readonly dropSignatures: ReadonlyArray<string>
  }) => Sql<number>
}

interface ClaimRowSql {
  readonly i: number
  readonly claimId: string | null
  readonly freshSignature: boolean
  readonly accountId: string | null
  readonly sessionFound: boolean
  readonly userId: string | null
  readonly currency: string | null
  readonly live: boolean | null
  readonly excluded: boolean | null
  readonly gameId: string | null
  readonly minBetEur: string | null
  readonly maxBetEur: string | null
  readonly jackpotId: string | null
  readonly eurRate: string | null
  readonly subunits: string | null
  readonly roundUserId: string | null
  readonly roundCurrency: string | null
  readonly roundStatus: "open" | "settled" | "rolled-back" | null
  readonly gameKind: string | null
  readonly bonus: boolean
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const claimMany: WalletBatchRepoShape["claimMany"] = (calls) =>
    sql<ClaimRowSql>`
      WITH input AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(
          calls.map((c, i) => ({
            i,
            op: c.op,
            integration: c.integration,
            transaction_id: c.transactionId,
            round_id: c.roundId,
            user_id: c.userId,
            currency: c.currency,
            amount: c.amount.toString(),
            jackpot_share: c.jackpotShare.toString(),
            fingerprint: c.fingerprint,
            token_hash: c.tokenHash,
            launch_id: c.launchId,
            sig: c.signature,
            signed_at: c.signedAt,
          })),
        )}::jsonb) AS x (i int, op text, integration text, transaction_id text, round_id text, user_id uuid,
                         currency text, amount numeric, jackpot_share numeric, fingerprint text, token_hash text,
                         launch_id text, sig text, signed_at bigint)
      ), sig AS (
        INSERT INTO game_wallet_signatures (signature, signed_at)
        SELECT decode(sig, 'hex'), signed_at FROM input ORDER BY sig
        ON CONFLICT (signature) DO NOTHING
        RETURNING signature
      ), claim AS (
        INSERT INTO game_transactions (integration, transaction_id, op, round_id, user_id, currency, amount,
                                       jackpot_id, jackpot_share, fingerprint, status, response)
        SELECT i.integration, i.transaction_id, i.op, i.round_id, i.user_id, i.currency, i.amount,
               CASE WHEN i.op = 'bet' AND i.jackpot_share > 0 THEN g.jackpot_id END,
               i.jackpot_share, i.fingerprint, 0, '{}'::jsonb
        FROM input i
        LEFT JOIN games g ON i.op = 'bet' AND g.integration = i.integration AND g.launch_id = i.launch_id
        ORDER BY i.integration, i.transaction_id
        ON CONFLICT (integration, transaction_id) DO NOTHING
        RETURNING id, integration, transaction_id
      )
      SELECT i.i, c.id::text AS "claimId",
             EXISTS (SELECT 1 FROM sig WHERE sig.signature = decode(i.sig, 'hex')) AS "freshSignature",
             a.id::text AS "accountId",
             (s.user_id IS NOT NULL) AS "sessionFound",
             s.user_id::text AS "userId", s.currency,
             (s.expires_at > now() AND s.revoked_at IS NULL AND cs.revoked_at IS NULL AND cs.expires_at > now()) AS live,
             (coalesce(u.self_exclusion_kind = 'indefinite', false) OR coalesce(u.self_exclusion_until > now(), false)) AS excluded,
             g.id AS "gameId", g.min_bet_eur::text AS "minBetEur", g.max_bet_eur::text AS "maxBetEur",
             g.jackpot_id AS "jackpotId", cr.eur_rate::text AS "eurRate", cu.subunits_to_unit::text AS subunits,
             r.user_id::text AS "roundUserId", r.currency AS "roundCurrency", r.status AS "roundStatus",
             g.kind AS "gameKind",
             (r.bonus_id IS NOT NULL OR EXISTS (
               SELECT 1 FROM player_bonuses b WHERE b.status = 'active'
                 AND b.user_id = CASE WHEN i.op = 'bet' THEN s.user_id ELSE i.user_id END
                 AND b.currency = CASE WHEN i.op = 'bet' THEN s.currency ELSE i.currency END
             )) AS bonus
      FROM input i
      LEFT JOIN claim c ON c.integration = i.integration AND c.transaction_id = i.transaction_id
      LEFT JOIN game_sessions s ON i.op = 'bet' AND s.token_hash = i.token_hash
      LEFT JOIN sessions cs ON cs.id = s.casino_session_id
      LEFT JOIN users u ON u.id = s.user_id
      LEFT JOIN games g ON i.op = 'bet' AND g.integration = i.integration AND g.launch_id = i.launch_id
      LEFT JOIN game_rounds r ON r.integration = i.integration AND r.round_id = i.round_id
      LEFT JOIN ledger_accounts a ON a.kind = 'player_cash'
        AND a.user_id = CASE WHEN i.op = 'bet' THEN s.user_id ELSE i.user_id END
        AND a.currency = CASE WHEN i.op = 'bet' THEN s.currency ELSE i.currency END
      LEFT JOIN currency_rates cr ON cr.currency = CASE WHEN i.op = 'bet' THEN s.currency ELSE i.currency END
      LEFT JOIN currencies cu ON cu.code = CASE WHEN i.op = 'bet' THEN s.currency ELSE i.currency END
      ORDER BY i.i
    `.pipe(
      Effect.map((rows) =>
        rows.map(
          (r): ClaimedRow => ({
            freshSignature: r.freshSignature,
            claimId: r.claimId ?? undefined,
            accountId: r.accountId ?? undefined,
            bonus: r.bonus,
            context:
              r.sessionFound && r.userId !== null && r.currency !== null
                ? {
                    userId: r.userId,
                    currency: r.currency,
                    live: r.live === true,
                    excluded: r.excluded === true,
                    accountId: r.accountId,
                    gameId: r.gameId,
                    minBetEur: r.minBetEur,
                    maxBetEur: r.maxBetEur,
                    jackpotId: r.jackpotId,
                    eurRate: r.eurRate,
                    subunits: r.subunits,
                    gameKind: r.gameKind,
                    bonusActive: r.bonus,
                  }
                : undefined,
            round:
              r.roundUserId !== null && r.roundCurrency !== null && r.roundStatus !== null
                ? { userId: r.roundUserId, currency: r.roundCurrency, status: r.roundStatus }
                : undefined,
          }),
        ),
      ),
    )

  const finishMany: WalletBatchRepoShape["finishMany"] = (done) =>
    sql<{ readonly n: number }>`
      WITH bet_in AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(
          done.bets.map((b) => ({
            id: b.claimId,
            integration: b.integration,
            round_id: b.roundId,
            user_id: b.userId,
            game_id: b.gameId,
            currency: b.currency,
            amount: b.amount.toString(),
            response: b.response,
            ledger_tx: b.ledgerTx,
          })),
        )}::jsonb) AS x (id bigint, integration text, round_id text, user_id uuid, game_id text, currency text,
                         amount numeric, response jsonb, ledger_tx uuid)
      ), win_in AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(
          done.wins.map((w) => ({
            id: w.claimId,
            integration: w.integration,
            round_id: w.roundId,
            amount: w.amount.toString(),
            closed: w.closed,
            voided: w.voided,
            response: w.response,
            ledger_tx: w.ledgerTx,
          })),
        )}::jsonb) AS x (id bigint, integration text, round_id text, amount numeric, closed boolean,
                         voided boolean, response jsonb, ledger_tx uuid)
      ), bet_rounds AS (
        INSERT INTO game_rounds (integration, round_id, user_id, game_id, currency, bet_total)
        SELECT integration, round_id, user_id, game_id, currency, amount FROM bet_in ORDER BY integration, round_id
        ON CONFLICT (integration, round_id) DO UPDATE
          SET bet_total = game_rounds.bet_total + EXCLUDED.bet_total, updated_at = now(),
              status = CASE WHEN game_rounds.status = 'rolled-back' THEN 'open' ELSE game_rounds.status END
          WHERE game_rounds.user_id = EXCLUDED.user_id AND game_rounds.currency = EXCLUDED.currency
        RETURNING 1
      ), win_rounds AS (
        UPDATE game_rounds r SET win_total = r.win_total + w.amount, updated_at = now(),
          status = CASE WHEN w.closed AND r.status = 'open' THEN 'settled' ELSE r.status END
        FROM win_in w WHERE r.integration = w.integration AND r.round_id = w.round_id AND NOT w.voided
      ), completed AS (
        UPDATE game_transactions t SET status = 200, response = c.response, ledger_tx = c.ledger_tx, voided = c.voided
        FROM (SELECT id, response, ledger_tx, false AS voided FROM bet_in
              UNION ALL SELECT id, response, ledger_tx, voided FROM win_in) c
        WHERE t.id = c.id
      ), dropped AS (
        DELETE FROM game_transactions
        WHERE id IN (SELECT value::bigint FROM jsonb_array_elements_text(${JSON.stringify(done.dropClaims)}::jsonb))
      ), unsigned AS (
        DELETE FROM game_wallet_signatures
        WHERE signature IN (SELECT decode(value, 'hex') FROM jsonb_array_elements_text(${JSON.stringify(done.dropSignatures)}::jsonb))
      )
      SELECT count(*)::int AS n FROM bet_rounds
    `.pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0)))

  return { claimMany, finishMany } satisfies WalletBatchRepoShape
})

export class WalletBatchRepo extends Context.Service<WalletBatchRepo, WalletBatchRepoShape>()(
  "casino/server/WalletBatchRepo",
) {
  static readonly layer = Layer.effect(WalletBatchRepo, make)
}
