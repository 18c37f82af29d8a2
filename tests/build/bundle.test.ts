/**
 * The built player app (dist/app, from `npm run build`; scripts/test-all.sh builds before vitest):
 * what every player downloads up front holds no visualizer code (proved from the sourcemaps of the
 * initial chunks), the /statecharts visualizer is a separate chunk that index.html does not
 * preload, and the initial JS and CSS stay within bench/budget.json. The back office is a build of
 * its own (dist/backoffice): no file of dist/app comes from its app, and no chunk a player can load
 * holds any back-office module. Fails, not skips, without a build.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import {
  BACKOFFICE_DIST_DIR,
  type ChunkSet,
  DIST_DIR,
  initialChunks,
  lazyGroups,
  type Manifest,
  readBudget,
  readManifest,
  sizeOf,
  sourcesOf,
  totalOf,
  VISUALIZER_ENTRY,
  visualizerChunks,
} from "../../bench/bundle.ts"

/** Modules that belong to the visualizer (or to no browser at all), never to the player's first load. */
const FORBIDDEN: ReadonlyArray<{ readonly pattern: RegExp; readonly what: string }> = [
  { pattern: /(^|\/)node_modules\/elkjs\//, what: "elkjs, the layout engine (~476 KB gzip)" },
  { pattern: /(^|\/)node_modules\/mermaid\//, what: "mermaid" },
  { pattern: /(^|\/)node_modules\/react-dom\/(server|cjs\/react-dom-server)/, what: "react-dom/server" },
  { pattern: /^statecharts\/layout\b/, what: "statecharts/layout (chart layout)" },
  { pattern: /^statecharts\/render/, what: "statecharts/render* (SVG rendering)" },
  { pattern: /^statecharts\/chart\b/, what: "statecharts/chart (machine → chart)" },
  { pattern: /^statecharts\/live-model\b/, what: "statecharts/live-model (the visualizer's receiver)" },
  { pattern: /^machines\/statecharts\./, what: "the visualizer's machine" },
  { pattern: /^ui\/statecharts\//, what: "the /statecharts route's UI" },
  {
    pattern: /^statecharts\/live\.ts$/,
    what: "the live-mode inspector (loaded only with ?statecharts=live)",
  },
  // Loaded when first needed (docs/performance.md): the account flows, their views, radix, toasts.
  { pattern: /^machines\/account\//, what: "an account flow" },
  { pattern: /^ui\/account\//, what: "an account flow's view" },
  // The profile area is a lazy route; the reality check loads on sign-in.
  { pattern: /^machines\/profile\//, what: "a profile-area machine (or the reality check)" },
  { pattern: /^ui\/profile\//, what: "a profile-area view" },
  { pattern: /(^|\/)node_modules\/libphonenumber-js\//, what: "libphonenumber-js (the profile form)" },
  {
    pattern: /^services\/(session-calls|profile-form|profile-rules|responsible-gaming|documents)\.ts$/,
    what: "calls and rules loaded on first need",
  },
  // The session's calls load with the boot (docs/performance.md): their tables and schemas too.
  {
    pattern: /^services\/(clients\/(profile|user)|profile-service|user-service)\.ts$/,
    what: "the user and profile contract tables or schemas",
  },
  { pattern: /^ui\/shell\/ModalLayer\.tsx$/, what: "the modal layer" },
  { pattern: /(^|\/)node_modules\/@radix-ui\//, what: "radix (the modal layer)" },
  { pattern: /(^|\/)node_modules\/sonner\//, what: "sonner (the toaster)" },
  { pattern: /(^|\/)node_modules\/altcha\//, what: "the captcha widget" },
  { pattern: /(^|\/)node_modules\/ts-pattern\//, what: "ts-pattern (used by the account flows)" },
  // The browser reads the contract from generated tables, never with the HttpApi builder or HttpClient.
  { pattern: /(^|\/)node_modules\/effect\/dist\/http-api\//, what: "effect/http-api (the HttpApi builder)" },
  // (Schema itself imports effect/http's Cookies, Headers and UrlParams: those are allowed.)
  {
    pattern:
      /(^|\/)node_modules\/effect\/dist\/http\/(HttpClient|FetchHttpClient|HttpBody|HttpRouter|HttpServer)/,
    what: "effect/http's HttpClient (streams, SSE, NDJSON)",
  },
  { pattern: /^services\/api(\/|\.ts$)/, what: "the contract's group definitions (services/api)" },
]

/** From statecharts/, the player's first load needs only the live-mode flag and the shared types. */
const PLAYER_STATECHARTS_MODULES = new Set(["statecharts/live-flag.ts", "statecharts/types.ts"])

const offenders = (sources: ReadonlyArray<string>) =>
  sources.flatMap((source) =>
    FORBIDDEN.filter(({ pattern }) => pattern.test(source)).map(({ what }) => `${source} (${what})`),
  )

interface Build {
  readonly manifest: Manifest
  readonly initial: ChunkSet
  readonly initialSources: ReadonlyArray<string>
}

let loaded: Build | undefined
/**
 * The build, read once. Without one it throws "… is missing: run npm run build first" in every
 * test that needs it, so each of them fails (a throwing beforeAll would only mark them skipped).
 */
const build = (): Build => {
  if (loaded) return loaded
  const manifest = readManifest(DIST_DIR)
  const initial = initialChunks(manifest)
  const initialSources = initial.js.flatMap((file) => sourcesOf(file, DIST_DIR))
  loaded = { manifest, initial, initialSources }
  return loaded
}

describe("the player's initial chunks", () => {
  it("are found, and their sourcemaps list the player's modules", () => {
    const { initial, initialSources } = build()
    expect(initial.js.length).toBeGreaterThan(0)
    // The check below can only be trusted if the sources are read correctly.
    expect(initialSources).toContain("ui/main.tsx")
    expect(initialSources).toContain("machines/shell.machine.ts")
    expect(initialSources.some((s) => /(^|\/)node_modules\/xstate\//.test(s))).toBe(true)
  })

  it("contain no visualizer code, no account flow, no radix, toaster, captcha or HttpApi builder", () => {
    expect(offenders(build().initialSources)).toEqual([])
  })

  it("take from statecharts/ only the live-mode flag and the shared types", () => {
    const fromStatecharts = build().initialSources.filter((s) => s.startsWith("statecharts/"))
    expect(fromStatecharts.filter((s) => !PLAYER_STATECHARTS_MODULES.has(s))).toEqual([])
  })
})

describe("the /statecharts visualizer chunk", () => {
  it("exists and is built from ui/statecharts/main.tsx (so the check above can see such modules)", () => {
    const { manifest } = build()
    expect(manifest[VISUALIZER_ENTRY]?.isDynamicEntry).toBe(true)
    const visualizer = visualizerChunks(manifest)
    expect(visualizer.js.length).toBeGreaterThan(0)
    const sources = visualizer.js.flatMap((file) => sourcesOf(file, DIST_DIR))
    expect(sources).toContain("ui/statecharts/main.tsx")
    // The same patterns that must not match the initial chunks do match here.
    expect(offenders(sources).length).toBeGreaterThan(0)
  })

  it("is not loaded, preloaded or linked by index.html", () => {
    const { manifest, initial } = build()
    const visualizer = visualizerChunks(manifest)
    const html = readFileSync(join(DIST_DIR, "index.html"), "utf8")
    for (const file of [...visualizer.js, ...visualizer.css]) expect(html).not.toContain(file)
    // More generally: every script, modulepreload and stylesheet it names is an initial chunk.
    const initialFiles = new Set([...initial.js, ...initial.css].map((file) => `/${file}`))
    const loaded = [
      ...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g),
      ...html.matchAll(/<link\b[^>]*\brel="(?:modulepreload|stylesheet|preload)"[^>]*\bhref="([^"]+)"/g),
    ]
      .filter((match) => !/\bas="fetch"/.test(match[0]))
      .map((match) => match[1])
    expect(loaded.length).toBeGreaterThan(0)
    for (const href of loaded) expect(initialFiles, `${href} is not an initial chunk`).toContain(href)
    // The data preloaded with the HTML is the boot's: the client IP and the three CDN files the
    // shell needs before anything renders — nothing a later screen needs.
    const fetched = [...html.matchAll(/<link\b[^>]*\bas="fetch"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1])
    expect(fetched.sort()).toEqual([
      "/cdn/currencies.json",
      "/cdn/restricted-countries.json",
      "/cdn/site-config.json",
      "/ip-service/api/v1/user/currentIp",
    ])
  })
})

// Sizes include brotli at quality 11 (as the bench prints them): seconds on a loaded 2-core machine.
describe("bench/budget.json", { timeout: 60_000 }, () => {
  it("the initial JavaScript (gzip) is within budget", () => {
    const { initial } = build()
    const budget = readBudget()
    const js = totalOf(initial.js.map((file) => sizeOf(file, DIST_DIR)))
    expect(
      js.gzip,
      `initial JS is ${js.gzip} B gzip; budget ${budget.initialJsGzipBytes} B`,
    ).toBeLessThanOrEqual(budget.initialJsGzipBytes)
  })

  it("the initial CSS (gzip) is within budget", () => {
    const { initial } = build()
    const budget = readBudget()
    expect(initial.css.length).toBeGreaterThan(0)
    const css = totalOf(initial.css.map((file) => sizeOf(file, DIST_DIR)))
    expect(
      css.gzip,
      `initial CSS is ${css.gzip} B gzip; budget ${budget.initialCssGzipBytes} B`,
    ).toBeLessThanOrEqual(budget.initialCssGzipBytes)
  })
})

/** The back office's app (ui/backoffice/): built by vite.backoffice.config.ts, never into dist/app. */
const isBackofficeApp = (source: string): boolean => source.startsWith("ui/backoffice/")
/** Any back-office module; in dist/app only the visualizer may hold some (it charts their machines). */
const isBackofficeModule = (source: string): boolean => /^(ui|machines|services)\/backoffice\//.test(source)
/** A class name of the back office's layout and sign-in page (its JS and CSS), found in no player code. */
const BACKOFFICE_MARKER = "bo-brand"

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  )

describe("the back office", () => {
  it("is built on its own into dist/backoffice from ui/backoffice/main.tsx, its files under /backoffice/", () => {
    const manifest = readManifest(BACKOFFICE_DIST_DIR)
    const { js, css } = initialChunks(manifest)
    expect(js.length).toBeGreaterThan(0)
    expect(css.length).toBeGreaterThan(0)
    expect(js.flatMap((file) => sourcesOf(file, BACKOFFICE_DIST_DIR))).toContain("ui/backoffice/main.tsx")
    const html = readFileSync(join(BACKOFFICE_DIST_DIR, "index.html"), "utf8")
    const named = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "")
    expect(named.length).toBeGreaterThan(0)
    for (const href of named)
      expect(href, "served from /backoffice/ (the build's base)").toMatch(/^\/backoffice\//)
    for (const file of [...js, ...css]) expect(named).toContain(`/backoffice/${file}`)
    // The marker the next check looks for in dist/app is really the back office's.
    const built = [...js, ...css].map((file) => readFileSync(join(BACKOFFICE_DIST_DIR, file), "utf8"))
    expect(built.some((text) => text.includes(BACKOFFICE_MARKER))).toBe(true)
  })

  it("is in no file of dist/app: no module of its app, no chunk, not its class names", () => {
    // Source maps too: they carry every module's source text.
    const files = filesUnder(DIST_DIR).filter((f) => /\.(js|css|html|json|map)$/.test(f))
    expect(files.length).toBeGreaterThan(10)
    const js = files.filter((f) => f.endsWith(".js"))
    const fromApp = js.flatMap((f) => sourcesOf(relative(DIST_DIR, f), DIST_DIR).filter(isBackofficeApp))
    expect(fromApp).toEqual([])
    expect(Object.keys(build().manifest).filter((key) => key.startsWith("backoffice/"))).toEqual([])
    const marked = files.filter((f) => readFileSync(f, "utf8").includes(BACKOFFICE_MARKER))
    expect(marked.map((f) => relative(DIST_DIR, f))).toEqual([])
  })

  it("is in no chunk a player can load: the first screen and every lazy import but the visualizer", () => {
    const { manifest, initialSources } = build()
    const lazy = lazyGroups(manifest)
      .filter((group) => group.entry !== VISUALIZER_ENTRY)
      .flatMap((group) => group.js.flatMap((file) => sourcesOf(file, DIST_DIR)))
    expect(lazy.length).toBeGreaterThan(0)
    expect([...initialSources, ...lazy].filter(isBackofficeModule)).toEqual([])
  })
})
