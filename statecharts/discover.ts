/**
 * Finds every `machines/*.model.ts` and loads its model (default export or a named `model`), so a
 * new machine gets generated path tests with no edit to the test files.
 */
import { readdirSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
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

const isModel = (value: unknown): value is AnyModel =>
  typeof value === "object" &&
  value !== null &&
  "name" in value &&
  typeof value.name === "string" &&
  "machine" in value &&
  typeof value.machine === "object" &&
  value.machine !== null &&
  "events" in value &&
  (Array.isArray(value.events) || typeof value.events === "function")

export const pickModel = (module: unknown, file: string): AnyModel => {
  if (typeof module === "object" && module !== null) {
    if ("default" in module && isModel(module.default)) return module.default
    if ("model" in module && isModel(module.model)) return module.model
  }
  throw new Error(
    `${file} exports no model: export default defineModel({...}) or export const model = defineModel({...})`,
  )
}

export const loadModel = async (file: string): Promise<LoadedModel> => {
  const module: unknown = await import(pathToFileURL(file).href)
  const base = file.slice(file.lastIndexOf("/") + 1)
  return { flow: base.slice(0, -".model.ts".length), file, model: pickModel(module, file) }
}

export const loadModels = async (dir: string = machinesDir): Promise<Array<LoadedModel>> =>
  Promise.all(modelFiles(dir).map(loadModel))
