/**
 * The QA tools: the readable path listing (statecharts/path-format.ts, `npm run paths`), the
 * per-machine coverage reports (statecharts/coverage-report.ts, written by the model and e2e path
 * runs), the MACHINES filter, and the two scripts' answers to a machine they do not know.
 */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { and, createMachine, not } from "xstate"
import { model as loginModel } from "../../machines/account/login.model.ts"
import {
  coverageIndexMarkdown,
  e2eCoverageMarkdown,
  machineCoverageMarkdown,
  pathsFiringTransitions,
  pathsThroughStates,
  selectedMachines,
  unknownMachines,
} from "../../statecharts/coverage-report.ts"
import { repoRoot } from "../../statecharts/discover.ts"
import {
  describePath,
  formatPath,
  formatPaths,
  guardName,
  pathJson,
  shortStateId,
  statesLabel,
  transitionsByKey,
} from "../../statecharts/path-format.ts"
import { type AnyModel, coverageOf, type GeneratedPath, generatePaths } from "../../statecharts/paths.ts"
import checkoutModel from "../model/fixtures/checkout.model.ts"

const checkout: AnyModel = checkoutModel
const checkoutPaths = generatePaths(checkout)
const checkoutReport = coverageOf(checkout, checkoutPaths)
const login: AnyModel = loginModel
const loginPaths = generatePaths(login)

const pathWithId = (paths: ReadonlyArray<GeneratedPath>, id: string): GeneratedPath => {
  const path = paths.find((p) => p.id === id)
  if (path === undefined) throw new Error(`no path ${id} among ${paths.map((p) => p.id).join(" | ")}`)
  return path
}

const linesOf = (model: AnyModel, path: GeneratedPath): Array<string> =>
  describePath(model.machine, path).steps.map((s) => s.line)

/** `from ──EVENT [guards]──▶ …to`, optionally followed by `   with {payload}`. */
const STEP_LINE = /^(\S.*?) ──([^─]+?)──▶ (.*\S)$/

