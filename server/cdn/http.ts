/**
 * `GET ${CDN_BASE_PATH}/*`: files of the CDN folder. JSON files are `no-cache` (an operator's edit
 * shows at once), other files (icons, tutorial) may be cached for an hour. Traversal is refused (403).
 */
import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { AppConfigShape } from "../config.ts"
import { pathOf } from "../security/middleware.ts"
import { contentTypeOf, readBytes, resolveInside } from "../static/files.ts"

export const notFoundJson = () =>
  HttpServerResponse.jsonUnsafe(
    { error: "NotFound", message: "There is nothing at this address." },
    { status: 404, headers: { "cache-control": "no-store" } },
  )

export const forbiddenPathJson = () =>
  HttpServerResponse.jsonUnsafe(
    { error: "ForbiddenPath", message: "This path is not allowed." },
    { status: 403, headers: { "cache-control": "no-store" } },
  )

export const cdnResponse = (config: Pick<AppConfigShape, "cdnDir" | "cdnBasePath">, urlPath: string) =>
  Effect.promise(async () => {
    const rest = urlPath.slice(config.cdnBasePath.length)
    const resolved = await resolveInside(config.cdnDir, rest)
    if (resolved._tag === "Forbidden") return forbiddenPathJson()
    if (resolved._tag === "NotFound") return notFoundJson()
    const contentType = contentTypeOf(resolved.path)
    const body = await readBytes(resolved.path)
    return HttpServerResponse.uint8Array(body, {
      contentType,
      headers: {
        "cache-control": contentType.startsWith("application/json") ? "no-cache" : "public, max-age=3600",
      },
    })
  })

export const cdnRoutes = (config: AppConfigShape) =>
  HttpRouter.add(
    "GET",
    `${config.cdnBasePath}/*` as `/${string}`,
    (request: HttpServerRequest.HttpServerRequest) => cdnResponse(config, pathOf(request.url)),
  )
