/**
 * The SQL of the seamless wallet (docs/game-wallet-protocol.md): the answered calls
 * (`game_transactions`, UNIQUE (integration, transaction_id)), the context a bet needs in one
 * statement, rounds. Balances are never written here: the ledger posts them.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export type WalletOp = "bet" | "win" | "rollback"

export interface StoredCall {
  readonly id: string
  readonly op: WalletOp | "tombstone"
  readonly roundId: string
  readonly userId: string
  readonly currency: string
  readonly amount: string
  readonly jackpotId: string | null
  readonly jackpotShare: string
  readonly fingerprint: string
  readonly status: number
  readonly response: unknown
  readonly rolledBackBy: string | null
}

/** What a bet needs to be decided, from its session token (one statement). */
export interface BetContext {
  readonly userId: string
  readonly currency: string
  /** The game session and the casino sign-in behind it are both unexpired and not revoked. */
  readonly live: boolean
  readonly excluded: boolean
  /** The player's cash account in the session's currency (its wallet). */
  readonly accountId: string | null
  readonly gameId: string | null
  readonly minBetEur: string | null
  readonly maxBetEur: string | null
  readonly jackpotId: string | null
  readonly eurRate: string | null
  readonly subunits: string | null
}

export interface RoundRow {
  readonly userId: string
  readonly gameId: string
  readonly currency: string
  readonly status: "open" | "settled" | "rolled-back"
  readonly jackpotId: string | null
  readonly eurRate: string | null
  readonly subunits: string | null
}

export interface NewCall {
  readonly integration: string
  readonly transactionId: string
  readonly op: WalletOp | "tombstone"
  readonly roundId: string
  readonly userId: string
  readonly currency: string
  readonly amount: bigint
  readonly jackpotId: string | null
  readonly jackpotShare: bigint
  readonly fingerprint: string
}

export interface WalletRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  readonly findCall: (integration: string, transactionId: string) => Sql<StoredCall | undefined>
  /** Inserts the call's row (status 0 until `complete`); undefined when the id is taken. */
  readonly claim: (call: NewCall) => Sql<string | undefined>
  readonly complete: (id: string, status: number, response: unknown, ledgerTx: string | null) => Sql<void>
  readonly betContext: (
    integration: string,
    tokenHash: string,
    launchId: string,
  ) => Sql<BetContext | undefined>
  /** The session of a token for a balance call: its player, currency and whether it is live. */
  readonly sessionOf: (
    tokenHash: string,
  ) => Sql<{ readonly userId: string; readonly currency: string; readonly live: boolean } | undefined>
  readonly playerAccount: (userId: string, currency: string) => Sql<string | undefined>
  readonly round: (integration: string, roundId: string) => Sql<RoundRow | undefined>
  /** Adds a bet to its round (created on the first bet); undefined when the round is another player's. */
  readonly addBet: (r: {
    readonly integration: string
    readonly roundId: string
    readonly userId: string
    readonly gameId: string
    readonly currency: string
    readonly amount: bigint
  }) => Sql<boolean>
  readonly addWin: (r: {
    readonly integration: string
    readonly roundId: string
    readonly amount: bigint
    readonly jackpot: bigint
    readonly closed: boolean
  }) => Sql<void>
  /** Takes a refunded bet off its round; a round left with no bet and no win is 'rolled-back'. */
  readonly removeBet: (integration: string, roundId: string, amount: bigint) => Sql<void>
  /** Marks the bet rolled back by `by`; false when another rollback did already. */
  readonly markRolledBack: (integration: string, betTransactionId: string, by: string) => Sql<boolean>
  readonly jackpotWon: (jackpotId: string) => Sql<void>
  /** A jackpot's seed in EUR cents (0 for an unknown one). */
  readonly jackpotSeed: (jackpotId: string) => Sql<bigint>
}

