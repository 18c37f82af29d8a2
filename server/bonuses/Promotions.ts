/**
 * Operating promotions (docs/bonuses.md, "Operating promotions"): list, show, create, update,
 * activate and deactivate the rows `Bonuses` reads on every call (deposit bonuses with their bands,
 * free spins, coupon codes). What `npm run operator -- promotions …` calls; SQL in
 * ./PromotionsRepo.ts. Every change writes its `OperatorAudit` row (actor, action, the promotion,
 * the fields before and after) in the change's own transaction.
 *
 * Input is what the operator typed (text), checked here with a refusal that says what is wrong:
 * - EUR amounts like "8000" or "0.20", stored as EUR cents (exact: parsed as decimal text, never a float);
 * - bands "UPTO_EUR:PERCENT[:SPINS]", the last "above:PERCENT[:SPINS]" (the open band): bounds
 *   increasing, exactly one open band and it is last, percent 0 … 1000, spins 0 … 10000;
 * - codes stored upper-case (`^[A-Z0-9_-]{3,32}$`), one promotion per code;
 * - wagering 0 … 100 ×, valid days 1 … 365, max bet above 0, the free-spin game one of `games`,
 *   currencies of the list, the end after the start.
 * Changing a promotion changes what it grants from then on: bonuses already granted keep their terms
 * (each `player_bonuses` row holds its own).
 */
import { Context, Effect, Layer, Schema } from "effect"
import type { SqlError } from "effect/sql"
import { type AuditActor, actorFields, OperatorAudit } from "../operator/Audit.ts"
import {
  type PromotionBandSpec,
  type PromotionKind,
  type PromotionSpec,
  PromotionsRepo,
  type StoredPromotion,
} from "./PromotionsRepo.ts"

export const promotionRefusals = [
  "UnknownPromotion",
  "DuplicateId",
  "DuplicateCode",
  "InvalidBands",
  "InvalidValue",
  "UnknownGame",
  "UnknownCurrency",
  "InvalidDates",
  "NothingToChange",
] as const

/** Why an operator's promotion command was refused (the CLI's exit 1). */
export class PromotionChangeRefused extends Schema.TaggedError<PromotionChangeRefused>()(
  "PromotionChangeRefused",
  { reason: Schema.Literals(promotionRefusals), message: Schema.String },
) {}

type Reason = PromotionChangeRefused["reason"]

/**
 * What an update may change, as typed: `undefined` leaves a field as it is, `null` clears a field
 * that may be empty (no code, any deposit, every currency, no start or end, no limit, no free spins).
 * `bands`, when given, replaces them all.
 */
export interface PromotionChanges {
  readonly name?: string | undefined
  readonly description?: string | undefined
  readonly code?: string | null | undefined
  readonly depositNumber?: string | null | undefined
  readonly bands?: ReadonlyArray<string> | undefined
  readonly maxBonusEur?: string | undefined
  readonly wagering?: string | undefined
  readonly maxBetEur?: string | undefined
  readonly validDays?: string | undefined
  readonly freeSpinGame?: string | null | undefined
  readonly freeSpinBetEur?: string | null | undefined
  /** A free-spins promotion's unlock: the smallest deposit in EUR (null: any), the extra percent. */
  readonly unlockDepositEur?: string | null | undefined
  readonly extraBonusPercent?: string | undefined
  /** "EUR,USD"; null: every currency. */
  readonly currencies?: string | null | undefined
  /** ISO 8601: a date (midnight UTC) or a date and time with its zone. */
  readonly startsAt?: string | null | undefined
  readonly endsAt?: string | null | undefined
  readonly maxUses?: string | null | undefined
  readonly maxUsesPerPlayer?: string | undefined
}

/** A new promotion: its id and kind, and the changes from the defaults (some are required). */
export interface NewPromotion extends PromotionChanges {
  readonly id: string
  readonly kind: string
}

/** A promotion as the operator reads it: EUR amounts as "8000.00", dates ISO 8601. */
export interface PromotionView {
  readonly id: string
  readonly kind: PromotionKind
  readonly name: string
  readonly description: string
  readonly code: string | null
  readonly depositNumber: number | null
  /** `upToEur` null: the open band (above the others). */
  readonly bands: ReadonlyArray<{
    readonly upToEur: string | null
    readonly percent: number
    readonly freeSpins: number
  }>
  readonly maxBonusEur: string
  readonly wageringMultiple: number
  readonly maxBetEur: string
  readonly validDays: number
  readonly freeSpinGame: string | null
  readonly freeSpinBetEur: string | null
  readonly unlockDepositEur: string | null
  readonly extraBonusPercent: number
  readonly currencies: ReadonlyArray<string> | null
  readonly startsAt: string | null
  readonly endsAt: string | null
  /** Bonuses granted from it so far. */
  readonly uses: number
  readonly maxUses: number | null
  readonly maxUsesPerPlayer: number
  readonly active: boolean
  readonly createdAt: string
}

