/** The command line of `npm run operator`: arguments → one command, or a UsageError (exit 2). */
import { parseArgs } from "node:util"
import { isRole, type Role, roles } from "../../services/backoffice/permissions.ts"
import type { CreatePromotionPayload, PromotionChanges } from "../../services/backoffice/settings.ts"
import { withdrawalStatuses } from "../../services/cashout-service.ts"

export class UsageError extends Error {}

/** `--kind id|bill`, as the back-office API names the two documents. */
export type DocumentKind = "identity" | "address"

/** A pending document named by its player and kind, or by its own id. */
export type DocumentRef =
  | { readonly email: string; readonly kind: DocumentKind }
  | { readonly documentId: string }

export type Command =
  | { readonly _tag: "login"; readonly email: string }
  | { readonly _tag: "logout" }
  | { readonly _tag: "whoami" }
  | { readonly _tag: "pending" }
  | { readonly _tag: "show"; readonly email: string }
  | { readonly _tag: "approve"; readonly document: DocumentRef }
  | { readonly _tag: "reject"; readonly document: DocumentRef; readonly reason: string }
  | { readonly _tag: "audit"; readonly limit: number }
  | { readonly _tag: "ratesList" }
  | {
      readonly _tag: "ratesSet"
      readonly currency: string
      readonly eurRate: string | undefined
      readonly minDeposit: string | undefined
      readonly minPromotion: string | undefined
      readonly minWithdraw: string | undefined
    }
  | { readonly _tag: "withdrawalsList"; readonly limit: number }
  | { readonly _tag: "withdrawalApprove"; readonly id: string }
  | { readonly _tag: "withdrawalReject"; readonly id: string; readonly reason: string }
  | { readonly _tag: "withdrawalMarkSent"; readonly id: string; readonly txHash: string }
  | { readonly _tag: "withdrawalMarkPaid"; readonly id: string }
  | { readonly _tag: "promotionsList" }
  | { readonly _tag: "promotionsShow"; readonly id: string }
  | { readonly _tag: "promotionsCreate"; readonly input: typeof CreatePromotionPayload.Type }
  | { readonly _tag: "promotionsUpdate"; readonly id: string; readonly changes: typeof PromotionChanges.Type }
  | { readonly _tag: "promotionsSetActive"; readonly id: string; readonly active: boolean }
  | { readonly _tag: "operatorsAdd"; readonly email: string; readonly name: string; readonly role: Role }
  | { readonly _tag: "operatorsList" }

export interface Options {
  readonly command: Command
  readonly json: boolean
  readonly server: string | undefined
}

const optionSpec = {
  email: { type: "string" },
  kind: { type: "string" },
  reason: { type: "string" },
  limit: { type: "string" },
  json: { type: "boolean", default: false },
  server: { type: "string" },
  "eur-rate": { type: "string" },
  "min-deposit": { type: "string" },
  "min-promotion": { type: "string" },
  "min-withdraw": { type: "string" },
  status: { type: "string" },
  tx: { type: "string" },
  id: { type: "string" },
  name: { type: "string" },
  description: { type: "string" },
  code: { type: "string" },
  "deposit-number": { type: "string" },
  band: { type: "string", multiple: true },
  "max-bonus-eur": { type: "string" },
  wagering: { type: "string" },
  "max-bet-eur": { type: "string" },
  "valid-days": { type: "string" },
  "free-spin-game": { type: "string" },
  "free-spin-bet-eur": { type: "string" },
  "unlock-deposit-eur": { type: "string" },
  "extra-bonus-percent": { type: "string" },
  currencies: { type: "string" },
  starts: { type: "string" },
  ends: { type: "string" },
  "max-uses": { type: "string" },
  "max-uses-per-player": { type: "string" },
  role: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof optionSpec; allowPositionals: true }>>["values"]

const need = (name: string, value: string | undefined): string => {
  if (value === undefined || value.trim() === "") throw new UsageError(`--${name} is required`)
  return value
}

const limitOf = (value: string | undefined, fallback: number, max: number): number => {
  const limit = Number(value ?? String(fallback))
  if (!Number.isInteger(limit) || limit < 1 || limit > max) throw new UsageError(`--limit must be 1 … ${max}`)
  return limit
}

