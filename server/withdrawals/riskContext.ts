/**
 * What a payments officer reads beside a withdrawal before deciding it: money in against money out
 * per currency, the active bonus and its wagering, where the player's recent sessions came from,
 * how old the account is and its verification. Facts only: the decision stays the officer's.
 */
import { Effect } from "effect"
import type { DocumentStatus } from "../../services/profile-service.ts"
import { Kyc } from "../kyc/Kyc.ts"
import { WithdrawalsRepo } from "./WithdrawalsRepo.ts"

/** How far back the sessions' countries are read. */
export const RISK_SESSION_DAYS = 30

export interface CurrencyTotals {
  readonly currency: string
  /** Completed fiat deposits and credited crypto deposits, in minor units. */
  readonly deposited: bigint
  readonly deposits: number
  /** Paid withdrawals only (pending, rejected and failed ones never left). */
  readonly withdrawn: bigint
  readonly withdrawals: number
}

export interface ActiveBonus {
  readonly id: string
  readonly name: string
  readonly currency: string
  readonly amount: bigint
  /** What is left on the bonus account now. */
  readonly balance: bigint
  readonly wageringRequired: bigint
  readonly wagered: bigint
  readonly expiresAt: Date
}

export interface SessionCountry {
  /** ISO code recorded when the session started; null for sessions from before countries were kept. */
  readonly country: string | null
  readonly sessions: number
  readonly lastSeenAt: Date
}

export interface RiskContext {
  readonly userId: string
  readonly email: string
  readonly registeredAt: Date
  readonly accountAgeDays: number
  readonly kyc: { readonly id: DocumentStatus; readonly bill: DocumentStatus; readonly verified: boolean }
  readonly totals: ReadonlyArray<CurrencyTotals>
  readonly bonus: {
    readonly active: boolean
    /** An active bonus still has wagering to do: its money is not yet the player's. */
    readonly wageringOpen: boolean
    readonly bonuses: ReadonlyArray<ActiveBonus>
  }
  /** Distinct countries of the sessions seen in the last RISK_SESSION_DAYS days, latest first. */
  readonly countries: ReadonlyArray<SessionCountry>
}

/** The same, JSON-ready: amounts as decimal strings of minor units, times as ISO strings. */
export interface RiskContextView {
  readonly userId: string
  readonly email: string
  readonly registeredAt: string
  readonly accountAgeDays: number
  readonly kyc: RiskContext["kyc"]
  readonly totals: ReadonlyArray<{
    readonly currency: string
    readonly deposited: string
    readonly deposits: number
    readonly withdrawn: string
    readonly withdrawals: number
  }>
  readonly bonus: {
    readonly active: boolean
    readonly wageringOpen: boolean
    readonly bonuses: ReadonlyArray<{
      readonly id: string
      readonly name: string
      readonly currency: string
      readonly amount: string
      readonly balance: string
      readonly wageringRequired: string
      readonly wagered: string
      readonly expiresAt: string
    }>
  }
  readonly countries: ReadonlyArray<{
    readonly country: string | null
    readonly sessions: number
    readonly lastSeenAt: string
  }>
}

export const riskContextView = (c: RiskContext): RiskContextView => ({
  userId: c.userId,
  email: c.email,
  registeredAt: c.registeredAt.toISOString(),
  accountAgeDays: c.accountAgeDays,
  kyc: c.kyc,
  totals: c.totals.map((t) => ({
    currency: t.currency,
    deposited: t.deposited.toString(),
    deposits: t.deposits,
    withdrawn: t.withdrawn.toString(),
    withdrawals: t.withdrawals,
  })),
  bonus: {
    active: c.bonus.active,
    wageringOpen: c.bonus.wageringOpen,
    bonuses: c.bonus.bonuses.map((b) => ({
      id: b.id,
      name: b.name,
      currency: b.currency,
      amount: b.amount.toString(),
      balance: b.balance.toString(),
      wageringRequired: b.wageringRequired.toString(),
      wagered: b.wagered.toString(),
      expiresAt: b.expiresAt.toISOString(),
    })),
  },
  countries: c.countries.map((s) => ({
    country: s.country,
    sessions: s.sessions,
    lastSeenAt: s.lastSeenAt.toISOString(),
  })),
})

export const makeRiskContext = Effect.gen(function* () {
  const repo = yield* WithdrawalsRepo
  const kyc = yield* Kyc

  const riskContext = Effect.fn("Withdrawals.riskContext")(function* (userId: string) {
    const player = yield* repo.playerFacts(userId).pipe(Effect.orDie)
    if (player === undefined) return undefined
    const [totals, bonuses, countries] = yield* Effect.all([
      repo.moneyTotals(userId),
      repo.activeBonuses(userId),
      repo.sessionCountries(userId, RISK_SESSION_DAYS),
    ]).pipe(Effect.orDie)
    const id = yield* kyc.document(userId, "ID")
    const bill = yield* kyc.document(userId, "BILL")
    const verified = yield* kyc.verified(userId)
    const active = bonuses.map(
      (b): ActiveBonus => ({
        id: b.id,
        name: b.name,
        currency: b.currency,
        amount: BigInt(b.amount),
        balance: BigInt(b.balance),
        wageringRequired: BigInt(b.wageringRequired),
        wagered: BigInt(b.wagered),
        expiresAt: b.expiresAt,
      }),
    )
    return {
      userId,
      email: player.email,
      registeredAt: player.registeredAt,
      accountAgeDays: player.ageDays,
      // "verified" is the request check's own answer (both documents approved).
      kyc: { id: id.status, bill: bill.status, verified: verified.id && verified.bill },
      totals: totals.map(
        (t): CurrencyTotals => ({
          currency: t.currency,
          deposited: BigInt(t.deposited),
          deposits: t.deposits,
          withdrawn: BigInt(t.withdrawn),
          withdrawals: t.withdrawals,
        }),
      ),
      bonus: {
        active: active.length > 0,
        wageringOpen: active.some((b) => b.wagered < b.wageringRequired),
        bonuses: active,
      },
      countries,
    } satisfies RiskContext
  })

  return { riskContext }
})
