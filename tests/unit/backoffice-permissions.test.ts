/** The permission matrix: the admin has everything, every role reads players, and docs/backoffice.md shows this very table. */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { can, matrix, permissions, roles } from "../../services/backoffice/permissions.ts"

describe("back-office permission matrix", () => {
  it("gives the admin every permission and nobody else operators.manage or audit.read", () => {
    expect([...matrix.admin]).toEqual([...permissions])
    for (const role of roles.filter((r) => r !== "admin")) {
      expect(can(role, "operators.manage")).toBe(false)
      expect(can(role, "audit.read")).toBe(false)
      expect(can(role, "players.read")).toBe(true)
    }
  })

  it("is the table of docs/backoffice.md", () => {
    const doc = readFileSync(new URL("../../docs/backoffice.md", import.meta.url), "utf8")
    const rows = permissions.map(
      (p) => `| \`${p}\` | ${roles.map((r) => (matrix[r].includes(p) ? "✓" : "")).join(" | ")} |`,
    )
    expect(doc).toContain([`| permission | ${roles.join(" | ")} |`, ...rows].join("\n").split("\n")[0])
    for (const row of rows) expect(doc).toContain(row)
  })
})
