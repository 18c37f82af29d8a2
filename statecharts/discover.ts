/**
 * Finds every `machines/*.model.ts` and loads its model (default export or a named `model`), so a
 * new machine gets generated path tests with no edit to the test files.
 */
import { readdirSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { flowOfFile, pickModel } from "./models.ts"
import type { AnyModel } from "./paths.ts"

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..")
export const machinesDir = join(repoRoot, "machines")

export interface LoadedModel {
  /** e.g. `login` for machines/login.model.ts */
  readonly flow: string
  readonly file: string
  readonly model: AnyModel
}

export const modelFiles = (dir: string = machinesDir): Array<string> =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".model.ts"))
    .sort()
    .map((f) => join(dir, f))

export { pickModel }

export const loadModel = async (file: string): Promise<LoadedModel> => {
  const module: unknown = await import(pathToFileURL(file).href)
  return { flow: flowOfFile(file), file, model: pickModel(module, file) }
}

export const loadModels = async (dir: string = machinesDir): Promise<Array<LoadedModel>> =>
  Promise.all(modelFiles(dir).map(loadModel))
