/**
 * The quick loop (`npm run test:changed`): only the tests a change can break.
 *
 *   npm run test:changed              what differs from HEAD (staged, unstaged and new files)
 *   npm run test:changed -- main      what differs from a commit or branch (a feature branch's work)
 *   npm run test:changed -- --list    print the choice, run nothing
 *
 * vitest: `vitest related` on the changed files (every test file whose imports reach one of them,
 * and changed test files themselves). Playwright: the specs of the screens the changed files serve,
 * by the domain in each file's path (SURFACES below); a changed e2e spec runs itself, a changed e2e
 * binding or support file the specs that import it; a change to shared code (the server's wiring,
 * the contract, the app shell's plumbing) runs every spec. The app is built first when Playwright
 * runs. `npm test` stays what CI runs: this loop is a first answer, not the last one.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { basename } from "node:path"
import { fileURLToPath } from "node:url"

const E2E_DIR = "tests/e2e"

/** Domain words in a source path → the e2e specs (name without `.spec.ts`) of the screens it serves. */
const SURFACES: ReadonlyArray<readonly [RegExp, ReadonlyArray<string>]> = [
  [
    /(^|\/)(account|auth|users|captcha|mail)(\/|\.|-)|couponCheck|confirmEmail/,
    ["paths", "account", "verify", "journey"],
  ],
  [/(^|\/)(profile|kyc|responsible-gaming|documents)(\/|\.|-)/, ["account", "verify", "bonuses"]],
  [
    /(^|\/)backoffice(\/|\.|-)|(^|\/)(operator|reports)(\/|\.)/,
    [
      "backoffice",
      "backoffice-journey",
      "backoffice-players",
      "backoffice-reports",
      "backoffice-support",
      "backoffice-tokens",
    ],
  ],
  [
    /(^|\/)(games?|game-studio|game-wallet|lobby)(\/|\.|-)/,
    ["games", "games-a11y", "games-crash", "games-kinds", "games-paths", "games-visuals"],
  ],
  [/crash/, ["games-crash"]],
  [
    /(^|\/)(payments?|payment-sandbox|onramp|onramp-sandbox|wallet|deposit)(\/|\.|-)/,
    ["deposit", "crypto", "cashout", "sandbox-pages"],
  ],
  [/(^|\/)(crypto|chains)(\/|\.|-)/, ["crypto"]],
  [/(^|\/)(withdrawals?|cashout)(\/|\.|-)/, ["cashout", "backoffice-journey"]],
  [/(^|\/)(bonus|bonuses|promotions?)(\/|\.|-)/, ["bonuses"]],
  [/(^|\/)loyalty(\/|\.|-)/, ["loyalty"]],
  [/(^|\/)chat(\/|\.|-)/, ["chat", "backoffice-support"]],
  [/(^|\/)statecharts(\/|\.)/, ["statecharts"]],
  [
    /(^|\/)(geo|hosts|static|shell|shellMenu|modals|pages|components)(\/|\.)|ui\/(App|main)\.tsx|\.css$/,
    ["journey", "phone", "hosts", "a11y"],
  ],
]

/** Paths whose change can reach any screen: every spec runs. */
const SHARED =
  /^(compose|lib|protocols)\/|^server\/(app|main|config)\.ts|^server\/(db|security|events)\/|^services\/(api|client|bridge|errors)\.ts|^ui\/app\/|^playwright\.config\.ts|^scripts\/build\.ts|^vite\.config|^tests\/e2e\/global-setup\.ts$|^package(-lock)?\.json$/

const git = (...args: string[]): string => execFileSync("git", args, { encoding: "utf8" })

const changedFiles = (base: string): string[] => {
  const diffed = git("diff", "--name-only", base).split("\n")
  const untracked = git("ls-files", "--others", "--exclude-standard").split("\n")
  return [...new Set([...diffed, ...untracked])].filter((f) => f !== "").sort()
}

const allSpecs = (): string[] =>
  readdirSync(E2E_DIR)
    .filter((f) => f.endsWith(".spec.ts"))
    .map((f) => f.replace(/\.spec\.ts$/, ""))
    .sort()

