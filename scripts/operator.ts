/**
 * `npm run operator -- <command>`: what an operator does until the back office exists, through
 * the same service the back office will call (server/kyc/Kyc.ts) — never hand-written SQL. Every
 * decision is written to the operator audit with the operator's name. See docs/operations.md.
 *
 *   kyc pending                                      documents waiting for review
 *   kyc show    --email E                            a player's documents and their history
 *   kyc approve --email E --kind id|bill             approve the pending document
 *   kyc reject  --email E --kind id|bill --reason R  reject it; the player sees the reason
 *   audit [--limit N]                                the latest operator actions
 *   rates list                                       every currency's EUR rate and minimums
 *   rates set CUR [--eur-rate D] [--min-deposit N] [--min-promotion N] [--min-withdraw N]
 *                                                    change them (minimums in MINOR units: cents…)
 *   withdrawals list [--status S] [--limit N]        withdrawals (oldest first), e.g. --status requested
 *   withdrawals approve ID                           approve; the payout starts (fiat, ETH/USDT)
 *   withdrawals reject ID --reason R                 reject; the funds return to the player
 *   withdrawals mark-sent ID --tx HASH               a manual crypto payout (BTC/LTC/DOGE) was sent
 *   withdrawals mark-paid ID                         …and is confirmed: the withdrawal is paid
 *   (through server/withdrawals/Withdrawals.ts, each action audited; docs/withdrawals.md)
 *   promotions list | show ID                        promotions: bands, terms, usage, active
 *   promotions create --id ID --kind K --name N --band UPTO_EUR:PERCENT:SPINS… --max-bonus-eur E
 *                     --wagering X --max-bet-eur E --valid-days D [more options]
 *   promotions update ID [options]                   any --band replaces the bands
 *   promotions deactivate ID | activate ID
 *   (through server/bonuses/Promotions.ts, each change audited; docs/bonuses.md, "Operating
 *   promotions"; through a server: server/bonuses/operatorHttp.ts)
 *   operators add --email E --name N --role R       a back-office operator (the first admin too):
 *                                                    prints its one-time password; the second
 *                                                    factor is enrolled at its first login
 *   operators list                                   the back-office operators
 *   (through server/backoffice/Backoffice.ts, audited; docs/backoffice.md)
 *
 * Options: --as NAME (who acts when the command opens the database itself; default
 * cli:<user>@<host>), --json (machine-readable output), --server URL (go through that server's
 * operator endpoint, which records the operator whose secret it is, whatever --as says).
 *
 * Where it works: with DATABASE_URL it opens PostgreSQL directly (any number of servers may be
 * running). Without it the database is the embedded PGlite in DATA_DIR, which only one process may
 * open: when a server holds it, the command goes through that server's operator endpoint (its
 * address from `${DATA_DIR}/operator-endpoint.json`, the secret from OPERATOR_SECRET or
 * `${DATA_DIR}/operator-secret`); when none does, it opens the folder itself.
 *
 * Exit codes: 0 done, 1 refused (unknown player, nothing pending, no reason…), 2 usage or setup error.
 */

import { readFileSync } from "node:fs"
import { hostname, userInfo } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { Effect, Exit, Layer, References } from "effect"
import { makeDbLayer } from "../lib/db/client.ts"
import { Backoffice } from "../server/backoffice/Backoffice.ts"
import { Bonuses } from "../server/bonuses/Bonuses.ts"
import {
  type NewPromotion,
  type PromotionChangeRefused,
  type PromotionChanges,
  Promotions,
  type PromotionView,
} from "../server/bonuses/Promotions.ts"
import { AppConfig, ConfigError, loadConfig, operatorSecretFile } from "../server/config.ts"
import { migrate } from "../server/db/migrate.ts"
import { PlayerEvents } from "../server/events/PlayerEvents.ts"
import { Geo } from "../server/geo/Geo.ts"
import { Kyc, type KycReviewRefused } from "../server/kyc/Kyc.ts"
import { Ledger } from "../server/ledger/Ledger.ts"
import { Loyalty } from "../server/loyalty/Loyalty.ts"
import { Mailer } from "../server/mail/Mailer.ts"
import { OperatorAudit } from "../server/operator/Audit.ts"
import { readOperatorEndpoint } from "../server/operator/endpointFile.ts"
import { OPERATOR_PREFIX } from "../server/operator/http.ts"
import { Gateways } from "../server/payments/Gateways.ts"
import { FiatPayouts } from "../server/payments/payouts.ts"
import { DepositTotals } from "../server/responsible-gaming/DepositTotals.ts"
import { ResponsibleGaming } from "../server/responsible-gaming/ResponsibleGaming.ts"
import { RateLimiter } from "../server/security/RateLimiter.ts"
import { Passwords } from "../server/users/Passwords.ts"
import { Sessions } from "../server/users/Sessions.ts"
import { rateView } from "../server/wallet/operatorHttp.ts"
import { type RateChangeRefused, Rates } from "../server/wallet/Rates.ts"
import { Wallets } from "../server/wallet/Wallets.ts"
import {
  type OperatorError as WithdrawalOperatorError,
  Withdrawals,
} from "../server/withdrawals/Withdrawals.ts"
import { isRole, type Role, roles } from "../services/backoffice/permissions.ts"
import { type WithdrawalStatus, withdrawalStatuses } from "../services/cashout-service.ts"

