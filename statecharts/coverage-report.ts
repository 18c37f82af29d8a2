/**
 * Readable coverage reports, per machine, as Markdown:
 * - `machineCoverageMarkdown`: after a generated-path run (tests/model/models.test.ts writes it to
 *   test-results/coverage/<machine>.md): every state (✓/✗, how many paths pass through it), every
 *   transition (✓/✗, how many paths fire it, or the allow-list reason), the totals and the paths;
 * - `coverageIndexMarkdown`: test-results/model-coverage.md, the table of every machine of the run,
 *   linking to the per-machine files, and which machines the run covered (`MACHINES` filter);
 * - `e2eCoverageMarkdown`: after an end-to-end path run (tests/e2e/paths.spec.ts writes it to
 *   test-results/coverage/<machine>.e2e.md): the paths replayed in Chromium, the ones skipped with
 *   their reason, and which transitions the replayed paths fire.
 * Also the `MACHINES` filter shared by scripts/qa.ts and both test files.
 *
 * Pure and browser-safe (xstate only, no Node imports).
 */
import type { AnyStateMachine } from "xstate"
import { formatPaths } from "./path-format.ts"
import {
  allStateNodes,
  type CoverageReport,
  coverageGaps,
  coverageTable,
  type GeneratedPath,
  indexTransitions,
} from "./paths.ts"

// ── Which machines a run covers ──────────────────────────────────────────────────────────────
/** The environment variable that limits a run to some machines: `MACHINES=login,register`. */
export const MACHINES_ENV = "MACHINES"

/** `"login, register"` → `["login", "register"]`; unset or blank → null (every machine). */
export const selectedMachines = (value: string | undefined): ReadonlyArray<string> | null => {
  const names = (value ?? "")
    .split(/[\s,]+/)
    .map((n) => n.trim())
    .filter((n) => n !== "")
  return names.length === 0 ? null : [...new Set(names)]
}

/** Names in `selected` that are not in `known` (empty when nothing is selected). */
export const unknownMachines = (
  selected: ReadonlyArray<string> | null,
  known: ReadonlyArray<string>,
): Array<string> => (selected === null ? [] : selected.filter((n) => !known.includes(n)))

// ── Markdown helpers ─────────────────────────────────────────────────────────────────────────
const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", " ")

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): Array<string> => [
  `| ${header.join(" | ")} |`,
  `|${header.map(() => "---").join("|")}|`,
  ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
]

const mark = (covered: boolean): string => (covered ? "✓" : "✗")

