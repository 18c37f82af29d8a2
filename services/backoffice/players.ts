/**
 * Schemas of the back office's players group: the search, a player's page, and the actions on a
 * player (lock, sign-out, notes, balance adjustments). Browser-safe. Amounts are strings of integer
 * minor units, dates ISO strings. The page reuses the player API's own shapes where it shows the
 * same thing (a bet is the Bets tab's `BetRecord`, whose `roundId` is what the fairness proof is
 * asked by; documents, bonuses, loyalty, responsible gaming, deposits and withdrawals likewise).
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { MyPromotions } from "../bonus-service.ts"
import { Withdrawal } from "../cashout-service.ts"
import { BetRecord, RoundFairnessQuery } from "../game-service.ts"
import { LoyaltyLevel } from "../loyalty-service.ts"
import { ResponsibleGaming, VerificationDocument } from "../profile-service.ts"
import { FiatPayment } from "../wallet-service.ts"
import { StoredText } from "./text.ts"

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const Uuid = Schema.String.check(Schema.isPattern(uuidPattern, { message: "a uuid" }))

/** Text an operator types: trimmed by the server, 1 to `max` characters. */
const Text = (max: number) => StoredText(max, 1)

export const PlayerSearchQuery = Schema.Struct({
  /** An e-mail prefix, part of a name, a player id (exact) or part of a phone number. */
  q: Text(100),
})

/** The KYC state from the player's documents: both approved, one waiting, one refused, or none. */
export const KycState = Schema.Literals(["verified", "pending", "rejected", "none"])

export const PlayerSummary = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  name: Schema.String,
  country: Schema.NullOr(Schema.String),
  locked: Schema.Boolean,
  registeredAt: Schema.String,
  kyc: KycState,
})
export type PlayerSummary = typeof PlayerSummary.Type

/** At most 50, newest registration first. */
export const PlayerSearchResult = Schema.Struct({ players: Schema.Array(PlayerSummary) })

export const PlayerParams = Schema.Struct({ id: Uuid })

/**
 * One of the player's rounds: `round` is the provider's round id (`BetRecord.roundId`), with the
 * rule the player's own proof asks it by. The answer is that proof's schema, `RoundFairness`.
 */
export const PlayerRoundParams = Schema.Struct({ id: Uuid, round: RoundFairnessQuery.fields.round })

export const PlayerProfile = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  fullName: Schema.String,
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  nickName: Schema.NullOr(Schema.String),
  /** "+<dialing code> <number>" as the player typed it. */
  phone: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String),
  city: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  zipCode: Schema.NullOr(Schema.String),
  dateOfBirth: Schema.NullOr(Schema.String),
  gender: Schema.NullOr(Schema.String),
  language: Schema.String,
  /** The registration currency. */
  currency: Schema.String,
  confirmed: Schema.Boolean,
  registeredAt: Schema.String,
  /** Set while the player is locked (sign-in answers 423). */
  locked: Schema.NullOr(Schema.Struct({ at: Schema.String, reason: Schema.NullOr(Schema.String) })),
  kyc: KycState,
})
export type PlayerProfile = typeof PlayerProfile.Type

export const PlayerWallet = Schema.Struct({
  currency: Schema.String,
  isDefault: Schema.Boolean,
  /** Withdrawable money. */
  cash: Schema.String,
  /** Bonus money (not withdrawable until wagered). */
  bonus: Schema.String,
  /** Free-spin winnings held until a deposit unlocks them. */
  freeSpins: Schema.String,
})

export const LedgerLine = Schema.Struct({
  id: Schema.String,
  transactionId: Schema.String,
  /** The posting's kind, e.g. "deposit", "backoffice.adjustment". */
  kind: Schema.String,
  /** Which of the player's accounts: player_cash, player_bonus, player_free_spins. */
  account: Schema.String,
  currency: Schema.String,
  /** Signed: + raised the balance. */
  amount: Schema.String,
  at: Schema.String,
})

export const PlayerSessionRow = Schema.Struct({
  id: Schema.String,
  ip: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String),
  userAgent: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  lastSeenAt: Schema.String,
  active: Schema.Boolean,
})

