/**
 * Gateway rules of the sandbox: how a sandbox gateway refuses an initiation, so the casino's cascade
 * meets real refusals (docs/payments-protocol.md, "Configuration").
 *
 *   PAYMENT_SANDBOX_GATEWAY_RULES = "brpay:down;paypound:country=US;ems:max-eur=500;ems:min-eur=10"
 *   control endpoint rule = "down" | "up" | "country=US,GB" | "max-eur=500" | "min-eur=10", or several
 *                           joined by ";" ("country=US;max-eur=500")
 *
 * `down` → 503 unavailable; `country` (the payer's, from the customer) and the EUR bounds → 422
 * refused. `up` is no rule at all (it exists to override an environment rule at runtime).
 * Pure: no I/O, amounts in bigint minor units.
 */

export type GatewayRule =
  | { readonly _tag: "Down" }
  | { readonly _tag: "Country"; readonly countries: ReadonlyArray<string> }
  /** Bounds in EUR cents. */
  | { readonly _tag: "MaxEur"; readonly cents: bigint }
  | { readonly _tag: "MinEur"; readonly cents: bigint }

export type ParseResult<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly error: string }

const gatewayCodePattern = /^[a-z0-9][a-z0-9-]{0,31}$/

export const isGatewayCode = (code: string): boolean => gatewayCodePattern.test(code)

/** "500" or "500.5" or "500.50" EUR → cents. */
const eurToCents = (text: string): bigint | undefined => {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text)
  if (m === null) return undefined
  return BigInt(m[1] as string) * 100n + BigInt((m[2] ?? "").padEnd(2, "0"))
}

/** One rule, or several joined by ";". `up` alone (or an empty text) is no rule. */
export const parseRules = (text: string): ParseResult<ReadonlyArray<GatewayRule>> => {
  const rules: Array<GatewayRule> = []
  const parts = text
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s !== "")
  for (const part of parts) {
    const lower = part.toLowerCase()
    if (lower === "up") {
      if (parts.length > 1) return { ok: false, error: `"up" cannot be combined with other rules` }
      continue
    }
    if (lower === "down") {
      rules.push({ _tag: "Down" })
      continue
    }
    const eq = part.indexOf("=")
    const name = (eq === -1 ? part : part.slice(0, eq)).trim().toLowerCase()
    const value = eq === -1 ? "" : part.slice(eq + 1).trim()
    if (name === "country") {
      const countries = value
        .split(",")
        .map((c) => c.trim().toUpperCase())
        .filter((c) => c !== "")
      if (countries.length === 0 || countries.some((c) => !/^[A-Z]{2}$/.test(c))) {
        return { ok: false, error: `"${part}": expected country=XX or country=XX,YY (ISO 3166-1 alpha-2)` }
      }
      rules.push({ _tag: "Country", countries })
      continue
    }
    if (name === "max-eur" || name === "min-eur") {
      const cents = eurToCents(value)
      if (cents === undefined)
        return { ok: false, error: `"${part}": expected ${name}=N (euros, e.g. 500 or 12.50)` }
      rules.push(name === "max-eur" ? { _tag: "MaxEur", cents } : { _tag: "MinEur", cents })
      continue
    }
    return { ok: false, error: `"${part}": expected up, down, country=XX,YY, max-eur=N or min-eur=N` }
  }
  return { ok: true, value: rules }
}

/** PAYMENT_SANDBOX_GATEWAY_RULES: "code:rule;code:rule…"; a code named twice gets both rules. */
export const parseGatewayRules = (
  text: string,
): ParseResult<ReadonlyMap<string, ReadonlyArray<GatewayRule>>> => {
  const map = new Map<string, Array<GatewayRule>>()
  for (const entry of text
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s !== "")) {
    const colon = entry.indexOf(":")
    const code = (colon === -1 ? "" : entry.slice(0, colon)).trim().toLowerCase()
    if (!isGatewayCode(code)) return { ok: false, error: `"${entry}": expected code:rule, e.g. brpay:down` }
    const parsed = parseRules(entry.slice(colon + 1))
    if (!parsed.ok) return parsed
    map.set(code, [...(map.get(code) ?? []), ...parsed.value])
  }
  return { ok: true, value: map }
}

