/**
 * Every (method, path) the API answers, for clean answers to requests that match none:
 *
 * - the implemented endpoints, read from the contract itself (`HttpApi.reflect` over `CasinoApi`),
 *   so a new endpoint is known here the moment it is added to services/;
 * - the endpoints of spec section 7 whose capability is not built yet, in ONE table
 *   (`notBuiltEndpoints`): each answers 501 `{ error: "NotImplemented", capability }` until its
 *   capability replaces the row with a contract endpoint;
 * - `/openapi.json`, `/docs` and the CDN files (GET).
 *
 * A request under an API prefix that no route took is 405 with `Allow` when its path is known
 * (another method would be answered), otherwise 404 (`apiFallback`).
 */
import { type Schema, SchemaAST } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApi, type HttpApiEndpoint } from "effect/http-api"
import { CasinoApi } from "../../services/api.ts"
import { BackofficeApi } from "../../services/backoffice/api.ts"

/** Capabilities of the spec that later work delivers; their calls answer 501 until then. */
export const capabilities = {
  profile: "profile",
  walletPayments: "wallet-and-payments",
  games: "games",
  bonuses: "bonuses",
} as const
export type Capability = (typeof capabilities)[keyof typeof capabilities]

const capabilityTitles: Readonly<Record<Capability, string>> = {
  profile: "Profile management",
  "wallet-and-payments": "Wallet and payments",
  games: "Games",
  bonuses: "Bonuses and promotions",
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

export interface NotBuiltEndpoint {
  readonly method: Method
  /** Router syntax: `:name` is one path segment. */
  readonly path: `/${string}`
  readonly capability: Capability
}

/**
 * The spec's calls (section 7) that are not served yet, as `{ method, path, capability }` rows —
 * none now (the loyalty level was the last). The deposit-minimums call and the fiat withdraw
 * request have no path in the spec and so no row.
 */
export const notBuiltEndpoints: ReadonlyArray<NotBuiltEndpoint> = []

export const notImplemented = (capability: Capability) =>
  HttpServerResponse.jsonUnsafe(
    {
      error: "NotImplemented",
      capability,
      message: `${capabilityTitles[capability]} is not available yet.`,
    },
    { status: 501, headers: { "cache-control": "no-store" } },
  )

export interface KnownEndpoint {
  readonly method: string
  readonly path: string
}

/** The values a path parameter may take when its schema is a literal or a union of literals. */
const literalValues = (ast: SchemaAST.AST): ReadonlyArray<string> | undefined => {
  if (SchemaAST.isLiteral(ast)) return [String(ast.literal)]
  if (!SchemaAST.isUnion(ast)) return undefined
  const values: Array<string> = []
  for (const member of ast.types) {
    if (!SchemaAST.isLiteral(member)) return undefined
    values.push(String(member.literal))
  }
  return values
}

/**
 * One path per value of each literal parameter (`/profile/:gateway/deposit` → `/profile/brpay/deposit`,
 * …): `/profile/crypto/deposit` or `/profile/nothing/deposit` is then no address of that endpoint
 * (404, or the not-built row's 501), as the contract's schema says, not a 405.
 */
export const expandLiteralParams = (path: string, params: Schema.Top | undefined): ReadonlyArray<string> => {
  if (params === undefined || !SchemaAST.isObjects(params.ast)) return [path]
  let paths: ReadonlyArray<string> = [path]
  for (const ps of params.ast.propertySignatures) {
    const values = literalValues(ps.type)
    if (values === undefined || typeof ps.name !== "string") continue
    const segment = `:${ps.name}`
    paths = paths.flatMap((p) =>
      p.split("/").includes(segment)
        ? values.map((v) =>
            p
              .split("/")
              .map((s) => (s === segment ? v : s))
              .join("/"),
          )
        : [p],
    )
  }
  return paths
}

/** The implemented endpoints of the contract, read from `CasinoApi` (literal parameters expanded). */
export const implementedEndpoints = (): ReadonlyArray<KnownEndpoint> => {
  const found: Array<KnownEndpoint> = []
  const collect = {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }: { readonly endpoint: HttpApiEndpoint.Top }) => {
      const method = endpoint.method.toUpperCase()
      for (const path of expandLiteralParams(endpoint.path, endpoint.params)) found.push({ method, path })
    },
  }
  HttpApi.reflect(CasinoApi, collect)
  HttpApi.reflect(BackofficeApi, collect)
  return found
}