const callColumns = `id::text AS id, op, round_id AS "roundId", user_id::text AS "userId", currency,
  amount::text AS amount, jackpot_id AS "jackpotId", jackpot_share::text AS "jackpotShare", fingerprint,
  status, response, rolled_back_by AS "rolledBackBy"`

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(callColumns)

  const findCall = (integration: string, transactionId: string) =>
    sql<StoredCall>`
      SELECT ${cols} FROM game_transactions WHERE integration = ${integration} AND transaction_id = ${transactionId}
    `.pipe(
      Effect.map((rows) => {
        const row = rows[0]
        if (row === undefined) return undefined
        // jsonb arrives parsed from postgres.js, as text from PGlite's bridge in some paths.
        const response =
          typeof row.response === "string" ? (JSON.parse(row.response) as unknown) : row.response
        return { ...row, response }
      }),
    )

  const claim = (c: NewCall) =>
    sql<{ readonly id: string }>`
      INSERT INTO game_transactions (integration, transaction_id, op, round_id, user_id, currency, amount,
                                     jackpot_id, jackpot_share, fingerprint, status, response)
      VALUES (${c.integration}, ${c.transactionId}, ${c.op}, ${c.roundId}, ${c.userId}, ${c.currency},
              ${c.amount.toString()}::numeric, ${c.jackpotId}, ${c.jackpotShare.toString()}::numeric,
              ${c.fingerprint}, 0, '{}'::jsonb)
      ON CONFLICT (integration, transaction_id) DO NOTHING
      RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows[0]?.id))

  const complete = (id: string, status: number, response: unknown, ledgerTx: string | null) =>
    sql`
      UPDATE game_transactions SET status = ${status}, response = ${JSON.stringify(response)}::jsonb,
        ledger_tx = ${ledgerTx}::uuid
      WHERE id = ${id}
    `.pipe(Effect.asVoid)

  const betContext = (integration: string, hash: string, launchId: string) =>
    sql<BetContext>`
      SELECT s.user_id::text AS "userId", s.currency,
             (s.expires_at > now() AND s.revoked_at IS NULL AND cs.revoked_at IS NULL AND cs.expires_at > now()) AS live,
             (coalesce(u.self_exclusion_kind = 'indefinite', false) OR coalesce(u.self_exclusion_until > now(), false)) AS excluded,
             a.id::text AS "accountId", g.id AS "gameId", g.min_bet_eur::text AS "minBetEur",
             g.max_bet_eur::text AS "maxBetEur", g.jackpot_id AS "jackpotId",
             r.eur_rate::text AS "eurRate", c.subunits_to_unit::text AS subunits
      FROM game_sessions s
      JOIN sessions cs ON cs.id = s.casino_session_id
      JOIN users u ON u.id = s.user_id
      JOIN currencies c ON c.code = s.currency
      LEFT JOIN ledger_accounts a ON a.kind = 'player_cash' AND a.user_id = s.user_id AND a.currency = s.currency
      LEFT JOIN games g ON g.integration = ${integration} AND g.launch_id = ${launchId}
      LEFT JOIN currency_rates r ON r.currency = s.currency
      WHERE s.token_hash = ${hash}
    `.pipe(Effect.map((rows) => rows[0]))

  const sessionOf = (hash: string) =>
    sql<{ readonly userId: string; readonly currency: string; readonly live: boolean }>`
      SELECT s.user_id::text AS "userId", s.currency,
             (s.expires_at > now() AND s.revoked_at IS NULL AND cs.revoked_at IS NULL AND cs.expires_at > now()) AS live
      FROM game_sessions s JOIN sessions cs ON cs.id = s.casino_session_id
      WHERE s.token_hash = ${hash}
    `.pipe(Effect.map((rows) => rows[0]))

  const playerAccount = (userId: string, currency: string) =>
    sql<{ readonly id: string }>`
      SELECT id::text AS id FROM ledger_accounts
      WHERE kind = 'player_cash' AND user_id = ${userId} AND currency = ${currency}
    `.pipe(Effect.map((rows) => rows[0]?.id))

  const round = (integration: string, roundId: string) =>
    sql<RoundRow>`
      SELECT r.user_id::text AS "userId", r.game_id AS "gameId", r.currency, r.status, g.jackpot_id AS "jackpotId",
             cr.eur_rate::text AS "eurRate", c.subunits_to_unit::text AS subunits
      FROM game_rounds r JOIN games g ON g.id = r.game_id
      JOIN currencies c ON c.code = r.currency
      LEFT JOIN currency_rates cr ON cr.currency = r.currency
      WHERE r.integration = ${integration} AND r.round_id = ${roundId}
    `.pipe(Effect.map((rows) => rows[0]))

  const addBet: WalletRepoShape["addBet"] = (r) =>
    sql<{ readonly id: string }>`
      INSERT INTO game_rounds (integration, round_id, user_id, game_id, currency, bet_total)
      VALUES (${r.integration}, ${r.roundId}, ${r.userId}, ${r.gameId}, ${r.currency}, ${r.amount.toString()}::numeric)
      ON CONFLICT (integration, round_id) DO UPDATE
        SET bet_total = game_rounds.bet_total + EXCLUDED.bet_total, updated_at = now(),
            status = CASE WHEN game_rounds.status = 'rolled-back' THEN 'open' ELSE game_rounds.status END
        WHERE game_rounds.user_id = EXCLUDED.user_id AND game_rounds.currency = EXCLUDED.currency
      RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows.length > 0))

  const addWin: WalletRepoShape["addWin"] = (r) =>
    sql`
      UPDATE game_rounds SET win_total = win_total + ${(r.amount + r.jackpot).toString()}::numeric,
        jackpot_win = jackpot_win + ${r.jackpot.toString()}::numeric, updated_at = now(),
        status = CASE WHEN ${r.closed} AND status = 'open' THEN 'settled' ELSE status END
      WHERE integration = ${r.integration} AND round_id = ${r.roundId}
    `.pipe(Effect.asVoid)

  const removeBet = (integration: string, roundId: string, amount: bigint) =>
    sql`
      UPDATE game_rounds SET bet_total = greatest(bet_total - ${amount.toString()}::numeric, 0), updated_at = now(),
        status = CASE WHEN bet_total - ${amount.toString()}::numeric <= 0 AND win_total = 0 THEN 'rolled-back' ELSE status END
      WHERE integration = ${integration} AND round_id = ${roundId}
    `.pipe(Effect.asVoid)

  const markRolledBack = (integration: string, betTransactionId: string, by: string) =>
    sql<{ readonly id: string }>`
      UPDATE game_transactions SET rolled_back_by = ${by}
      WHERE integration = ${integration} AND transaction_id = ${betTransactionId} AND op = 'bet'
        AND status = 200 AND rolled_back_by IS NULL
      RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows.length > 0))

  const jackpotWon = (jackpotId: string) =>
    sql`UPDATE jackpots SET last_won_at = now() WHERE id = ${jackpotId}`.pipe(Effect.asVoid)

  const jackpotSeed = (jackpotId: string) =>
    sql<{ readonly seed: string }>`SELECT seed_eur::text AS seed FROM jackpots WHERE id = ${jackpotId}`.pipe(
      Effect.map((rows) => BigInt(rows[0]?.seed ?? "0")),
    )

  return {
    jackpotSeed,
    transaction: sql.withTransaction,
    findCall,
    claim,
    complete,
    betContext,
    sessionOf,
    playerAccount,
    round,
    addBet,
    addWin,
    removeBet,
    markRolledBack,
    jackpotWon,
  } satisfies WalletRepoShape
})

export class WalletRepo extends Context.Service<WalletRepo, WalletRepoShape>()(
  "casino/server/GameWalletRepo",
) {
  static readonly layer = Layer.effect(WalletRepo, make)
}
