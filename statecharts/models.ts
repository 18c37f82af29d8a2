/**
 * Recognizing a machine model in a loaded module, shared by Node (statecharts/discover.ts reads
 * machines/ from disk) and the browser (the /statecharts route finds them with `import.meta.glob`).
 */
import type { AnyModel } from "./paths.ts"

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

/** `login` for `…/machines/account/login.model.ts`. */
export const flowOfFile = (file: string): string => {
  const base = file.slice(file.lastIndexOf("/") + 1)
  return base.endsWith(".model.ts") ? base.slice(0, -".model.ts".length) : base
}
