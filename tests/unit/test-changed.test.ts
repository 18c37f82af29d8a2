import { describe, expect, it } from "vitest"
import { choose } from "../../scripts/test-changed.ts"

const specs = [
  "account",
  "backoffice",
  "cashout",
  "chat",
  "backoffice-support",
  "deposit",
  "journey",
  "paths",
]

describe("npm run test:changed chooses the tests a change can break", () => {
  it("a domain's server file runs the specs of its screens", () => {
    expect(choose(["server/withdrawals/Repo.ts"], specs).e2e).toEqual(["cashout"])
    expect(choose(["ui/chat/ChatWidget.tsx"], specs).e2e).toEqual(["backoffice-support", "chat"])
  })

  it("shared wiring runs every spec; a file no screen serves runs none", () => {
    expect(choose(["server/app.ts"], specs).e2e).toEqual([...specs].sort())
    expect(choose(["scripts/test-timings.ts"], specs).e2e).toEqual([])
  })

  it("a changed spec runs itself, and vitest gets the changed sources and tests but no e2e file", () => {
    const chosen = choose(["tests/e2e/chat.spec.ts", "tests/unit/x.test.ts", "docs/testing.md"], specs)
    expect(chosen.e2e).toEqual(["chat"])
    expect(chosen.vitest).toEqual(["tests/unit/x.test.ts"])
  })
})