const percent = (covered: number, total: number): string =>
  total === 0 ? "100%" : `${Math.floor((covered * 100) / total)}%`

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`

/** How many of `paths` pass through each state id (any step visits it, transient states included). */
export const pathsThroughStates = (paths: ReadonlyArray<GeneratedPath>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const path of paths) {
    for (const id of new Set(path.steps.flatMap((s) => s.visited))) counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  return counts
}

/** How many of `paths` fire each transition key. */
export const pathsFiringTransitions = (paths: ReadonlyArray<GeneratedPath>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const path of paths) {
    for (const key of new Set(path.steps.flatMap((s) => s.fired))) counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

const resultOf = (report: CoverageReport): string =>
  report.problems.length > 0
    ? `fails: ${plural(report.problems.length, "problem")}`
    : report.uncoveredTransitions.length + report.uncoveredStates.length === 0
      ? "passes: every state and every transition covered"
      : "passes: every gap is explained (allow-listed)"

// ── One machine, generated paths ─────────────────────────────────────────────────────────────
export interface MachineCoverageInput {
  /** The model's file stem, e.g. `login` (machines/account/login.model.ts). */
  readonly flow: string
  readonly machine: AnyStateMachine
  readonly paths: ReadonlyArray<GeneratedPath>
  /** `coverageOf(model, paths)`. */
  readonly report: CoverageReport
  /** E.g. an ISO date; printed under the title when given. */
  readonly generatedAt?: string
}

export const machineCoverageMarkdown = (input: MachineCoverageInput): string => {
  const { flow, machine, paths, report } = input
  const through = pathsThroughStates(paths)
  const firing = pathsFiringTransitions(paths)
  const reasons = new Map(report.uncoveredTransitions.map((t) => [t.key, t.allowListed]))
  const uncoveredStates = new Set(report.uncoveredStates)
  const states = allStateNodes(machine).map((node) => {
    const count = through.get(node.id) ?? 0
    return [mark(!uncoveredStates.has(node.id)), `\`${node.id}\``, node.type, String(count)]
  })
  const transitions = indexTransitions(machine).all.map((t) => {
    const count = firing.get(t.key) ?? 0
    const covered = count > 0
    const reason = reasons.get(t.key)
    const note = covered
      ? ""
      : reason === undefined || reason === null
        ? "**not covered, no reason given**"
        : `allow-listed: ${reason}`
    return [mark(covered), t.label, String(count), note]
  })
  return [
    `# Coverage of ${report.name} (${flow}.model.ts in machines/)`,
    "",
    `Generated paths replayed on a real actor by tests/model/models.test.ts${input.generatedAt === undefined ? "" : `, ${input.generatedAt}`}.`,
    "",
    "## Totals",
    "",
    `- states: ${report.statesCovered}/${report.statesTotal} (${percent(report.statesCovered, report.statesTotal)})`,
    `- transitions: ${report.transitionsCovered}/${report.transitionsTotal} (${percent(report.transitionsCovered, report.transitionsTotal)}), ${report.allowListed} allow-listed`,
    `- paths: ${report.paths}`,
    `- result: ${resultOf(report)}`,
    ...report.problems.map((p) => `  - ${p}`),
    "",
    "## States",
    "",
    "Paths = how many generated paths pass through the state (transient states included).",
    "",
    ...table(["", "state", "type", "paths"], states),
    "",
    "## Transitions",
    "",
    "Paths = how many generated paths fire the transition.",
    "",
    ...table(["", "transition", "paths", "note"], transitions),
    "",
    `## Paths (${paths.length})`,
    "",
    "```",
    formatPaths(machine, paths),
    "```",
    "",
  ].join("\n")
}

// ── The index of a model run ─────────────────────────────────────────────────────────────────
export interface IndexEntry {
  readonly flow: string
  readonly report: CoverageReport
  /** Relative link to the machine's own report, e.g. `coverage/login.md`. */
  readonly link: string
}

export interface IndexOptions {
  /** The `MACHINES` filter of the run, or null when every machine ran. */
  readonly selected: ReadonlyArray<string> | null
  /** Every machine that has a model, to name the ones a filtered run left out. */
  readonly known: ReadonlyArray<string>
  readonly generatedAt?: string
}

export const coverageIndexMarkdown = (entries: ReadonlyArray<IndexEntry>, options: IndexOptions): string => {
  const ran = entries.map((e) => e.flow)
  const left = options.known.filter((f) => !ran.includes(f))
  const scope =
    options.selected === null
      ? `This run covered every machine (${ran.length}).`
      : `This run covered only ${ran.join(", ")} (${MACHINES_ENV}=${options.selected.join(",")}); ` +
        `not run: ${left.length === 0 ? "none" : left.join(", ")}.`
  const details = coverageGaps(entries.map((e) => e.report))
  return [
    "# Model coverage",
    "",
    `Generated by tests/model/models.test.ts from every <machine>.model.ts under machines/${options.generatedAt === undefined ? "" : `, ${options.generatedAt}`}.`,
    "",
    scope,
    "",
    coverageTable(entries.map((e) => e.report)),
    "",
    "## Per machine",
    "",
    ...entries.map(
      (e) =>
        `- [${e.report.name}](${e.link}): states ${e.report.statesCovered}/${e.report.statesTotal}, ` +
        `transitions ${e.report.transitionsCovered}/${e.report.transitionsTotal}, ${plural(e.report.paths, "path")}`,
    ),
    "",
    ...(details.length === 0
      ? ["Every transition of every machine in this run is covered."]
      : ["## Gaps", "", ...details]),
    "",
  ].join("\n")
}

