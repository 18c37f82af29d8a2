/**
 * What a player downloads, read from the build (`vite build` → dist/app with `.vite/manifest.json`
 * and sourcemaps): the initial chunks (index.html's entry and its static imports, transitively,
 * with their CSS), the lazy chunks behind each dynamic import (the captcha, the /statecharts
 * visualizer), their raw / gzip (level 9) / brotli (quality 11) sizes, and the source modules each
 * chunk was built from (its sourcemap's `sources`, as repository paths). Used by
 * `npm run bench:bundle` (bench/bundle.bench.ts) and by tests/build/bundle.test.ts.
 */
import { existsSync, readFileSync } from "node:fs"
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
export const DIST_DIR = join(REPO_ROOT, "dist", "app")
/** The back office's own build (vite.backoffice.config.ts), served at /backoffice: no player downloads it. */
export const BACKOFFICE_DIST_DIR = join(REPO_ROOT, "dist", "backoffice")
export const BUDGET_FILE = join(REPO_ROOT, "bench", "budget.json")

/** The manifest key (relative to Vite's root, ui/) of the visualizer's dynamic entry. */
export const VISUALIZER_ENTRY = "statecharts/main.tsx"
/** The manifest key of the page every player loads. */
export const HTML_ENTRY = "index.html"

export interface ManifestChunk {
  readonly file: string
  readonly src?: string
  readonly name?: string
  readonly isEntry?: boolean
  readonly isDynamicEntry?: boolean
  readonly imports?: ReadonlyArray<string>
  readonly dynamicImports?: ReadonlyArray<string>
  readonly css?: ReadonlyArray<string>
  readonly assets?: ReadonlyArray<string>
}

export type Manifest = Readonly<Record<string, ManifestChunk>>

export interface ChunkSet {
  /** Manifest keys of the chunks, in walk order. */
  readonly keys: ReadonlyArray<string>
  /** Their JavaScript files (relative to dist/app), e.g. `assets/index-abc.js`. */
  readonly js: ReadonlyArray<string>
  /** The CSS files they bring. */
  readonly css: ReadonlyArray<string>
}

export interface FileSize {
  readonly file: string
  readonly raw: number
  readonly gzip: number
  readonly brotli: number
}

export interface Budget {
  /** The initial JavaScript every player downloads, gzip level 9, bytes. */
  readonly initialJsGzipBytes: number
  /** The initial CSS, gzip level 9, bytes. */
  readonly initialCssGzipBytes: number
  readonly why: string
}

