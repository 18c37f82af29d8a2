/**
 * The browser apps, each its own Vite build (scripts/build.ts), and the catch-all GET route (HEAD
 * reaches it too: the router answers HEAD with the GET route): the player app (`STATIC_DIR`, default
 * dist/app) on `/`, the back office (`BACKOFFICE_STATIC_DIR`, default dist/backoffice) on
 * `/backoffice` and below. Both follow the same rules, paths being relative to where each is served:
 *
 * - a file of the build is served with its content type; hashed files under /assets/ are cached
 *   for a year (immutable), index.html never (`no-cache`), anything else for an hour;
 * - compressible files are sent as their build-time `.br` / `.gz` copy when the client accepts it
 *   (server/security/compression.ts ranks Accept-Encoding), with `Content-Encoding`, the original's
 *   content type and `Vary: Accept-Encoding` (on the uncompressed answer too);
 * - those copies are not addresses of their own: `/assets/x.js.br` is 404 when `/assets/x.js`
 *   exists (the same bytes are reachable as x.js with Accept-Encoding: br, and a raw brotli file
 *   under a second URL only invites a wrongly labelled or double-decoded download);
 * - any other GET/HEAD that accepts text/html and is not under an API prefix gets the build's
 *   index.html (client routes such as /terms and /profile/verification, /backoffice/players); the
 *   player's has its `<meta name="cdn-base">` set to CDN_BASE_PATH and its chat provider, the back
 *   office's is sent as built; either is compressed by the edge middleware;
 * - `/statecharts` (the visualizer, a client route of the player's build) is 404 unless the config
 *   allows it (STATECHARTS; off by default in production);
 * - with BACKOFFICE_URL, the edge has already kept each host to its own app (./hosts.ts): the
 *   back office's host reaches only the back office's part here, the others only the player's;
 * - a GET under an API prefix that no route took is 405 + Allow for a known path, else 404;
 *   anything else is 404 JSON (missing files).
 */
import { stat } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { forbiddenPathJson, notFoundJson } from "../cdn/http.ts"
import type { ChatConfig } from "../chat/config.ts"
import type { AppConfigShape } from "../config.ts"
import { acceptableCodings, isCompressible } from "../security/compression.ts"
import { pathOf } from "../security/middleware.ts"
import { apiFallback, type EndpointIndex } from "./endpoints.ts"
import { contentTypeOf, readBytes, resolveInside } from "./files.ts"
import { BACKOFFICE_BASE, isBackofficePath } from "./hosts.ts"

/** Paths that belong to the API or the server, never to the client router. */
export const apiPrefixes = (config: Pick<AppConfigShape, "cdnBasePath">): ReadonlyArray<string> => [
  "/api/",
  "/user-service/",
  "/profile-service/",
  "/game-aggregator-service/",
  "/ip-service/",
  "/chat-service/",
  // The sandbox on-ramp (Buy crypto widgets) and the sandbox chains' Esplora API.
  "/sandbox-onramp/",
  "/sandbox-chain/",
  `${config.cdnBasePath}/`,
  "/openapi.json",
  "/docs",
]

export const isApiPath = (config: Pick<AppConfigShape, "cdnBasePath">, path: string): boolean =>
  apiPrefixes(config).some((p) => path === p.replace(/\/$/, "") || path.startsWith(p))

/** The visualizer's client route (ui/main.tsx mounts it instead of the player app). */
export const isStatechartsPath = (path: string): boolean =>
  path === "/statecharts" || path.startsWith("/statecharts/")

const escapeAttribute = (s: string): string =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  )

