/**
 * The browser's typed client, derived from the contract. `scripts/generate-clients.ts` reads every
 * endpoint of `CasinoApi` (`services/api/*.ts`) with `HttpApi.reflect` — method, path, its params /
 * query / payload schemas, its declared answers by status — and writes one table per group in
 * `services/clients/`; this module turns a table into typed calls. The codecs are the ones the
 * server uses (`Schema.toCodecJson` for JSON bodies, `Schema.toCodecStringTree` for path and query),
 * built from the very schema objects the group was made of, so the two sides cannot disagree; the
 * tables are checked fresh by `tests/unit/clients.test.ts`, and calls by `tests/server/client.test.ts`.
 *
 * Why not `HttpApiClient`: it needs the group definitions (the whole HttpApi builder) and
 * `HttpClient` with streams, SSE and NDJSON — about 30 KB gzip the player does not use, a quarter of
 * the first-load budget (docs/performance.md). This client does JSON and multipart over `fetch`,
 * which is all the contract uses, and each screen loads only the tables of the groups it calls.
 */
import { type Brand, Data, Effect, Schema } from "effect"
import type { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"

/**
 * A call that got no contract answer: the network failed (`Transport`), the answer had a status or
 * body the endpoint does not declare (`Status`, e.g. a proxy's 502 page), or the request could not
 * be encoded (`Encode`). `status` is the HTTP status when there was an answer.
 */
export class ClientError extends Data.TaggedError("ClientError")<{
  readonly reason: "Transport" | "Status" | "Encode"
  readonly method: string
  readonly url: string
  readonly status: number | null
  readonly cause?: unknown
}> {
  override get message(): string {
    const answer = this.status === null ? "no answer" : `status ${this.status}`
    return `${this.reason} error: ${this.method} ${this.url} (${answer})`
  }
}

// ── Types: the calls of a group, from the group's own type ─────────────────────────────────

/** No property: a call part the endpoint does not have. */
type Absent = Record<never, never>

type Part<K extends string, S extends Schema.Constraint> = [S["Type"]] extends [never]
  ? Absent
  : { readonly [P in K]: S["Type"] }

/**
 * A multipart payload (`HttpApiSchema.asMultipart`, whose type carries the `MultipartTypeId` brand)
 * is sent as the browser's own FormData.
 */
type PayloadPart<S extends Schema.Constraint> = [S["Type"]] extends [never]
  ? Absent
  : S["Type"] extends Brand.Brand<HttpApiSchema.MultipartTypeId>
    ? { readonly payload: FormData }
    : { readonly payload: S["Type"] }

type Simplify<A> = { [K in keyof A]: A[K] } & {}

export type RequestOf<E extends HttpApiEndpoint.ConstraintRequest> = Simplify<
  Part<"params", E["~Params"]> &
    Part<"query", E["~Query"]> &
    Part<"headers", E["~Headers"]> &
    PayloadPart<E["~Payload"]>
>

/** What a call fails with: the endpoint's declared errors, or a client-side failure. */
export type CallError<E extends HttpApiEndpoint.ConstraintRequest> =
  | E["~Error"]["Type"]
  | ClientError
  | Schema.SchemaError

export type Call<E extends HttpApiEndpoint.ConstraintRequest> = keyof RequestOf<E> extends never
  ? () => Effect.Effect<E["~Success"]["Type"], CallError<E>>
  : (request: RequestOf<E>) => Effect.Effect<E["~Success"]["Type"], CallError<E>>

type EndpointsOf<G extends HttpApiGroup.Constraint> = Extract<
  HttpApiGroup.Endpoints<G>,
  HttpApiEndpoint.ConstraintRequest
>

export type GroupClient<G extends HttpApiGroup.Constraint> = {
  readonly [E in EndpointsOf<G> as E["identifier"]]: Call<E>
}

// ── The generated tables ────────────────────────────────────────────────────────────────────

/** One endpoint as the generator reads it from the contract: the schemas the group was made of. */
export interface EndpointTable {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  /** With `:name` (and `:name?`) path parameters. */
  readonly path: string
  readonly params?: Schema.Top
  readonly query?: Schema.Top
  readonly headers?: Schema.Top
  /** A JSON body, or `"multipart"` (a FormData the caller builds). */
  readonly payload?: Schema.Top | "multipart"
  /** Declared success statuses; `null`: an answer without a body (204, 202). */
  readonly success: Readonly<Record<number, ReadonlyArray<Schema.Top> | null>>
  readonly errors: Readonly<Record<number, ReadonlyArray<Schema.Top>>>
}

export type ClientTable<G extends HttpApiGroup.Constraint> = {
  readonly [E in EndpointsOf<G> as E["identifier"]]: EndpointTable
}

// ── Runtime ─────────────────────────────────────────────────────────────────────────────────

interface RawRequest {
  readonly params?: unknown
  readonly query?: unknown
  readonly headers?: unknown
  readonly payload?: unknown
}

type RawCall = (request?: RawRequest) => Effect.Effect<unknown, unknown>

/** The contract is browser-safe: its schemas need no services to decode or encode. */
const codec = (schema: Schema.Top): Schema.Codec<unknown, unknown> => schema as Schema.Codec<unknown, unknown>

/** The JSON codec the server encodes and decodes bodies with (what `HttpApiEndpoint` applies). */
const json = (schemas: ReadonlyArray<Schema.Top>): Schema.Codec<unknown, unknown> => {
  const codecs = schemas.map((s) => codec(Schema.toCodecJson(s)))
  return codecs.length === 1 && codecs[0] !== undefined ? codecs[0] : codec(Schema.Union(codecs))
}

/**
 * The string codec of path parameters, query strings and headers. `HttpApiEndpoint` applies the
 * same `toCodecStringTree` (and also drops absent optional keys, which `appendQuery` skips).
 */
const strings = (schema: Schema.Top) => Schema.encodeUnknownEffect(codec(Schema.toCodecStringTree(schema)))

/** `/profile/session/:id` + `{ id: "a/b" }` → `/profile/session/a%2Fb`; `:name?` may be absent. */
const fillPath = (path: string, params: unknown): string =>
  path.replace(/:(\w+)(\?)?/g, (_, name: string, optional: string | undefined) => {
    const value = typeof params === "object" && params !== null ? Reflect.get(params, name) : undefined
    if (value === undefined || value === null) {
      if (optional) return ""
      throw new Error(`missing path parameter ${name}`)
    }
    const text = String(value)
    // Dot segments survive encoding and would be resolved away by URL normalisation.
    if (text === "." || text === "..") throw new Error(`invalid path parameter ${name}`)
    return encodeURIComponent(text)
  })

/** An encoded query record (string, string[] or undefined values) as URL search params. */
const appendQuery = (search: URLSearchParams, encoded: unknown): void => {
  if (typeof encoded !== "object" || encoded === null) return
  for (const [key, value] of Object.entries(encoded)) {
    if (value === undefined || value === null) continue
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item))
  }
}