export class BuildMissing extends Error {
  constructor(what: string) {
    super(
      `${what} is missing: run npm run build first (it writes dist/app, dist/backoffice, their manifests)`,
    )
    this.name = "BuildMissing"
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isStringArray = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.every((item) => typeof item === "string")

const isManifestChunk = (value: unknown): value is ManifestChunk =>
  isRecord(value) &&
  typeof value.file === "string" &&
  ["imports", "dynamicImports", "css", "assets"].every(
    (k) => value[k] === undefined || isStringArray(value[k]),
  )

export const manifestPath = (dist: string = DIST_DIR): string => join(dist, ".vite", "manifest.json")

export const readManifest = (dist: string = DIST_DIR): Manifest => {
  const path = manifestPath(dist)
  if (!existsSync(path)) throw new BuildMissing(relative(REPO_ROOT, path) || path)
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"))
  if (!isRecord(parsed)) throw new Error(`${path}: not a Vite manifest`)
  const manifest: Record<string, ManifestChunk> = {}
  for (const [key, chunk] of Object.entries(parsed)) {
    if (!isManifestChunk(chunk)) throw new Error(`${path}: entry ${key} is not a manifest chunk`)
    manifest[key] = chunk
  }
  return manifest
}

const chunkOf = (manifest: Manifest, key: string): ManifestChunk => {
  const chunk = manifest[key]
  if (chunk === undefined) throw new Error(`the manifest has no entry ${key}`)
  return chunk
}

/**
 * Walks from `start` along static imports (and dynamic ones too when `followDynamic`), without
 * going through the chunks in `stop` (already loaded, so what they import is not brought by `start`).
 */
const walk = (
  manifest: Manifest,
  start: string,
  followDynamic: boolean,
  stop: ReadonlySet<string> = new Set(),
): ChunkSet => {
  const seen = new Set<string>()
  const pending = [start]
  while (pending.length > 0) {
    const key = pending.shift()
    if (key === undefined || seen.has(key) || stop.has(key)) continue
    seen.add(key)
    const chunk = chunkOf(manifest, key)
    pending.push(...(chunk.imports ?? []))
    if (followDynamic) pending.push(...(chunk.dynamicImports ?? []))
  }
  return toChunkSet(manifest, [...seen])
}

const toChunkSet = (manifest: Manifest, keys: ReadonlyArray<string>): ChunkSet => {
  const js = keys.map((key) => chunkOf(manifest, key).file).filter((file) => file.endsWith(".js"))
  const css = [...new Set(keys.flatMap((key) => chunkOf(manifest, key).css ?? []))]
  return { keys, js, css }
}

/** What index.html loads up front: its entry chunk and static imports, transitively (no dynamic imports). */
export const initialChunks = (manifest: Manifest): ChunkSet => walk(manifest, HTML_ENTRY, false)

/** Everything reachable from a dynamic entry (static and nested dynamic imports) that is not initial. */
export const lazyChunks = (manifest: Manifest, entry: string): ChunkSet => {
  const initial = initialChunks(manifest)
  const initialCss = new Set(initial.css)
  const set = walk(manifest, entry, true, new Set(initial.keys))
  return { ...set, css: set.css.filter((file) => !initialCss.has(file)) }
}

/** The /statecharts visualizer: everything its dynamic import brings beyond the initial chunks. */
export const visualizerChunks = (manifest: Manifest): ChunkSet => {
  if (manifest[VISUALIZER_ENTRY] === undefined)
    throw new Error(`the manifest has no ${VISUALIZER_ENTRY}: is ui/main.tsx still importing it lazily?`)
  return lazyChunks(manifest, VISUALIZER_ENTRY)
}

export interface LazyGroup extends ChunkSet {
  /** The dynamic entry's manifest key, e.g. `statecharts/main.tsx`. */
  readonly entry: string
  /** What a person calls it: `visualizer`, `captcha`, else the chunk's name. */
  readonly label: string
}

const labelOf = (key: string, chunk: ManifestChunk): string => {
  if (key === VISUALIZER_ENTRY) return "visualizer"
  if (key.includes("altcha")) return "captcha"
  return chunk.name ?? key
}

/**
 * One group per dynamic import of the initial chunks (the captcha, the visualizer, …): what that
 * import brings, its own nested dynamic imports included.
 */
export const lazyGroups = (manifest: Manifest): ReadonlyArray<LazyGroup> => {
  const initial = initialChunks(manifest)
  const entries = [...new Set(initial.keys.flatMap((key) => chunkOf(manifest, key).dynamicImports ?? []))]
  return entries
    .filter((entry) => !initial.keys.includes(entry))
    .map((entry) => ({
      entry,
      label: labelOf(entry, chunkOf(manifest, entry)),
      ...lazyChunks(manifest, entry),
    }))
}

export const sizeOf = (file: string, dist: string = DIST_DIR): FileSize => {
  const path = join(dist, file)
  if (!existsSync(path)) throw new BuildMissing(relative(REPO_ROOT, path) || path)
  const bytes = readFileSync(path)
  const brotli = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  })
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotli.length }
}

export const totalOf = (sizes: ReadonlyArray<FileSize>): Omit<FileSize, "file"> => ({
  raw: sizes.reduce((sum, s) => sum + s.raw, 0),
  gzip: sizes.reduce((sum, s) => sum + s.gzip, 0),
  brotli: sizes.reduce((sum, s) => sum + s.brotli, 0),
})

