/**
 * The SQL of the seamless wallet (docs/game-wallet-protocol.md): the answered calls
 * (`game_transactions`, UNIQUE (integration, transaction_id)), the context a bet needs in one
 * statement, rounds, and the accepted signatures (`game_wallet_signatures`, PRIMARY KEY: a replay
 * of one is refused), recorded inside the statement each call runs anyway. Balances are never
 * written here: the ledger posts them.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { AcceptedSignature } from "../../protocols/game-wallet/signature.ts"

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
  /** A bet's part paid with bonus money, and that bonus (a refund follows it). */
  readonly bonusId: string | null
  readonly bonusAmount: string
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
  /** The game's kind (its wagering weight while a bonus is active). */
  readonly gameKind: string | null
  /** The player has an active bonus in the session's currency: the bet is paid cash, then bonus. */
  readonly bonusActive: boolean
}

export interface RoundRow {
  readonly userId: string
  readonly gameId: string
  readonly currency: string
  readonly status: "open" | "settled" | "rolled-back"
  readonly jackpotId: string | null
  readonly eurRate: string | null
  readonly subunits: string | null
  /** The bonus whose money some of the round's bets were, and how much of them (else null / "0"). */
  readonly bonusId: string | null
  readonly bonusBet: string
  readonly betTotal: string
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

/** What `complete` writes: the call's row id, its answer and the ledger transaction (if any). */
export interface Completion {
  readonly id: string
  readonly status: number
  readonly response: unknown
  readonly ledgerTx: string | null
}

export interface WalletRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  readonly findCall: (integration: string, transactionId: string) => Sql<StoredCall | undefined>
  /** Inserts the call's row (status 0 until `complete`); undefined when the id is taken. */
  readonly claim: (call: NewCall) => Sql<string | undefined>
  readonly complete: (id: string, status: number, response: unknown, ledgerTx: string | null) => Sql<void>
  /**
   * ONE statement: claims a bet's id (its row, status 0 until completed; `jackpotId` set from the
   * game when `jackpotShare` > 0) and reads what the bet needs from its session token. `claimId` is
   * undefined when the id is taken (the statement waited for its holder to finish): a replay.
   */
  readonly claimBet: (
    call: Omit<NewCall, "op" | "jackpotId">,
    tokenHash: string,
    launchId: string,
    signature: AcceptedSignature,
  ) => Sql<{
    /** False: this exact signature was accepted before (a replay): roll the transaction back. */
    readonly freshSignature: boolean
    readonly claimId: string | undefined
    readonly context: BetContext | undefined
  }>
  /**
   * ONE statement: claims a win's id (`jackpotId` kept only when it is the jackpot of the round's
   * game) and reads the round and the player's account. `claimId` as for `claimBet`.
   */
  readonly claimWin: (
    call: Omit<NewCall, "op" | "jackpotShare">,
    signature: AcceptedSignature,
  ) => Sql<{
    readonly freshSignature: boolean
    readonly claimId: string | undefined
    readonly accountId: string | undefined
    readonly round: RoundRow | undefined
  }>
  /**
   * ONE statement: adds the bet to its round (created on the first bet) and, when that was
   * allowed, completes the call's row with its answer. False (nothing written) when the round is
   * another player's.
   */
  readonly addBetAndComplete: (
    r: {
      readonly integration: string
      readonly roundId: string
      readonly userId: string
      readonly gameId: string
      readonly currency: string
      readonly amount: bigint
    },
    done: Completion,
  ) => Sql<boolean>
  /**
   * ONE statement: adds the win to its round and completes the call's row with its answer. A void
   * win (its round rolled back) leaves the round as it is and is marked `voided`.
   */
  readonly addWinAndComplete: (
    r: {
      readonly integration: string
      readonly roundId: string
      readonly amount: bigint
      readonly jackpot: bigint
      readonly closed: boolean
      readonly voided?: boolean
    },
    done: Completion,
  ) => Sql<void>
  /**
   * ONE statement: records the balance call's signature and reads the session of its token: its
   * player, currency and whether it is live.
   */
  readonly sessionOf: (
    tokenHash: string,
    signature: AcceptedSignature,
  ) => Sql<{
    readonly freshSignature: boolean
    readonly session:
      | { readonly userId: string; readonly currency: string; readonly live: boolean }
      | undefined
  }>
  /** Records an accepted signature on its own; false when it was there already (a replay). */
  readonly claimSignature: (signature: AcceptedSignature) => Sql<boolean>
  /** Forgets the signatures signed before `before` (unix seconds): their replays are stale anyway. */
  readonly pruneSignatures: (before: number) => Sql<number>
  readonly playerAccount: (userId: string, currency: string) => Sql<string | undefined>
  /**
   * Takes a refunded bet off its round (its bonus money part too: a win is then split by the bets
   * left); a round left with no bet and no win is 'rolled-back'.
   */
  readonly removeBet: (integration: string, roundId: string, amount: bigint, bonusAmount: bigint) => Sql<void>
  /** Marks the bet rolled back by `by`; false when another rollback did already. */
  readonly markRolledBack: (integration: string, betTransactionId: string, by: string) => Sql<boolean>
  readonly jackpotWon: (jackpotId: string) => Sql<void>
  /** A jackpot's seed in EUR cents (0 for an unknown one). */
  readonly jackpotSeed: (jackpotId: string) => Sql<bigint>
}