const noMore = (extra: ReadonlyArray<string>): void => {
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
}

const documentRef = (values: Values): DocumentRef => {
  if (values.id !== undefined) {
    if (values.email !== undefined || values.kind !== undefined)
      throw new UsageError("give either --id DOC or --email E --kind id|bill")
    return { documentId: need("id", values.id).trim() }
  }
  const email = need("email", values.email).trim()
  const k = values.kind?.toLowerCase()
  if (k === "id") return { email, kind: "identity" }
  if (k === "bill") return { email, kind: "address" }
  throw new UsageError("--kind must be id (identity document) or bill (proof of address)")
}

const minor = (name: string, value: string | undefined): string | undefined => {
  if (value === undefined) return undefined
  if (!/^\d{1,38}$/.test(value))
    throw new UsageError(`--${name} takes minor units (digits only, e.g. 1000 for 10.00)`)
  return value
}

const promotionCommand = (values: Values, verb: string | undefined, rest: ReadonlyArray<string>): Command => {
  // "none" clears a field that may be empty (null); undefined leaves it as it is.
  const clearable = (value: string | undefined): string | null | undefined =>
    value === undefined ? undefined : value.trim().toLowerCase() === "none" ? null : value
  const changes: typeof PromotionChanges.Type = {
    name: values.name,
    description: values.description,
    code: clearable(values.code),
    depositNumber: clearable(values["deposit-number"]),
    bands: values.band,
    maxBonusEur: values["max-bonus-eur"],
    wagering: values.wagering,
    maxBetEur: values["max-bet-eur"],
    validDays: values["valid-days"],
    freeSpinGame: clearable(values["free-spin-game"]),
    freeSpinBetEur: clearable(values["free-spin-bet-eur"]),
    unlockDepositEur: clearable(values["unlock-deposit-eur"]),
    extraBonusPercent: values["extra-bonus-percent"],
    currencies:
      values.currencies === undefined
        ? undefined
        : values.currencies.trim().toLowerCase() === "all"
          ? null
          : values.currencies,
    startsAt: clearable(values.starts),
    endsAt: clearable(values.ends),
    maxUses: clearable(values["max-uses"]),
    maxUsesPerPlayer: values["max-uses-per-player"],
  }
  const [id, ...extra] = rest
  noMore(extra)
  const needId = () => {
    if (id === undefined || id.trim() === "") throw new UsageError(`promotions ${verb} needs a promotion id`)
    return id.trim()
  }
  if (verb === "list" && id === undefined) return { _tag: "promotionsList" }
  if (verb === "show") return { _tag: "promotionsShow", id: needId() }
  if (verb === "activate" || verb === "deactivate")
    return { _tag: "promotionsSetActive", id: needId(), active: verb === "activate" }
  if (verb === "update") {
    const target = needId()
    if (values.id !== undefined || values.kind !== undefined)
      throw new UsageError("promotions update cannot change --id or --kind (create another promotion)")
    if (!Object.values(changes).some((v) => v !== undefined))
      throw new UsageError("promotions update needs at least one option to change")
    return { _tag: "promotionsUpdate", id: target, changes }
  }
  if (verb === "create" && id === undefined) {
    const required = [
      ["--id", values.id],
      ["--kind", values.kind],
      ["--name", values.name],
      ["--band", values.band],
      ["--max-bonus-eur", values["max-bonus-eur"]],
      ["--wagering", values.wagering],
      ["--max-bet-eur", values["max-bet-eur"]],
      ["--valid-days", values["valid-days"]],
    ] as const
    const missing = required.filter(([, value]) => value === undefined).map(([option]) => option)
    if (missing.length > 0) throw new UsageError(`promotions create needs ${missing.join(", ")}`)
    return { _tag: "promotionsCreate", input: { ...changes, id: values.id ?? "", kind: values.kind ?? "" } }
  }
  throw new UsageError(`unknown command: promotions ${[verb, ...rest].join(" ")}`)
}

