/**
 * The back office's figures (docs/reports.md), read from the ledger and the rows the ledger's
 * postings commit with. All money is bigint minor units, per currency (never converted). Days are
 * UTC dates; windows are half-open [from, to).
 *
 * GGR per day × game × currency, from the ledger's game postings on the players' side:
 *   bets = what game.bet took − what game.rollback gave back (a refunded stake was never a bet);
 *   wins = what game.win / game.jackpot paid; GGR = bets − wins
 * which is, posting by posting, exactly what the house's game account and the jackpot pools gained.
 * Bonus cost per day × currency = what players' accounts gained, net, through bonus.* and loyalty.*
 * postings (grants and cashback out, forfeits and expiries back): what the house's bonus accounts
 * lost. It sits on rows without a game; NGR = GGR − bonus cost.
 */
import { Context, Effect, Layer } from "effect"
import type { SqlError } from "effect/sql"
import { ReportRangeRefused } from "../../services/backoffice/errors.ts"
import { ggrCsv as toCsv } from "./csv.ts"
import { type DayAmountRow, type DayCountRow, ReportsRepo, type Window } from "./ReportsRepo.ts"

export interface GgrQuery {
  readonly from: Date
  readonly to: Date
  /** Only this currency; all when absent. */
  readonly currency?: string | undefined
}

export interface GgrRow {
  /** UTC date, YYYY-MM-DD. */
  readonly day: string
  /** null on a row of bonus cost (no game), or for postings whose round is unknown. */
  readonly gameId: string | null
  /** The game's studio brand (the contract's `Game.provider`). */
  readonly provider: string | null
  /** The integration whose wallet calls settled the rounds. */
  readonly integration: string | null
  readonly currency: string
  /** Stakes net of refunded stakes. */
  readonly bets: bigint
  /** Stakes given back by rollbacks (already taken off `bets`). */
  readonly refunds: bigint
  readonly wins: bigint
  readonly ggr: bigint
  readonly bonusCost: bigint
  readonly ngr: bigint
  /** Rounds opened that day and not wholly rolled back. */
  readonly rounds: number
}

export interface CurrencyTotal {
  readonly currency: string
  readonly amount: bigint
  readonly count: number
}

export interface GameTotals {
  readonly currency: string
  readonly bets: bigint
  readonly wins: bigint
  readonly ggr: bigint
  readonly bonusCost: bigint
  readonly ngr: bigint
}

export interface DashboardPeriod {
  readonly from: Date
  readonly to: Date
  readonly deposits: ReadonlyArray<CurrencyTotal>
  readonly withdrawals: ReadonlyArray<CurrencyTotal>
  readonly games: ReadonlyArray<GameTotals>
  readonly newPlayers: number
  readonly firstDeposits: number
}

export interface DailyPoint {
  readonly day: string
  readonly currency: string
  readonly ggr: bigint
  readonly deposits: bigint
}

export interface Dashboard {
  readonly asOf: Date
  /** The UTC day of `asOf`. */
  readonly today: DashboardPeriod
  /** Today and the 6 UTC days before it. */
  readonly last7Days: DashboardPeriod
  /** Today and the 29 UTC days before it. */
  readonly last30Days: DashboardPeriod
  /** Every day of the 30 × every currency seen in them, zero-filled, by day then currency. */
  readonly daily: ReadonlyArray<DailyPoint>
}

/** A window that is empty, reversed or longer than a year: the back office's wire error (400). */
export { ReportRangeRefused }

export interface ReportsShape {
  readonly ggr: (
    query: GgrQuery,
  ) => Effect.Effect<ReadonlyArray<GgrRow>, ReportRangeRefused | SqlError.SqlError>
  /** RFC 4180 CSV of GGR rows, amounts in major units with the currency's decimals (csv.ts). */
  readonly ggrCsv: (rows: ReadonlyArray<GgrRow>) => Effect.Effect<string, SqlError.SqlError>
  readonly dashboard: (now: Date) => Effect.Effect<Dashboard, SqlError.SqlError>
}

const DAY_MS = 86_400_000
/** A year and a leap day: a report over more would scan the whole ledger for one screen. */
const MAX_RANGE_MS = 366 * DAY_MS

const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
const dayString = (at: Date) => at.toISOString().slice(0, 10)
const sum = <A>(items: ReadonlyArray<A>, f: (a: A) => bigint) => items.reduce((s, a) => s + f(a), 0n)
const byDayThenCurrency = (a: { day: string; currency: string }, b: { day: string; currency: string }) =>
  a.day < b.day ? -1 : a.day > b.day ? 1 : a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0

/** Rows sorted by day, currency, then game (rows without a game last). */
const compareRows = (a: GgrRow, b: GgrRow) =>
  byDayThenCurrency(a, b) ||
  (a.gameId === b.gameId
    ? (a.integration ?? "").localeCompare(b.integration ?? "")
    : a.gameId === null
      ? 1
      : b.gameId === null
        ? -1
        : a.gameId.localeCompare(b.gameId))