// ── typed text → values (pure) ──────────────────────────────────────────────────────────────────

/** "8000", "0.20", "16.5" → EUR cents (8000 EUR → 800000n); anything else (a sign, 3 decimals, 1e3) undefined. */
export const parseEurCents = (text: string): bigint | undefined => {
  const match = /^(\d{1,16})(?:\.(\d{1,2}))?$/.exec(text.trim())
  if (match === null) return undefined
  const [, whole = "0", fraction = ""] = match
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0"))
}

/** EUR cents as the operator types them back: 800000n → "8000.00", 20n → "0.20". */
export const eurText = (cents: bigint): string =>
  `${(cents / 100n).toString()}.${(cents % 100n).toString().padStart(2, "0")}`

/** A band as typed: "16:50:100", "above:200:150" (spins may be left out: 0). */
export const bandText = (band: PromotionBandSpec): string =>
  `${band.upToEurCents === null ? "above" : eurText(band.upToEurCents)}:${band.percent}:${band.freeSpins}`

class Refusal {
  readonly reason: Reason
  readonly message: string
  constructor(reason: Reason, message: string) {
    this.reason = reason
    this.message = message
  }
}

const refuse = (reason: Reason, message: string): never => {
  throw new Refusal(reason, message)
}

const wholeNumber = (text: string, option: string, min: number, max: number): number => {
  const trimmed = text.trim()
  const value = /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : Number.NaN
  if (!(value >= min && value <= max))
    refuse("InvalidValue", `${option} must be a whole number ${min} … ${max} (got "${text}")`)
  return value
}

const eurAmount = (text: string, option: string, positive: boolean): bigint => {
  const cents = parseEurCents(text)
  if (cents === undefined || (positive && cents <= 0n))
    refuse(
      "InvalidValue",
      `${option} must be an amount in EUR${positive ? " above 0" : ""}, at most 2 decimals, e.g. 5 or 0.20 (got "${text}")`,
    )
  return cents as bigint
}

/**
 * The bands as typed, checked: at least one; each bound an EUR amount above 0 or "above"; bounds
 * increasing; exactly one open band ("above"), the last; percent 0 … 1000; spins 0 … 10000.
 */
export const parseBands = (texts: ReadonlyArray<string>): ReadonlyArray<PromotionBandSpec> => {
  const bad = (message: string) => refuse("InvalidBands", `bands: ${message}`)
  if (texts.length === 0)
    bad("give at least one --band UPTO_EUR:PERCENT:SPINS (the last: above:PERCENT:SPINS)")
  const bands = texts.map((text): PromotionBandSpec => {
    const parts = text.trim().split(":")
    if (parts.length < 2 || parts.length > 3)
      bad(`"${text}" is not UPTO_EUR:PERCENT:SPINS (e.g. 16:50:100 or above:200:150)`)
    const [bound = "", percent = "", spins = "0"] = parts
    let upToEurCents: bigint | null = null
    if (bound.trim().toLowerCase() !== "above") {
      const cents = parseEurCents(bound)
      if (cents === undefined || cents <= 0n)
        bad(`"${text}": the bound must be an amount in EUR above 0 (e.g. 16 or 50.50) or "above"`)
      upToEurCents = cents ?? null
    }
    const p = /^\d{1,4}$/.test(percent.trim()) ? Number(percent.trim()) : Number.NaN
    if (!(p >= 0 && p <= 1000)) bad(`"${text}": the percent must be a whole number 0 … 1000`)
    const s = /^\d{1,5}$/.test(spins.trim()) ? Number(spins.trim()) : Number.NaN
    if (!(s >= 0 && s <= 10_000)) bad(`"${text}": the free spins must be a whole number 0 … 10000`)
    return { upToEurCents, percent: p, freeSpins: s }
  })
  const open = bands.filter((b) => b.upToEurCents === null).length
  if (open !== 1 || bands[bands.length - 1]?.upToEurCents !== null)
    bad(`exactly one open band ("above:PERCENT:SPINS"), the last (got ${texts.join(" ")})`)
  for (let i = 1; i < bands.length - 1; i++) {
    const previous = bands[i - 1]?.upToEurCents ?? null
    const bound = bands[i]?.upToEurCents ?? null
    if (previous !== null && bound !== null && bound <= previous)
      bad(`the bounds must increase (${eurText(bound)} EUR comes after ${eurText(previous)} EUR)`)
  }
  return bands
}