const formatRule = (r: GatewayRule): string =>
  r._tag === "Down"
    ? "down"
    : r._tag === "Country"
      ? `country=${r.countries.join(",")}`
      : `${r._tag === "MaxEur" ? "max-eur" : "min-eur"}=${formatCents(r.cents)}`

/** A rule set back as text (the control endpoint's answer); "up" when empty. */
export const formatRules = (rules: ReadonlyArray<GatewayRule>): string =>
  rules.length === 0 ? "up" : rules.map(formatRule).join(";")

const formatCents = (cents: bigint): string =>
  cents % 100n === 0n ? String(cents / 100n) : `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`

/**
 * The currencies the sandbox accepts, with their minor-unit exponent and the sandbox's own reference
 * rate (EUR per unit, in millionths) used only by the max-eur / min-eur rules — a provider applies
 * its own FX, not the casino's.
 */
export const sandboxCurrencies: Readonly<
  Record<string, { readonly exponent: number; readonly eurMicro: bigint }>
> = {
  EUR: { exponent: 2, eurMicro: 1_000_000n },
  USD: { exponent: 2, eurMicro: 920_000n },
  GBP: { exponent: 2, eurMicro: 1_170_000n },
  CAD: { exponent: 2, eurMicro: 680_000n },
  AUD: { exponent: 2, eurMicro: 600_000n },
  NZD: { exponent: 2, eurMicro: 550_000n },
  NOK: { exponent: 2, eurMicro: 86_000n },
  SEK: { exponent: 2, eurMicro: 87_000n },
  PLN: { exponent: 2, eurMicro: 230_000n },
  BRL: { exponent: 2, eurMicro: 170_000n },
  JPY: { exponent: 0, eurMicro: 6_100n },
}

/** Compares `amount` (minor units of `currency`) with EUR cents: -1, 0 or 1. */
export const compareWithEurCents = (amount: bigint, currency: string, cents: bigint): -1 | 0 | 1 => {
  const c = sandboxCurrencies[currency]
  if (c === undefined) throw new Error(`unsupported currency ${currency}`)
  // amount / 10^exp units × eurMicro / 10^6 EUR × 100 cents  vs  cents
  const left = amount * c.eurMicro * 100n
  const right = cents * 10n ** BigInt(c.exponent) * 1_000_000n
  return left < right ? -1 : left > right ? 1 : 0
}

export interface Refusal {
  readonly status: 503 | 422
  readonly error: "unavailable" | "refused"
  readonly message: string
}

/** Why this gateway refuses the initiation, or undefined when it accepts it. */
export const refusal = (
  code: string,
  rules: ReadonlyArray<GatewayRule>,
  payment: { readonly amount: bigint; readonly currency: string; readonly country: string | null },
): Refusal | undefined => {
  // A gateway that is down answers so whatever it is asked.
  if (rules.some((r) => r._tag === "Down")) {
    return { status: 503, error: "unavailable", message: `${code} is temporarily unavailable.` }
  }
  if (sandboxCurrencies[payment.currency] === undefined) {
    return { status: 422, error: "refused", message: `${code} does not accept ${payment.currency}.` }
  }
  for (const rule of rules) {
    switch (rule._tag) {
      case "Down":
        break
      case "Country":
        if (payment.country !== null && rule.countries.includes(payment.country.toUpperCase())) {
          return {
            status: 422,
            error: "refused",
            message: `${code} does not accept payers from ${payment.country.toUpperCase()}.`,
          }
        }
        break
      case "MaxEur":
        if (compareWithEurCents(payment.amount, payment.currency, rule.cents) > 0) {
          return {
            status: 422,
            error: "refused",
            message: `${code} does not accept amounts above ${formatCents(rule.cents)} EUR.`,
          }
        }
        break
      case "MinEur":
        if (compareWithEurCents(payment.amount, payment.currency, rule.cents) < 0) {
          return {
            status: 422,
            error: "refused",
            message: `${code} does not accept amounts below ${formatCents(rule.cents)} EUR.`,
          }
        }
        break
    }
  }
  return undefined
}
