/**
 * The back office's players (docs/backoffice.md, "Players"): search, a player's page read through
 * the services that own each part, and the operator's actions on a player. The SQL is
 * ./PlayersRepo.ts. Every action writes exactly one `operator_audit` row (before and after) in the
 * same transaction as its change.
 *
 * - Lock sets `users.locked_at` (sign-in then answers 423 AccountLocked; a live session stops
 *   resolving) and ends the player's sessions; unlock clears it. Both are idempotent: locking a
 *   locked player records the new reason.
 * - A balance adjustment moves cash between the player's account and the house's `adjustments`
 *   account through the ledger only (so it can never take the player below 0). It posts at once
 *   while what its operator adjusted on this player alone over the last 24 hours, itself included,
 *   stays within BACKOFFICE_ADJUST_APPROVAL_MINOR (EUR cents, each adjustment's absolute value at
 *   the rate of its request): a split into small ones adds up. Past it, or in a currency without a
 *   rate, it waits `pending` for a second operator with `players.adjust` to approve (then it
 *   posts) or reject it: never its requester, and for an approval only one who held their role
 *   before the request (so an operator created or promoted for the occasion cannot). The client's
 *   idempotency key is UNIQUE: a retry answers the first adjustment and posts nothing.
 * - A round's fairness proof is the player's own (`roundFairness()`, docs/fairness.md) asked about
 *   this player's round: read-only, not audited.
 */
import { Context, Effect, Layer } from "effect"
import {
  AdjustmentNotFound,
  AdjustmentRefused,
  BadInput,
  PlayerNotFound,
} from "../../services/backoffice/errors.ts"
import type { Adjustment, PlayerNote, PlayerPage, PlayerSummary } from "../../services/backoffice/players.ts"
import { type GameUnavailable, RoundNotFound } from "../../services/errors.ts"
import type { RoundFairness } from "../../services/game-service.ts"
import { RATE_SCALE } from "../../services/money-rules.ts"
import { Bonuses } from "../bonuses/Bonuses.ts"
import { AppConfig } from "../config.ts"
import { Games } from "../games/Games.ts"
import { GamesRepo } from "../games/GamesRepo.ts"
import { Integrations } from "../games/Integrations.ts"
import { roundFairness } from "../games/roundFairness.ts"
import { Kyc } from "../kyc/Kyc.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Loyalty } from "../loyalty/Loyalty.ts"
import { OperatorAudit } from "../operator/Audit.ts"
import { Deposits } from "../payments/Deposits.ts"
import { ResponsibleGaming } from "../responsible-gaming/ResponsibleGaming.ts"
import { Sessions } from "../users/Sessions.ts"
import { type CurrencyRate, Rates } from "../wallet/Rates.ts"
import { Withdrawals } from "../withdrawals/Withdrawals.ts"
import type { Actor } from "./Backoffice.ts"
import { type AdjustmentRow, PlayersRepo } from "./PlayersRepo.ts"

/** The house account adjustments are taken from and given back to (kind `house`). */
export const ADJUSTMENTS_HOUSE_CODE = "adjustments"
export const SEARCH_LIMIT = 50
export const PAGE_LIMIT = 50
/** The rolling window an operator's lone adjustments to one player add up over. */
export const ADJUSTMENT_WINDOW_HOURS = 24

/** An amount's absolute value in EUR cents at `rate`, rounded up: a fraction of a cent still counts. */
const eurCentsUp = (amount: bigint, rate: Pick<CurrencyRate, "eurRate" | "subunitsToUnit">): bigint => {
  const magnitude = amount < 0n ? -amount : amount
  const divisor = rate.subunitsToUnit * RATE_SCALE
  return (magnitude * rate.eurRate * 100n + divisor - 1n) / divisor
}

/** An operator acting (not `npm run operator`): notes and adjustments name their account. */
export interface OperatorActor extends Actor {
  readonly operatorId: string
  readonly email: string
}

export interface LockState {
  readonly id: string
  readonly locked: boolean
  readonly reason: string | null
  readonly sessionsEnded: number
}

export interface NewAdjustmentInput {
  readonly currency: string
  readonly amount: string
  readonly reason: string
  readonly idempotencyKey: string
}

