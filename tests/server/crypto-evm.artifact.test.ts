/**
 * providers/chains/contracts/SandboxUSDT.json is what `npm run contracts:build` makes of SandboxUSDT.sol:
 * the chains sandbox installs that artifact without solc, so a source edit without a rebuild must fail here.
 */
import { readFileSync } from "node:fs"
import { expect, it } from "vitest"
import { loadSandboxUsdt } from "../../providers/chains/evm/usdt.ts"
import { artifactFile, compileSandboxUsdt } from "../../scripts/contracts-build.ts"

it("the committed SandboxUSDT artifact is fresh (recompiled with solc 0.8.37)", () => {
  const committed: unknown = JSON.parse(readFileSync(artifactFile, "utf8"))
  expect(committed).toEqual(JSON.parse(compileSandboxUsdt()))
}, 60_000)

it("the artifact names the owner's storage slot and carries runtime code", () => {
  const code = loadSandboxUsdt()
  expect(code.ownerSlot).toBe(0)
  expect(code.runtime.length).toBeGreaterThan(1_000)
})