// ── One machine, end-to-end plan ─────────────────────────────────────────────────────────────
/** What tests/e2e/support/replay.ts `planFor` returns (`E2ePlan`), as far as the report needs it. */
export interface E2ePlanView {
  readonly name: string
  readonly generated: number
  readonly playable: number
  readonly chosen: ReadonlyArray<GeneratedPath>
  readonly skipped: ReadonlyArray<{ readonly path: GeneratedPath; readonly reason: string }>
  readonly goals: number
  readonly goalsShown: number
  /** Planned with FULL=1: every distinct call outcome is a goal too, not only every transition. */
  readonly full: boolean
}

export interface E2eCoverageInput {
  readonly flow: string
  readonly machine: AnyStateMachine
  readonly plan: E2ePlanView
  /** The test titles of the paths (replay.ts `titlesOf`); the path id when missing. */
  readonly titles?: ReadonlyMap<GeneratedPath, string>
  readonly generatedAt?: string
}

export const e2eCoverageMarkdown = (input: E2eCoverageInput): string => {
  const { flow, machine, plan } = input
  const title = (p: GeneratedPath): string => input.titles?.get(p) ?? p.id
  const firing = pathsFiringTransitions(plan.chosen)
  const skippedFiring = new Map(
    plan.skipped.map((s) => [s, new Set(s.path.steps.flatMap((step) => step.fired))] as const),
  )
  const all = indexTransitions(machine).all
  const shown = all.filter((t) => (firing.get(t.key) ?? 0) > 0).length
  const transitions = all.map((t) => {
    const count = firing.get(t.key) ?? 0
    const onlySkipped = plan.skipped.filter((s) => skippedFiring.get(s)?.has(t.key) === true)
    const note =
      count > 0
        ? ""
        : onlySkipped.length > 0
          ? `only in skipped paths: ${onlySkipped
              .map((s) => s.reason)
              .filter((r, i, rs) => rs.indexOf(r) === i)
              .join("; ")}`
          : "in no generated path (see the model coverage report)"
    return [mark(count > 0), t.label, String(count), note]
  })
  return [
    `# End-to-end coverage of ${plan.name} (${flow}.model.ts in machines/)`,
    "",
    `Generated paths replayed in Chromium against the real server by tests/e2e/paths.spec.ts${input.generatedAt === undefined ? "" : `, ${input.generatedAt}`}.`,
    plan.full
      ? "The plan: the fewest playable paths that show every transition and every distinct call outcome (FULL=1)."
      : "The plan: the fewest playable paths that show every transition (FULL=1 adds every distinct call outcome).",
    "Whether each replayed path passed: the Playwright output and playwright-report/index.html.",
    "",
    "## Totals",
    "",
    `- paths: ${plan.generated} generated, ${plan.playable} playable, ${plan.chosen.length} replayed, ${plan.skipped.length} skipped`,
    `- transitions fired by the replayed paths: ${shown}/${all.length} (${percent(shown, all.length)})`,
    `- goals (transitions and call outcomes) shown: ${plan.goalsShown}/${plan.goals}`,
    "",
    `## Replayed paths (${plan.chosen.length})`,
    "",
    ...(plan.chosen.length === 0 ? ["(none)"] : plan.chosen.map((p, i) => `${i + 1}. ${title(p)}`)),
    "",
    `## Skipped paths (${plan.skipped.length})`,
    "",
    ...(plan.skipped.length === 0
      ? ["(none)"]
      : plan.skipped.map((s, i) => `${i + 1}. ${title(s.path)}: ${s.reason}`)),
    "",
    "## Transitions",
    "",
    "Paths = how many replayed paths fire the transition.",
    "",
    ...table(["", "transition", "paths", "note"], transitions),
    "",
    "## Replayed paths, step by step",
    "",
    "```",
    plan.chosen.length === 0 ? "(none)" : formatPaths(machine, plan.chosen),
    "```",
    "",
  ].join("\n")
}