const dateOf = (text: string, option: string): Date => {
  const trimmed = text.trim()
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(trimmed)
  const withZone = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(trimmed)
  const at = dateOnly || withZone ? new Date(dateOnly ? `${trimmed}T00:00:00Z` : trimmed) : undefined
  if (at === undefined || Number.isNaN(at.getTime()))
    refuse(
      "InvalidDates",
      `${option} must be an ISO 8601 date (2027-01-31, midnight UTC) or date and time with its zone ` +
        `(2027-01-31T18:00:00Z, 2027-01-31T18:00+01:00) (got "${text}")`,
    )
  return at as Date
}

const codeOf = (text: string): string => {
  const code = text.trim().toUpperCase()
  if (!/^[A-Z0-9_-]{3,32}$/.test(code))
    refuse(
      "InvalidValue",
      `--code must be 3 to 32 letters, digits, _ or - (stored upper-case) (got "${text}")`,
    )
  return code
}

const currenciesOf = (text: string): ReadonlyArray<string> => {
  const codes = [
    ...new Set(
      text
        .split(",")
        .map((c) => c.trim().toUpperCase())
        .filter((c) => c !== ""),
    ),
  ]
  if (codes.length === 0 || codes.some((c) => !/^[A-Z0-9]{2,10}$/.test(c)))
    refuse(
      "InvalidValue",
      `--currencies must be currency codes separated by commas, e.g. EUR,USD (got "${text}")`,
    )
  return codes
}

const promotionKindOf = (text: string): PromotionKind => {
  if (text === "deposit_bonus" || text === "free_spins") return text
  return refuse("InvalidValue", `--kind must be deposit_bonus or free_spins (got "${text}")`)
}

/** `base` with the typed `changes` applied, every value and the whole checked (a `Refusal` thrown). */
const applyChanges = (base: PromotionSpec, c: PromotionChanges): PromotionSpec => {
  const clearable = <A>(value: string | null | undefined, current: A | null, parse: (text: string) => A) =>
    value === undefined ? current : value === null ? null : parse(value)
  const spec: PromotionSpec = {
    ...base,
    name: c.name === undefined ? base.name : c.name.trim(),
    description: c.description === undefined ? base.description : c.description.trim(),
    code: clearable(c.code, base.code, codeOf),
    depositNumber: clearable(c.depositNumber, base.depositNumber, (t) =>
      wholeNumber(t, "--deposit-number", 1, 100),
    ),
    bands: c.bands === undefined ? base.bands : parseBands(c.bands),
    maxBonusEurCents:
      c.maxBonusEur === undefined
        ? base.maxBonusEurCents
        : eurAmount(c.maxBonusEur, "--max-bonus-eur", false),
    wageringMultiple:
      c.wagering === undefined ? base.wageringMultiple : wholeNumber(c.wagering, "--wagering", 0, 100),
    maxBetEurCents:
      c.maxBetEur === undefined ? base.maxBetEurCents : eurAmount(c.maxBetEur, "--max-bet-eur", true),
    validDays: c.validDays === undefined ? base.validDays : wholeNumber(c.validDays, "--valid-days", 1, 365),
    freeSpinGame: clearable(c.freeSpinGame, base.freeSpinGame, (t) => t.trim()),
    freeSpinBetEurCents: clearable(c.freeSpinBetEur, base.freeSpinBetEurCents, (t) =>
      eurAmount(t, "--free-spin-bet-eur", true),
    ),
    unlockDepositEurCents: clearable(c.unlockDepositEur, base.unlockDepositEurCents, (t) =>
      eurAmount(t, "--unlock-deposit-eur", true),
    ),
    extraBonusPercent:
      c.extraBonusPercent === undefined
        ? base.extraBonusPercent
        : wholeNumber(c.extraBonusPercent, "--extra-bonus-percent", 0, 1000),
    currencies: clearable(c.currencies, base.currencies, currenciesOf),
    startsAt: clearable(c.startsAt, base.startsAt, (t) => dateOf(t, "--starts")),
    endsAt: clearable(c.endsAt, base.endsAt, (t) => dateOf(t, "--ends")),
    maxUses: clearable(c.maxUses, base.maxUses, (t) => wholeNumber(t, "--max-uses", 1, 1_000_000_000)),
    maxUsesPerPlayer:
      c.maxUsesPerPlayer === undefined
        ? base.maxUsesPerPlayer
        : wholeNumber(c.maxUsesPerPlayer, "--max-uses-per-player", 1, 1_000_000_000),
  }
  if (spec.name.length < 1 || spec.name.length > 120 || /\p{Cc}/u.test(spec.name))
    refuse("InvalidValue", "--name must be 1 to 120 printable characters")
  if (spec.description.length > 2_000) refuse("InvalidValue", "--description must be at most 2000 characters")
  // A cleared game takes its bet with it (and the other way round), so "none" needs saying once.
  const game = c.freeSpinBetEur === null ? null : spec.freeSpinGame
  const bet = c.freeSpinGame === null ? null : spec.freeSpinBetEurCents
  const spins = spec.bands.some((b) => b.freeSpins > 0)
  if ((game === null) !== (bet === null))
    refuse("InvalidValue", "--free-spin-game and --free-spin-bet-eur go together: give both (or none)")
  if (game === null && (spins || spec.kind === "free_spins"))
    refuse(
      "InvalidValue",
      spec.kind === "free_spins"
        ? "a free_spins promotion needs --free-spin-game and --free-spin-bet-eur"
        : "its bands grant free spins: give --free-spin-game and --free-spin-bet-eur (or bands with 0 spins)",
    )
  if (spec.startsAt !== null && spec.endsAt !== null && spec.endsAt.getTime() <= spec.startsAt.getTime())
    refuse(
      "InvalidDates",
      `the end (${spec.endsAt.toISOString()}) must be after the start (${spec.startsAt.toISOString()})`,
    )
  return { ...spec, freeSpinGame: game, freeSpinBetEurCents: bet }
}