/** Matches a concrete path against a router pattern (`:name` = one non-empty segment, `*` = the rest). */
export const matchesPattern = (pattern: string, path: string): boolean =>
  matchesSegments(pattern.split("/"), path.split("/"))

/** `matchesPattern` on paths split at "/" already. */
const matchesSegments = (want: ReadonlyArray<string>, got: ReadonlyArray<string>): boolean => {
  for (let i = 0; i < want.length; i++) {
    const segment = want[i] ?? ""
    if (segment === "*") return true
    const actual = got[i]
    if (actual === undefined) return false
    if (segment.startsWith(":")) {
      if (actual === "") return false
    } else if (segment !== actual) {
      return false
    }
  }
  return want.length === got.length
}

const methodOrder = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]

/** Knows every answered (method, path) and says which methods a path has. */
export const makeEndpointIndex = (extra: ReadonlyArray<KnownEndpoint>) => {
  const known: ReadonlyArray<KnownEndpoint> = [
    ...implementedEndpoints(),
    ...notBuiltEndpoints,
    { method: "GET", path: "/openapi.json" },
    { method: "GET", path: "/docs" },
    ...extra,
  ]
  /** The methods `path` answers (GET implies HEAD), in a stable order; empty for an unknown path. */
  const allowedMethods = (path: string): ReadonlyArray<string> => {
    const methods = new Set(known.filter((e) => matchesPattern(e.path, path)).map((e) => e.method))
    if (methods.has("GET")) methods.add("HEAD")
    return [...methods].sort((a, b) => methodOrder.indexOf(a) - methodOrder.indexOf(b))
  }
  // Split once: `routeOf` runs on every request (the metrics' label), allowedMethods only on misses.
  const patterns = known.map((e) => {
    const segments = e.path.split("/")
    const literal = segments.filter((s) => s !== "*" && !s.startsWith(":")).length
    return { method: e.method, path: e.path, segments, literal }
  })
  /**
   * The pattern `path` is an address of (the metrics' `route` label: a template, never the raw path),
   * preferring `method`'s own endpoint, then the most literal one; undefined for an unknown path.
   */
  const routeOf = (method: string, path: string): string | undefined => {
    const wanted = method === "HEAD" ? "GET" : method
    const got = path.split("/")
    let best: { readonly path: string; readonly score: number } | undefined
    for (const p of patterns) {
      if (!matchesSegments(p.segments, got)) continue
      const score = (p.method === wanted ? 1_000 : 0) + p.literal
      if (best === undefined || score > best.score) best = { path: p.path, score }
    }
    return best?.path
  }
  return { known, allowedMethods, routeOf }
}

export type EndpointIndex = ReturnType<typeof makeEndpointIndex>

/** 405 with `Allow` for a known path, else 404 — both JSON. */
export const apiFallback = (index: EndpointIndex, method: string, path: string) => {
  const allowed = index.allowedMethods(path)
  if (allowed.length === 0 || allowed.includes(method)) {
    return HttpServerResponse.jsonUnsafe(
      { error: "NotFound", message: "There is nothing at this address." },
      { status: 404, headers: { "cache-control": "no-store" } },
    )
  }
  return HttpServerResponse.jsonUnsafe(
    {
      error: "MethodNotAllowed",
      message: `${method} is not allowed here; use ${allowed.join(", ")}.`,
      allow: allowed,
    },
    { status: 405, headers: { "cache-control": "no-store", allow: allowed.join(", ") } },
  )
}
