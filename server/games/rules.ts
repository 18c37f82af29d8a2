/**
 * The games module's pure rules (no I/O), unit-tested on their own: bet limits in a currency,
 * masked winner names, the lobby's currency path, the wallet calls' fingerprints.
 */
import { createHash } from "node:crypto"
import { RATE_SCALE } from "../../services/money-rules.ts"

/**
 * A catalogue limit in EUR cents as minor units of a currency worth `eurRate` EUR per whole unit
 * (scaled by RATE_SCALE): cents / 100 / rate × subunits. The minimum rounds UP (never below the
 * catalogue's), the maximum DOWN (never above it); a maximum that rounds below the minimum is the
 * minimum (one allowed stake).
 */
export const betLimitsIn = (
  minEurCents: bigint,
  maxEurCents: bigint,
  eurRate: bigint,
  subunitsToUnit: bigint,
): { readonly min: bigint; readonly max: bigint } | undefined => {
  if (eurRate <= 0n) return undefined
  const denominator = 100n * eurRate
  const scaled = (cents: bigint) => cents * RATE_SCALE * subunitsToUnit
  const minRaw = (scaled(minEurCents) + denominator - 1n) / denominator
  const min = minRaw < 1n ? 1n : minRaw
  const maxRaw = scaled(maxEurCents) / denominator
  return { min, max: maxRaw < min ? min : maxRaw }
}

/** EUR cents as minor units of a currency (rounded down): a jackpot's seed in that currency. */
export const eurCentsToMinor = (cents: bigint, eurRate: bigint, subunitsToUnit: bigint): bigint =>
  eurRate <= 0n ? 0n : (cents * RATE_SCALE * subunitsToUnit) / (100n * eurRate)

/** The lobby's catalogue path takes any text: 3 letters (any case) name a currency, else EUR. */
export const lobbyCurrency = (raw: string): string => (/^[A-Za-z]{3}$/.test(raw) ? raw.toUpperCase() : "EUR")

/**
 * A winner's name as the lobby shows it (spec: "Ma***a"): the first two characters, three stars,
 * the last one; a name of three characters or fewer keeps only its first. Never the e-mail.
 */
export const maskName = (name: string): string => {
  const chars = [...name.trim()]
  if (chars.length === 0) return "***"
  if (chars.length <= 3) return `${chars[0]}***`
  return `${chars.slice(0, 2).join("")}***${chars[chars.length - 1]}`
}

/** SHA-256 of a wallet call's content (everything but the session token and the signature). */
export const callFingerprint = (
  op: string,
  fields: Readonly<Record<string, string | boolean | null>>,
): string =>
  createHash("sha256")
    .update(
      JSON.stringify([
        op,
        Object.keys(fields)
          .sort()
          .map((k) => [k, fields[k] ?? null]),
      ]),
    )
    .digest("hex")

/** SHA-256 hex of a launch token: what game_sessions stores. */
export const tokenHash = (token: string): string => createHash("sha256").update(token).digest("hex")
