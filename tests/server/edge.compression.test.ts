/**
 * Compression by Accept-Encoding on the real server: the app's build-time `.br`/`.gz` copies
 * (q-values, `q=0`, `*`, identity, br preferred, HEAD, direct requests for a copy), and on-the-fly
 * brotli/gzip for what the server holds in memory (index.html, API JSON, CDN JSON, /openapi.json,
 * /docs) — with `Vary: Accept-Encoding`, the original content type, a Content-Length that is the
 * length of the bytes sent, and a body that decompresses to exactly the uncompressed answer.
 * Never for small bodies, 204s, HEAD or twice.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  acceptableCodings,
  isCompressible,
  varyWithAcceptEncoding,
} from "../../server/security/compression.ts"
import { type RawReply, raw } from "./edge-support.ts"
import { describeOn, type TestServer } from "./harness.ts"

describe("Accept-Encoding ranking", () => {
  it("honours q-values, q=0, *, identity and x-gzip; br wins ties", () => {
    const cases: ReadonlyArray<readonly [string | undefined, ReadonlyArray<string>]> = [
      [undefined, ["identity"]],
      ["", ["identity"]],
      ["gzip, deflate, br, zstd", ["br", "gzip", "identity"]],
      ["gzip", ["gzip", "identity"]],
      ["x-gzip", ["gzip", "identity"]],
      ["br;q=0.5, gzip;q=0.8", ["gzip", "br", "identity"]],
      ["br;q=0, gzip", ["gzip", "identity"]],
      ["BR;Q=1.0", ["br", "identity"]],
      ["*", ["br", "gzip", "identity"]],
      ["*;q=0.5, gzip", ["gzip", "br", "identity"]],
      ["*;q=0", []],
      ["*;q=0, identity", ["identity"]],
      ["*;q=0, br", ["br"]],
      ["identity;q=0, gzip", ["gzip"]],
      ["identity", ["identity"]],
      ["identity;q=1, br;q=0.5", ["identity", "br"]],
      ["deflate", ["identity"]],
      ["br;q=2, gzip", ["gzip", "identity"]],
      ["br;q=abc, gzip;q=0.1", ["gzip", "identity"]],
      ["gzip;q=0.001", ["gzip", "identity"]],
    ]
    for (const [header, expected] of cases)
      expect(acceptableCodings(header), String(header)).toEqual(expected)
  })

  it("compresses text, JSON, JS, SVG and wasm, never event streams or images", () => {
    for (const t of [
      "text/html; charset=utf-8",
      "application/json",
      "text/javascript; charset=utf-8",
      "image/svg+xml",
      "application/problem+json",
      "application/wasm",
    ]) {
      expect(isCompressible(t), t).toBe(true)
    }
    for (const t of ["text/event-stream", "image/png", "font/woff2", "application/octet-stream", undefined]) {
      expect(isCompressible(t), String(t)).toBe(false)
    }
    expect(varyWithAcceptEncoding(undefined)).toBe("Accept-Encoding")
    expect(varyWithAcceptEncoding("Origin")).toBe("Origin, Accept-Encoding")
    expect(varyWithAcceptEncoding("accept-encoding")).toBe("accept-encoding")
  })
})

/** Deterministic text that compresses well but not absurdly (like real code). */
const sourceText = (lines: number, seed: string) =>
  Array.from(
    { length: lines },
    (_, i) =>
      `export const ${seed}${i} = (value) => value * ${i} + ${(i * 7919) % 1000} // ${seed} line ${i}\n`,
  ).join("")

const decode = (reply: RawReply): Buffer => {
  switch (reply.headers["content-encoding"]) {
    case "br":
      return brotliDecompressSync(reply.body)
    case "gzip":
      return gunzipSync(reply.body)
    case undefined:
      return reply.body
    default:
      throw new Error(`unexpected content-encoding ${reply.headers["content-encoding"]}`)
  }
}

const expectLengthMatches = (reply: RawReply) => {
  expect(reply.headers["content-length"]).toBe(String(reply.body.length))
}