/** Runs a pure step that may throw a `Refusal` as an Effect failing with the refusal. */
const checked = <A>(step: () => A): Effect.Effect<A, PromotionChangeRefused> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(step())
    } catch (error) {
      if (error instanceof Refusal)
        return Effect.fail(new PromotionChangeRefused({ reason: error.reason, message: error.message }))
      throw error
    }
  })

// ── views and audit ─────────────────────────────────────────────────────────────────────────────

export const promotionView = (p: StoredPromotion): PromotionView => ({
  id: p.id,
  kind: p.kind,
  name: p.name,
  description: p.description,
  code: p.code,
  depositNumber: p.depositNumber,
  bands: p.bands.map((b) => ({
    upToEur: b.upToEurCents === null ? null : eurText(b.upToEurCents),
    percent: b.percent,
    freeSpins: b.freeSpins,
  })),
  maxBonusEur: eurText(p.maxBonusEurCents),
  wageringMultiple: p.wageringMultiple,
  maxBetEur: eurText(p.maxBetEurCents),
  validDays: p.validDays,
  freeSpinGame: p.freeSpinGame,
  freeSpinBetEur: p.freeSpinBetEurCents === null ? null : eurText(p.freeSpinBetEurCents),
  unlockDepositEur: p.unlockDepositEurCents === null ? null : eurText(p.unlockDepositEurCents),
  extraBonusPercent: p.extraBonusPercent,
  currencies: p.currencies,
  startsAt: p.startsAt?.toISOString() ?? null,
  endsAt: p.endsAt?.toISOString() ?? null,
  uses: p.uses,
  maxUses: p.maxUses,
  maxUsesPerPlayer: p.maxUsesPerPlayer,
  active: p.active,
  createdAt: p.createdAt.toISOString(),
})

type Flat = Readonly<Record<string, string | number | boolean | null>>

/** What an operator sets, flat (the audit's values): amounts in EUR, bands and currencies as typed. */
const flat = (p: PromotionSpec): Flat => ({
  kind: p.kind,
  name: p.name,
  description: p.description,
  code: p.code,
  depositNumber: p.depositNumber,
  bands: p.bands.map(bandText).join(" "),
  maxBonusEur: eurText(p.maxBonusEurCents),
  wagering: p.wageringMultiple,
  maxBetEur: eurText(p.maxBetEurCents),
  validDays: p.validDays,
  freeSpinGame: p.freeSpinGame,
  freeSpinBetEur: p.freeSpinBetEurCents === null ? null : eurText(p.freeSpinBetEurCents),
  unlockDepositEur: p.unlockDepositEurCents === null ? null : eurText(p.unlockDepositEurCents),
  extraBonusPercent: p.extraBonusPercent,
  currencies: p.currencies === null ? null : p.currencies.join(","),
  startsAt: p.startsAt?.toISOString() ?? null,
  endsAt: p.endsAt?.toISOString() ?? null,
  maxUses: p.maxUses,
  maxUsesPerPlayer: p.maxUsesPerPlayer,
})

