/**
 * The player app (`vite build` → `STATIC_DIR`, default dist/app) on `/`, and the catch-all route:
 *
 * - a file of the build is served with its content type; hashed files under /assets/ are cached
 *   for a year (immutable), index.html never (`no-cache`), anything else for an hour;
 * - any other GET/HEAD that accepts text/html and is not under an API prefix gets index.html
 *   (client routes such as /terms and /profile/verification);
 * - everything else is 404 JSON (unknown API paths, other methods, missing files).
 * index.html has its `<meta name="cdn-base">` set to CDN_BASE_PATH.
 */
import { stat } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { cdnResponse, forbiddenPathJson, notFoundJson } from "../cdn/http.ts"
import type { AppConfigShape } from "../config.ts"
import { pathOf } from "../security/middleware.ts"
import { contentTypeOf, readBytes, resolveInside } from "./files.ts"

/** Paths that belong to the API or the server, never to the client router. */
export const apiPrefixes = (config: Pick<AppConfigShape, "cdnBasePath">): ReadonlyArray<string> => [
  "/api/",
  "/user-service/",
  "/profile-service/",
  "/game-aggregator-service/",
  "/ip-service/",
  `${config.cdnBasePath}/`,
  "/openapi.json",
  "/docs",
]

export const isApiPath = (config: Pick<AppConfigShape, "cdnBasePath">, path: string): boolean =>
  apiPrefixes(config).some((p) => path === p.replace(/\/$/, "") || path.startsWith(p))

const escapeAttribute = (s: string): string =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  )

export const injectCdnBase = (html: string, cdnBasePath: string): string =>
  html.replace(
    /<meta\s+name=["']cdn-base["']\s+content=["'][^"']*["']\s*\/?>/i,
    `<meta name="cdn-base" content="${escapeAttribute(cdnBasePath)}" />`,
  )

export const makeStaticHandler = (config: AppConfigShape) => {
  const indexPath = join(config.staticDir, "index.html")
  let indexCache: { readonly stamp: string; readonly body: string } | undefined

  const index = Effect.promise(async () => {
    try {
      const s = await stat(indexPath)
      const stamp = `${s.mtimeMs}:${s.size}`
      if (indexCache?.stamp !== stamp) {
        const html = new TextDecoder().decode(await readBytes(indexPath))
        indexCache = { stamp, body: injectCdnBase(html, config.cdnBasePath) }
      }
      return HttpServerResponse.text(indexCache.body, {
        contentType: "text/html; charset=utf-8",
        headers: { "cache-control": "no-cache" },
      })
    } catch {
      return HttpServerResponse.text(
        `The player app is not built: ${indexPath} is missing. Run \`npm run build\` and reload.\n`,
        { status: 503, contentType: "text/plain; charset=utf-8", headers: { "cache-control": "no-store" } },
      )
    }
  })

  return (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      const path = pathOf(request.url)
      if (request.method === "HEAD" && path.startsWith(`${config.cdnBasePath}/`)) {
        return yield* cdnResponse(config, path)
      }
      if ((request.method !== "GET" && request.method !== "HEAD") || isApiPath(config, path)) {
        return notFoundJson()
      }
      if (path === "/" || path === "/index.html") return yield* index
      const resolved = yield* Effect.promise(() => resolveInside(config.staticDir, path))
      if (resolved._tag === "Forbidden") return forbiddenPathJson()
      if (resolved._tag === "File") {
        const body = yield* Effect.promise(() => readBytes(resolved.path))
        const cache = path.startsWith("/assets/")
          ? "public, max-age=31536000, immutable"
          : "public, max-age=3600"
        return HttpServerResponse.uint8Array(body, {
          contentType: contentTypeOf(resolved.path),
          headers: { "cache-control": cache },
        })
      }
      const accept = request.headers.accept ?? ""
      if (accept.includes("text/html")) return yield* index
      return notFoundJson()
    })
}

/** The catch-all route: every method, every path no other route took. */
export const staticRoutes = (config: AppConfigShape) => HttpRouter.add("*", "*", makeStaticHandler(config))
