/**
 * House rules every statechart must keep, checked on the machine definitions themselves:
 * every machine has a model (so it gets generated path tests), every invoke has an `onError`
 * (an unhandled invoke error would put the actor — and the React view on it — into an error state),
 * and every guard is named (inline guards cannot be shown, reused or tested on their own).
 */
import { basename } from "node:path"
import { describe, expect, it } from "vitest"
import type { AnyStateNode } from "xstate"
import { getStateNodes } from "xstate/graph"
import { filesEndingWith, loadModels } from "../../statecharts/discover.ts"

const models = await loadModels()

const guardNames = (guard: unknown): Array<string> => {
  if (guard === undefined) return []
  if (typeof guard === "string") return [guard]
  if (typeof guard === "object" && guard !== null && "type" in guard && typeof guard.type === "string") {
    return [guard.type]
  }
  return ["<inline function>"]
}

describe("every machine", () => {
  it("has a model beside it", () => {
    const machineFiles = filesEndingWith(".machine.ts").map((f) => basename(f, ".machine.ts"))
    const modelled = new Set(models.map((m) => m.flow))
    expect(machineFiles.length).toBeGreaterThan(models.length / 2)
    expect(machineFiles.filter((f) => !modelled.has(f))).toEqual([])
  })

  for (const { model } of models) {
    const nodes: ReadonlyArray<AnyStateNode> = getStateNodes(model.machine.root)

    it(`${model.name}: every invoke handles its error`, () => {
      const missing = nodes.flatMap((node) =>
        node.invoke
          .filter((invoke) => !node.transitions.has(`xstate.error.actor.${invoke.id}`))
          .map((invoke) => `${node.id} invokes ${invoke.id} without onError`),
      )
      expect(missing).toEqual([])
    })

    it(`${model.name}: every guard is named`, () => {
      const inline = nodes.flatMap((node) =>
        [...node.transitions.values(), ...(node.always ?? [])]
          .flat()
          .flatMap((t) => guardNames(t.guard))
          .filter((name) => name === "<inline function>")
          .map(() => node.id),
      )
      expect(inline).toEqual([])
    })
  }
})
