/**
 * The verifier's bet-options form, per game kind (no JSON to type): what each field holds while it is
 * edited (text, so a half-typed number stays as typed), how a round's recorded options fill it, and
 * the options it makes for the maths. Pure; the maths itself checks the values (its message is shown).
 */
import { MINES_TILES } from "../../services/games/mines.ts"
import { type PlinkoRisk, plinkoRisks } from "../../services/games/plinko.ts"
import { type RouletteBetType, rouletteBetTypes } from "../../services/games/roulette.ts"

export type GameKind = "dice" | "crash" | "mines" | "plinko" | "roulette" | "slot"

export interface RouletteBetForm {
  readonly type: RouletteBetType
  /** The numbers covered, as typed: "17", "1, 2" (none for red, black, …). */
  readonly numbers: string
  readonly chips: string
}

export type OptionsForm =
  | { readonly kind: "none" }
  | { readonly kind: "dice"; readonly target: string; readonly direction: "over" | "under" }
  | { readonly kind: "crash"; readonly target: string }
  | { readonly kind: "mines"; readonly mines: string; readonly picks: ReadonlyArray<number> }
  | { readonly kind: "plinko"; readonly rows: string; readonly risk: PlinkoRisk }
  | { readonly kind: "roulette"; readonly bets: ReadonlyArray<RouletteBetForm> }
  | { readonly kind: "slot" }

/** The fields of the one-value options (roulette's bets and mines' tiles have events of their own). */
export type OptionField = "target" | "direction" | "mines" | "rows" | "risk"

export const OptionMessages = {
  target: "The target is a number, e.g. 50.5.",
  whole: "Mines and rows are whole numbers.",
  numbers: "A bet's numbers are whole numbers separated by commas, e.g. 1, 2.",
  chips: "Chips are a whole number, 1 or more.",
} as const

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === "object" && v !== null && !Array.isArray(v)

const text = (v: unknown, fallback: string): string =>
  typeof v === "number" && Number.isFinite(v) ? String(v) : typeof v === "string" ? v : fallback

const intList = (v: unknown): ReadonlyArray<number> =>
  Array.isArray(v) ? v.filter((n): n is number => Number.isInteger(n)) : []

export const emptyRouletteBet: RouletteBetForm = { type: "red", numbers: "", chips: "1" }

/** The form of `kind` filled from recorded (or default) options; what does not fit falls back. */
export const formOf = (kind: GameKind | "none", options: unknown): OptionsForm => {
  const o = isRecord(options) ? options : {}
  switch (kind) {
    case "none":
      return { kind }
    case "dice":
      return { kind, target: text(o.target, "50"), direction: o.direction === "over" ? "over" : "under" }
    case "crash":
      return { kind, target: text(o.target, "2") }
    case "mines":
      return { kind, mines: text(o.mines, "3"), picks: intList(o.picks) }
    case "plinko":
      return {
        kind,
        rows: text(o.rows, "12"),
        risk: plinkoRisks.find((r) => r === o.risk) ?? "medium",
      }
    case "roulette": {
      const bets = Array.isArray(o.bets) ? o.bets.filter(isRecord) : []
      return {
        kind,
        bets: bets.map((b) => ({
          type: rouletteBetTypes.find((t) => t === b.type) ?? "red",
          numbers: intList(b.numbers).join(", "),
          chips: text(b.chips, "1"),
        })),
      }
    }
    case "slot":
      return { kind }
  }
}

const numberIn = (value: string): number | undefined => {
  const t = value.trim()
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : undefined
}

const wholeIn = (value: string): number | undefined => {
  const t = value.trim()
  return /^\d{1,6}$/.test(t) ? Number(t) : undefined
}

/** The options the form makes for the maths, or the message saying which field is wrong. */
export const optionsOf = (
  form: OptionsForm,
): { readonly options: unknown } | { readonly problem: string } => {
  switch (form.kind) {
    case "none":
    case "slot":
      return { options: {} }
    case "dice": {
      const target = numberIn(form.target)
      return target === undefined
        ? { problem: OptionMessages.target }
        : { options: { target, direction: form.direction } }
    }
    case "crash": {
      const target = numberIn(form.target)
      return target === undefined ? { problem: OptionMessages.target } : { options: { target } }
    }
    case "mines": {
      const mines = wholeIn(form.mines)
      return mines === undefined
        ? { problem: OptionMessages.whole }
        : { options: { mines, picks: form.picks } }
    }
    case "plinko": {
      const rows = wholeIn(form.rows)
      return rows === undefined ? { problem: OptionMessages.whole } : { options: { rows, risk: form.risk } }
    }
    case "roulette": {
      const bets: Array<{ type: RouletteBetType; numbers: ReadonlyArray<number>; chips: number }> = []
      for (const b of form.bets) {
        const parts = b.numbers.split(/[\s,]+/).filter((p) => p !== "")
        if (!parts.every((p) => /^\d{1,2}$/.test(p))) return { problem: OptionMessages.numbers }
        const chips = wholeIn(b.chips)
        if (chips === undefined || chips < 1) return { problem: OptionMessages.chips }
        bets.push({ type: b.type, numbers: parts.map(Number), chips })
      }
      return { options: { bets } }
    }
  }
}

/** One option field set; a field the kind does not have leaves the form as it is. */
export const setOption = (form: OptionsForm, field: OptionField, value: string): OptionsForm => {
  switch (form.kind) {
    case "dice":
      if (field === "target") return { ...form, target: value }
      if (field === "direction") return { ...form, direction: value === "over" ? "over" : "under" }
      return form
    case "crash":
      return field === "target" ? { ...form, target: value } : form
    case "mines":
      return field === "mines" ? { ...form, mines: value } : form
    case "plinko":
      if (field === "rows") return { ...form, rows: value }
      if (field === "risk") return { ...form, risk: plinkoRisks.find((r) => r === value) ?? form.risk }
      return form
    default:
      return form
  }
}

/** A mines tile picked or unpicked (picks keep the order they were opened in). */
export const toggleTile = (form: OptionsForm, tile: number): OptionsForm => {
  if (form.kind !== "mines" || !Number.isInteger(tile) || tile < 0 || tile >= MINES_TILES) return form
  return form.picks.includes(tile)
    ? { ...form, picks: form.picks.filter((t) => t !== tile) }
    : { ...form, picks: [...form.picks, tile] }
}

export const addRouletteBet = (form: OptionsForm): OptionsForm =>
  form.kind === "roulette" ? { ...form, bets: [...form.bets, emptyRouletteBet] } : form

export const removeRouletteBet = (form: OptionsForm, index: number): OptionsForm =>
  form.kind === "roulette" ? { ...form, bets: form.bets.filter((_, i) => i !== index) } : form

export const setRouletteBet = (
  form: OptionsForm,
  index: number,
  field: "type" | "numbers" | "chips",
  value: string,
): OptionsForm => {
  if (form.kind !== "roulette") return form
  return {
    ...form,
    bets: form.bets.map((b, i) => {
      if (i !== index) return b
      if (field === "type") return { ...b, type: rouletteBetTypes.find((t) => t === value) ?? b.type }
      return { ...b, [field]: value }
    }),
  }
}