/** The body as JSON (an empty body is `undefined`); fails with what went wrong reading it. */
const readJson = (response: Response): Effect.Effect<unknown, unknown> =>
  Effect.tryPromise({
    try: async () => {
      const text = await response.text()
      return text === "" ? undefined : (JSON.parse(text) as unknown)
    },
    catch: (cause) => cause,
  })

const makeCall = (endpoint: EndpointTable): RawCall => {
  const { method } = endpoint
  const encodeParams = endpoint.params ? strings(endpoint.params) : undefined
  const encodeQuery = endpoint.query ? strings(endpoint.query) : undefined
  const encodeHeaders = endpoint.headers ? strings(endpoint.headers) : undefined
  const payload = endpoint.payload
  const encodePayload =
    payload === undefined || payload === "multipart" ? undefined : Schema.encodeUnknownEffect(json([payload]))
  const success = new Map(
    Object.entries(endpoint.success).map(([status, schemas]) => [
      Number(status),
      schemas === null ? null : Schema.decodeUnknownEffect(json(schemas)),
    ]),
  )
  const failure = new Map(
    Object.entries(endpoint.errors).map(([status, schemas]) => [
      Number(status),
      Schema.decodeUnknownEffect(json(schemas)),
    ]),
  )

  return (request) =>
    Effect.gen(function* () {
      let url: string
      try {
        url = fillPath(endpoint.path, encodeParams ? yield* encodeParams(request?.params) : undefined)
      } catch (cause) {
        return yield* new ClientError({ reason: "Encode", method, url: endpoint.path, status: null, cause })
      }
      const search = new URLSearchParams()
      if (encodeQuery) appendQuery(search, yield* encodeQuery(request?.query))
      const query = search.toString()
      if (query !== "") url = `${url}?${query}`

      const headers: Record<string, string> = { accept: "application/json" }
      if (encodeHeaders) {
        const encoded = yield* encodeHeaders(request?.headers)
        if (typeof encoded === "object" && encoded !== null) {
          for (const [key, value] of Object.entries(encoded)) {
            if (typeof value === "string") headers[key] = value
          }
        }
      }
      let body: BodyInit | null = null
      if (payload === "multipart") {
        if (!(request?.payload instanceof FormData)) {
          return yield* new ClientError({ reason: "Encode", method, url, status: null })
        }
        body = request.payload // the browser writes the multipart boundary itself
      } else if (encodePayload) {
        body = JSON.stringify(yield* encodePayload(request?.payload))
        headers["content-type"] = "application/json"
      }

      const response = yield* Effect.tryPromise({
        try: (signal) => fetch(url, { method, headers, body, signal, credentials: "same-origin" }),
        catch: (cause) => new ClientError({ reason: "Transport", method, url, status: null, cause }),
      })
      const status = response.status
      const statusError = (cause?: unknown) =>
        new ClientError({ reason: "Status", method, url, status, cause })

      const decodeSuccess = success.get(status)
      if (decodeSuccess !== undefined) {
        if (decodeSuccess === null) return undefined
        return yield* decodeSuccess(yield* readJson(response).pipe(Effect.mapError(statusError)))
      }
      const decodeError = failure.get(status)
      if (decodeError === undefined) return yield* statusError()
      const body_ = yield* readJson(response).pipe(Effect.mapError(statusError))
      // An error status whose body is not the contract's (a proxy's page) is a status error.
      const declared = yield* decodeError(body_).pipe(Effect.mapError(statusError))
      return yield* Effect.fail(declared)
    })
}

