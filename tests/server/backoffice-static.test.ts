/**
 * `/backoffice` is served from the back office's own build (BACKOFFICE_STATIC_DIR), apart from the
 * player's (STATIC_DIR), by the same rules: its index.html for the page and every client route below
 * it (a full page load), hashed assets cached for a year, build-time brotli/gzip copies by
 * Accept-Encoding and never addresses of their own, nothing outside its folder. The static handler
 * is called directly (no database needed), on two stand-in builds.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { brotliCompressSync, brotliDecompressSync } from "node:zlib"
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadConfig } from "../../server/config.ts"
import { makeEndpointIndex } from "../../server/static/endpoints.ts"
import { makeStaticHandler } from "../../server/static/http.ts"

const playerHtml = '<!doctype html><meta name="cdn-base" content="/cdn" /><title>Casino</title>'
const backofficeHtml =
  '<!doctype html><title>Back office</title><script type="module" src="/backoffice/assets/index-b0.js"></script>'
const backofficeJs = `console.log(${JSON.stringify("back office ".repeat(200))})\n`

let dir: string
let player: string
let backoffice: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "casino-backoffice-static-"))
  player = join(dir, "app")
  backoffice = join(dir, "backoffice")
  await mkdir(join(player, "assets"), { recursive: true })
  await mkdir(join(backoffice, "assets"), { recursive: true })
  await mkdir(join(backoffice, ".vite"), { recursive: true })
  await writeFile(join(player, "index.html"), playerHtml)
  await writeFile(join(player, "assets", "index-p1.js"), "console.log('player')\n")
  await writeFile(join(backoffice, "index.html"), backofficeHtml)
  await writeFile(join(backoffice, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>")
  await writeFile(join(backoffice, "assets", "index-b0.js"), backofficeJs)
  await writeFile(join(backoffice, "assets", "index-b0.js.br"), brotliCompressSync(backofficeJs))
  await writeFile(join(backoffice, ".vite", "manifest.json"), "{}")
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const configWith = (env: Record<string, string>) =>
  loadConfig({
    DATA_DIR: dir,
    STATIC_DIR: player,
    BACKOFFICE_STATIC_DIR: backoffice,
    PUBLIC_URL: "https://casino.example",
    CAPTCHA_SECRET: "x".repeat(32),
    OPERATOR_SECRET: "y".repeat(32),
    BACKOFFICE_TOTP_KEY: "b".repeat(32),
    ...env,
  })

interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

const get = async (
  path: string,
  headers: Record<string, string> = { accept: "text/html" },
  env: Record<string, string> = {},
): Promise<Answer> => {
  const handler = makeStaticHandler(configWith(env), makeEndpointIndex([]))
  const request = HttpServerRequest.fromWeb(new Request(`http://127.0.0.1${path}`, { headers }))
  const response = await Effect.runPromise(handler(request))
  if (!HttpServerResponse.isHttpServerResponse(response)) throw new Error(`${path}: not a response`)
  const web = HttpServerResponse.toWeb(response)
  const bytes = Buffer.from(await web.arrayBuffer())
  // A brotli body (the build's copy, as sent) is compared decoded.
  const body = (web.headers.get("content-encoding") === "br" ? brotliDecompressSync(bytes) : bytes).toString(
    "utf8",
  )
  return { status: response.status, headers: Object.fromEntries(web.headers), body }
}

describe("/backoffice, from its own build", () => {
  it("serves the back office's index.html on /backoffice and on every client route below it", async () => {
    for (const path of [
      "/backoffice",
      "/backoffice/",
      "/backoffice/index.html",
      "/backoffice/players",
      "/backoffice/players/5b1e8f0a-7a51-4a8e-9d38-2a8f3c1d9e11",
      "/backoffice/audit?page=2",
    ]) {
      const res = await get(path)
      expect(res.status, path).toBe(200)
      expect(res.body, path).toBe(backofficeHtml)
      expect(res.headers["content-type"], path).toBe("text/html; charset=utf-8")
      expect(res.headers["cache-control"], path).toBe("no-cache")
    }
  })

  it("leaves the player's pages to the player's build (and /backofficex is one of them)", async () => {
    for (const path of ["/", "/profile", "/backofficex", "/backoffice-help"]) {
      const res = await get(path)
      expect(res.status, path).toBe(200)
      expect(res.body, path).toContain("<title>Casino</title>")
    }
  })

  it("serves its assets by the app's rules: hashed files immutable, the brotli copy when accepted", async () => {
    const plain = await get("/backoffice/assets/index-b0.js", { accept: "*/*" })
    expect(plain.status).toBe(200)
    expect(plain.body).toBe(backofficeJs)
    expect(plain.headers["content-type"]).toBe("text/javascript; charset=utf-8")
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
    expect(plain.headers.vary).toBe("Accept-Encoding")
    expect(plain.headers["content-encoding"]).toBeUndefined()

    const br = await get("/backoffice/assets/index-b0.js", { accept: "*/*", "accept-encoding": "br, gzip" })
    expect(br.headers["content-encoding"]).toBe("br")
    expect(br.body).toBe(backofficeJs)

    const icon = await get("/backoffice/favicon.svg", { accept: "*/*" })
    expect(icon.status).toBe(200)
    expect(icon.headers["cache-control"]).toBe("public, max-age=3600")
  })

  it("answers 404 for a compressed copy's own address, a missing asset, or a file of the other build", async () => {
    expect((await get("/backoffice/assets/index-b0.js.br", { accept: "*/*" })).status).toBe(404)
    expect((await get("/backoffice/assets/missing.js", { accept: "*/*" })).status).toBe(404)
    expect((await get("/assets/index-b0.js", { accept: "*/*" })).status).toBe(404)
    expect((await get("/backoffice/assets/index-p1.js", { accept: "*/*" })).status).toBe(404)
  })

  it("serves nothing outside its folder, nor its dot-folders", async () => {
    for (const path of [
      "/backoffice/..%2fapp/index.html",
      "/backoffice/assets/..%2f..%2fapp%2fassets%2findex-p1.js",
    ]) {
      const res = await get(path, { accept: "*/*" })
      expect(res.status, path).toBe(403)
    }
    expect((await get("/backoffice/.vite/manifest.json", { accept: "*/*" })).status).toBe(403)
  })

  it("says the back office is not built when its index.html is missing (503)", async () => {
    const res = await get(
      "/backoffice/players",
      { accept: "text/html" },
      {
        BACKOFFICE_STATIC_DIR: join(dir, "nowhere"),
      },
    )
    expect(res.status).toBe(503)
    expect(res.body).toMatch(/The back office is not built: .*index\.html is missing/)
    expect(
      (await get("/", { accept: "text/html" }, { BACKOFFICE_STATIC_DIR: join(dir, "nowhere") })).status,
    ).toBe(200)
  })
})