export const SelfExclusionRecord = Schema.Struct({
  period: Schema.String,
  kind: Schema.String,
  startsAt: Schema.String,
  until: Schema.NullOr(Schema.String),
})

export const PlayerNote = Schema.Struct({
  id: Schema.String,
  body: Schema.String,
  operatorEmail: Schema.String,
  at: Schema.String,
})
export type PlayerNote = typeof PlayerNote.Type

export const AdjustmentStatus = Schema.Literals(["pending", "posted", "rejected"])

export const Adjustment = Schema.Struct({
  id: Schema.String,
  playerId: Schema.String,
  playerEmail: Schema.String,
  currency: Schema.String,
  amount: Schema.String,
  reason: Schema.String,
  status: AdjustmentStatus,
  /**
   * A second operator decides: with it, the requester's lone adjustments to this player over 24 hours
   * (EUR cents at each one's rate) pass BACKOFFICE_ADJUST_APPROVAL_MINOR, or its currency has no rate.
   */
  needsApproval: Schema.Boolean,
  requestedBy: Schema.String,
  requestedAt: Schema.String,
  decidedBy: Schema.NullOr(Schema.String),
  decidedAt: Schema.NullOr(Schema.String),
  decisionReason: Schema.NullOr(Schema.String),
  /** The ledger transaction, once posted. */
  transactionId: Schema.NullOr(Schema.String),
})
export type Adjustment = typeof Adjustment.Type

/** A player's page in one answer. Lists are newest first; each holds at most 50. */
export const PlayerPage = Schema.Struct({
  profile: PlayerProfile,
  wallets: Schema.Array(PlayerWallet),
  ledger: Schema.Array(LedgerLine),
  deposits: Schema.Array(FiatPayment),
  withdrawals: Schema.Array(Withdrawal),
  /** The last 50 real-money rounds; `roundId` names the round's fairness proof. */
  bets: Schema.Array(BetRecord),
  sessions: Schema.Array(PlayerSessionRow),
  responsibleGaming: Schema.Struct({
    current: ResponsibleGaming,
    selfExclusions: Schema.Array(SelfExclusionRecord),
  }),
  documents: Schema.Struct({ id: VerificationDocument, bill: VerificationDocument }),
  bonuses: MyPromotions,
  loyalty: LoyaltyLevel,
  notes: Schema.Array(PlayerNote),
  adjustments: Schema.Array(Adjustment),
})
export type PlayerPage = typeof PlayerPage.Type

export const LockPayload = Schema.Struct({ reason: Text(500) })

export const PlayerLockState = Schema.Struct({
  id: Schema.String,
  locked: Schema.Boolean,
  reason: Schema.NullOr(Schema.String),
  /** Sessions this call ended. */
  sessionsEnded: Schema.Int,
})

export const SignedOut = Schema.Struct({ id: Schema.String, sessionsEnded: Schema.Int })

export const NotePayload = Schema.Struct({ body: Text(2000) })

/** Answered 201 Created. */
export const NoteCreated = PlayerNote.pipe(HttpApiSchema.status(201))

export const AdjustmentPayload = Schema.Struct({
  currency: Schema.String.check(Schema.isPattern(/^[A-Z0-9]{2,10}$/, { message: "a currency code" })),
  /** Signed integer minor units, not 0, at most 30 digits. */
  amount: Schema.String.check(
    Schema.isPattern(/^-?[1-9][0-9]{0,29}$/, { message: "a non-zero integer of minor units" }),
  ),
  reason: Text(500),
  /** Chosen by the client per adjustment; a retry with the same key posts nothing twice. */
  idempotencyKey: Schema.String.check(
    Schema.isPattern(/^[A-Za-z0-9_.:-]{8,100}$/, { message: "8 to 100 characters of A-Z a-z 0-9 _ . : -" }),
  ),
})

export const AdjustmentParams = Schema.Struct({ adjustmentId: Uuid })

export const AdjustmentQuery = Schema.Struct({ status: Schema.optional(AdjustmentStatus) })

export const Adjustments = Schema.Struct({ adjustments: Schema.Array(Adjustment) })

export const RejectPayload = Schema.Struct({ reason: Text(500) })