/** The typed client of one contract group, from its generated table. */
export const makeClient = <G extends HttpApiGroup.Constraint>(table: ClientTable<G>): GroupClient<G> => {
  const calls: Record<string, RawCall> = {}
  for (const [identifier, endpoint] of Object.entries<EndpointTable>(table))
    calls[identifier] = makeCall(endpoint)
  // Each call's request and answer types are the group's own (see `GroupClient`); the table was
  // generated from that very group, which `tests/unit/clients.test.ts` keeps true.
  return calls as GroupClient<G>
}

/** Where the CDN files live; the server injects it into index.html, `/cdn` otherwise. */
export const cdnBase = (): string => {
  const fromPage = globalThis.document?.querySelector<HTMLMetaElement>('meta[name="cdn-base"]')?.content
  return (fromPage ?? "/cdn").replace(/\/$/, "")
}

/** Reads one CDN file and decodes it with its contract schema. */
export const fetchCdnFile = <S extends Schema.Top & { readonly DecodingServices: never }>(
  file: string,
  schema: S,
): Effect.Effect<S["Type"], ClientError | Schema.SchemaError> => {
  const url = `${cdnBase()}/${file}`
  return Effect.gen(function* () {
    const response = yield* Effect.tryPromise({
      try: (signal) => fetch(url, { headers: { accept: "application/json" }, signal }),
      catch: (cause) => new ClientError({ reason: "Transport", method: "GET", url, status: null, cause }),
    })
    if (!response.ok) {
      return yield* new ClientError({ reason: "Status", method: "GET", url, status: response.status })
    }
    const json = yield* readJson(response).pipe(
      Effect.mapError(
        (cause) => new ClientError({ reason: "Status", method: "GET", url, status: response.status, cause }),
      ),
    )
    return yield* Schema.decodeUnknownEffect(schema)(json)
  })
}
