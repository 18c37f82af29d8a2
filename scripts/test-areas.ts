/**
 * What each test file covers, read from the files themselves: the product spec's sections (its
 * routes, statecharts, validation messages, calls, error messages and constants, each found as the
 * literal text or path the test uses) and the hidden-risk areas a reviewer asks about (ledger, money,
 * bonus rules, security, fairness, crash durability), by fixed word lists. The same rules read any
 * commit, so a change that speeds the suite up can show it lost nothing (issue 33):
 *
 *   npm run test:areas                 writes test-results/test-areas.md (the list, per file and per area)
 *   npm run test:areas -- --check REF  compares with commit REF: every file's items at REF must still
 *                                      be covered by that file now (exit 1 and the losses otherwise)
 *
 * Why word lists and literals, not coverage data: the question is what a file *claims to check*,
 * which is what its assertions name; the lists are crude but the same before and after.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"

const SPEC = "../shared/spec/casino-spec.md"

/** A spec section's text: from its heading to the next one. */
const sectionOf = (spec: string, n: number): string => {
  const start = spec.indexOf(`\n## ${n}. `)
  if (start < 0) throw new Error(`spec section ${n} not found in ${SPEC}`)
  const end = spec.indexOf("\n## ", start + 1)
  return spec.slice(start, end < 0 ? undefined : end)
}

/** The quoted messages of a text ('…'), the longer ones only (a word alone proves nothing). */
const quoted = (text: string): string[] =>
  [...text.matchAll(/(?<=[\s(:])'([^\n]{12,}?)'(?=[\s.,;:)])/g)]
    .map((m) => m[1] ?? "")
    .filter((s) => !s.includes("{") && !/ '|' /.test(s))

/** The calls of section 7 as matchers on the part after `/api/v1` (path parameters match any segment). */
const callsOf = (section: string): { name: string; pattern: RegExp }[] => {
  const paths = new Set<string>()
  for (const m of section.matchAll(/\/[a-z-]+-service\/api\/v1(\/[A-Za-z0-9/{}_-]+)/g)) paths.add(m[1] ?? "")
  return [...paths].map((path) => {
    const source = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/\"'`\\s]+")
    // Followed by the end of the literal, a query or a template hole: `/profile` is not `/profile/session`.
    return { name: path, pattern: new RegExp(`${source}(?=["'\`?]|\\$\\{)`) }
  })
}

/** Section 8's messages: the table's last column, alternatives split on " / ". */
const errorMessagesOf = (section: string): string[] =>
  section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| Context") && !line.startsWith("|---"))
    .flatMap((line) => (line.split("|")[3] ?? "").split(" / "))
    .map((s) => s.trim())
    .filter((s) => s.length >= 5 && !s.startsWith("messages listed") && !s.startsWith("silent"))

/** Section 9's constants, each by the words or numbers a test of it must name. */
const CONSTANTS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    "bonus tiers by deposit count",
    /\b(125|150|200) ?%|first deposit|second deposit|deposit count|depositCount|tier/i,
  ],
  ["quick amounts 30, 75, 100", /\b30\b[^\n]{0,12}\b75\b[^\n]{0,12}\b100\b/],
  ["gateway opens at amount × eurRate ≥ 10", /eurRate|eur_rate/],
  ["amount max length 12", /maxLength|max length|maxlength/i],
  ["cashout min 10.00 / max 400.00 EUR", /10\.00 EUR|400\.00|minWithdraw/],
  ["crypto purchase widget tiers", /\b4\.5 ?%|\b5 ?% fee|banxa|purchase widget/i],
  [
    "time constants",
    /300[_ ]?000|5 minutes|20 minutes|15 s\b|15_000|10 minutes|2 s\b|2_000|toast|500 ms|3 s\b|3_000/,
  ],
  ["game list 12 and 12 more", /\b12\b[^\n]{0,40}more|more[^\n]{0,40}\b12\b|pageSize|page size/i],
  ["register banner threshold 1100 px", /1100/],
  ["postal code max 7", /\bzip(Code)?\b|postal/i],
  ["date of birth 1900-01-01 to 2005-12-31", /1900-01-01|2005-12-31/],
  ["password lengths 3 and 8", /too short|more than 8/i],
  ["Escape closes the currency dropdown", /Escape/],
]