describeOn("postgres", "compression", ({ start }) => {
  let server: TestServer
  let staticDir: string
  const appJs = sourceText(400, "app")
  const gzOnlyJs = sourceText(100, "gz")
  const smallJs = "console.log('small')\n"
  const png = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31) % 256))
  const indexHtml = `<!doctype html><html><head><meta name="cdn-base" content="/cdn" /><title>Casino</title>${"<!-- padding so index.html is over 1 KiB -->".repeat(40)}</head><body><div id="root"></div><script type="module" src="/assets/app-1.js"></script></body></html>`

  beforeAll(async () => {
    staticDir = await mkdtemp(join(tmpdir(), "casino-edge-static-"))
    await mkdir(join(staticDir, "assets"))
    await writeFile(join(staticDir, "index.html"), indexHtml)
    await writeFile(join(staticDir, "assets", "app-1.js"), appJs)
    await writeFile(join(staticDir, "assets", "app-1.js.br"), brotliCompressSync(appJs))
    await writeFile(join(staticDir, "assets", "app-1.js.gz"), gzipSync(appJs, { level: 9 }))
    await writeFile(join(staticDir, "assets", "gz-only-2.js"), gzOnlyJs)
    await writeFile(join(staticDir, "assets", "gz-only-2.js.gz"), gzipSync(gzOnlyJs, { level: 9 }))
    await writeFile(join(staticDir, "assets", "small-3.js"), smallJs)
    await writeFile(join(staticDir, "assets", "logo-4.png"), png)
    await writeFile(
      join(staticDir, "assets", "archive.gz"),
      gzipSync("a download that is a gzip file itself"),
    )
    server = await start({ captchaEnabled: false }, { env: { STATIC_DIR: staticDir } })
  })
  afterAll(async () => {
    await server?.close()
    await rm(staticDir, { recursive: true, force: true })
  })

  const get = (path: string, acceptEncoding?: string, extra: Record<string, string> = {}) =>
    raw(server.url, path, {
      headers: { ...(acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding }), ...extra },
    })

  describe("the app's precompressed files", () => {
    it("sends the .br copy to a browser, with the JS content type, Vary, its length and the immutable cache", async () => {
      const res = await get("/assets/app-1.js", "gzip, deflate, br, zstd")
      expect(res.status).toBe(200)
      expect(res.headers["content-encoding"]).toBe("br")
      expect(res.headers["content-type"]).toMatch(/^text\/javascript/)
      expect(res.headers.vary).toBe("Accept-Encoding")
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
      expectLengthMatches(res)
      expect(res.body.length).toBeLessThan(Buffer.byteLength(appJs) / 3)
      // Decoded once, it is the file: the edge did not compress it a second time.
      expect(decode(res).toString("utf8")).toBe(appJs)
    })

    it("chooses by the client's preferences", async () => {
      const cases: ReadonlyArray<readonly [string | undefined, string | undefined]> = [
        ["gzip", "gzip"],
        ["br;q=0.5, gzip;q=0.9", "gzip"],
        ["br;q=0, gzip", "gzip"],
        ["*", "br"],
        ["*;q=0.1, gzip", "gzip"],
        ["identity", undefined],
        ["*;q=0", undefined],
        ["deflate", undefined],
        [undefined, undefined],
      ]
      for (const [accept, coding] of cases) {
        const res = await get("/assets/app-1.js", accept)
        expect(res.headers["content-encoding"], String(accept)).toBe(coding)
        expect(res.headers.vary, String(accept)).toBe("Accept-Encoding")
        expect(res.headers["content-type"]).toMatch(/^text\/javascript/)
        expectLengthMatches(res)
        expect(decode(res).toString("utf8"), String(accept)).toBe(appJs)
      }
      // Only a .gz copy exists: a brotli-first browser gets gzip.
      const gzOnly = await get("/assets/gz-only-2.js", "br, gzip")
      expect(gzOnly.headers["content-encoding"]).toBe("gzip")
      expect(decode(gzOnly).toString("utf8")).toBe(gzOnlyJs)
      // Only brotli accepted and no .br copy: the edge compresses it on the fly, as any answer.
      const brOnTheFly = await get("/assets/gz-only-2.js", "br")
      expect(brOnTheFly.headers["content-encoding"]).toBe("br")
      expectLengthMatches(brOnTheFly)
      expect(decode(brOnTheFly).toString("utf8")).toBe(gzOnlyJs)
    })

    it("HEAD has the headers of GET and no body", async () => {
      const full = await get("/assets/app-1.js", "br")
      const head = await raw(server.url, "/assets/app-1.js", {
        method: "HEAD",
        headers: { "accept-encoding": "br" },
      })
      expect(head.status).toBe(200)
      expect(head.body.length).toBe(0)
      for (const name of ["content-encoding", "content-length", "content-type", "vary", "cache-control"]) {
        expect(head.headers[name], name).toBe(full.headers[name])
      }
    })

    it("a compressed copy is not an address of its own; a real .gz file is", async () => {
      for (const path of ["/assets/app-1.js.br", "/assets/app-1.js.gz", "/assets/gz-only-2.js.gz"]) {
        const res = await get(path, "br, gzip")
        expect(res.status, path).toBe(404)
        expect(JSON.parse(res.body.toString("utf8"))).toMatchObject({ error: "NotFound" })
      }
      const archive = await get("/assets/archive.gz", "br, gzip")
      expect(archive.status).toBe(200)
      expect(archive.headers["content-encoding"]).toBeUndefined()
      expect(gunzipSync(archive.body).toString("utf8")).toBe("a download that is a gzip file itself")
    })

    it("small files go as they are (still with Vary); images are neither compressed nor varied", async () => {
      const small = await get("/assets/small-3.js", "br, gzip")
      expect(small.headers["content-encoding"]).toBeUndefined()
      expect(small.headers.vary).toBe("Accept-Encoding")
      expect(small.body.toString("utf8")).toBe(smallJs)
      const image = await get("/assets/logo-4.png", "br, gzip")
      expect(image.headers["content-type"]).toBe("image/png")
      expect(image.headers["content-encoding"]).toBeUndefined()
      expect(image.headers.vary).toBeUndefined()
      expect(image.body.equals(png)).toBe(true)
    })
  })

  describe("on the fly", () => {
    /** The same address asked without and with each coding: equal bodies once decoded. */
    const expectCompressedAlike = async (path: string, extra: Record<string, string> = {}) => {
      const plain = await get(path, undefined, extra)
      expect(plain.status, path).toBe(200)
      expect(plain.headers["content-encoding"], path).toBeUndefined()
      expect(plain.headers.vary, path).toBe("Accept-Encoding")
      expectLengthMatches(plain)
      for (const coding of ["br", "gzip"]) {
        const res = await get(path, coding === "br" ? "gzip, deflate, br" : "gzip", extra)
        expect(res.status, path).toBe(200)
        expect(res.headers["content-encoding"], `${path} ${coding}`).toBe(coding)
        expect(res.headers["content-type"], path).toBe(plain.headers["content-type"])
        expect(res.headers["cache-control"], path).toBe(plain.headers["cache-control"])
        expect(res.headers.vary, path).toBe("Accept-Encoding")
        expect(res.headers["content-security-policy"], path).toBe(plain.headers["content-security-policy"])
        expectLengthMatches(res)
        expect(res.body.length, path).toBeLessThan(plain.body.length)
        expect(decode(res).equals(plain.body), `${path} ${coding} decodes to the plain answer`).toBe(true)
      }
      return plain
    }

    it("index.html (rewritten at serve time) and client routes", async () => {
      const index = await expectCompressedAlike("/", { accept: "text/html" })
      expect(index.headers["cache-control"]).toBe("no-cache")
      expect(index.body.toString("utf8")).toContain('<meta name="cdn-base" content="/cdn" />')
      await expectCompressedAlike("/terms", { accept: "text/html" })
    })

    it("API JSON, CDN JSON, /openapi.json and /docs", async () => {
      await expectCompressedAlike("/openapi.json")
      await expectCompressedAlike("/cdn/country-codes.json")
      await expectCompressedAlike("/cdn/currencies.json")
      const docs = await expectCompressedAlike("/docs")
      // Asked again: the remembered copy, still the same bytes once decoded.
      const again = await get("/docs", "br")
      expect(decode(again).equals(docs.body)).toBe(true)
      const spec = JSON.parse((await get("/openapi.json")).body.toString("utf8")) as { paths: object }
      expect(Object.keys(spec.paths).length).toBeGreaterThan(5)
    })

    it("not for small answers, 204s or HEAD; never twice", async () => {
      const small = await get("/ip-service/api/v1/user/currentIp", "br, gzip")
      expect(small.status).toBe(200)
      expect(small.headers["content-encoding"]).toBeUndefined()
      expect(small.headers.vary).toBe("Accept-Encoding")
      expect(JSON.parse(small.body.toString("utf8"))).toEqual({ country: "Malta", isoCode: "MT" })
      // Unless the client refuses identity.
      const forced = await get("/ip-service/api/v1/user/currentIp", "identity;q=0, gzip")
      expect(forced.headers["content-encoding"]).toBe("gzip")
      expect(JSON.parse(decode(forced).toString("utf8"))).toEqual({ country: "Malta", isoCode: "MT" })
      const signout = await raw(server.url, "/user-service/api/v1/signout", {
        method: "DELETE",
        headers: { "accept-encoding": "br, gzip" },
      })
      expect(signout.status).toBe(204)
      expect(signout.headers["content-encoding"]).toBeUndefined()
      expect(signout.body.length).toBe(0)
      const head = await raw(server.url, "/openapi.json", {
        method: "HEAD",
        headers: { "accept-encoding": "br" },
      })
      expect(head.status).toBe(200)
      expect(head.headers["content-encoding"]).toBeUndefined()
      expect(head.headers.vary).toBe("Accept-Encoding")
      // A client error answer is JSON like any other (here under the threshold: plain).
      const notFound = await get("/api/nothing", "br")
      expect(notFound.status).toBe(404)
      expect(JSON.parse(decode(notFound).toString("utf8"))).toMatchObject({ error: "NotFound" })
      // The precompressed asset again: one coding, decoded once.
      const asset = await get("/assets/app-1.js", "br")
      expect(asset.headers["content-encoding"]).toBe("br")
      expect(decode(asset).toString("utf8")).toBe(appJs)
    })
  })
})
