/**
 * Schemas of the casino's settings in the back office: restricted countries, rates and minimums,
 * the games' lobby settings, promotions and coupons. Amounts are strings of integer minor units
 * (rates: exact decimal strings), instants ISO strings. Browser-safe.
 *
 * The promotion inputs are what an operator types (text), checked by the server's `Promotions`
 * exactly as `npm run operator -- promotions …` sends them (the command line is a client of this
 * API).
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { StoredText } from "./text.ts"

// ── restricted countries ────────────────────────────────────────────────────────────────────────

export const CountryCode = Schema.String.check(Schema.isPattern(/^[A-Za-z]{2}$/))

export const RestrictedCountry = Schema.Struct({ code: Schema.String, name: Schema.String })

export const RestrictedCountryList = Schema.Struct({ countries: Schema.Array(RestrictedCountry) })

export const CountryPayload = Schema.Struct({ code: CountryCode })

export const CountryParams = Schema.Struct({ code: CountryCode })

// ── rates and minimums ──────────────────────────────────────────────────────────────────────────

export const Rate = Schema.Struct({
  currency: Schema.String,
  type: Schema.Literals(["FIAT", "CRYPTO"]),
  enabled: Schema.Boolean,
  /** EUR per whole unit, exact decimal. */
  eurRate: Schema.String,
  minDeposit: Schema.String,
  minPromotion: Schema.String,
  minWithdraw: Schema.String,
  updatedAt: Schema.String,
  updatedBy: Schema.String,
})

export const RateList = Schema.Struct({ rates: Schema.Array(Rate) })

export const RateParams = Schema.Struct({
  currency: Schema.String.check(Schema.isPattern(/^[A-Z0-9]{2,10}$/)),
})

const MinorUnits = Schema.String.check(Schema.isPattern(/^\d{1,38}$/))

/** What changes (at least one): the EUR rate (a positive exact decimal) and the minimums. */
export const RatePayload = Schema.Struct({
  eurRate: Schema.optional(StoredText(40)),
  minDeposit: Schema.optional(MinorUnits),
  minPromotion: Schema.optional(MinorUnits),
  minWithdraw: Schema.optional(MinorUnits),
})

// ── games ───────────────────────────────────────────────────────────────────────────────────────

export const GameSetting = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  provider: Schema.String,
  category: Schema.String,
  /** false: hidden from the lobby and not launchable. */
  enabled: Schema.Boolean,
  featured: Schema.Boolean,
  /** Listed in the lobby's "recommended" section (the CDN's recommended-games.json). */
  recommended: Schema.Boolean,
  /** The lobby's order (lower first). */
  order: Schema.Number,
})

export const GameSettingList = Schema.Struct({ games: Schema.Array(GameSetting) })

export const GameParams = Schema.Struct({
  id: Schema.String.check(Schema.isPattern(/^[a-z0-9][a-z0-9-]{0,63}$/)),
})

export const GamePatch = Schema.Struct({
  enabled: Schema.optional(Schema.Boolean),
  featured: Schema.optional(Schema.Boolean),
  recommended: Schema.optional(Schema.Boolean),
  order: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000_000 }))),
})

// ── promotions and coupons ──────────────────────────────────────────────────────────────────────

const Text = StoredText(2_000)
const Clearable = Schema.optional(Schema.NullOr(Text))

/** Absent: unchanged; null: cleared (no code, any deposit, every currency, no dates, no limit). */
export const promotionChangeFields = {
  name: Schema.optional(Text),
  description: Schema.optional(Text),
  code: Clearable,
  depositNumber: Clearable,
  bands: Schema.optional(Schema.Array(Text).check(Schema.isMaxLength(50))),
  maxBonusEur: Schema.optional(Text),
  wagering: Schema.optional(Text),
  maxBetEur: Schema.optional(Text),
  validDays: Schema.optional(Text),
  freeSpinGame: Clearable,
  freeSpinBetEur: Clearable,
  unlockDepositEur: Clearable,
  extraBonusPercent: Schema.optional(Text),
  currencies: Clearable,
  startsAt: Clearable,
  endsAt: Clearable,
  maxUses: Clearable,
  maxUsesPerPlayer: Schema.optional(Text),
}

export const PromotionChanges = Schema.Struct(promotionChangeFields)
export const CreatePromotionPayload = Schema.Struct({ id: Text, kind: Text, ...promotionChangeFields })
/** The operator endpoint's update: the id in the body. */
export const UpdatePromotionBody = Schema.Struct({ id: Text, changes: PromotionChanges })
export const SetActiveBody = Schema.Struct({ id: Text, active: Schema.Boolean })

export const PromotionParams = Schema.Struct({
  id: Schema.String.check(Schema.isPattern(/^[a-z0-9][a-z0-9-]{0,63}$/)),
})
export const SetActivePayload = Schema.Struct({ active: Schema.Boolean })

export const Promotion = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  name: Schema.String,
  description: Schema.String,
  code: Schema.NullOr(Schema.String),
  depositNumber: Schema.NullOr(Schema.Number),
  bands: Schema.Array(
    Schema.Struct({
      upToEur: Schema.NullOr(Schema.String),
      percent: Schema.Number,
      freeSpins: Schema.Number,
    }),
  ),
  maxBonusEur: Schema.String,
  wageringMultiple: Schema.Number,
  maxBetEur: Schema.String,
  validDays: Schema.Number,
  freeSpinGame: Schema.NullOr(Schema.String),
  freeSpinBetEur: Schema.NullOr(Schema.String),
  unlockDepositEur: Schema.NullOr(Schema.String),
  extraBonusPercent: Schema.Number,
  currencies: Schema.NullOr(Schema.Array(Schema.String)),
  startsAt: Schema.NullOr(Schema.String),
  endsAt: Schema.NullOr(Schema.String),
  uses: Schema.Number,
  maxUses: Schema.NullOr(Schema.Number),
  maxUsesPerPlayer: Schema.Number,
  active: Schema.Boolean,
  createdAt: Schema.String,
})

export const PromotionList = Schema.Struct({ promotions: Schema.Array(Promotion) })

/** Answered 201 Created. */
export const PromotionCreated = Promotion.pipe(HttpApiSchema.status(201))
