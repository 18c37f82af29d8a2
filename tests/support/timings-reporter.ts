/**
 * A vitest reporter that writes test-results/vitest-timings.json: for each test file its project, the
 * worker that ran it, its whole time (import + hooks + tests: what the default reporter prints beside
 * the file) and each test's own time. vitest's JSON reporter gives only the tests' span, which leaves
 * out a server suite's `beforeAll` (its server start), the larger part. `npm run test:timings` reads it.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import type { Reporter, TestModule } from "vitest/node"

export interface FileTiming {
  readonly file: string
  readonly project: string
  readonly worker: number
  /** Milliseconds: importing the file (collect) + its hooks and tests. */
  readonly total: number
  readonly collect: number
  readonly tests: ReadonlyArray<{ readonly name: string; readonly ms: number; readonly state: string }>
}

export default class TimingsReporter implements Reporter {
  readonly #out: string
  readonly #root = process.cwd()
  constructor(options: { readonly outputFile?: string } = {}) {
    this.#out = options.outputFile ?? join(this.#root, "test-results", "vitest-timings.json")
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files: Array<FileTiming> = modules.map((m) => {
      const d = m.diagnostic()
      const tests = [...m.children.allTests()].map((t) => ({
        name: t.fullName,
        ms: Math.round(t.diagnostic()?.duration ?? 0),
        state: t.result().state,
      }))
      return {
        file: relative(this.#root, m.moduleId),
        project: m.project.name,
        worker: d.concurrencyId,
        total: Math.round(d.collectDuration + d.duration),
        collect: Math.round(d.collectDuration),
        tests,
      }
    })
    mkdirSync(dirname(this.#out), { recursive: true })
    writeFileSync(this.#out, `${JSON.stringify({ written: new Date().toISOString(), files })}\n`)
  }
}