const usage = `usage: npm run operator -- <command> [options]

  kyc pending                                       documents waiting for review
  kyc show    --email E                             a player's documents and their history
  kyc approve --email E --kind id|bill              approve the pending document
  kyc reject  --email E --kind id|bill --reason R   reject it (the player sees the reason)
  audit [--limit N]                                 the latest operator actions
  rates list                                        every currency's EUR rate and minimums
  rates set CUR [--eur-rate D] [--min-deposit N] [--min-promotion N] [--min-withdraw N]
                                                    change them; D an exact decimal (EUR per whole
                                                    unit), N in the currency's MINOR units (cents)
  withdrawals list [--status S] [--limit N]         withdrawals, oldest first (S: requested, approved…)
  withdrawals approve ID                            approve it; the payout starts where it can
  withdrawals reject ID --reason R                  reject it; the funds return to the player
  withdrawals mark-sent ID --tx HASH                record a manual crypto payout's transaction
  withdrawals mark-paid ID                          record that manual payout as confirmed (paid)
  promotions list                                   every promotion: kind, code, bands, terms, usage
  promotions show ID                                one promotion
  promotions create --id ID --kind deposit_bonus|free_spins --name N --band B [--band B…]
                    --max-bonus-eur E --wagering X --max-bet-eur E --valid-days D [promotion options]
  promotions update ID [promotion options]          change it; any --band replaces all its bands
  promotions deactivate ID                          switch it off: no offer, no grant, code refused
  promotions activate ID                            switch it on again
  operators add --email E --name N --role R         a back-office operator (R: support, kyc, payments,
                                                    marketing, admin); prints its one-time password,
                                                    the second factor is enrolled at its first login
  operators list                                    the back-office operators
    promotion options: --name N  --description D  --code C  --deposit-number K
      --band UPTO_EUR:PERCENT:SPINS (repeat, bounds increasing; UPTO_EUR "above" for the open band,
      exactly one, last)  --max-bonus-eur E  --wagering X (0…100)  --max-bet-eur E  --valid-days D
      --free-spin-game G --free-spin-bet-eur E  --currencies EUR,USD|all  --starts ISO  --ends ISO
      --max-uses N  --max-uses-per-player N  --unlock-deposit-eur E  --extra-bonus-percent P (free_spins:
      the deposit that unlocks their winnings, and the extra bonus it earns)
      E: EUR like 8000 or 0.20; ISO: 2027-01-31 (midnight UTC) or 2027-01-31T18:00:00Z;
      "none" clears --code, --deposit-number, --free-spin-game/--free-spin-bet-eur, --starts,
      --ends, --max-uses, --unlock-deposit-eur.

options: --as NAME   who acts when the database is opened directly (default cli:<user>@<host>);
                     through a server, the operator is the one the secret belongs to
         --json      machine-readable output
         --server U  go through the operator endpoint of the server at U
See docs/operations.md.`

class UsageError extends Error {}

type Command =
  | { readonly _tag: "pending" }
  | { readonly _tag: "show"; readonly email: string }
  | { readonly _tag: "approve"; readonly email: string; readonly kind: "ID" | "BILL" }
  | { readonly _tag: "reject"; readonly email: string; readonly kind: "ID" | "BILL"; readonly reason: string }
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
  | {
      readonly _tag: "withdrawalsList"
      readonly status: WithdrawalStatus | undefined
      readonly limit: number
    }
  | { readonly _tag: "withdrawalApprove"; readonly id: string }
  | { readonly _tag: "withdrawalReject"; readonly id: string; readonly reason: string }
  | { readonly _tag: "withdrawalMarkSent"; readonly id: string; readonly txHash: string }
  | { readonly _tag: "withdrawalMarkPaid"; readonly id: string }
  | PromotionsCommand
  | { readonly _tag: "operatorsAdd"; readonly email: string; readonly name: string; readonly role: Role }
  | { readonly _tag: "operatorsList" }