const callColumns = `id::text AS id, op, round_id AS "roundId", user_id::text AS "userId", currency,
  amount::text AS amount, jackpot_id AS "jackpotId", jackpot_share::text AS "jackpotShare", fingerprint,
  status, response, rolled_back_by AS "rolledBackBy", bonus_id::text AS "bonusId",
  bonus_amount::text AS "bonusAmount"`

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(callColumns)

  /** Records a signature; returns a row only when it was not there (composable as a CTE). */
  const signatureInsert = (signature: AcceptedSignature) => sql`
    INSERT INTO game_wallet_signatures (signature, signed_at)
    VALUES (decode(${signature.v1}, 'hex'), ${signature.t})
    ON CONFLICT (signature) DO NOTHING
    RETURNING 1 AS one`

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

  const claimBet: WalletRepoShape["claimBet"] = (c, hash, launchId, signature) =>
    sql<
      BetContext & {
        readonly claimId: string | null
        readonly found: boolean
        readonly freshSignature: boolean
      }
    >`
      WITH sig AS (${signatureInsert(signature)}), claim AS (
        INSERT INTO game_transactions (integration, transaction_id, op, round_id, user_id, currency, amount,
                                       jackpot_id, jackpot_share, fingerprint, status, response)
        VALUES (${c.integration}, ${c.transactionId}, 'bet', ${c.roundId}, ${c.userId}, ${c.currency},
                ${c.amount.toString()}::numeric,
                CASE WHEN ${c.jackpotShare.toString()}::numeric > 0
                  THEN (SELECT g.jackpot_id FROM games g WHERE g.integration = ${c.integration} AND g.launch_id = ${launchId})
                END,
                ${c.jackpotShare.toString()}::numeric, ${c.fingerprint}, 0, '{}'::jsonb)
        ON CONFLICT (integration, transaction_id) DO NOTHING
        RETURNING id
      ), context AS (
        SELECT s.user_id::text AS "userId", s.currency,
               (s.expires_at > now() AND s.revoked_at IS NULL AND cs.revoked_at IS NULL AND cs.expires_at > now()) AS live,
               (coalesce(u.self_exclusion_kind = 'indefinite', false) OR coalesce(u.self_exclusion_until > now(), false)) AS excluded,
               a.id::text AS "accountId", g.id AS "gameId", g.min_bet_eur::text AS "minBetEur",
               g.max_bet_eur::text AS "maxBetEur", g.jackpot_id AS "jackpotId",
               r.eur_rate::text AS "eurRate", c.subunits_to_unit::text AS subunits, g.kind AS "gameKind",
               EXISTS (SELECT 1 FROM player_bonuses b WHERE b.user_id = s.user_id AND b.currency = s.currency
                       AND b.status = 'active') AS "bonusActive"
        FROM game_sessions s
        JOIN sessions cs ON cs.id = s.casino_session_id
        JOIN users u ON u.id = s.user_id
        JOIN currencies c ON c.code = s.currency
        LEFT JOIN ledger_accounts a ON a.kind = 'player_cash' AND a.user_id = s.user_id AND a.currency = s.currency
        LEFT JOIN games g ON g.integration = ${c.integration} AND g.launch_id = ${launchId}
        LEFT JOIN currency_rates r ON r.currency = s.currency
        WHERE s.token_hash = ${hash}
      )
      SELECT (SELECT id::text FROM claim) AS "claimId", EXISTS (SELECT 1 FROM sig) AS "freshSignature",
             (context."userId" IS NOT NULL) AS found, context.*
      FROM (SELECT 1) AS one LEFT JOIN context ON true
    `.pipe(
      Effect.map((rows) => {
        const row = rows[0]
        if (row === undefined) return { freshSignature: false, claimId: undefined, context: undefined }
        const { claimId, found, freshSignature, ...context } = row
        return { freshSignature, claimId: claimId ?? undefined, context: found ? context : undefined }
      }),
    )

  const claimWin: WalletRepoShape["claimWin"] = (c, signature) =>
    sql<
      RoundRow & {
        readonly claimId: string | null
        readonly accountId: string | null
        readonly found: boolean
        readonly freshSignature: boolean
      }
    >`
      WITH sig AS (${signatureInsert(signature)}), claim AS (
        INSERT INTO game_transactions (integration, transaction_id, op, round_id, user_id, currency, amount,
                                       jackpot_id, jackpot_share, fingerprint, status, response)
        VALUES (${c.integration}, ${c.transactionId}, 'win', ${c.roundId}, ${c.userId}, ${c.currency},
                ${c.amount.toString()}::numeric,
                (SELECT g.jackpot_id FROM game_rounds r JOIN games g ON g.id = r.game_id
                 WHERE r.integration = ${c.integration} AND r.round_id = ${c.roundId} AND g.jackpot_id = ${c.jackpotId}::text),
                0, ${c.fingerprint}, 0, '{}'::jsonb)
        ON CONFLICT (integration, transaction_id) DO NOTHING
        RETURNING id
      ), round AS (
        SELECT r.user_id::text AS "userId", r.game_id AS "gameId", r.currency, r.status, g.jackpot_id AS "jackpotId",
               cr.eur_rate::text AS "eurRate", c.subunits_to_unit::text AS subunits,
               r.bonus_id::text AS "bonusId", r.bonus_bet::text AS "bonusBet", r.bet_total::text AS "betTotal"
        FROM game_rounds r JOIN games g ON g.id = r.game_id
        JOIN currencies c ON c.code = r.currency
        LEFT JOIN currency_rates cr ON cr.currency = r.currency
        WHERE r.integration = ${c.integration} AND r.round_id = ${c.roundId}
      )
      SELECT (SELECT id::text FROM claim) AS "claimId", EXISTS (SELECT 1 FROM sig) AS "freshSignature",
             (SELECT id::text FROM ledger_accounts
              WHERE kind = 'player_cash' AND user_id = ${c.userId} AND currency = ${c.currency}) AS "accountId",
             (round."userId" IS NOT NULL) AS found, round.*
      FROM (SELECT 1) AS one LEFT JOIN round ON true
    `.pipe(
      Effect.map((rows) => {
        const row = rows[0]
        if (row === undefined)
          return { freshSignature: false, claimId: undefined, accountId: undefined, round: undefined }
        const { claimId, accountId, found, freshSignature, ...round } = row
        return {
          freshSignature,
          claimId: claimId ?? undefined,
          accountId: accountId ?? undefined,
          round: found ? round : undefined,
        }
      }),
    )

  const sessionOf: WalletRepoShape["sessionOf"] = (hash, signature) =>
    sql<{
      readonly freshSignature: boolean
      readonly userId: string | null
      readonly currency: string | null
      readonly live: boolean | null
    }>`
      WITH sig AS (${signatureInsert(signature)}), session AS (
        SELECT s.user_id::text AS "userId", s.currency,
               (s.expires_at > now() AND s.revoked_at IS NULL AND cs.revoked_at IS NULL AND cs.expires_at > now()) AS live
        FROM game_sessions s JOIN sessions cs ON cs.id = s.casino_session_id
        WHERE s.token_hash = ${hash}
      )
      SELECT EXISTS (SELECT 1 FROM sig) AS "freshSignature", session.*
      FROM (SELECT 1) AS one LEFT JOIN session ON true
    `.pipe(
      Effect.map((rows) => {
        const row = rows[0]
        const session =
          row?.userId == null || row.currency == null
            ? undefined
            : { userId: row.userId, currency: row.currency, live: row.live === true }
        return { freshSignature: row?.freshSignature === true, session }
      }),
    )

  const claimSignature = (signature: AcceptedSignature) =>
    sql<{ readonly one: number }>`${signatureInsert(signature)}`.pipe(Effect.map((rows) => rows.length > 0))

  const pruneSignatures = (before: number) =>
    sql<{ readonly n: string }>`
      WITH gone AS (DELETE FROM game_wallet_signatures WHERE signed_at < ${before} RETURNING 1)
      SELECT count(*)::text AS n FROM gone
    `.pipe(Effect.map((rows) => Number(rows[0]?.n ?? "0")))

  const playerAccount = (userId: string, currency: string) =>
    sql<{ readonly id: string }>`
      SELECT id::text AS id FROM ledger_accounts
      WHERE kind = 'player_cash' AND user_id = ${userId} AND currency = ${currency}
    `.pipe(Effect.map((rows) => rows[0]?.id))

  const addBetAndComplete: WalletRepoShape["addBetAndComplete"] = (r, done) =>
    sql<{ readonly added: boolean }>`
      WITH round AS (
        INSERT INTO game_rounds (integration, round_id, user_id, game_id, currency, bet_total)
        VALUES (${r.integration}, ${r.roundId}, ${r.userId}, ${r.gameId}, ${r.currency}, ${r.amount.toString()}::numeric)
        ON CONFLICT (integration, round_id) DO UPDATE
          SET bet_total = game_rounds.bet_total + EXCLUDED.bet_total, updated_at = now(),
              status = CASE WHEN game_rounds.status = 'rolled-back' THEN 'open' ELSE game_rounds.status END
          WHERE game_rounds.user_id = EXCLUDED.user_id AND game_rounds.currency = EXCLUDED.currency
        RETURNING id
      ), completed AS (
        UPDATE game_transactions SET status = ${done.status}, response = ${JSON.stringify(done.response)}::jsonb,
          ledger_tx = ${done.ledgerTx}::uuid
        WHERE id = ${done.id} AND EXISTS (SELECT 1 FROM round)
      )
      SELECT EXISTS (SELECT 1 FROM round) AS added
    `.pipe(Effect.map((rows) => rows[0]?.added === true))

  const addWinAndComplete: WalletRepoShape["addWinAndComplete"] = (r, done) =>
    sql`
      WITH round AS (
        UPDATE game_rounds SET win_total = win_total + ${(r.amount + r.jackpot).toString()}::numeric,
          jackpot_win = jackpot_win + ${r.jackpot.toString()}::numeric, updated_at = now(),
          status = CASE WHEN ${r.closed} AND status = 'open' THEN 'settled' ELSE status END
        WHERE integration = ${r.integration} AND round_id = ${r.roundId} AND NOT ${r.voided === true}
      )
      UPDATE game_transactions SET status = ${done.status}, response = ${JSON.stringify(done.response)}::jsonb,
        ledger_tx = ${done.ledgerTx}::uuid, voided = ${r.voided === true}
      WHERE id = ${done.id}
    `.pipe(Effect.asVoid)

  const removeBet = (integration: string, roundId: string, amount: bigint, bonusAmount: bigint) =>
    sql`
      UPDATE game_rounds SET bet_total = greatest(bet_total - ${amount.toString()}::numeric, 0), updated_at = now(),
        bonus_bet = greatest(bonus_bet - ${bonusAmount.toString()}::numeric, 0),
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
    claimBet,
    claimWin,
    sessionOf,
    claimSignature,
    pruneSignatures,
    playerAccount,
    addBetAndComplete,
    addWinAndComplete,
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