/** The hidden-risk areas, each by the words its tests use. */
const AREAS: ReadonlyArray<readonly [string, RegExp]> = [
  ["ledger", /ledger|double-entry|journal|postings?\b|\btransfers?\b/i],
  ["money", /\bbigint\b|\b\d+n\b|minor units|balance|withdraw|deposit|payout|refund/i],
  ["bonus rules", /bonus|wagering|free ?spins?|cashback|promotion/i],
  [
    "security",
    /csrf|\borigin\b|rate.?limit|\b429\b|argon|totp|permission|\b403\b|\b401\b|captcha|httpOnly|signature|hmac/i,
  ],
  ["fairness", /provabl|server ?seed|client ?seed|\bnonce\b|\bfair\b|fairness|rtp\b/i],
  ["crash durability", /SIGKILL|kill -9|\.kill\(|restart|durab|recover|crash-safe|power loss|after a crash/i],
  ["concurrency", /concurren|Promise\.all|race|in parallel|FOR UPDATE|lock/i],
  ["accessibility", /axe|wcag|a11y|aria-|keyboard|focus/i],
]

export interface FileAreas {
  readonly sections: ReadonlyArray<string>
  readonly areas: ReadonlyArray<string>
}

export const readRules = (spec: string) => {
  const routes = ["/terms", "/profile/verification"]
  return {
    validation: quoted(sectionOf(spec, 5)),
    calls: callsOf(sectionOf(spec, 7)),
    errors: errorMessagesOf(sectionOf(spec, 8)),
    routes,
  }
}

/** Every item one file covers: `§N <what>` for the spec, `area: <name>` for the risks. */
export const areasOf = (path: string, text: string, rules: ReturnType<typeof readRules>): FileAreas => {
  const sections = new Set<string>()
  const e2e = path.startsWith("tests/e2e/")
  if (e2e && /page\.goto\(/.test(text)) sections.add("§2 screens in the browser")
  for (const route of rules.routes)
    if (text.includes(`"${route}`) || text.includes(`\`${route}`)) sections.add(`§2 route ${route}`)
  if (/from "[./]*\/(machines|statecharts)\//.test(text) || path.startsWith("tests/model/"))
    sections.add("§4 statecharts")
  for (const message of rules.validation) if (text.includes(message)) sections.add(`§5 ${message}`)
  for (const call of rules.calls) if (call.pattern.test(text)) sections.add(`§7 ${call.name}`)
  for (const message of rules.errors) {
    // A one-word message ("Error") counts only as a whole literal, not as a word in any text.
    const named = message.includes(" ")
      ? text.includes(message)
      : [`"${message}"`, `'${message}'`, `\`${message}\``].some((literal) => text.includes(literal))
    if (named) sections.add(`§8 ${message}`)
  }
  for (const [name, pattern] of CONSTANTS) if (pattern.test(text)) sections.add(`§9 ${name}`)
  const areas = AREAS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name)
  return { sections: [...sections].sort(), areas }
}

const git = (...args: string[]): string => execFileSync("git", args, { encoding: "utf8", maxBuffer: 1 << 28 })

const isTestFile = (path: string): boolean => /^tests\/.*\.(test|spec)\.tsx?$/.test(path)

/** Every test file at a commit (or the work tree) with what it covers. */
const collect = (ref: string | null): Map<string, FileAreas> => {
  const spec = readFileSync(SPEC, "utf8")
  const rules = readRules(spec)
  const files = (ref === null ? git("ls-files", "tests") : git("ls-tree", "-r", "--name-only", ref, "tests"))
    .split("\n")
    .filter(isTestFile)
  const out = new Map<string, FileAreas>()
  for (const path of files.sort()) {
    const text = ref === null ? readFileSync(path, "utf8") : git("show", `${ref}:${path}`)
    out.set(path, areasOf(path, text, rules))
  }
  return out
}

const itemsOf = (areas: FileAreas): string[] => [...areas.sections, ...areas.areas.map((a) => `area: ${a}`)]

const render = (all: Map<string, FileAreas>): string => {
  const byItem = new Map<string, string[]>()
  for (const [path, areas] of all) {
    for (const item of itemsOf(areas)) byItem.set(item, [...(byItem.get(item) ?? []), path])
  }
  const lines = [
    "# What each test file covers",
    "",
    "Generated by `npm run test:areas` (scripts/test-areas.ts) from the test files themselves: the spec's",
    "sections by the literal routes, messages and call paths a file names (§4 for a file that drives a",
    "statechart, §9 by the constant's words), and the hidden-risk areas by fixed word lists.",
    "`npm run test:areas -- --check <commit>` fails when a file covers less than it did at that commit.",
    "",
    "## By area",
    "",
    "| item | files |",
    "|---|---|",
    ...[...byItem.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([item, paths]) => `| ${item.replaceAll("|", "\\|")} | ${paths.length} |`),
    "",
    "## By file",
    "",
    ...[...all.entries()].map(
      ([path, areas]) =>
        `- \`${path}\`: ${areas.areas.join(", ") || "—"}; ${areas.sections.join(" · ").replaceAll("|", "\\|") || "—"}`,
    ),
    "",
  ]
  return lines.join("\n")
}

const main = (): void => {
  const args = process.argv.slice(2)
  const now = collect(null)
  const checkAt = args.indexOf("--check")
  if (checkAt < 0) {
    mkdirSync("test-results", { recursive: true })
    writeFileSync("test-results/test-areas.md", render(now))
    console.log(`test-results/test-areas.md: ${now.size} test files`)
    return
  }
  const ref = args[checkAt + 1]
  if (ref === undefined) throw new Error("--check needs a commit")
  const before = collect(ref)
  const losses: string[] = []
  for (const [path, areas] of before) {
    const current = now.get(path)
    if (current === undefined) {
      losses.push(`${path}: removed (${itemsOf(areas).length} items)`)
      continue
    }
    const kept = new Set(itemsOf(current))
    for (const item of itemsOf(areas)) if (!kept.has(item)) losses.push(`${path}: ${item}`)
  }
  const added = [...now.keys()].filter((path) => !before.has(path))
  console.log(
    `${before.size} test files at ${ref}, ${now.size} now (${added.length} new); ` +
      `${losses.length === 0 ? "nothing any file covered is lost" : `${losses.length} losses:`}`,
  )
  for (const loss of losses) console.log(`  ${loss}`)
  if (losses.length > 0) process.exitCode = 1
}

main()