describe("path listing: state → event → state", () => {
  it("gives every step after the first the ──EVENT──▶ shape, with the step's own event (fixture and login)", () => {
    for (const [model, paths] of [
      [checkout, checkoutPaths],
      [login, loginPaths],
    ] as const) {
      expect(paths.length).toBeGreaterThan(0)
      for (const path of paths) {
        const view = describePath(model.machine, path)
        expect(view.steps).toHaveLength(path.steps.length)
        expect(view.steps[0]?.line.startsWith("(start) ")).toBe(true)
        for (const step of view.steps.slice(1)) {
          const match = STEP_LINE.exec(step.line)
          expect(match, step.line).not.toBeNull()
          expect(match?.[2]?.startsWith(step.event), step.line).toBe(true)
          expect(step.line.startsWith(`${step.from} ──`), step.line).toBe(true)
        }
      }
    }
  })

  it("names the states of a known fixture path relative to the machine, with guards and the always choice", () => {
    const path = pathWithId(
      checkoutPaths,
      "TYPE → SUBMIT → xstate.error.actor.pay(Error) → RETRY → xstate.error.actor.pay(Error)",
    )
    expect(linesOf(checkout, path)).toEqual([
      "(start) form.editing",
      'form.editing ──TYPE──▶ form.editing   with {"value":"ada@example.com"}',
      "form.editing ──SUBMIT [emailLooksValid]──▶ paying",
      "paying ──xstate.error.actor.pay(Error)──▶ failed ──always──▶ retryable",
      "retryable ──RETRY──▶ paying",
      "paying ──xstate.error.actor.pay(Error)──▶ failed ──always [outOfAttempts]──▶ locked",
    ])
  })

  it("joins parallel regions with + and goes through a compound state's onDone", () => {
    const path = pathWithId(checkoutPaths, "TYPE → SUBMIT → xstate.done.actor.pay → NEXT_STEP")
    expect(linesOf(checkout, path).slice(3)).toEqual([
      'paying ──xstate.done.actor.pay──▶ paid.receipt.shown + paid.sound.on   with {"output":{"receipt":"r-1"}}',
      "paid.receipt.shown + paid.sound.on ──NEXT_STEP──▶ paid ──xstate.done.state.checkout.paid──▶ finished",
    ])
  })

  it("lists a known login path with short names and the guard that fired", () => {
    const path = pathWithId(loginPaths, "CHANGE_EMAIL → SUBMIT → CHANGE_EMAIL")
    expect(linesOf(login, path)).toEqual([
      "(start) editing",
      'editing ──CHANGE_EMAIL──▶ editing   with {"value":"ada@blocked.example"}',
      "editing ──SUBMIT [emailIsBlocked]──▶ editing",
      'editing ──CHANGE_EMAIL──▶ editing   with {"value":"ada@lovelace.example"}',
    ])
    const signedIn = loginPaths.find((p) => p.steps.at(-1)?.stateIds.includes("login.signedIn"))
    expect(signedIn).toBeDefined()
    if (signedIn !== undefined) {
      expect(linesOf(login, signedIn).at(-1)).toMatch(
        /^submitting ──xstate\.done\.actor\.signIn \[isSignedIn\]──▶ signedIn {3}with /,
      )
    }
  })

  it("shows every guard of the login machine somewhere in its listing, and never the machine prefix", () => {
    const guards = [...transitionsByKey(login.machine).values()].flatMap((t) =>
      t.guard === null ? [] : [t.guard],
    )
    expect([...new Set(guards)].sort()).toEqual([
      "captchaIsMissing",
      "emailIsBlocked",
      "emailIsInvalid",
      "isClientFailure",
      "isSignedIn",
      "passwordIsMissing",
    ])
    const listing = formatPaths(login.machine, loginPaths)
    for (const guard of guards) expect(listing).toContain(`[${guard}]──▶`)
    expect(listing).not.toMatch(/(^|\s)login\./m)
  })

  it("numbers each path's header with its id and prints the context on request", () => {
    const path = pathWithId(loginPaths, "SUBMIT → SUBMIT")
    const plain = formatPath(describePath(login.machine, path, 7))
    expect(plain.split("\n")).toEqual([
      "7. SUBMIT → SUBMIT",
      "  (start) editing",
      "  editing ──SUBMIT [emailIsInvalid]──▶ editing",
      "  editing ──SUBMIT [emailIsInvalid]──▶ editing",
    ])
    const withContext = formatPath(describePath(login.machine, path, 7), { context: true }).split("\n")
    expect(withContext).toHaveLength(7)
    expect(withContext[2]).toBe(
      '      context {"captcha":false,"email":"invalid","errors":{},"password":false}',
    )
    const numbered = formatPaths(login.machine, loginPaths)
      .split("\n")
      .filter((l) => /^\d+\. /.test(l))
    expect(numbered).toEqual(loginPaths.map((p, i) => `${i + 1}. ${p.id}`))
  })

  it("shows the transitions taken while the machine starts", () => {
    const bouncing: AnyModel = {
      name: "bouncing",
      machine: createMachine({
        id: "bouncing",
        initial: "entry",
        states: { entry: { always: "settled" }, settled: { on: { POKE: "entry" } } },
      }),
      events: [{ type: "POKE" }],
    }
    const [path] = generatePaths(bouncing)
    expect(path).toBeDefined()
    if (path === undefined) return
    expect(linesOf(bouncing, path)).toEqual([
      "(start) entry ──always──▶ settled",
      "settled ──POKE──▶ entry ──always──▶ settled",
    ])
  })

  it("names states and guards", () => {
    expect(shortStateId("login", "login.submitting")).toBe("submitting")
    expect(shortStateId("login", "loginx.submitting")).toBe("loginx.submitting")
    expect(statesLabel("checkout", ["checkout.paid.receipt.shown", "checkout.paid.sound.on"])).toBe(
      "paid.receipt.shown + paid.sound.on",
    )
    expect(guardName(undefined)).toBeNull()
    expect(guardName("isValid")).toBe("isValid")
    expect(guardName({ type: "isSignedIn", params: {} })).toBe("isSignedIn")
    expect(guardName(and(["a", not("b")]))).toBe("and(a, not(b))")
  })

  it("gives tools the same lines as JSON", () => {
    const path = pathWithId(loginPaths, "SUBMIT → SUBMIT")
    const json = JSON.parse(JSON.stringify(pathJson(login.machine, path, 1))) as {
      id: string
      steps: Array<{ line: string; guards: Array<string>; event: { type: string } }>
    }
    expect(json.id).toBe("SUBMIT → SUBMIT")
    expect(json.steps.map((s) => s.event.type)).toEqual(["xstate.init", "SUBMIT", "SUBMIT"])
    expect(json.steps[1]?.guards).toEqual(["emailIsInvalid"])
    expect(json.steps.map((s) => s.line)).toEqual(linesOf(login, path))
  })
})