export interface PlayersShape {
  readonly search: (q: string) => Effect.Effect<ReadonlyArray<PlayerSummary>, BadInput>
  readonly page: (userId: string) => Effect.Effect<PlayerPage, PlayerNotFound>
  /**
   * The proof of one of the player's rounds, by the provider's round id (the Bets tab's `roundId`),
   * matched exactly: unlike the player's uuid, it is not case-folded.
   */
  readonly roundFairness: (
    userId: string,
    roundId: string,
  ) => Effect.Effect<RoundFairness, PlayerNotFound | RoundNotFound | GameUnavailable>
  readonly lock: (
    actor: OperatorActor,
    userId: string,
    reason: string,
  ) => Effect.Effect<LockState, BadInput | PlayerNotFound>
  readonly unlock: (
    actor: OperatorActor,
    userId: string,
    reason: string,
  ) => Effect.Effect<LockState, BadInput | PlayerNotFound>
  readonly signOut: (
    actor: OperatorActor,
    userId: string,
  ) => Effect.Effect<{ readonly id: string; readonly sessionsEnded: number }, PlayerNotFound>
  readonly addNote: (
    actor: OperatorActor,
    userId: string,
    body: string,
  ) => Effect.Effect<PlayerNote, BadInput | PlayerNotFound>
  readonly adjust: (
    actor: OperatorActor,
    userId: string,
    input: NewAdjustmentInput,
  ) => Effect.Effect<Adjustment, BadInput | PlayerNotFound | AdjustmentRefused>
  readonly adjustments: (status: string | undefined) => Effect.Effect<ReadonlyArray<Adjustment>>
  readonly approve: (
    actor: OperatorActor,
    id: string,
  ) => Effect.Effect<Adjustment, AdjustmentNotFound | AdjustmentRefused>
  readonly reject: (
    actor: OperatorActor,
    id: string,
    reason: string,
  ) => Effect.Effect<Adjustment, BadInput | AdjustmentNotFound | AdjustmentRefused>
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** LIKE's wildcards and escape typed by the operator are literal characters. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
const iso = (d: Date) => new Date(d).toISOString()
const isoOrNull = (d: Date | null) => (d === null ? null : iso(d))

const adjustmentView = (row: AdjustmentRow): Adjustment => ({
  id: row.id,
  playerId: row.playerId,
  playerEmail: row.playerEmail,
  currency: row.currency,
  amount: row.amount,
  reason: row.reason,
  status: row.status,
  needsApproval: row.needsApproval,
  requestedBy: row.requestedBy,
  requestedAt: iso(row.requestedAt),
  decidedBy: row.decidedBy,
  decidedAt: isoOrNull(row.decidedAt),
  decisionReason: row.decisionReason,
  transactionId: row.transactionId,
})

/** What the audit keeps of an adjustment (no e-mail of the player: the row names the user). */
const adjustmentAudit = (row: AdjustmentRow | undefined) =>
  row === undefined
    ? null
    : { id: row.id, currency: row.currency, amount: row.amount, status: row.status, reason: row.reason }

const make = Effect.gen(function* () {
  const repo = yield* PlayersRepo
  const config = yield* AppConfig
  const ledger = yield* Ledger
  const sessions = yield* Sessions
  const audit = yield* OperatorAudit
  const games = yield* Games
  const deposits = yield* Deposits
  const withdrawals = yield* Withdrawals
  const rg = yield* ResponsibleGaming
  const kyc = yield* Kyc
  const bonuses = yield* Bonuses
  const loyalty = yield* Loyalty
  const gamesRepo = yield* GamesRepo
  const integrations = yield* Integrations
  const rates = yield* Rates
  const threshold = BigInt(config.backofficeAdjustApprovalMinor)

  const notFound = () => new PlayerNotFound({ message: "No player with this id." })
  const adjustmentNotFound = () => new AdjustmentNotFound({ message: "No adjustment with this id." })

  const record = (
    actor: Actor,
    action: string,
    userId: string,
    subject: string,
    before: unknown,
    after: unknown,
  ) =>
    audit.record({
      actor: actor.label,
      action,
      userId,
      subject,
      details: {},
      operatorId: actor.operatorId,
      operatorEmail: actor.email,
      ip: actor.ip,
      before,
      after,
    })

  const text = (value: string, what: string) => {
    const trimmed = value.trim()
    return trimmed.length === 0
      ? Effect.fail(new BadInput({ message: `The ${what} is empty.` }))
      : Effect.succeed(trimmed)
  }

  const search = Effect.fn("Players.search")(function* (raw: string) {
    const q = yield* text(raw, "search")
    const digits = q.replace(/\D/g, "")
    const rows = yield* repo
      .search({
        emailPrefix: escapeLike(q.toLowerCase()),
        namePart: escapeLike(q),
        id: uuidPattern.test(q) ? q.toLowerCase() : null,
        phoneDigits: /^[+\d\s().-]+$/.test(q) && digits.length >= 4 ? digits : null,
        limit: SEARCH_LIMIT,
      })
      .pipe(Effect.orDie)
    return rows.map((r): PlayerSummary => ({ ...r, registeredAt: iso(r.registeredAt) }))
  })

  const page = Effect.fn("Players.page")(function* (userId: string) {
    const p = yield* repo.profile(userId).pipe(Effect.orDie)
    if (p === undefined) return yield* notFound()
    const now = Date.now()
    const everything = { from: new Date(0), to: new Date(now + 86_400_000) }
    const [wallets, ledgerLines, sessionRows, exclusions, noteRows, adjustmentRows] = yield* Effect.all([
      repo.wallets(userId),
      repo.ledgerLines(userId, PAGE_LIMIT),
      repo.sessions(userId, PAGE_LIMIT),
      repo.selfExclusions(userId, PAGE_LIMIT),
      repo.notes(userId, PAGE_LIMIT),
      repo.adjustments({ userId, status: null, limit: PAGE_LIMIT }),
    ]).pipe(Effect.orDie)
    const depositRows = yield* deposits.history(userId, everything.from, everything.to)
    const withdrawalRows = yield* withdrawals.ofPlayer(userId)
    const bets = yield* games.betHistory(userId, everything, undefined, PAGE_LIMIT, 0)
    return {
      profile: {
        id: p.id,
        email: p.email,
        fullName: p.name,
        firstName: p.firstName,
        lastName: p.lastName,
        nickName: p.nickName,
        phone:
          p.phoneNumber === null
            ? null
            : p.dialingCode === null
              ? p.phoneNumber
              : `+${p.dialingCode} ${p.phoneNumber}`,
        country: p.country,
        city: p.city,
        address: p.address,
        zipCode: p.zipCode,
        dateOfBirth: p.dateOfBirth,
        gender: p.gender,
        language: p.language,
        currency: p.currency,
        confirmed: p.confirmed,
        registeredAt: iso(p.registeredAt),
        locked: p.lockedAt === null ? null : { at: iso(p.lockedAt), reason: p.lockedReason },
        kyc: p.kyc,
      },
      wallets,
      ledger: ledgerLines.map((l) => ({ ...l, at: iso(l.at) })),
      deposits: depositRows.slice(0, PAGE_LIMIT),
      withdrawals: withdrawalRows.slice(0, PAGE_LIMIT),
      bets: bets.content,
      sessions: sessionRows.map((s) => ({
        ...s,
        createdAt: iso(s.createdAt),
        lastSeenAt: iso(s.lastSeenAt),
      })),
      responsibleGaming: {
        current: yield* rg.get(userId),
        selfExclusions: exclusions.map((e) => ({
          period: e.period,
          kind: e.kind,
          startsAt: iso(e.startsAt),
          until: isoOrNull(e.until),
        })),
      },
      documents: { id: yield* kyc.document(userId, "ID"), bill: yield* kyc.document(userId, "BILL") },
      bonuses: yield* bonuses.mine(userId),
      loyalty: yield* loyalty.status(userId),
      notes: noteRows.map((n) => ({ ...n, at: iso(n.at) })),
      adjustments: adjustmentRows.map(adjustmentView),
    } satisfies PlayerPage
  })

  const fairness = Effect.fn("Players.roundFairness")(function* (userId: string, roundId: string) {
    if (!(yield* repo.playerExists(userId).pipe(Effect.orDie))) return yield* notFound()
    return yield* roundFairness(gamesRepo, integrations, userId, roundId).pipe(
      // Its own 404 speaks to the player ("not one of yours"); here an operator asked about a player.
      Effect.catchTag("RoundNotFound", () =>
        Effect.fail(new RoundNotFound({ message: "This player has no round with this id.", roundId })),
      ),
    )
  })

  const setLock = (actor: OperatorActor, userId: string, rawReason: string, lock: boolean) =>
    Effect.gen(function* () {
      const reason = yield* text(rawReason, "reason")
      return yield* repo
        .withTransaction(
          Effect.gen(function* () {
            const row = yield* repo.lockRow(userId)
            if (row === undefined) return yield* notFound()
            const live = yield* repo.liveSessions(userId)
            yield* repo.setLocked(userId, lock ? reason : null)
            // A locked account's sessions stop resolving anyway; ending them makes it final.
            if (lock) yield* sessions.revokeAllForUser(userId)
            const before = { locked: row.lockedAt !== null, reason: row.lockedReason }
            const after = { locked: lock, reason: lock ? reason : null }
            yield* record(actor, lock ? "players.lock" : "players.unlock", userId, userId, before, {
              ...after,
              ...(lock ? {} : { why: reason }),
            })
            return { id: userId, ...after, sessionsEnded: lock ? live : 0 }
          }),
        )
        .pipe(Effect.catchTag("SqlError", Effect.die))
    })

  const signOut = Effect.fn("Players.signOut")(function* (actor: OperatorActor, userId: string) {
    return yield* repo
      .withTransaction(
        Effect.gen(function* () {
          const row = yield* repo.lockRow(userId)
          if (row === undefined) return yield* notFound()
          const live = yield* repo.liveSessions(userId)
          yield* sessions.revokeAllForUser(userId)
          yield* record(
            actor,
            "players.sign-out",
            userId,
            userId,
            { liveSessions: live },
            { liveSessions: 0 },
          )
          return { id: userId, sessionsEnded: live }
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  })

  const addNote = Effect.fn("Players.addNote")(function* (
    actor: OperatorActor,
    userId: string,
    rawBody: string,
  ) {
    const body = yield* text(rawBody, "note")
    return yield* repo
      .withTransaction(
        Effect.gen(function* () {
          const row = yield* repo.lockRow(userId)
          if (row === undefined) return yield* notFound()
          const note = yield* repo.insertNote({
            userId,
            operatorId: actor.operatorId,
            operatorEmail: actor.email,
            body,
          })
          yield* record(actor, "players.note", userId, note.id, null, { id: note.id, body })
          return { ...note, at: iso(note.at) }
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  })

  /** Posts an adjustment (in the caller's transaction); a debit beyond the balance is refused. */
  const post = (row: AdjustmentRow, decider: OperatorActor | null) =>
    Effect.gen(function* () {
      const account = yield* ledger.playerAccount(row.playerId, row.currency)
      if (account === undefined)
        return yield* new BadInput({ message: `The player has no ${row.currency} wallet.` })
      const house = yield* ledger.systemAccountId("house", ADJUSTMENTS_HOUSE_CODE, row.currency)
      const amount = BigInt(row.amount)
      const posted = yield* ledger
        .post({
          kind: "backoffice.adjustment",
          idempotencyKey: `backoffice-adjustment:${row.id}`,
          entries: [
            { accountId: account.id, currency: row.currency, amount },
            { accountId: house, currency: row.currency, amount: -amount },
          ],
          metadata: { adjustmentId: row.id },
        })
        .pipe(
          Effect.catchTags({
            InsufficientFunds: () =>
              Effect.fail(
                new AdjustmentRefused({
                  message: "The player's balance is lower than this debit.",
                  reason: "insufficient-funds",
                }),
              ),
            LedgerConflict: (e) => Effect.die(e),
            InvalidPosting: (e) => Effect.die(e),
          }),
        )
      return yield* repo.markPosted({
        id: row.id,
        transactionId: posted.transactionId,
        operatorId: decider?.operatorId ?? null,
        operatorEmail: decider?.email ?? null,
      })
    })

  const adjust = Effect.fn("Players.adjust")(function* (
    actor: OperatorActor,
    userId: string,
    input: NewAdjustmentInput,
  ) {
    const reason = yield* text(input.reason, "reason")
    const amount = BigInt(input.amount)
    if (amount === 0n) return yield* new BadInput({ message: "The amount is 0." })
    const rate = yield* rates.get(input.currency)
    // No rate, no value: a second operator looks at it.
    const eurCents = rate === undefined ? null : eurCentsUp(amount, rate)
    const same = (row: AdjustmentRow) =>
      row.playerId === userId &&
      row.currency === input.currency &&
      BigInt(row.amount) === amount &&
      row.reason === reason
    const replayOf = (row: AdjustmentRow) =>
      same(row)
        ? Effect.succeed(adjustmentView(row))
        : Effect.fail(
            new AdjustmentRefused({
              message: "This idempotency key was used for another adjustment.",
              reason: "key-reused",
            }),
          )
    const known = yield* repo.adjustmentByKey(input.idempotencyKey).pipe(Effect.orDie)
    if (known !== undefined) return yield* replayOf(known)
    return yield* repo
      .withTransaction(
        Effect.gen(function* () {
          const player = yield* repo.lockRow(userId)
          if (player === undefined) return yield* notFound()
          if (!(yield* repo.currencyExists(input.currency)))
            return yield* new BadInput({ message: `Unknown currency ${input.currency}.` })
          const account = yield* ledger.playerAccount(userId, input.currency)
          if (account === undefined)
            return yield* new BadInput({ message: `The player has no ${input.currency} wallet.` })
          // Decided now for a pending one too (the approval checks again): a request that cannot post is no request.
          if (BigInt(account.balance) + amount < 0n)
            return yield* new AdjustmentRefused({
              message: "The player's balance is lower than this debit.",
              reason: "insufficient-funds",
            })
          // Read under the player's row lock: two adjustments of one player are counted one after the other.
          const soloToday = yield* repo.soloEurCents({
            userId,
            operatorId: actor.operatorId,
            hours: ADJUSTMENT_WINDOW_HOURS,
          })
          const needsApproval = eurCents === null || soloToday + eurCents > threshold
          const inserted = yield* repo.insertAdjustment({
            idempotencyKey: input.idempotencyKey,
            userId,
            currency: input.currency,
            amount,
            reason,
            needsApproval,
            eurCents,
            operatorId: actor.operatorId,
            operatorEmail: actor.email,
          })
          // Another request with this key committed between the look-up and the insert.
          if (inserted === undefined) {
            const winner = yield* repo.adjustmentByKey(input.idempotencyKey)
            if (winner === undefined)
              return yield* Effect.die(new Error("adjustment key conflicted but is absent"))
            return yield* replayOf(winner)
          }
          const row = needsApproval ? inserted : yield* post(inserted, null)
          yield* record(
            actor,
            needsApproval ? "players.adjust.request" : "players.adjust.post",
            userId,
            row.id,
            { balance: account.balance, currency: input.currency },
            {
              ...adjustmentAudit(row),
              balanceAfter: needsApproval ? account.balance : (BigInt(account.balance) + amount).toString(),
            },
          )
          return adjustmentView(row)
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  })

  const adjustments = (status: string | undefined) =>
    repo.adjustments({ userId: null, status: status ?? null, limit: 200 }).pipe(
      Effect.map((rows) => rows.map(adjustmentView)),
      Effect.orDie,
    )

  const decide = (actor: OperatorActor, id: string, decision: { readonly reject: string } | null) =>
    repo
      .withTransaction(
        Effect.gen(function* () {
          const row = yield* repo.lockAdjustment(id)
          if (row === undefined) return yield* adjustmentNotFound()
          if (row.status !== "pending")
            return yield* new AdjustmentRefused({
              message: `This adjustment is ${row.status} already.`,
              reason: "decided",
            })
          if (row.requestedById === actor.operatorId)
            return yield* new AdjustmentRefused({
              message: "Another operator must decide an adjustment you requested.",
              reason: "own-request",
            })
          // A second person is one who held the role before the request, not one made for it.
          if (decision === null && !(yield* repo.heldRoleBefore(actor.operatorId, row.id)))
            return yield* new AdjustmentRefused({
              message:
                "Only an operator who held their role before this adjustment was requested may approve it.",
              reason: "approver-too-recent",
            })
          const after =
            decision === null
              ? yield* post(row, actor).pipe(Effect.catchTag("BadInput", (e) => Effect.die(e)))
              : yield* repo.markRejected({
                  id,
                  operatorId: actor.operatorId,
                  operatorEmail: actor.email,
                  reason: decision.reject,
                })
          yield* record(
            actor,
            decision === null ? "players.adjust.approve" : "players.adjust.reject",
            row.playerId,
            row.id,
            adjustmentAudit(row),
            { ...adjustmentAudit(after), decisionReason: after.decisionReason },
          )
          return adjustmentView(after)
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))

  const approve = Effect.fn("Players.approve")(function* (actor: OperatorActor, id: string) {
    return yield* decide(actor, id, null)
  })

  const reject = Effect.fn("Players.reject")(function* (actor: OperatorActor, id: string, rawReason: string) {
    const reason = yield* text(rawReason, "reason")
    return yield* decide(actor, id, { reject: reason })
  })

  return {
    search,
    page,
    roundFairness: fairness,
    lock: (actor, userId, reason) => setLock(actor, userId, reason, true),
    unlock: (actor, userId, reason) => setLock(actor, userId, reason, false),
    signOut,
    addNote,
    adjust,
    adjustments,
    approve,
    reject,
  } satisfies PlayersShape
})

export class Players extends Context.Service<Players, PlayersShape>()("casino/server/backoffice/Players") {
  static readonly layer = Layer.effect(Players, make).pipe(Layer.provide(PlayersRepo.layer))
}
