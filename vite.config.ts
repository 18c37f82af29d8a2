import { readdir, readFile, writeFile } from "node:fs/promises"
import { join, relative } from "node:path"
import { promisify } from "node:util"
import { brotliCompress, constants, gzip } from "node:zlib"
import react from "@vitejs/plugin-react"
import { defineConfig, type Plugin } from "vite"

// The player app lives in ui/; the casino server (server/) serves dist/app on the same origin.
// The back office (ui/backoffice/) is a build of its own: vite.backoffice.config.ts → dist/backoffice.
// `npm run dev` proxies the API to a running server so the browser still sees one origin.
const apiTarget = process.env.API_TARGET ?? "http://127.0.0.1:8080"

/** Files worth compressing; images, fonts and video are compressed formats already. */
export const compressibleFile = /\.(?:js|mjs|css|html|svg|json|map|txt|xml|wasm|webmanifest)$/i
/** Below this a compressed copy saves less than a packet and costs a file. */
export const precompressMinBytes = 1024

/** `npm run dev` (and `dev:backoffice`): the API paths, forwarded to the running server. */
export const devProxy = Object.fromEntries(
  [
    "/user-service",
    "/profile-service",
    "/game-aggregator-service",
    "/ip-service",
    "/chat-service",
    "/api",
    "/cdn",
  ].map((p) => [p, { target: apiTarget, changeOrigin: false }]),
)

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

const filesUnder = async (dir: string): Promise<Array<string>> => {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map((e) => {
      const path = join(dir, e.name)
      // Dot-folders (.vite/manifest.json) are never served (server/static/files.ts refuses them).
      if (e.isDirectory()) return e.name.startsWith(".") ? [] : filesUnder(path)
      return e.isFile() ? [path] : []
    }),
  )
  return nested.flat()
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible
 * file of the build of at least 1 KiB, unless the compressed copy is not smaller; the server
 * (server/static/http.ts) sends them by Accept-Encoding. Source maps get brotli quality 9: measured
 * here, quality 11 on the ~11 MB of maps took ~23 s for 10% smaller files that only devtools fetch.
 * The top-level index.html is left out: the server rewrites it at serve time and compresses it then.
 *
 * Why our own plugin and not vite-plugin-compression2 (2.5.3 installs and produces the files with
 * Vite 8): it works by wrapping Vite's internal manifest plugin and replacing process.stdout.write
 * during the build, and runs the compressions one at a time, where zlib's thread pool runs several
 * here. node:zlib does the work either way; this is 50 lines we own and four packages fewer.
 */
export const precompress = (): Plugin => ({
  name: "casino:precompress",
  apply: "build",
  async writeBundle(options) {
    const dir = options.dir
    if (dir === undefined) return
    const files = (await filesUnder(dir)).filter(
      (f) => compressibleFile.test(f) && relative(dir, f) !== "index.html",
    )
    await Promise.all(
      files.map(async (file) => {
        const raw = await readFile(file)
        if (raw.length < precompressMinBytes) return
        const isMap = file.endsWith(".map")
        const isText = !file.endsWith(".wasm")
        const [br, gz] = await Promise.all([
          brotli(raw, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: isMap ? 9 : constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: isText
                ? constants.BROTLI_MODE_TEXT
                : constants.BROTLI_MODE_GENERIC,
              [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
          gzipAsync(raw, { level: 9 }),
        ])
        if (br.length < raw.length) await writeFile(`${file}.br`, br)
        if (gz.length < raw.length) await writeFile(`${file}.gz`, gz)
      }),
    )
  },
})

export default defineConfig({
  root: "ui",
  publicDir: false,
  plugins: [react(), precompress()],
  build: {
    outDir: "../dist/app",
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    // Every browser the casino supports has native modulepreload: no polyfill in the first download.
    modulePreload: { polyfill: false },
    // The one chunk above Vite's default 500 kB warning is elkjs (the layout engine), loaded only by
    // the /statecharts route; the player's own budget is bench/budget.json.
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: "core",
              // Vite's preload helper too: shared by the first screen and the lazily loaded session
              // calls, it would otherwise be a chunk of its own (and without a sourcemap).
              // (Effect's HttpApi modules are in no chunk of this build: only the back office's contract
              // used them in the browser, and it is built by vite.backoffice.config.ts.)
              test: /node_modules[\\/](react|react-dom|scheduler|xstate|@xstate[\\/]react|use-sync-external-store|effect)[\\/]|vite[\\/]preload-helper/,
            },
            {
              // The app's own modules of the first screen, in one chunk. Without this group, a module
              // the first screen shares with a lazily loaded one (captured-error.ts with the profile
              // area) became a tiny chunk of its own, each costing its gzip overhead.
              name: "shell",
              tags: ["$initial"],
              test: /[\\/](ui|machines|services|statecharts)[\\/]/,
            },
            {
              // The signed-in session's calls (prefetched with the boot calls): one file, not six.
              name: "session-calls",
              test: /[\\/]services[\\/](session-calls|profile-queries|clients[\\/](user|profile|bonuses))\.ts$/,
            },
            {
              // The lobby and the game page (the home page's code): one lazy file, not ten, fetched
              // beside the boot calls. The verifier and its game maths stay a chunk of their own.
              name: "games-area",
              test: /[\\/](ui[\\/]games[\\/](GamesPage|LobbyView|GameView|GameTile|Wallets)\.tsx|machines[\\/]games[\\/](gamesArea|lobby|gamePage|support)\.machine\.ts|machines[\\/]games[\\/]support\.ts|services[\\/](game-service|lobby-rules|lobby-queries|clients[\\/](games|playerGames))\.ts)$/,
            },
            {
              // The wallet group's contract: its schemas and its client table in one lazy chunk. The
              // client alone is shared by the money flows and the profile area's deposits tab, and
              // would otherwise be one more file named in the first download's preload list.
              name: "wallet-service",
              test: /[\\/]services[\\/](wallet-service|clients[\\/]wallet)\.ts$/,
            },
            {
              // The support chat (loaded after the first screen): one file and its stylesheet, so the
              // first download names as few files as possible in its preload list.
              name: "chat",
              test: /[\\/](ui[\\/]chat[\\/][^/\\]+\.tsx?|machines[\\/]chat[\\/][^/\\]+\.machine\.ts|services[\\/](chat-[a-z-]+|clients[\\/]chat)\.ts)$/,
            },
          ],
        },
      },
    },
  },
  server: { proxy: devProxy },
})