// ── Coverage reports ─────────────────────────────────────────────────────────────────────────
const tableRows = (markdown: string, section: string): Array<Array<string>> => {
  const start = markdown.indexOf(`## ${section}`)
  expect(start, section).toBeGreaterThan(-1)
  const rest = markdown.slice(start).split("\n").slice(1)
  const end = rest.findIndex((l) => l.startsWith("## "))
  return (end === -1 ? rest : rest.slice(0, end))
    .filter((l) => l.startsWith("| ✓") || l.startsWith("| ✗"))
    .map((l) =>
      l
        .slice(2, -2)
        .split(" | ")
        .map((c) => c.trim()),
    )
}

describe("per-machine coverage report (model run)", () => {
  const markdown = machineCoverageMarkdown({
    flow: "checkout",
    machine: checkout.machine,
    paths: checkoutPaths,
    report: checkoutReport,
  })

  it("shows the known gap with ✗ and its allow-list reason", () => {
    const rows = tableRows(markdown, "Transitions")
    const gap = rows.filter((r) => r[0] === "✗")
    expect(gap).toEqual([
      [
        "✗",
        "checkout.locked —ADMIN_UNLOCK→ checkout.retryable",
        "0",
        "allow-listed: Sent by the back office, never by the player: the model leaves it out on purpose.",
      ],
    ])
    expect(markdown).toContain("- result: passes: every gap is explained (allow-listed)")
  })

  it("counts what coverageOf counts, and how many paths pass through each state and fire each transition", () => {
    const transitions = tableRows(markdown, "Transitions")
    expect(transitions).toHaveLength(checkoutReport.transitionsTotal)
    expect(transitions.filter((r) => r[0] === "✓")).toHaveLength(checkoutReport.transitionsCovered)
    const states = tableRows(markdown, "States")
    expect(states).toHaveLength(checkoutReport.statesTotal)
    expect(states.filter((r) => r[0] === "✓")).toHaveLength(checkoutReport.statesCovered)
    expect(markdown).toContain(
      `- transitions: ${checkoutReport.transitionsCovered}/${checkoutReport.transitionsTotal} (93%), 1 allow-listed`,
    )
    expect(markdown).toContain(
      `- states: ${checkoutReport.statesCovered}/${checkoutReport.statesTotal} (100%)`,
    )
    // Counted independently of the report's helpers.
    const lockedPaths = checkoutPaths.filter((p) =>
      p.steps.some((s) => s.stateIds.includes("checkout.locked")),
    )
    expect(lockedPaths.length).toBeGreaterThan(0)
    expect(states.find((r) => r[1] === "`checkout.locked`")).toEqual([
      "✓",
      "`checkout.locked`",
      "atomic",
      String(lockedPaths.length),
    ])
    const retry = checkoutPaths.filter((p) => p.steps.some((s) => s.event.type === "RETRY"))
    expect(transitions.find((r) => r[1] === "checkout.retryable —RETRY→ checkout.paying")?.[2]).toBe(
      String(retry.length),
    )
    expect(pathsThroughStates(checkoutPaths).get("checkout.locked")).toBe(lockedPaths.length)
    expect(pathsFiringTransitions(checkoutPaths).get("checkout.retryable|RETRY|0")).toBe(retry.length)
  })

  it("lists every path, readable", () => {
    expect(markdown).toContain(`## Paths (${checkoutPaths.length})`)
    for (const [i, path] of checkoutPaths.entries()) expect(markdown).toContain(`\n${i + 1}. ${path.id}\n`)
    expect(markdown).toContain(
      "paying ──xstate.error.actor.pay(Error)──▶ failed ──always [outOfAttempts]──▶ locked",
    )
  })

  it("flags an unexplained gap", () => {
    const bare: AnyModel = { ...checkout, uncovered: [] }
    const report = coverageOf(bare, checkoutPaths)
    const md = machineCoverageMarkdown({
      flow: "checkout",
      machine: bare.machine,
      paths: checkoutPaths,
      report,
    })
    expect(tableRows(md, "Transitions").filter((r) => r[0] === "✗")).toEqual([
      ["✗", "checkout.locked —ADMIN_UNLOCK→ checkout.retryable", "0", "**not covered, no reason given**"],
    ])
    expect(md).toContain("- result: fails: 1 problem")
  })
})