const make = Effect.gen(function* () {
  const repo = yield* ReportsRepo

  /** The GGR rows of a window, outside any snapshot (the callers open one). */
  const ggrRowsOf = (w: Window) =>
    Effect.gen(function* () {
      const [moves, rounds, bonuses] = yield* Effect.all([
        repo.gameMoves(w),
        repo.roundCounts(w),
        repo.bonusCosts(w),
      ])
      const rows = new Map<string, { -readonly [K in keyof GgrRow]: GgrRow[K] }>()
      const rowOf = (k: {
        day: string
        gameId: string | null
        provider: string | null
        integration: string | null
        currency: string
      }) => {
        const key = JSON.stringify([k.day, k.gameId, k.integration, k.currency])
        let row = rows.get(key)
        if (row === undefined) {
          row = {
            day: k.day,
            gameId: k.gameId,
            provider: k.provider,
            integration: k.integration,
            currency: k.currency,
            bets: 0n,
            refunds: 0n,
            wins: 0n,
            ggr: 0n,
            bonusCost: 0n,
            ngr: 0n,
            rounds: 0,
          }
          rows.set(key, row)
        }
        return row
      }
      for (const m of moves) {
        const row = rowOf(m)
        row.refunds += BigInt(m.refunds)
        row.bets += BigInt(m.stakes) - BigInt(m.refunds)
        row.wins += BigInt(m.wins)
      }
      for (const r of rounds) rowOf(r).rounds += Number(r.rounds)
      for (const b of bonuses)
        rowOf({
          day: b.day,
          gameId: null,
          provider: null,
          integration: null,
          currency: b.currency,
        }).bonusCost += BigInt(b.cost)
      for (const row of rows.values()) {
        row.ggr = row.bets - row.wins
        row.ngr = row.ggr - row.bonusCost
      }
      return [...rows.values()].sort(compareRows) as ReadonlyArray<GgrRow>
    })

  const ggr = Effect.fn("Reports.ggr")(function* (query: GgrQuery) {
    const span = query.to.getTime() - query.from.getTime()
    if (!(span > 0) || span > MAX_RANGE_MS)
      return yield* new ReportRangeRefused({
        message: "A report covers more than nothing and at most 366 days: from must be before to.",
      })
    return yield* repo.snapshot(ggrRowsOf({ from: query.from, to: query.to, currency: query.currency }))
  })

  const ggrCsv = Effect.fn("Reports.ggrCsv")(function* (rows: ReadonlyArray<GgrRow>) {
    const units = yield* repo.currencyUnits
    const subunits = new Map(units.map((u) => [u.code, BigInt(u.subunitsToUnit)] as const))
    return yield* Effect.try({ try: () => toCsv(rows, subunits), catch: (e) => e }).pipe(Effect.orDie)
  })

  const dashboard = Effect.fn("Reports.dashboard")(function* (now: Date) {
    const today = startOfUtcDay(now)
    const to = new Date(today.getTime() + DAY_MS)
    const startOf = (days: number) => new Date(today.getTime() - (days - 1) * DAY_MS)
    const window: Window = { from: startOf(30), to }
    const read = Effect.all({
      games: ggrRowsOf(window),
      deposits: repo.deposits(window),
      withdrawals: repo.withdrawalsPaid(window),
      registrations: repo.registrations(window),
      firstDeposits: repo.firstDeposits(window),
    })
    const data = yield* repo.snapshot(read)

    const period = (days: number): DashboardPeriod => {
      const from = startOf(days)
      const first = dayString(from)
      const inside = <A extends { day: string }>(rows: ReadonlyArray<A>) => rows.filter((r) => r.day >= first)
      const totals = (rows: ReadonlyArray<DayAmountRow>): ReadonlyArray<CurrencyTotal> => {
        const by = new Map<string, { amount: bigint; count: number }>()
        for (const r of inside(rows)) {
          const t = by.get(r.currency) ?? { amount: 0n, count: 0 }
          by.set(r.currency, { amount: t.amount + BigInt(r.total), count: t.count + Number(r.count) })
        }
        return [...by].sort(([a], [b]) => a.localeCompare(b)).map(([currency, t]) => ({ currency, ...t }))
      }
      const count = (rows: ReadonlyArray<DayCountRow>) =>
        inside(rows).reduce((n, r) => n + Number(r.count), 0)
      const games = inside(data.games)
      const currencies = [...new Set(games.map((g) => g.currency))].sort()
      return {
        from,
        to,
        deposits: totals(data.deposits),
        withdrawals: totals(data.withdrawals),
        games: currencies.map((currency) => {
          const of = games.filter((g) => g.currency === currency)
          return {
            currency,
            bets: sum(of, (g) => g.bets),
            wins: sum(of, (g) => g.wins),
            ggr: sum(of, (g) => g.ggr),
            bonusCost: sum(of, (g) => g.bonusCost),
            ngr: sum(of, (g) => g.ngr),
          }
        }),
        newPlayers: count(data.registrations),
        firstDeposits: count(data.firstDeposits),
      }
    }

    const currencies = [...new Set([...data.games, ...data.deposits].map((r) => r.currency))].sort()
    const daily: Array<DailyPoint> = []
    for (let i = 0; i < 30; i++) {
      const day = dayString(new Date(window.from.getTime() + i * DAY_MS))
      for (const currency of currencies)
        daily.push({
          day,
          currency,
          ggr: sum(
            data.games.filter((g) => g.day === day && g.currency === currency),
            (g) => g.ggr,
          ),
          deposits: sum(
            data.deposits.filter((d) => d.day === day && d.currency === currency),
            (d) => BigInt(d.total),
          ),
        })
    }
    return {
      asOf: now,
      today: period(1),
      last7Days: period(7),
      last30Days: period(30),
      daily,
    } satisfies Dashboard
  })

  return Reports.of({ ggr, ggrCsv, dashboard })
})

export class Reports extends Context.Service<Reports, ReportsShape>()("casino/server/Reports") {
  static readonly layer = Layer.effect(Reports, make).pipe(Layer.provide(ReportsRepo.layer))
}
