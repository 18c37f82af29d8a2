/**
 * Finds every `<flow>.model.ts` under `machines/` (grouped by domain, e.g. `machines/account/`; the
 * shell's own machines at the top) and loads its model (default export or a named
 * `model`), so a new machine gets generated path tests with no edit to the test files. A machine is
 * named by its file stem, which must be unique across the folders.
 */
import { readdirSync } from "node:fs"
import { basename, dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { flowOfFile, pickModel } from "./models.ts"
import type { AnyModel } from "./paths.ts"

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..")
export const machinesDir = join(repoRoot, "machines")

export interface LoadedModel {
  /** e.g. `login` for machines/account/login.model.ts */
  readonly flow: string
  readonly file: string
  readonly model: AnyModel
}

/** Every file under `dir` (its sub-folders too) whose name ends with `suffix`, ordered by file name. */
export const filesEndingWith = (suffix: string, dir: string = machinesDir): Array<string> => {
  const found = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(suffix))
    .map((f) => join(dir, f))
  const byStem = new Map<string, string>()
  for (const file of found) {
    const stem = basename(file)
    const other = byStem.get(stem)
    if (other !== undefined) throw new Error(`two machines share the name ${stem}: ${other} and ${file}`)
    byStem.set(stem, file)
  }
  return found.sort((a, b) => basename(a).localeCompare(basename(b)))
}

export const modelFiles = (dir: string = machinesDir): Array<string> => filesEndingWith(".model.ts", dir)

export { pickModel }

export const loadModel = async (file: string): Promise<LoadedModel> => {
  const module: unknown = await import(pathToFileURL(file).href)
  return { flow: flowOfFile(file), file, model: pickModel(module, file) }
}

export const loadModels = async (dir: string = machinesDir): Promise<Array<LoadedModel>> =>
  Promise.all(modelFiles(dir).map(loadModel))
