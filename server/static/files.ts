/**
 * Safe file serving shared by the app (dist/app) and the CDN folder: a URL path is resolved inside
 * a root and refused when it escapes it (`..`, encoded or not, absolute paths, NUL bytes, symlinks
 * pointing outside, dot-files); the content type comes from a fixed extension table.
 */
import { readFile, realpath, stat } from "node:fs/promises"
import { extname, resolve, sep } from "node:path"

const contentTypes: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".xml": "application/xml",
}

export const contentTypeOf = (path: string): string =>
  contentTypes[extname(path).toLowerCase()] ?? "application/octet-stream"

export type Resolved =
  | { readonly _tag: "File"; readonly path: string; readonly size: number }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "Forbidden" }

/** Resolves `urlPath` (the part after the mount point, still percent-encoded) inside `root`. */
export const resolveInside = async (root: string, urlPath: string): Promise<Resolved> => {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return { _tag: "Forbidden" }
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return { _tag: "Forbidden" }
  const segments = decoded.split("/").filter((s) => s !== "")
  if (segments.some((s) => s === ".." || s.startsWith("."))) return { _tag: "Forbidden" }
  const rootAbs = resolve(root)
  const candidate = resolve(rootAbs, ...segments)
  if (candidate !== rootAbs && !candidate.startsWith(rootAbs + sep)) return { _tag: "Forbidden" }
  try {
    const [realRoot, realFile] = await Promise.all([realpath(rootAbs), realpath(candidate)])
    if (!realFile.startsWith(realRoot + sep)) return { _tag: "Forbidden" }
    const s = await stat(realFile)
    if (!s.isFile()) return { _tag: "NotFound" }
    return { _tag: "File", path: realFile, size: s.size }
  } catch {
    return { _tag: "NotFound" }
  }
}

export const readBytes = (path: string): Promise<Uint8Array> => readFile(path)