/** A chunk of nothing but `import{…}from"…";` statements and one `export{…}`: no code of its own. */
const isFacade = (code: string): boolean =>
  /^(?:import\{[^}]*\}from"[^"]+";)*export\{[^}]*\};?\s*$/.test(code.trim())

/**
 * The source modules a JS chunk was built from, from its sourcemap (`<file>.map`): repository
 * paths with `/` (`ui/main.tsx`, `node_modules/react-dom/…`); virtual modules as they are named.
 */
export const sourcesOf = (
  file: string,
  dist: string = DIST_DIR,
  root: string = REPO_ROOT,
): ReadonlyArray<string> => {
  const mapPath = join(dist, `${file}.map`)
  // The bundler's own module-interop helpers (split out once a CommonJS module such as elkjs is
  // imported lazily) come from no source file, so they have no map.
  if (!existsSync(mapPath) && /(^|\/)rolldown-runtime-[\w-]+\.js$/.test(file)) return []
  // Nor does a facade chunk, which only re-exports other chunks (the wallet flows' `flows.ts`).
  if (!existsSync(mapPath) && isFacade(readFileSync(join(dist, file), "utf8"))) return []
  if (!existsSync(mapPath))
    throw new Error(`${file} has no sourcemap (${mapPath}); vite.config.ts sets build.sourcemap`)
  const map: unknown = JSON.parse(readFileSync(mapPath, "utf8"))
  if (!isRecord(map) || !isStringArray(map.sources)) throw new Error(`${mapPath}: no sources`)
  const base = resolve(dirname(mapPath), typeof map.sourceRoot === "string" ? map.sourceRoot : "")
  return map.sources.map((source) => {
    if (source.startsWith("\0") || /^[a-z]+:/i.test(source)) return source
    const absolute = isAbsolute(source) ? source : resolve(base, source)
    return relative(root, absolute).split(sep).join("/")
  })
}

export const readBudget = (path: string = BUDGET_FILE): Budget => {
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"))
  if (
    !isRecord(parsed) ||
    typeof parsed.initialJsGzipBytes !== "number" ||
    typeof parsed.initialCssGzipBytes !== "number" ||
    typeof parsed.why !== "string"
  )
    throw new Error(`${path}: expected { initialJsGzipBytes, initialCssGzipBytes, why }`)
  return {
    initialJsGzipBytes: parsed.initialJsGzipBytes,
    initialCssGzipBytes: parsed.initialCssGzipBytes,
    why: parsed.why,
  }
}

export interface BundleReport {
  readonly initial: {
    readonly js: ReadonlyArray<FileSize>
    readonly css: ReadonlyArray<FileSize>
    readonly jsTotal: Omit<FileSize, "file">
    readonly cssTotal: Omit<FileSize, "file">
  }
  readonly lazy: ReadonlyArray<{
    readonly entry: string
    readonly label: string
    readonly files: ReadonlyArray<FileSize>
    readonly total: Omit<FileSize, "file">
  }>
  readonly budget: Budget
  readonly overBudget: { readonly js: boolean; readonly css: boolean }
}

/** Measures a build against the budget. */
export const measureBundle = (dist: string = DIST_DIR, budget: Budget = readBudget()): BundleReport => {
  const manifest = readManifest(dist)
  const initial = initialChunks(manifest)
  const js = initial.js.map((file) => sizeOf(file, dist))
  const css = initial.css.map((file) => sizeOf(file, dist))
  const jsTotal = totalOf(js)
  const cssTotal = totalOf(css)
  const lazy = lazyGroups(manifest).map((group) => {
    const files = [...group.js, ...group.css].map((file) => sizeOf(file, dist))
    return { entry: group.entry, label: group.label, files, total: totalOf(files) }
  })
  return {
    initial: { js, css, jsTotal, cssTotal },
    lazy,
    budget,
    overBudget: {
      js: jsTotal.gzip > budget.initialJsGzipBytes,
      css: cssTotal.gzip > budget.initialCssGzipBytes,
    },
  }
}