/** The fields that differ, as `before.<field>` / `after.<field>` (only `after.` for a new one). */
const beforeAfter = (before: Flat | undefined, after: Flat): Flat => {
  const details: Record<string, string | number | boolean | null> = {}
  for (const [key, value] of Object.entries(after)) {
    if (before !== undefined && before[key] === value) continue
    if (before !== undefined) details[`before.${key}`] = before[key] ?? null
    details[`after.${key}`] = value
  }
  return details
}

// ── the service ─────────────────────────────────────────────────────────────────────────────────

export interface PromotionsShape {
  readonly list: () => Effect.Effect<ReadonlyArray<PromotionView>>
  readonly show: (id: string) => Effect.Effect<PromotionView, PromotionChangeRefused>
  readonly create: (
    input: NewPromotion,
    actor: AuditActor,
  ) => Effect.Effect<PromotionView, PromotionChangeRefused>
  readonly update: (
    id: string,
    changes: PromotionChanges,
    actor: AuditActor,
  ) => Effect.Effect<PromotionView, PromotionChangeRefused>
  /** Switches it on or off (off: no offer, no grant, its code answered as unknown). */
  readonly setActive: (
    id: string,
    active: boolean,
    actor: AuditActor,
  ) => Effect.Effect<PromotionView, PromotionChangeRefused>
}