describe("model-coverage.md, the index of a run", () => {
  const entries = [{ flow: "checkout", report: checkoutReport, link: "coverage/checkout.md" }]

  it("says which machines a filtered run covered and links to their reports", () => {
    const md = coverageIndexMarkdown(entries, {
      selected: ["checkout"],
      known: ["checkout", "login", "auth"],
    })
    expect(md).toContain("This run covered only checkout (MACHINES=checkout); not run: login, auth.")
    expect(md).toContain(
      "- [checkout (fixture)](coverage/checkout.md): states 16/16, transitions 14/15, 16 paths",
    )
    expect(md).toContain("checkout.locked —ADMIN_UNLOCK→ checkout.retryable: Sent by the back office")
  })

  it("says when every machine ran", () => {
    expect(coverageIndexMarkdown(entries, { selected: null, known: ["checkout"] })).toContain(
      "This run covered every machine (1).",
    )
  })
})

describe("per-machine e2e report", () => {
  const chosen = checkoutPaths.filter((p) => !p.id.includes("RETRY"))
  const retrying = checkoutPaths.filter((p) => p.id.includes("RETRY"))
  const skippedPath = retrying[0]

  it("lists replayed and skipped paths, and which transitions only the skipped ones fire", () => {
    expect(skippedPath).toBeDefined()
    if (skippedPath === undefined) return
    const plan = {
      name: "checkout (fixture)",
      generated: checkoutPaths.length,
      playable: chosen.length,
      chosen,
      skipped: [{ path: skippedPath, reason: "the server cannot retry" }],
      goals: 20,
      goalsShown: 15,
      full: false,
    }
    const md = e2eCoverageMarkdown({ flow: "checkout", machine: checkout.machine, plan })
    expect(md).toContain(
      `- paths: ${checkoutPaths.length} generated, ${chosen.length} playable, ${chosen.length} replayed, 1 skipped`,
    )
    expect(md).toContain(`1. ${skippedPath.id}: the server cannot retry`)
    const rows = tableRows(md, "Transitions")
    expect(rows.find((r) => r[1] === "checkout.retryable —RETRY→ checkout.paying")).toEqual([
      "✗",
      "checkout.retryable —RETRY→ checkout.paying",
      "0",
      "only in skipped paths: the server cannot retry",
    ])
    expect(rows.find((r) => r[1] === "checkout.locked —ADMIN_UNLOCK→ checkout.retryable")?.[3]).toBe(
      "in no generated path (see the model coverage report)",
    )
    const shown = rows.filter((r) => r[0] === "✓").length
    expect(shown).toBe(new Set(chosen.flatMap((p) => p.steps.flatMap((s) => s.fired))).size)
    expect(md).toContain(`- transitions fired by the replayed paths: ${shown}/${rows.length}`)
  })
})

// ── The MACHINES filter and the scripts ──────────────────────────────────────────────────────
describe("MACHINES", () => {
  it("parses a list, and treats blank as every machine", () => {
    expect(selectedMachines("login,register")).toEqual(["login", "register"])
    expect(selectedMachines(" login, login  register ")).toEqual(["login", "register"])
    expect(selectedMachines("")).toBeNull()
    expect(selectedMachines(undefined)).toBeNull()
    expect(unknownMachines(["login", "nosuch"], ["login", "auth"])).toEqual(["nosuch"])
    expect(unknownMachines(null, ["login"])).toEqual([])
  })
})

const run = (script: string, args: ReadonlyArray<string>) =>
  spawnSync(process.execPath, [join(repoRoot, "scripts", script), ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, MACHINES: "" },
  })

describe("the scripts refuse a machine they do not know", () => {
  it("npm run paths -- nosuch: exit 1 with the known machines", () => {
    const result = run("paths.ts", ["nosuch"])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("unknown machine: nosuch")
    expect(result.stderr).toMatch(/known machines: .*\blogin\b/)
  })

  it("npm run test:paths -- nosuch: exit 1 before any test runs", () => {
    const result = run("qa.ts", ["paths", "login", "nosuch"])
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(/unknown machine: nosuch\nknown machines: .*\blogin\b/)
    expect(result.stdout).not.toContain("RUN")
  })

  it("npm run test:e2e:paths -- auth: exit 1 naming the machines with bindings", () => {
    const result = run("qa.ts", ["e2e", "auth"])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("no end-to-end binding for auth")
    expect(result.stderr).toMatch(/machines with end-to-end bindings: .*\blogin\b/)
    expect(result.stderr).not.toMatch(/bindings: .*\bauth\b/)
  })

  it("npm run paths -- login --json prints the login paths", () => {
    const result = run("paths.ts", ["login", "--json"])
    expect(result.status).toBe(0)
    const json = JSON.parse(result.stdout) as { machines: Array<{ flow: string; paths: Array<unknown> }> }
    expect(json.machines.map((m) => m.flow)).toEqual(["login"])
    expect(json.machines[0]?.paths).toHaveLength(loginPaths.length)
  })
})