/** The specs that import a changed e2e helper (directly or through another helper, by file name). */
const specsImporting = (helper: string, specs: ReadonlyArray<string>): string[] => {
  const name = basename(helper).replace(/\.tsx?$/, "")
  const helpers = new Set([name])
  // Helpers that import the changed one count as changed too (bindings import common.ts).
  for (const dir of [`${E2E_DIR}/bindings`, `${E2E_DIR}/support`]) {
    for (const file of readdirSync(dir)) {
      if (readFileSync(`${dir}/${file}`, "utf8").includes(`/${name}.ts"`))
        helpers.add(file.replace(/\.tsx?$/, ""))
    }
  }
  return specs.filter((spec) => {
    const text = readFileSync(`${E2E_DIR}/${spec}.spec.ts`, "utf8")
    return [...helpers].some((h) => text.includes(`/${h}.ts"`))
  })
}

export const choose = (
  changed: ReadonlyArray<string>,
  specs: ReadonlyArray<string>,
): { vitest: string[]; e2e: string[]; why: string[] } => {
  const e2e = new Set<string>()
  const why: string[] = []
  const sources = changed.filter((f) => /\.(tsx?|css|html|sql)$/.test(f) || /^package(-lock)?\.json$/.test(f))
  for (const file of sources) {
    if (SHARED.test(file) || /^server\/migrations\//.test(file)) {
      for (const s of specs) e2e.add(s)
      why.push(`${file} → every spec (shared)`)
      continue
    }
    if (file.startsWith(`${E2E_DIR}/`)) {
      const spec = basename(file).replace(/\.spec\.ts$/, "")
      const chosen = file.endsWith(".spec.ts") ? [spec] : specsImporting(file, specs)
      for (const s of chosen) e2e.add(s)
      why.push(`${file} → ${chosen.join(", ") || "no spec"}`)
      continue
    }
    if (file.startsWith("tests/") || file.startsWith("docs/") || file.startsWith("bench/")) continue
    const chosen = SURFACES.filter(([pattern]) => pattern.test(file)).flatMap(([, names]) => names)
    for (const s of chosen) if (specs.includes(s)) e2e.add(s)
    why.push(`${file} → ${chosen.length > 0 ? [...new Set(chosen)].join(", ") : "no screen (vitest only)"}`)
  }
  const vitest = changed.filter((f) => /\.(tsx?|sql)$/.test(f) && !f.startsWith(`${E2E_DIR}/`))
  return { vitest, e2e: [...e2e].sort(), why }
}

const run = (command: string, args: ReadonlyArray<string>): number => {
  console.log(`\n$ ${command} ${args.join(" ")}`)
  const result = spawnSync(command, [...args], { stdio: "inherit" })
  return result.status ?? 1
}

const main = (): void => {
  const args = process.argv.slice(2)
  const listOnly = args.includes("--list")
  const base = args.find((a) => !a.startsWith("--")) ?? "HEAD"
  const changed = changedFiles(base)
  if (changed.length === 0) {
    console.log(`nothing differs from ${base}`)
    return
  }
  const { vitest, e2e, why } = choose(changed, allSpecs())
  console.log(`changed since ${base}: ${changed.length} files`)
  for (const line of why) console.log(`  ${line}`)
  console.log(
    `vitest related: ${vitest.length} files · Playwright: ${e2e.length > 0 ? e2e.join(", ") : "none"}`,
  )
  if (listOnly) return
  const node = process.execPath
  let failed = 0
  if (vitest.length > 0) {
    failed += run(node, [
      "node_modules/vitest/vitest.mjs",
      "related",
      "--run",
      "--passWithNoTests",
      ...vitest,
    ])
  }
  if (e2e.length > 0) {
    if (run(node, ["scripts/build.ts"]) !== 0) process.exit(1)
    failed += run(node, [
      "node_modules/@playwright/test/cli.js",
      "test",
      ...e2e.map((spec) => `${E2E_DIR}/${spec}.spec.ts`),
    ])
  }
  process.exitCode = failed === 0 ? 0 : 1
}

// Imported by its unit test: runs only as a script.
if (process.argv[1] === fileURLToPath(import.meta.url)) main()
