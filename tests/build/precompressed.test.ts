/**
 * The builds' precompressed files (the `casino:precompress` plugin of vite.config.ts, in the player's
 * and the back office's build alike): every compressible file of dist/app and dist/backoffice of at
 * least 1 KiB has a `.br` and a `.gz` beside it that decompress to exactly its bytes (a copy is left
 * out only when it would not be smaller); small files, already-compressed formats and the index.html
 * have none; and the manifest the bundle budget reads does not list them. Fails, not skips, without
 * a build.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { BACKOFFICE_DIST_DIR, DIST_DIR } from "../../bench/bundle.ts"
import { compressibleFile, precompressMinBytes } from "../../vite.config.ts"

const walk = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  )

const isSibling = (f: string) => f.endsWith(".br") || f.endsWith(".gz")

describe.each([
  { name: "dist/app", dir: DIST_DIR, minJs: 6 },
  // One JS chunk (the check of files under 64 KiB below finds its CSS).
  { name: "dist/backoffice", dir: BACKOFFICE_DIST_DIR, minJs: 1 },
])("precompressed files in $name", ({ dir, minJs }) => {
  let files: Array<string> | undefined
  const built = (): Array<string> => {
    if (files === undefined) {
      if (!existsSync(join(dir, "index.html"))) {
        throw new Error(`${dir}/index.html is missing: run npm run build first`)
      }
      files = walk(dir)
    }
    return files
  }
  const served = () => built().filter((f) => !isSibling(f) && !relative(dir, f).startsWith("."))

  it("every compressible file of 1 KiB or more has a .br and a .gz that decompress to its bytes", () => {
    const candidates = served().filter(
      (f) =>
        compressibleFile.test(f) &&
        relative(dir, f) !== "index.html" &&
        readFileSync(f).length >= precompressMinBytes,
    )
    // The app has JS, CSS and source maps well above 1 KiB: an empty list means the check is broken.
    expect(candidates.filter((f) => f.endsWith(".js")).length).toBeGreaterThanOrEqual(minJs)
    expect(candidates.some((f) => f.endsWith(".css"))).toBe(true)
    expect(candidates.some((f) => f.endsWith(".map"))).toBe(true)
    for (const file of candidates) {
      const raw = readFileSync(file)
      const name = relative(dir, file)
      if (existsSync(`${file}.br`)) {
        const br = readFileSync(`${file}.br`)
        expect(br.length, `${name}.br is smaller`).toBeLessThan(raw.length)
        expect(brotliDecompressSync(br).equals(raw), `${name}.br decompresses to ${name}`).toBe(true)
      } else {
        // Only allowed when brotli cannot shrink it.
        const again = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
        expect(again.length, `${name}.br is missing`).toBeGreaterThanOrEqual(raw.length)
      }
      if (existsSync(`${file}.gz`)) {
        const gz = readFileSync(`${file}.gz`)
        expect(gz.length, `${name}.gz is smaller`).toBeLessThan(raw.length)
        expect(gunzipSync(gz).equals(raw), `${name}.gz decompresses to ${name}`).toBe(true)
      } else {
        expect(gzipSync(raw, { level: 9 }).length, `${name}.gz is missing`).toBeGreaterThanOrEqual(raw.length)
      }
    }
  })

  it("brotli is at maximum quality for the code and styles the browser downloads", () => {
    // Files under 64 KiB keep this cheap: quality 11 is slow by design, and the build project's other
    // file (bundle.test.ts) runs beside this one with a 5 s timeout.
    const js = served().filter(
      (f) => /\.(js|css)$/.test(f) && existsSync(`${f}.br`) && readFileSync(f).length < 64 * 1024,
    )
    expect(js.length).toBeGreaterThan(0)
    for (const file of js) {
      const max = brotliCompressSync(readFileSync(file), {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
      expect(readFileSync(`${file}.br`).length, relative(dir, file)).toBeLessThanOrEqual(max.length)
    }
  }, 60_000)

  it("small files, index.html and dot-folders get no compressed copy; every copy has its original", () => {
    for (const file of built().filter(isSibling)) {
      const original = file.slice(0, -3)
      expect(existsSync(original), `${relative(dir, file)} has no original`).toBe(true)
      expect(readFileSync(original).length).toBeGreaterThanOrEqual(precompressMinBytes)
      expect(compressibleFile.test(original)).toBe(true)
    }
    expect(existsSync(join(dir, "index.html.br"))).toBe(false)
    expect(existsSync(join(dir, "index.html.gz"))).toBe(false)
    expect(existsSync(join(dir, ".vite", "manifest.json.br"))).toBe(false)
  })

  it("the manifest (read by the bundle budget) names no compressed copy", () => {
    const manifest = readFileSync(join(dir, ".vite", "manifest.json"), "utf8")
    expect(manifest).not.toMatch(/\.(br|gz)"/)
  })
})