type PromotionsCommand =
  | { readonly _tag: "promotionsList" }
  | { readonly _tag: "promotionsShow"; readonly id: string }
  | { readonly _tag: "promotionsCreate"; readonly input: NewPromotion }
  | { readonly _tag: "promotionsUpdate"; readonly id: string; readonly changes: PromotionChanges }
  | { readonly _tag: "promotionsSetActive"; readonly id: string; readonly active: boolean }

interface Options {
  readonly command: Command
  readonly actor: string
  readonly json: boolean
  readonly server: string | undefined
}

const parse = (argv: ReadonlyArray<string>): Options => {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      email: { type: "string" },
      kind: { type: "string" },
      reason: { type: "string" },
      limit: { type: "string" },
      as: { type: "string" },
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
    },
  })
  if (values.help === true) throw new UsageError("")
  const need = (name: "email" | "reason", value: string | undefined): string => {
    if (value === undefined || value.trim() === "") throw new UsageError(`--${name} is required`)
    return value
  }
  const kind = (): "ID" | "BILL" => {
    const k = values.kind?.toLowerCase()
    if (k === "id") return "ID"
    if (k === "bill") return "BILL"
    throw new UsageError("--kind must be id (identity document) or bill (proof of address)")
  }
  const [group, verb, ...rest] = positionals
  const minor = (name: string, value: string | undefined): string | undefined => {
    if (value === undefined) return undefined
    if (!/^\d{1,38}$/.test(value))
      throw new UsageError(`--${name} takes minor units (digits only, e.g. 1000 for 10.00)`)
    return value
  }
  let command: Command
  if (group === "promotions") {
    const actor = values.as?.trim() || `cli:${userInfo().username}@${hostname()}`
    if (actor.length > 100 || /[\p{Cc}\p{Cs}]/u.test(actor))
      throw new UsageError("--as: 1 to 100 printable characters")
    // "none" clears a field that may be empty (null); undefined leaves it as it is.
    const clearable = (value: string | undefined): string | null | undefined =>
      value === undefined ? undefined : value.trim().toLowerCase() === "none" ? null : value
    const changes: PromotionChanges = {
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
    const given = Object.values(changes).some((v) => v !== undefined)
    const [id, ...extra] = rest
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    const needId = () => {
      if (id === undefined || id.trim() === "")
        throw new UsageError(`promotions ${verb} needs a promotion id`)
      return id.trim()
    }
    if (verb === "list" && id === undefined) command = { _tag: "promotionsList" }
    else if (verb === "show") command = { _tag: "promotionsShow", id: needId() }
    else if (verb === "activate" || verb === "deactivate")
      command = { _tag: "promotionsSetActive", id: needId(), active: verb === "activate" }
    else if (verb === "update") {
      const target = needId()
      if (values.id !== undefined || values.kind !== undefined)
        throw new UsageError("promotions update cannot change --id or --kind (create another promotion)")
      if (!given) throw new UsageError("promotions update needs at least one option to change")
      command = { _tag: "promotionsUpdate", id: target, changes }
    } else if (verb === "create" && id === undefined) {
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
      command = {
        _tag: "promotionsCreate",
        input: { ...changes, id: values.id ?? "", kind: values.kind ?? "" },
      }
    } else throw new UsageError(`unknown command: ${positionals.join(" ")}`)
    return { command, actor, json: values.json === true, server: values.server }
  }
  if (group === "operators") {
    if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`)
    if (verb === "list") command = { _tag: "operatorsList" }
    else if (verb === "add") {
      const role = values.role?.trim().toLowerCase() ?? ""
      if (!isRole(role)) throw new UsageError(`--role is one of ${roles.join(", ")}`)
      if (values.name === undefined || values.name.trim() === "") throw new UsageError("--name is required")
      command = {
        _tag: "operatorsAdd",
        email: need("email", values.email).trim(),
        name: values.name.trim(),
        role,
      }
    } else throw new UsageError(`unknown command: ${positionals.join(" ")}`)
    const actor = values.as?.trim() || `cli:${userInfo().username}@${hostname()}`
    if (actor.length > 100 || /[\p{Cc}\p{Cs}]/u.test(actor))
      throw new UsageError("--as: 1 to 100 printable characters")
    return { command, actor, json: values.json === true, server: values.server }
  }
  if (group === "rates" && verb === "set") {
    const [currency, ...extra] = rest
    if (currency === undefined || !/^[A-Za-z0-9]{2,10}$/.test(currency))
      throw new UsageError("rates set needs a currency, e.g. rates set EUR --eur-rate 1")
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    command = {
      _tag: "ratesSet",
      currency: currency.toUpperCase(),
      eurRate: values["eur-rate"],
      minDeposit: minor("min-deposit", values["min-deposit"]),
      minPromotion: minor("min-promotion", values["min-promotion"]),
      minWithdraw: minor("min-withdraw", values["min-withdraw"]),
    }
    const actor = values.as?.trim() || `cli:${userInfo().username}@${hostname()}`
    return { command, actor, json: values.json === true, server: values.server }
  }
  if (group === "withdrawals" && verb !== undefined && verb !== "list") {
    const [id, ...extra] = rest
    if (id === undefined || id.trim() === "")
      throw new UsageError(`withdrawals ${verb} needs a withdrawal id`)
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`)
    if (verb === "approve") command = { _tag: "withdrawalApprove", id }
    else if (verb === "reject")
      command = { _tag: "withdrawalReject", id, reason: need("reason", values.reason) }
    else if (verb === "mark-sent") {
      if (values.tx === undefined || values.tx.trim() === "") throw new UsageError("--tx is required")
      command = { _tag: "withdrawalMarkSent", id, txHash: values.tx.trim() }
    } else if (verb === "mark-paid") command = { _tag: "withdrawalMarkPaid", id }
    else throw new UsageError(`unknown command: ${positionals.join(" ")}`)
    const actor = values.as?.trim() || `cli:${userInfo().username}@${hostname()}`
    if (actor.length > 100 || /[\p{Cc}\p{Cs}]/u.test(actor))
      throw new UsageError("--as: 1 to 100 printable characters")
    return { command, actor, json: values.json === true, server: values.server }
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`)
  if (group === "rates" && verb === "list") command = { _tag: "ratesList" }
  else if (group === "withdrawals" && verb === "list") {
    const status = values.status
    if (status !== undefined && !(withdrawalStatuses as ReadonlyArray<string>).includes(status))
      throw new UsageError(`--status is one of ${withdrawalStatuses.join(", ")}`)
    const limit = Number(values.limit ?? "100")
    if (!Number.isInteger(limit) || limit < 1 || limit > 1_000)
      throw new UsageError("--limit must be 1 … 1000")
    command = {
      _tag: "withdrawalsList",
      status: withdrawalStatuses.find((s) => s === status),
      limit,
    }
  } else if (group === "kyc" && verb === "pending") command = { _tag: "pending" }
  else if (group === "kyc" && verb === "show") command = { _tag: "show", email: need("email", values.email) }
  else if (group === "kyc" && verb === "approve")
    command = { _tag: "approve", email: need("email", values.email), kind: kind() }
  else if (group === "kyc" && verb === "reject")
    command = {
      _tag: "reject",
      email: need("email", values.email),
      kind: kind(),
      reason: need("reason", values.reason),
    }
  else if (group === "audit" && verb === undefined) {
    const limit = Number(values.limit ?? "20")
    if (!Number.isInteger(limit) || limit < 1 || limit > 1_000)
      throw new UsageError("--limit must be 1 … 1000")
    command = { _tag: "audit", limit }
  } else throw new UsageError(group === undefined ? "" : `unknown command: ${positionals.join(" ")}`)
  const actor = values.as?.trim() || `cli:${userInfo().username}@${hostname()}`
  if (actor.length > 100 || /[\p{Cc}\p{Cs}]/u.test(actor))
    throw new UsageError("--as: 1 to 100 printable characters")
  return { command, actor, json: values.json === true, server: values.server }
}

// ── Output ──────────────────────────────────────────────────────────────────────────────────
interface Refused {
  readonly refused: true
  readonly error: string
  readonly message: string
}

const isRefused = (value: unknown): value is Refused =>
  typeof value === "object" && value !== null && "refused" in value && value.refused === true

const print = (options: Options, result: unknown): void => {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    return
  }
  if (isRefused(result)) {
    process.stderr.write(`refused (${result.error}): ${result.message}\n`)
    return
  }
  const c = options.command
  const r = result as Record<string, unknown>
  switch (c._tag) {
    case "pending": {
      const docs = (r.documents ?? []) as ReadonlyArray<Record<string, unknown>>
      if (docs.length === 0) process.stdout.write("No document is waiting for review.\n")
      for (const d of docs) {
        process.stdout.write(
          `${String(d.uploadedAt)}  ${String(d.kind).padEnd(4)}  ${String(d.email)}  ${String(d.fileName)} ` +
            `(${String(d.contentType)}, ${String(d.size)} bytes, sha256 ${String(d.sha256)})\n`,
        )
      }
      return
    }
    case "approve":
    case "reject":
      process.stdout.write(
        `${String(r.status)}: ${String(r.kind)} document of ${String(r.email)} (${String(r.id)})` +
          `${r.reason === null || r.reason === undefined ? "" : ` — reason: ${String(r.reason)}`}\n`,
      )
      return
    case "audit": {
      const entries = (r.entries ?? []) as ReadonlyArray<Record<string, unknown>>
      if (entries.length === 0) process.stdout.write("No operator action yet.\n")
      for (const e of entries) {
        process.stdout.write(
          `${String(e.at)}  ${String(e.actor)}  ${String(e.action)}  ${String(e.subject ?? "-")}  ${JSON.stringify(e.details)}\n`,
        )
      }
      return
    }
    case "show":
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
      return
    case "ratesList": {
      const rates = (r.rates ?? []) as ReadonlyArray<Record<string, unknown>>
      for (const x of rates) {
        process.stdout.write(
          `${String(x.currency).padEnd(5)} eurRate ${String(x.eurRate).padEnd(12)} minDeposit ${String(x.minDeposit)}  ` +
            `minPromotion ${String(x.minPromotion)}  minWithdraw ${String(x.minWithdraw)}  (${String(x.updatedBy)})\n`,
        )
      }
      return
    }
    case "withdrawalsList": {
      const rows = (r.withdrawals ?? []) as ReadonlyArray<Record<string, unknown>>
      if (rows.length === 0) process.stdout.write("No withdrawal.\n")
      for (const w of rows) process.stdout.write(`${withdrawalLine(w)}\n`)
      return
    }
    case "withdrawalApprove":
    case "withdrawalReject":
    case "withdrawalMarkSent":
    case "withdrawalMarkPaid":
      process.stdout.write(`${withdrawalLine(r)}\n`)
      return
    case "promotionsList": {
      const promotions = (r.promotions ?? []) as ReadonlyArray<PromotionView>
      if (promotions.length === 0) process.stdout.write("No promotion.\n")
      for (const p of promotions) process.stdout.write(`${promotionLines(p).join("\n")}\n`)
      return
    }
    case "promotionsShow":
    case "promotionsCreate":
    case "promotionsUpdate":
    case "promotionsSetActive":
      process.stdout.write(`${promotionLines(result as PromotionView).join("\n")}\n`)
      return
    case "operatorsAdd": {
      const o = (r.operator ?? {}) as Record<string, unknown>
      process.stdout.write(
        `created ${String(o.role)} ${String(o.email)} (${String(o.id)})\n` +
          `one-time password: ${String(r.initialPassword)}\n` +
          "It is shown only now. The second factor (TOTP) is enrolled at the first login.\n",
      )
      return
    }
    case "operatorsList": {
      const operators = (r.operators ?? []) as ReadonlyArray<Record<string, unknown>>
      if (operators.length === 0) process.stdout.write("No back-office operator.\n")
      for (const o of operators)
        process.stdout.write(
          `${String(o.email)}  ${String(o.role).padEnd(9)}  ${o.enrolled === true ? "enrolled" : "not enrolled"}` +
            `${o.disabled === true ? "  DISABLED" : ""}  "${String(o.name)}"  ${String(o.id)}\n`,
        )
      return
    }
    case "ratesSet":
      process.stdout.write(
        `${String(r.currency)}: eurRate ${String(r.eurRate)}, minDeposit ${String(r.minDeposit)}, ` +
          `minPromotion ${String(r.minPromotion)}, minWithdraw ${String(r.minWithdraw)} (minor units)\n`,
      )
  }
}

/** One withdrawal on one line: when, id, status, amount, method and destination, whose, reason/tx. */
const withdrawalLine = (w: Record<string, unknown>): string =>
  `${String(w.createdAt)}  ${String(w.id)}  ${String(w.status).padEnd(9)}  ${String(w.amount)} ${String(w.currency)} ` +
  `${String(w.method)} → ${String(w.destination)}  (${String(w.email)})` +
  `${w.reason === null || w.reason === undefined ? "" : ` — reason: ${String(w.reason)}`}` +
  `${w.txHash === null || w.txHash === undefined ? "" : ` — tx ${String(w.txHash)}`}`

/** One promotion as an operator reads it: a head line, then its bands, terms, spins, offer and usage. */
const promotionLines = (p: PromotionView): ReadonlyArray<string> => {
  const bands = p.bands
    .map(
      (b) =>
        `${b.upToEur === null ? "above" : `up to ${b.upToEur} EUR`}: ${b.percent}%` +
        `${b.freeSpins > 0 ? ` + ${b.freeSpins} spins` : ""}`,
    )
    .join(" | ")
  return [
    `${p.id}  ${p.kind}  ${p.active ? "active" : "INACTIVE"}  code ${p.code ?? "-"}  ` +
      `deposit ${p.depositNumber === null ? "any" : `#${p.depositNumber}`}  "${p.name}"`,
    ...(p.description === "" ? [] : [`  text      ${p.description}`]),
    `  bands     ${bands === "" ? "-" : bands}`,
    `  terms     max bonus ${p.maxBonusEur} EUR, wagering ${p.wageringMultiple}×, max bet ${p.maxBetEur} EUR, ` +
      `valid ${p.validDays} days`,
    `  spins     ${p.freeSpinGame === null ? "-" : `${p.freeSpinGame} at ${String(p.freeSpinBetEur)} EUR`}`,
    ...(p.kind === "free_spins"
      ? [
          `  unlock    winnings unlocked by a deposit of ${p.unlockDepositEur ?? "any"} EUR or more, ` +
            `+${p.extraBonusPercent}% of it as extra bonus`,
        ]
      : []),
    `  offered   currencies ${p.currencies === null ? "all" : p.currencies.join(",")}, ` +
      `from ${p.startsAt ?? "-"} until ${p.endsAt ?? "-"}`,
    `  usage     ${p.uses} granted / ${p.maxUses === null ? "no limit" : `${p.maxUses} max`}, ` +
      `${p.maxUsesPerPlayer} per player`,
  ]
}

// ── Direct: open the database and call the service ──────────────────────────────────────────
const runDirect = async (options: Options): Promise<unknown> => {
  const config = loadConfig(process.env)
  // Withdrawals with what they need (the server's money services, without HTTP).
  const WithdrawalServices = Withdrawals.layer.pipe(
    Layer.provideMerge(FiatPayouts.layer),
    Layer.provideMerge(Layer.mergeAll(Bonuses.layer, Loyalty.layer)),
    Layer.provideMerge(Layer.mergeAll(Ledger.layer, Wallets.layer, Gateways.layer, ResponsibleGaming.layer)),
    Layer.provideMerge(Layer.mergeAll(Sessions.layer, DepositTotals.layer, PlayerEvents.layer)),
  )
  const services = WithdrawalServices.pipe(
    Layer.provideMerge(Layer.mergeAll(Kyc.layer, Rates.layer, Promotions.layer, Backoffice.layer)),
    Layer.provideMerge(Layer.mergeAll(Passwords.layer, Mailer.layer)),
    Layer.provideMerge(Layer.mergeAll(OperatorAudit.layer, RateLimiter.layer, Geo.layer)),
    Layer.provideMerge(Layer.effectDiscard(migrate())),
    Layer.provideMerge(makeDbLayer(config)),
    Layer.provideMerge(AppConfig.layerFrom(config)),
  )
  const refused = (e: KycReviewRefused | RateChangeRefused): Refused => ({
    refused: true,
    error: e.reason,
    message: e.message,
  })
  const withdrawalRefused = (e: WithdrawalOperatorError): Refused => ({
    refused: true,
    error: e._tag,
    message: e.message,
  })
  const promotionRefused = (e: PromotionChangeRefused): Refused => ({
    refused: true,
    error: e.reason,
    message: e.message,
  })
  const program = Effect.gen(function* () {
    const kyc = yield* Kyc
    const promotions = yield* Promotions
    const audit = yield* OperatorAudit
    const rates = yield* Rates
    const withdrawals = yield* Withdrawals
    const backoffice = yield* Backoffice
    const c = options.command
    const decided = <A>(effect: Effect.Effect<A, WithdrawalOperatorError>) =>
      effect.pipe(
        Effect.catchTags({
          WithdrawalNotFound: (e) => Effect.succeed(withdrawalRefused(e)),
          WithdrawalMoveRefused: (e) => Effect.succeed(withdrawalRefused(e)),
          WithdrawalInputRefused: (e) => Effect.succeed(withdrawalRefused(e)),
        }),
      )
    const promotionChange = (effect: Effect.Effect<PromotionView, PromotionChangeRefused>) =>
      effect.pipe(Effect.catchTag("PromotionChangeRefused", (e) => Effect.succeed(promotionRefused(e))))
    switch (c._tag) {
      case "operatorsList":
        return { operators: yield* backoffice.listOperators() }
      case "operatorsAdd":
        return yield* backoffice
          .createOperator(
            { operatorId: null, email: null, label: options.actor, ip: null },
            { email: c.email, name: c.name, role: c.role },
          )
          .pipe(
            Effect.catchTags({
              BadInput: (e) =>
                Effect.succeed({ refused: true, error: e._tag, message: e.message } satisfies Refused),
              EmailTaken: (e) =>
                Effect.succeed({ refused: true, error: e._tag, message: e.message } satisfies Refused),
            }),
          )
      case "promotionsList":
        return { promotions: yield* promotions.list() }
      case "promotionsShow":
        return yield* promotionChange(promotions.show(c.id))
      case "promotionsCreate":
        return yield* promotionChange(promotions.create(c.input, options.actor))
      case "promotionsUpdate":
        return yield* promotionChange(promotions.update(c.id, c.changes, options.actor))
      case "promotionsSetActive":
        return yield* promotionChange(promotions.setActive(c.id, c.active, options.actor))
      case "withdrawalsList":
        return { withdrawals: yield* withdrawals.list(c.status, c.limit) }
      case "withdrawalApprove":
        return yield* decided(withdrawals.approve(c.id, options.actor))
      case "withdrawalReject":
        return yield* decided(withdrawals.reject(c.id, options.actor, c.reason))
      case "withdrawalMarkSent":
        return yield* decided(withdrawals.markSent(c.id, options.actor, c.txHash))
      case "withdrawalMarkPaid":
        return yield* decided(withdrawals.markPaid(c.id, options.actor))
      case "ratesList":
        return { rates: (yield* rates.list()).map(rateView) }
      case "ratesSet":
        return yield* rates
          .set({
            currency: c.currency,
            eurRate: c.eurRate,
            minDeposit: c.minDeposit === undefined ? undefined : BigInt(c.minDeposit),
            minPromotion: c.minPromotion === undefined ? undefined : BigInt(c.minPromotion),
            minWithdraw: c.minWithdraw === undefined ? undefined : BigInt(c.minWithdraw),
            actor: options.actor,
          })
          .pipe(
            Effect.map(rateView),
            Effect.catchTag("RateChangeRefused", (e) => Effect.succeed(refused(e))),
          )
      case "pending":
        return { documents: yield* kyc.pending() }
      case "show":
        return yield* kyc
          .documentsOf(c.email)
          .pipe(Effect.catchTag("KycReviewRefused", (e) => Effect.succeed(refused(e))))
      case "approve":
        return yield* kyc
          .approve({ email: c.email, kind: c.kind, actor: options.actor })
          .pipe(Effect.catchTag("KycReviewRefused", (e) => Effect.succeed(refused(e))))
      case "reject":
        return yield* kyc
          .reject({ email: c.email, kind: c.kind, reason: c.reason, actor: options.actor })
          .pipe(Effect.catchTag("KycReviewRefused", (e) => Effect.succeed(refused(e))))
      case "audit": {
        const rows = yield* audit.latest(c.limit).pipe(Effect.orDie)
        return { entries: rows.map((row) => ({ ...row, at: row.at.toISOString() })) }
      }
    }
  })
  // Logs (e.g. "applied migrations") stay out of the command's output unless they are warnings.
  const quiet = Layer.succeed(References.MinimumLogLevel, "Warn")
  const exit = await Effect.runPromiseExit(
    program.pipe(Effect.provide(services), Effect.provide(quiet), Effect.scoped),
  )
  if (Exit.isSuccess(exit)) return exit.value
  throw new SetupError(`the command failed: ${String(exit.cause)}`)
}

// ── Through a running server ────────────────────────────────────────────────────────────────
class SetupError extends Error {}

const runViaServer = async (options: Options, base: string, secret: string): Promise<unknown> => {
  const c = options.command
  const headers = {
    // The server records the operator this secret belongs to: `--as` names only direct database use.
    authorization: `Bearer ${secret}`,
    "content-type": "application/json",
  }
  const url = (path: string) => `${base.replace(/\/+$/, "")}${OPERATOR_PREFIX}${path}`
  let res: Response
  try {
    switch (c._tag) {
      case "operatorsList":
        res = await fetch(url("/backoffice/operators"), { headers })
        break
      case "operatorsAdd":
        res = await fetch(url("/backoffice/operators"), {
          method: "POST",
          headers,
          body: JSON.stringify({ email: c.email, name: c.name, role: c.role }),
        })
        break
      case "pending":
        res = await fetch(url("/kyc/pending"), { headers })
        break
      case "show":
        res = await fetch(url(`/kyc/documents?email=${encodeURIComponent(c.email)}`), { headers })
        break
      case "approve":
        res = await fetch(url("/kyc/approve"), {
          method: "POST",
          headers,
          body: JSON.stringify({ email: c.email, kind: c.kind }),
        })
        break
      case "reject":
        res = await fetch(url("/kyc/reject"), {
          method: "POST",
          headers,
          body: JSON.stringify({ email: c.email, kind: c.kind, reason: c.reason }),
        })
        break
      case "audit":
        res = await fetch(url(`/audit?limit=${c.limit}`), { headers })
        break
      case "ratesList":
        res = await fetch(url("/rates"), { headers })
        break
      case "withdrawalsList":
        res = await fetch(
          url(`/withdrawals?limit=${c.limit}${c.status === undefined ? "" : `&status=${c.status}`}`),
          {
            headers,
          },
        )
        break
      case "withdrawalApprove":
      case "withdrawalMarkPaid":
        res = await fetch(url(`/withdrawals/${c._tag === "withdrawalApprove" ? "approve" : "mark-paid"}`), {
          method: "POST",
          headers,
          body: JSON.stringify({ id: c.id }),
        })
        break
      case "withdrawalReject":
        res = await fetch(url("/withdrawals/reject"), {
          method: "POST",
          headers,
          body: JSON.stringify({ id: c.id, reason: c.reason }),
        })
        break
      case "withdrawalMarkSent":
        res = await fetch(url("/withdrawals/mark-sent"), {
          method: "POST",
          headers,
          body: JSON.stringify({ id: c.id, txHash: c.txHash }),
        })
        break
      case "promotionsList":
        res = await fetch(url("/promotions"), { headers })
        break
      case "promotionsShow":
        res = await fetch(url(`/promotions/show?id=${encodeURIComponent(c.id)}`), { headers })
        break
      case "promotionsCreate":
        res = await fetch(url("/promotions/create"), {
          method: "POST",
          headers,
          body: JSON.stringify(c.input),
        })
        break
      case "promotionsUpdate":
        res = await fetch(url("/promotions/update"), {
          method: "POST",
          headers,
          body: JSON.stringify({ id: c.id, changes: c.changes }),
        })
        break
      case "promotionsSetActive":
        res = await fetch(url("/promotions/set-active"), {
          method: "POST",
          headers,
          body: JSON.stringify({ id: c.id, active: c.active }),
        })
        break
      case "ratesSet":
        res = await fetch(url("/rates/set"), {
          method: "POST",
          headers,
          body: JSON.stringify({
            currency: c.currency,
            eurRate: c.eurRate,
            minDeposit: c.minDeposit,
            minPromotion: c.minPromotion,
            minWithdraw: c.minWithdraw,
          }),
        })
        break
    }
  } catch (error) {
    throw new SetupError(
      `cannot reach the server at ${base}: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  const body = (await res.json()) as Record<string, unknown>
  if (res.ok) return body
  if (res.status === 401 || res.status === 400) {
    throw new SetupError(`the server refused the operator request (${res.status}): ${String(body.message)}`)
  }
  return { refused: true, error: String(body.error), message: String(body.message) } satisfies Refused
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const operatorSecret = (dataDir: string): string => {
  const fromEnv = process.env.OPERATOR_SECRET?.trim()
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv
  try {
    return readFileSync(operatorSecretFile(dataDir), "utf8").trim()
  } catch {
    throw new SetupError(
      `no operator secret: set OPERATOR_SECRET or run from the server's DATA_DIR (${operatorSecretFile(dataDir)})`,
    )
  }
}

/** The pid holding the embedded database of `dataDir`, when that process is alive. */
const pgliteHolder = (dataDir: string): number | undefined => {
  try {
    const pid = Number.parseInt(readFileSync(join(dataDir, "pglite.lock"), "utf8"), 10)
    return Number.isInteger(pid) && pid !== process.pid && isAlive(pid) ? pid : undefined
  } catch {
    return undefined
  }
}

const main = async (): Promise<number> => {
  let options: Options
  try {
    options = parse(process.argv.slice(2))
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.message !== "") process.stderr.write(`operator: ${error.message}\n\n`)
      process.stderr.write(`${usage}\n`)
      return 2
    }
    throw error
  }
  const dataDir = process.env.DATA_DIR?.trim() || ".data"
  let result: unknown
  try {
    if (options.server !== undefined) {
      result = await runViaServer(options, options.server, operatorSecret(dataDir))
    } else if (process.env.DATABASE_URL?.trim()) {
      result = await runDirect(options)
    } else {
      const holder = pgliteHolder(dataDir)
      if (holder === undefined) result = await runDirect(options)
      else {
        const endpoint = readOperatorEndpoint(dataDir)
        if (endpoint === undefined || endpoint.pid !== holder) {
          throw new SetupError(
            `the embedded database in ${dataDir}/pglite is in use by process ${holder}, which publishes no ` +
              "operator endpoint; stop it, pass --server URL, or use PostgreSQL (DATABASE_URL)",
          )
        }
        result = await runViaServer(options, endpoint.url, operatorSecret(dataDir))
      }
    }
  } catch (error) {
    if (error instanceof SetupError || error instanceof ConfigError) {
      process.stderr.write(`operator: ${error.message}\n`)
      return 2
    }
    throw error
  }
  print(options, result)
  return isRefused(result) ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`operator: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(2)
  },
)
