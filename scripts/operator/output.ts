/** What a command prints: the API's answer as text for a person, or as JSON with `--json`. */
import type { Promotion } from "../../services/backoffice/settings.ts"
import type { Output } from "./io.ts"
import type { Command } from "./parse.ts"

export interface RefusedView {
  readonly refused: true
  readonly error: string
  readonly message: string
}

type PromotionView = typeof Promotion.Type
type Row = Record<string, unknown>

export const printRefused = (io: Output, json: boolean, refused: RefusedView): void => {
  if (json) io.stdout(`${JSON.stringify(refused, null, 2)}\n`)
  else io.stderr(`refused (${refused.error}): ${refused.message}\n`)
}

/** One withdrawal on one line: when, id, status, amount, method and destination, whose, reason/tx. */
const withdrawalLine = (w: Row): string =>
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

const rows = (value: unknown): ReadonlyArray<Row> =>
  Array.isArray(value) ? (value as ReadonlyArray<Row>) : []

const meLine = (r: Row): string => {
  const o = (r.operator ?? {}) as Row
  return `${String(o.email)}  ${String(r.role)}  "${String(o.name)}"  ${String(o.id)}\n`
}

export const print = (io: Output, command: Command, json: boolean, result: unknown): void => {
  const out = io.stdout
  if (json) {
    out(`${JSON.stringify(result, null, 2)}\n`)
    return
  }
  const r = (result ?? {}) as Row
  switch (command._tag) {
    case "login":
    case "logout":
      out(`${String(r.message)}\n`)
      return
    case "whoami":
      out(meLine(r))
      out(`permissions: ${rows(r.permissions).join(", ")}\n`)
      return
    case "pending": {
      const docs = rows(r.documents)
      if (docs.length === 0) out("No document is waiting for review.\n")
      for (const d of docs)
        out(
          `${String(d.uploadedAt)}  ${String(d.kind).padEnd(8)}  ${String(d.email)}  ${String(d.fileName)} ` +
            `(${String(d.contentType)}, ${String(d.size)} bytes, sha256 ${String(d.sha256)})  ${String(d.id)}\n`,
        )
      return
    }
    case "approve":
    case "reject":
      out(
        `${String(r.status)}: ${String(r.kind)} document of ${String(r.email)} (${String(r.id)})` +
          `${r.reason === null || r.reason === undefined ? "" : ` — reason: ${String(r.reason)}`}\n`,
      )
      return
    case "audit": {
      const entries = rows(r.entries)
      if (entries.length === 0) out("No operator action yet.\n")
      for (const e of entries)
        out(
          `${String(e.at)}  ${String(e.who)}  ${String(e.action)}  ${String(e.subjectName ?? e.subject ?? "-")}  ` +
            `${JSON.stringify({ before: e.before, after: e.after })}\n`,
        )
      return
    }
    case "show":
      out(`${JSON.stringify(result, null, 2)}\n`)
      return
    case "ratesList":
      for (const x of rows(r.rates))
        out(
          `${String(x.currency).padEnd(5)} eurRate ${String(x.eurRate).padEnd(12)} minDeposit ${String(x.minDeposit)}  ` +
            `minPromotion ${String(x.minPromotion)}  minWithdraw ${String(x.minWithdraw)}  (${String(x.updatedBy)})\n`,
        )
      return
    case "ratesSet":
      out(
        `${String(r.currency)}: eurRate ${String(r.eurRate)}, minDeposit ${String(r.minDeposit)}, ` +
          `minPromotion ${String(r.minPromotion)}, minWithdraw ${String(r.minWithdraw)} (minor units)\n`,
      )
      return
    case "withdrawalsList": {
      const list = rows(r.withdrawals)
      if (list.length === 0) out("No withdrawal is waiting for a decision.\n")
      for (const w of list) out(`${withdrawalLine(w)}\n`)
      return
    }
    case "withdrawalApprove":
    case "withdrawalReject":
    case "withdrawalMarkSent":
    case "withdrawalMarkPaid":
      out(`${withdrawalLine(r)}\n`)
      return
    case "promotionsList": {
      const promotions = rows(r.promotions) as unknown as ReadonlyArray<PromotionView>
      if (promotions.length === 0) out("No promotion.\n")
      for (const p of promotions) out(`${promotionLines(p).join("\n")}\n`)
      return
    }
    case "promotionsShow":
    case "promotionsCreate":
    case "promotionsUpdate":
    case "promotionsSetActive":
      out(`${promotionLines(result as PromotionView).join("\n")}\n`)
      return
    case "operatorsAdd": {
      const o = (r.operator ?? {}) as Row
      out(
        `created ${String(o.role)} ${String(o.email)} (${String(o.id)})\n` +
          `one-time password: ${String(r.initialPassword)}\n` +
          "It is shown only now. The second factor (TOTP) is enrolled at the first login.\n",
      )
      return
    }
    case "operatorsList": {
      const operators = rows(r.operators)
      if (operators.length === 0) out("No back-office operator.\n")
      for (const o of operators)
        out(
          `${String(o.email)}  ${String(o.role).padEnd(9)}  ${o.enrolled === true ? "enrolled" : "not enrolled"}` +
            `${o.disabled === true ? "  DISABLED" : ""}  "${String(o.name)}"  ${String(o.id)}\n`,
        )
      return
    }
  }
}
