/**
 * The operator's switch per jurisdiction: whether games may offer autoplay and turbo, and the least
 * time between rounds. Sent with every launch (protocols/game-wallet/launch.ts, PlayRules); the
 * studio shows no control the rules forbid and refuses a round that comes too soon.
 *
 * Presets follow the regulators that rule on speed of play: Great Britain (UKGC RTS 14, 2021: no
 * autoplay, no turbo or quick spin, 2.5 s per slot cycle) and Germany (GlüStV 2021: no autoplay, 5 s
 * per spin). Everywhere else the operator's default applies. `PLAY_RULES` (JSON, docs/server.md)
 * overrides any of them: `{"default": {…}, "NL": {…}}`.
 */
import { Schema } from "effect"
import { PlayRules } from "../../protocols/game-wallet/launch.ts"

export type { PlayRules }

export interface PlayRulesTable {
  readonly default: PlayRules
  readonly byCountry: Readonly<Record<string, PlayRules>>
}

export const presetPlayRules: PlayRulesTable = {
  default: { autoplay: true, turbo: true, minRoundMs: 0 },
  byCountry: {
    GB: { autoplay: false, turbo: false, minRoundMs: 2_500 },
    DE: { autoplay: false, turbo: false, minRoundMs: 5_000 },
  },
}

const Overrides = Schema.Record(Schema.String, PlayRules)
const decodeOverrides = Schema.decodeUnknownExit(Schema.fromJsonString(Overrides))

/**
 * The table with `PLAY_RULES` applied over the presets, or the reason it cannot be read. Keys are
 * "default" or ISO 3166-1 alpha-2 codes.
 */
export const parsePlayRules = (text: string | undefined): PlayRulesTable | { readonly error: string } => {
  if (text === undefined || text.trim() === "") return presetPlayRules
  const decoded = decodeOverrides(text)
  if (decoded._tag === "Failure")
    return {
      error:
        'JSON like {"default":{"autoplay":true,"turbo":true,"minRoundMs":0},"GB":{"autoplay":false,"turbo":false,"minRoundMs":2500}}',
    }
  const byCountry: Record<string, PlayRules> = { ...presetPlayRules.byCountry }
  let fallback = presetPlayRules.default
  for (const [key, rules] of Object.entries(decoded.value)) {
    if (key === "default") fallback = rules
    else if (/^[A-Za-z]{2}$/.test(key)) byCountry[key.toUpperCase()] = rules
    else return { error: `"default" or two-letter country codes as keys (not "${key}")` }
  }
  return { default: fallback, byCountry }
}

/** The rules where a player plays (an ISO code; unknown codes take the default). */
export const playRulesFor = (table: PlayRulesTable, country: string): PlayRules =>
  table.byCountry[country.toUpperCase()] ?? table.default