/** The page's CDN base, and its boot preloads of CDN files (built against `/cdn`) under the same base. */
export const injectCdnBase = (html: string, cdnBasePath: string): string =>
  html
    .replace(
      /<meta\s+name=["']cdn-base["']\s+content=["'][^"']*["']\s*\/?>/i,
      `<meta name="cdn-base" content="${escapeAttribute(cdnBasePath)}" />`,
    )
    .replace(
      /(<link\b[^>]*\bas="fetch"[^>]*\bhref=")\/cdn\//g,
      (_, head: string) => `${head}${escapeAttribute(cdnBasePath)}/`,
    )

/**
 * Which chat the page runs (`<meta name="chat-provider">`, read by ui/chat/): `builtin`, or
 * `chatwoot` with the installation's base URL and website token as data attributes.
 */
export const injectChatProvider = (html: string, chat: ChatConfig): string => {
  const meta =
    chat.provider === "chatwoot"
      ? `<meta name="chat-provider" content="chatwoot" data-base-url="${escapeAttribute(chat.baseUrl)}" data-website-token="${escapeAttribute(chat.websiteToken)}" />`
      : `<meta name="chat-provider" content="builtin" />`
  return html.replace(/<meta\s+name=["']chat-provider["'][^>]*>/i, meta)
}

const siblingExtension = { br: ".br", gzip: ".gz" } as const

/**
 * A build's index.html, `rewrite` applied: read again only when the file changes, and the encoded
 * bytes kept, so the edge compresses the same object (it remembers bodies it saw).
 */
const indexPage = (dir: string, what: string, rewrite: (html: string) => string) => {
  const indexPath = join(dir, "index.html")
  let cache: { readonly stamp: string; readonly body: Uint8Array } | undefined
  return Effect.promise(async () => {
    try {
      const s = await stat(indexPath)
      const stamp = `${s.mtimeMs}:${s.size}`
      if (cache?.stamp !== stamp) {
        const html = new TextDecoder().decode(await readBytes(indexPath))
        cache = { stamp, body: new TextEncoder().encode(rewrite(html)) }
      }
      return HttpServerResponse.uint8Array(cache.body, {
        contentType: "text/html; charset=utf-8",
        headers: { "cache-control": "no-cache" },
      })
    } catch {
      return HttpServerResponse.text(
        `The ${what} is not built: ${indexPath} is missing. Run \`npm run build\` and reload.\n`,
        { status: 503, contentType: "text/plain; charset=utf-8", headers: { "cache-control": "no-store" } },
      )
    }
  })
}

export const makeStaticHandler = (config: AppConfigShape, endpoints: EndpointIndex) => {
  const playerIndex = indexPage(config.staticDir, "player app", (html) =>
    injectChatProvider(injectCdnBase(html, config.cdnBasePath), config.chat),
  )
  // Nothing to rewrite: the back office reads no CDN base and runs no chat widget.
  const backofficeIndex = indexPage(config.backofficeStaticDir, "back office", (html) => html)

  /** The file to send for `urlPath` of `dir`: its build-time compressed copy when the client takes one. */
  const pick = (dir: string, urlPath: string, acceptEncoding: string | undefined) =>
    Effect.promise(async () => {
      for (const coding of acceptableCodings(acceptEncoding)) {
        if (coding === "identity") return undefined
        const sibling = await resolveInside(dir, urlPath + siblingExtension[coding])
        if (sibling._tag === "File") return { coding, path: sibling.path }
      }
      return undefined
    })

  /** `path` (relative to where the build is served) from the build in `dir`, else its index.html or 404. */
  const fromBuild = (
    request: HttpServerRequest.HttpServerRequest,
    dir: string,
    path: string,
    index: typeof playerIndex,
  ) =>
    Effect.gen(function* () {
      const resolved = yield* Effect.promise(() => resolveInside(dir, path))
      if (resolved._tag === "Forbidden") return forbiddenPathJson()
      if (resolved._tag === "File") {
        const compressedCopy = /\.(br|gz)$/.exec(path)
        if (compressedCopy !== null) {
          const original = yield* Effect.promise(() =>
            resolveInside(dir, path.slice(0, -compressedCopy[0].length)),
          )
          if (original._tag === "File") return notFoundJson()
        }
        const contentType = contentTypeOf(resolved.path)
        const headers: Record<string, string> = {
          "cache-control": path.startsWith("/assets/")
            ? "public, max-age=31536000, immutable"
            : "public, max-age=3600",
        }
        let file = resolved.path
        if (isCompressible(contentType)) {
          headers.vary = "Accept-Encoding"
          const chosen = yield* pick(dir, path, request.headers["accept-encoding"])
          if (chosen !== undefined) {
            headers["content-encoding"] = chosen.coding
            file = chosen.path
          }
        }
        const body = yield* Effect.promise(() => readBytes(file))
        return HttpServerResponse.uint8Array(body, { contentType, headers })
      }
      const accept = request.headers.accept ?? ""
      if (accept.includes("text/html")) return yield* index
      return notFoundJson()
    })

  return (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      const path = pathOf(request.url)
      if (isApiPath(config, path)) return apiFallback(endpoints, request.method, path)
      if (isBackofficePath(path)) {
        const inside = path.slice(BACKOFFICE_BASE.length)
        if (inside === "" || inside === "/" || inside === "/index.html") return yield* backofficeIndex
        return yield* fromBuild(request, config.backofficeStaticDir, inside, backofficeIndex)
      }
      if (path === "/" || path === "/index.html") return yield* playerIndex
      if (!config.statecharts && isStatechartsPath(path)) return notFoundJson()
      return yield* fromBuild(request, config.staticDir, path, playerIndex)
    })
}

/** The catch-all route: every GET (and so HEAD) no other route took; other methods end in the edge's 404/405. */
export const staticRoutes = (config: AppConfigShape, endpoints: EndpointIndex) =>
  HttpRouter.add("GET", "*", makeStaticHandler(config, endpoints))
