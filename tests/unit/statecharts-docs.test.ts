/**
 * docs/statecharts/ must match what `npm run docs:statecharts` renders from the machines now.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { loadModels, repoRoot } from "../../statecharts/discover.ts"
import {
  describeDiff,
  diffDocs,
  isFresh,
  renderStatechartDocs,
  STATECHART_DOCS_DIR,
} from "../../statecharts/export.ts"

const readDir = (dir: string): Map<string, string> => {
  const files = new Map<string, string>()
  try {
    for (const name of readdirSync(dir).sort()) files.set(name, readFileSync(join(dir, name), "utf8"))
  } catch {
    // A missing directory: every file is missing.
  }
  return files
}

describe("docs/statecharts", () => {
  it("is fresh", async () => {
    const models = await loadModels()
    const rendered = await renderStatechartDocs(models)
    const diff = diffDocs(rendered, readDir(join(repoRoot, STATECHART_DOCS_DIR)))
    if (!isFresh(diff)) {
      expect.fail(`docs/statecharts is stale: run npm run docs:statecharts\n${describeDiff(diff).join("\n")}`)
    }
    // One SVG, mermaid file and Stately config per machine, plus the README.
    expect(rendered.size).toBe(models.length * 3 + 1)
    for (const { flow } of models) {
      expect(rendered.get(`${flow}.svg`)).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg /)
      expect(rendered.get("README.md")).toContain(`![${flow} statechart](${flow}.svg)`)
    }
    // Lays out every machine with ELK: seconds on a busy 2-core machine (not a speed check).
  }, 120_000)

  it("diffDocs tells missing, stale and leftover files apart", () => {
    const diff = diffDocs(
      new Map([
        ["a.svg", "new"],
        ["b.svg", "same"],
        ["c.svg", "x"],
      ]),
      new Map([
        ["b.svg", "same"],
        ["c.svg", "old"],
        ["gone.svg", "y"],
      ]),
    )
    expect(diff).toEqual({ missing: ["a.svg"], stale: ["c.svg"], extra: ["gone.svg"] })
    expect(isFresh(diff)).toBe(false)
    expect(describeDiff(diff)).toEqual([
      "missing: docs/statecharts/a.svg",
      "stale: docs/statecharts/c.svg",
      "no longer generated: docs/statecharts/gone.svg",
    ])
  })
})
