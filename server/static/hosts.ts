/**
 * Which app a request belongs to, by path and, when the back office has a host of its own
 * (BACKOFFICE_URL), by the Host header. Then the back office's host serves only the back office
 * (`/backoffice` and below, `/api/backoffice` and below; its bare root leads to `/backoffice/`), and
 * every other host serves everything but those: a script on a player page cannot reach the
 * back-office API with an operator's cookie, which the browser keeps for the back office's host
 * alone. `/health` and `/ready` answer on every host (a load balancer's checks). Without BACKOFFICE_URL both
 * apps share every host, as they always did. The edge applies it (server/security/middleware.ts).
 */
import type { AppConfigShape } from "../config.ts"

/** Where the back office (its own build, vite.backoffice.config.ts) is served: this path and below. */
export const BACKOFFICE_BASE = "/backoffice"

const BACKOFFICE_API = "/api/backoffice"

export const isBackofficePath = (path: string): boolean =>
  path === BACKOFFICE_BASE || path.startsWith(`${BACKOFFICE_BASE}/`)

export const isBackofficeApiPath = (path: string): boolean =>
  path === BACKOFFICE_API || path.startsWith(`${BACKOFFICE_API}/`)

/** What the edge does with a request before any route sees it. */
export type HostRoute = "serve" | "notFound" | "toBackoffice"

export interface HostRouting {
  /** Whether the request was sent to the back office's own host (never, without BACKOFFICE_URL). */
  readonly isBackofficeHost: (hostHeader: string | undefined) => boolean
  /** Whether the path is the back office's (its pages or its API), whatever the host. */
  readonly isBackoffice: (path: string) => boolean
  readonly route: (hostHeader: string | undefined, path: string) => HostRoute
}

export const makeHostRouting = (config: Pick<AppConfigShape, "backofficeUrl">): HostRouting => {
  const own = config.backofficeUrl === undefined ? undefined : new URL(config.backofficeUrl)
  /** The Host header as URL.host writes it (lower case, the scheme's default port left out). */
  const normalised = (hostHeader: string): string | undefined => {
    try {
      const url = new URL(`${own?.protocol ?? "http:"}//${hostHeader}`)
      return url.pathname === "/" && url.username === "" ? url.host : undefined
    } catch {
      return undefined
    }
  }
  const isBackofficeHost = (hostHeader: string | undefined): boolean =>
    own !== undefined && hostHeader !== undefined && normalised(hostHeader) === own.host
  const isBackoffice = (path: string): boolean => isBackofficePath(path) || isBackofficeApiPath(path)
  return {
    isBackofficeHost,
    isBackoffice,
    route: (hostHeader, path) => {
      if (own === undefined || path === "/health" || path === "/ready") return "serve"
      if (!isBackofficeHost(hostHeader)) return isBackoffice(path) ? "notFound" : "serve"
      if (isBackoffice(path)) return "serve"
      return path === "/" ? "toBackoffice" : "notFound"
    },
  }
}