const make = Effect.gen(function* () {
  const repo = yield* PromotionsRepo
  const audit = yield* OperatorAudit

  const unknown = (id: string) =>
    new PromotionChangeRefused({
      reason: "UnknownPromotion",
      message: `there is no promotion "${id}" (see: promotions list)`,
    })

  /** The checks that need the database: the code is free, the game and the currencies exist. */
  const checkReferences = (spec: PromotionSpec) =>
    Effect.gen(function* () {
      if (spec.code !== null) {
        const holder = yield* repo.codeHolder(spec.code, spec.id)
        if (holder !== undefined)
          return yield* new PromotionChangeRefused({
            reason: "DuplicateCode",
            message: `the code ${spec.code} already names promotion ${holder}`,
          })
      }
      if (spec.freeSpinGame !== null && !(yield* repo.gameExists(spec.freeSpinGame)))
        return yield* new PromotionChangeRefused({
          reason: "UnknownGame",
          message: `there is no game "${spec.freeSpinGame}" (--free-spin-game takes a game id of the catalogue)`,
        })
      if (spec.currencies !== null) {
        const known = yield* repo.knownCurrencies(spec.currencies)
        const missing = spec.currencies.filter((c) => !known.includes(c))
        if (missing.length > 0)
          return yield* new PromotionChangeRefused({
            reason: "UnknownCurrency",
            message: `not a currency of the list: ${missing.join(", ")}`,
          })
      }
    })

  /** A unique index lost to a concurrent command: the same refusal as when checked first. */
  const uniqueRace = (spec: PromotionSpec) => (error: SqlError.SqlError) =>
    error.reason._tag === "UniqueViolation"
      ? Effect.fail(
          new PromotionChangeRefused(
            error.reason.constraint.includes("code")
              ? {
                  reason: "DuplicateCode",
                  message: `the code ${spec.code ?? ""} already names another promotion`,
                }
              : { reason: "DuplicateId", message: `a promotion "${spec.id}" exists already` },
          ),
        )
      : Effect.die(error)

  const reread = (id: string) =>
    Effect.flatMap(repo.byId(id), (p) =>
      p === undefined ? Effect.die(new Error(`promotion ${id} vanished`)) : Effect.succeed(p),
    )

  const list = () =>
    repo.all().pipe(
      Effect.map((rows) => rows.map(promotionView)),
      Effect.orDie,
    )

  const show = (id: string) =>
    repo.byId(id).pipe(
      Effect.orDie,
      Effect.flatMap((p) => (p === undefined ? Effect.fail(unknown(id)) : Effect.succeed(promotionView(p)))),
    )

  const create = (input: NewPromotion, actor: AuditActor) =>
    Effect.gen(function* () {
      const spec = yield* checked(() => {
        const id = input.id.trim()
        if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(id))
          refuse(
            "InvalidValue",
            `--id must be 1 to 64 of a-z, 0-9 and -, not starting with - (got "${input.id}")`,
          )
        const kind = promotionKindOf(input.kind)
        const required = [
          ["--name", input.name],
          ["--band", input.bands],
          ["--max-bonus-eur", input.maxBonusEur],
          ["--wagering", input.wagering],
          ["--max-bet-eur", input.maxBetEur],
          ["--valid-days", input.validDays],
        ] as const
        const missing = required.filter(([, value]) => value === undefined).map(([option]) => option)
        if (missing.length > 0) refuse("InvalidValue", `a new promotion needs ${missing.join(", ")}`)
        const defaults: PromotionSpec = {
          id,
          kind,
          name: "",
          description: "",
          code: null,
          depositNumber: null,
          bands: [],
          maxBonusEurCents: 0n,
          wageringMultiple: 0,
          maxBetEurCents: 0n,
          validDays: 1,
          freeSpinGame: null,
          freeSpinBetEurCents: null,
          unlockDepositEurCents: null,
          extraBonusPercent: 0,
          currencies: null,
          startsAt: null,
          endsAt: null,
          maxUses: null,
          maxUsesPerPlayer: 1,
        }
        return applyChanges(defaults, input)
      })
      return yield* repo
        .transaction(
          Effect.gen(function* () {
            if ((yield* repo.lockById(spec.id)) !== undefined)
              return yield* new PromotionChangeRefused({
                reason: "DuplicateId",
                message: `a promotion "${spec.id}" exists already`,
              })
            yield* checkReferences(spec)
            yield* repo.insert(spec)
            const created = yield* reread(spec.id)
            yield* audit.record({
              ...actorFields(actor),
              action: "promotions.create",
              userId: null,
              subject: spec.id,
              details: beforeAfter(undefined, { ...flat(created), active: created.active }),
              after: promotionView(created),
            })
            return promotionView(created)
          }),
        )
        .pipe(Effect.catchTag("SqlError", uniqueRace(spec)))
    })

  const update = (id: string, changes: PromotionChanges, actor: AuditActor) =>
    repo
      .transaction(
        Effect.gen(function* () {
          const before = yield* repo.lockById(id)
          if (before === undefined) return yield* unknown(id)
          const spec = yield* checked(() => applyChanges(before, changes))
          const details = beforeAfter(flat(before), flat(spec))
          if (Object.keys(details).length === 0)
            return yield* new PromotionChangeRefused({
              reason: "NothingToChange",
              message: `${id} already has these values: nothing changes`,
            })
          yield* checkReferences(spec)
          yield* repo.update(spec)
          if (changes.bands !== undefined) yield* repo.replaceBands(id, spec.bands)
          const after = promotionView(yield* reread(id))
          yield* audit.record({
            ...actorFields(actor),
            action: "promotions.update",
            userId: null,
            subject: id,
            details,
            before: promotionView(before),
            after,
          })
          return after
        }),
      )
      .pipe(
        Effect.catchTag("SqlError", (error) =>
          error.reason._tag === "UniqueViolation"
            ? Effect.fail(
                new PromotionChangeRefused({
                  reason: "DuplicateCode",
                  message: "the code already names another promotion (taken meanwhile)",
                }),
              )
            : Effect.die(error),
        ),
      )

  const setActive = (id: string, active: boolean, actor: AuditActor) =>
    repo
      .transaction(
        Effect.gen(function* () {
          const before = yield* repo.lockById(id)
          if (before === undefined) return yield* unknown(id)
          if (before.active === active)
            return yield* new PromotionChangeRefused({
              reason: "NothingToChange",
              message: `${id} is already ${active ? "active" : "inactive"}`,
            })
          yield* repo.setActive(id, active)
          const after = promotionView(yield* reread(id))
          yield* audit.record({
            ...actorFields(actor),
            action: active ? "promotions.activate" : "promotions.deactivate",
            userId: null,
            subject: id,
            details: { "before.active": before.active, "after.active": active },
            before: promotionView(before),
            after,
          })
          return after
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))

  return { list, show, create, update, setActive } satisfies PromotionsShape
})

export class Promotions extends Context.Service<Promotions, PromotionsShape>()("casino/server/Promotions") {
  static readonly layer = Layer.effect(Promotions, make).pipe(Layer.provide(PromotionsRepo.layer))
}