const withdrawalCommand = (
  values: Values,
  verb: string | undefined,
  rest: ReadonlyArray<string>,
): Command => {
  if (verb === "list") {
    noMore(rest)
    const status = values.status
    if (status !== undefined && status !== "requested") {
      const known = (withdrawalStatuses as ReadonlyArray<string>).includes(status)
      throw new UsageError(
        known
          ? "--status: the back-office API lists the withdrawals waiting for a decision (requested) only"
          : `--status is one of ${withdrawalStatuses.join(", ")}`,
      )
    }
    return { _tag: "withdrawalsList", limit: limitOf(values.limit, 100, 200) }
  }
  const [id, ...extra] = rest
  if (id === undefined || id.trim() === "") throw new UsageError(`withdrawals ${verb} needs a withdrawal id`)
  noMore(extra)
  if (verb === "approve") return { _tag: "withdrawalApprove", id }
  if (verb === "reject") return { _tag: "withdrawalReject", id, reason: need("reason", values.reason) }
  if (verb === "mark-sent") return { _tag: "withdrawalMarkSent", id, txHash: need("tx", values.tx).trim() }
  if (verb === "mark-paid") return { _tag: "withdrawalMarkPaid", id }
  throw new UsageError(`unknown command: withdrawals ${[verb, ...rest].join(" ")}`)
}

const operatorCommand = (values: Values, verb: string | undefined, rest: ReadonlyArray<string>): Command => {
  noMore(rest)
  if (verb === "list") return { _tag: "operatorsList" }
  if (verb === "add") {
    const role = values.role?.trim().toLowerCase() ?? ""
    if (!isRole(role)) throw new UsageError(`--role is one of ${roles.join(", ")}`)
    return {
      _tag: "operatorsAdd",
      email: need("email", values.email).trim(),
      name: need("name", values.name).trim(),
      role,
    }
  }
  throw new UsageError(`unknown command: operators ${[verb, ...rest].join(" ")}`)
}

const otherCommand = (values: Values, positionals: ReadonlyArray<string>): Command => {
  const [group, verb, ...rest] = positionals
  if (group === "rates" && verb === "set") {
    const [currency, ...extra] = rest
    if (currency === undefined || !/^[A-Za-z0-9]{2,10}$/.test(currency))
      throw new UsageError("rates set needs a currency, e.g. rates set EUR --eur-rate 1")
    noMore(extra)
    return {
      _tag: "ratesSet",
      currency: currency.toUpperCase(),
      eurRate: values["eur-rate"],
      minDeposit: minor("min-deposit", values["min-deposit"]),
      minPromotion: minor("min-promotion", values["min-promotion"]),
      minWithdraw: minor("min-withdraw", values["min-withdraw"]),
    }
  }
  noMore(rest)
  const key = `${group ?? ""} ${verb ?? ""}`.trim()
  switch (key) {
    case "login":
      return { _tag: "login", email: need("email", values.email).trim() }
    case "logout":
      return { _tag: "logout" }
    case "whoami":
      return { _tag: "whoami" }
    case "rates list":
      return { _tag: "ratesList" }
    case "kyc pending":
      return { _tag: "pending" }
    case "kyc show":
      return { _tag: "show", email: need("email", values.email).trim() }
    case "kyc approve":
      return { _tag: "approve", document: documentRef(values) }
    case "kyc reject":
      return { _tag: "reject", document: documentRef(values), reason: need("reason", values.reason) }
    case "audit":
      return { _tag: "audit", limit: limitOf(values.limit, 20, 1_000) }
  }
  throw new UsageError(group === undefined ? "" : `unknown command: ${positionals.join(" ")}`)
}

export const parse = (argv: ReadonlyArray<string>): Options => {
  const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, options: optionSpec })
  if (values.help === true) throw new UsageError("")
  const [group, verb, ...rest] = positionals
  const command =
    group === "promotions"
      ? promotionCommand(values, verb, rest)
      : group === "withdrawals" && verb !== undefined
        ? withdrawalCommand(values, verb, rest)
        : group === "operators"
          ? operatorCommand(values, verb, rest)
          : otherCommand(values, positionals)
  return { command, json: values.json === true, server: values.server?.trim() || undefined }
}
