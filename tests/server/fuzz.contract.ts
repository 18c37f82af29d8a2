/**
 * The contract fuzzer's request generator (tests/server/fuzz.test.ts runs it).
 *
 * Endpoints come from the contract itself: `HttpApi.reflect(CasinoApi)` lists every endpoint with its
 * method, path and payload / query / path-parameter schemas, so an endpoint added to `services/` later
 * is fuzzed without touching this file.
 *
 * Valid payloads come from the same schemas: Effect's own `Arbitrary.schema` derives a generator from
 * a Schema (effect 4 ships its own property-testing engine rather than a fast-check instance, so the
 * two are bridged: Effect samples a pool of valid payloads per endpoint from a seed that fast-check
 * drew, and fast-check picks from the pool and mutates). fast-check 4 drives everything else:
 * which endpoint, method, path, query, headers and body variant — wrong types per field, missing and
 * extra fields, null, huge strings (up to and just over the 1 MiB body limit), odd strings (NUL,
 * lone surrogates, RTL marks, emoji, SQL/HTML-looking text, percent-encodings), deep nesting,
 * malformed JSON and invalid UTF-8, empty bodies, wrong or missing content types, garbage path
 * parameters and query strings, unknown methods.
 *
 * A case is a small description; `materialize` turns it into bytes when it is sent, so ten thousand
 * cases with megabyte bodies never sit in memory at once. `fc.sample(arbitrary, { seed, numRuns })`
 * is deterministic: (seed, runs, index) names one request for good.
 */
import { Arbitrary, Effect, Schema } from "effect"
import { HttpApi } from "effect/http-api"
import fc from "fast-check"
import { CasinoApi } from "../../services/api.ts"

// ── The contract ─────────────────────────────────────────────────────────────────────────────

export interface EndpointSpec {
  /** `group.endpoint`, e.g. `user.signin`. */
  readonly id: string
  readonly method: string
  /** With `:name` segments for path parameters. */
  readonly path: string
  readonly params: Schema.Top | undefined
  readonly query: Schema.Top | undefined
  /** The JSON payload schema, when the endpoint takes a body. */
  readonly payload: Schema.Top | undefined
  /** Status → schemas of successful answers and of declared errors. */
  readonly successes: ReadonlyMap<number, ReadonlyArray<Schema.Top>>
  readonly errors: ReadonlyMap<number, ReadonlyArray<Schema.Top>>
}

export const contractEndpoints = (): ReadonlyArray<EndpointSpec> => {
  const endpoints: Array<EndpointSpec> = []
  HttpApi.reflect(CasinoApi, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint, successes, errors }) => {
      let payload: Schema.Top | undefined
      for (const [, entry] of endpoint.payload) {
        if (entry.encoding._tag === "Json") payload = entry.schemas[0]
      }
      endpoints.push({
        id: `${group.identifier}.${endpoint.identifier}`,
        method: endpoint.method,
        path: endpoint.path,
        params: endpoint.params,
        query: endpoint.query,
        payload,
        successes,
        errors,
      })
    },
  })
  return endpoints
}

/** Counted independently of `reflect`: every endpoint of every group. */
export const contractEndpointCount = (): number =>
  Object.values(CasinoApi.groups).reduce((n, group) => n + Object.keys(group.endpoints).length, 0)

// ── Cases ────────────────────────────────────────────────────────────────────────────────────

/** A body, described; `materialize` builds its bytes. */
export type BodySpec =
  | { readonly kind: "none" }
  | { readonly kind: "text"; readonly text: string }
  /** `before` + `unit` repeated to about `size` bytes + `after` (huge strings without storing them). */
  | {
      readonly kind: "huge"
      readonly before: string
      readonly unit: string
      readonly size: number
      readonly after: string
    }
  | { readonly kind: "bytes"; readonly bytes: ReadonlyArray<number> }

export type Target = "open" | "captcha"

export interface FuzzCase {
  /** The contract endpoint aimed at, or `unknown` for paths outside the contract. */
  readonly endpoint: string
  /** What was done to the request, for the report. */
  readonly notes: ReadonlyArray<string>
  readonly target: Target
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: BodySpec
  /** Send without Content-Length (chunked), so the body limit is enforced while reading. */
  readonly chunked: boolean
}

/** Markers replaced when a case is sent (they depend on server state). */
export const SOLVED_CAPTCHA = "\u0001solved-captcha\u0001"
export const SESSION_COOKIE = "\u0001session\u0001"
const HUGE = "\u0001huge\u0001"
/** The placeholder as it appears inside JSON text (quoted, control characters escaped). */
const HUGE_JSON = JSON.stringify(HUGE)

export const materialize = (body: BodySpec): Uint8Array | undefined => {
  switch (body.kind) {
    case "none":
      return undefined
    case "text":
      return Buffer.from(body.text, "utf8")
    case "huge":
      return Buffer.from(
        body.before +
          body.unit.repeat(Math.max(1, Math.floor(body.size / Math.max(1, body.unit.length)))) +
          body.after,
        "utf8",
      )
    case "bytes":
      return Uint8Array.from(body.bytes)
  }
}

export const bodySize = (body: BodySpec): number =>
  body.kind === "huge" ? body.size : (materialize(body)?.byteLength ?? 0)

/** Printable description of a body for failure reports (long ones abbreviated). */
export const describeBody = (body: BodySpec): string => {
  switch (body.kind) {
    case "none":
      return "(no body)"
    case "text":
      return body.text.length > 2_000
        ? `${JSON.stringify(body.text.slice(0, 2_000))}… (${body.text.length} characters)`
        : JSON.stringify(body.text)
    case "huge":
      return `${JSON.stringify(body.before)} + ${JSON.stringify(body.unit)} × ${Math.floor(body.size / Math.max(1, body.unit.length))} + ${JSON.stringify(body.after)}`
    case "bytes":
      return `bytes [${body.bytes.slice(0, 200).join(",")}${body.bytes.length > 200 ? ",…" : ""}] (${body.bytes.length} bytes)`
  }
}

// ── Value pools ──────────────────────────────────────────────────────────────────────────────

/** Strings that have broken servers before. */
export const oddStrings: ReadonlyArray<string> = [
  "",
  " ",
  "\u0000",
  "a@example.com\u0000",
  "\u0000a@example.com",
  "nul\u0000inside",
  "\ud800",
  "\udfff",
  "a\ud800b",
  "\udc00\ud800",
  "\u202eevil\u202c",
  "\u200f\u200e\u200b",
  "\ufeff",
  "\u2028\u2029\u0085",
  "😀",
  "👨‍👩‍👧‍👦🏳️‍🌈",
  "𝕏𝔸𝕄",
  "e\u0301\u0301\u0301\u0301",
  "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇",
  "ǅİßﬁ",
  "\r\n\t\v\f\b",
  '"',
  "\\",
  "\\u0000",
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "1; SELECT pg_sleep(10)",
  "$$;$$",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "$" + "{7*7}{{7*7}}#{7*7}", // template-injection probe, split so it is not a template literal here
  "%00",
  "%ZZ",
  "%",
  "%u0000",
  "%E2%80%AE",
  "%ED%A0%80",
  "../../../../etc/passwd",
  "null",
  "undefined",
  "NaN",
  "-0",
  "1e309",
  "__proto__",
  "constructor",
  "a@b",
  "@",
  "a@",
  "@example.com",
  "A@EXAMPLE.COM",
  " padded@example.com ",
  "x@blocked-one.example",
  "x@sub.blocked-two.example",
  "someone@mailinator.com",
  '"quoted local"@example.com',
  "a@[127.0.0.1]",
  "a..b@example.com",
  "ünïcødé@exämple.com",
  "x".repeat(254),
  `${"x".repeat(243)}@example.com`,
  "x".repeat(255),
  "EUR",
  "eur",
  "BTC",
  "XXX",
  "DOG",
]

/** A JSON value that is not a string (wrong type for a string field). */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
)

const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...oddStrings) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme-composite", maxLength: 20 }) },
  {
    weight: 1,
    // Lone surrogates and NUL mixed into ordinary text.
    arbitrary: fc
      .array(fc.constantFrom("a", "@", ".", "\u0000", "\ud800", "\udfff", "é", "😀", "%", "\\"), {
        minLength: 1,
        maxLength: 30,
      })
      .map((parts) => parts.join("")),
  },
)

const extraKey = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "_tag",
  "isAdmin",
  "id",
  "",
  "\u0000",
  "😀",
)

/** Hints: plausible values by field name, so generated payloads also reach the deep code paths. */
export interface Hints {
  readonly emails: ReadonlyArray<string>
  readonly passwords: ReadonlyArray<string>
  readonly tokens: ReadonlyArray<string>
}

const hintFor = (key: string, hints: Hints): fc.Arbitrary<unknown> | undefined => {
  const k = key.toLowerCase()
  if (k === "email")
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...hints.emails) },
      fc.emailAddress(),
      fc.constantFrom("new.player@example.com", "x@blocked-one.example", "x@mailinator.com"),
    )
  if (k.includes("password"))
    return fc.oneof(fc.constantFrom(...hints.passwords), fc.string({ minLength: 8, maxLength: 20 }))
  if (k === "token")
    return fc.oneof(fc.constantFrom(...hints.tokens), fc.base64String({ minLength: 43, maxLength: 44 }))
  if (k === "captcha")
    return fc.constantFrom(
      "",
      SOLVED_CAPTCHA,
      SOLVED_CAPTCHA,
      "bm90IGpzb24=",
      Buffer.from("{}").toString("base64"),
      Buffer.from('{"challenge":null,"solution":null}').toString("base64"),
      Buffer.from('{"challenge":{"parameters":{},"signature":"x"},"solution":{"counter":1}}').toString(
        "base64",
      ),
      "!!!not base64!!!",
    )
  if (k === "fullname") return fc.constantFrom("Ada Lovelace", "Grace Brewster Hopper", "José Ñúñez", "A B")
  if (k === "terms") return fc.boolean()
  if (k === "currency") return fc.constantFrom("", "EUR", "usd", "BTC", "DOG", "USDT", "XXX")
  if (k === "language") return fc.constantFrom("", "en", "de", "pt-BR")
  return undefined
}

// ── JSON mutation ────────────────────────────────────────────────────────────────────────────

type PathKey = string | number

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v)

/** Every path to a value inside `value` (the root excluded). */
const pathsOf = (value: unknown, prefix: ReadonlyArray<PathKey> = []): Array<ReadonlyArray<PathKey>> => {
  const out: Array<ReadonlyArray<PathKey>> = []
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push([...prefix, i], ...pathsOf(v, [...prefix, i]))
    })
  } else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) out.push([...prefix, k], ...pathsOf(v, [...prefix, k]))
  }
  return out
}

const clone = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value))

/** Sets (or with `remove`, deletes) the value at `path`; a new object, the input is untouched. */
const setAt = (root: unknown, path: ReadonlyArray<PathKey>, value: unknown, remove = false): unknown => {
  const copy = clone(root)
  let node: unknown = copy
  for (const key of path.slice(0, -1)) {
    node = isRecord(node) ? node[String(key)] : Array.isArray(node) ? node[Number(key)] : undefined
  }
  const last = path[path.length - 1]
  if (last === undefined) return copy
  if (isRecord(node)) {
    if (remove) delete node[String(last)]
    // defineProperty: a "__proto__" key becomes an own property, as JSON.parse would make it.
    else
      Object.defineProperty(node, String(last), {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      })
  } else if (Array.isArray(node)) {
    if (remove) node.splice(Number(last), 1)
    else node[Number(last)] = value
  }
  return copy
}

interface Mutation {
  readonly kind: "wrongType" | "remove" | "extra" | "odd" | "null" | "huge" | "hint" | "nested"
  readonly pick: number
  readonly value: unknown
  readonly key: string
  readonly size: number
  readonly depth: number
}

const mutationArb = (hints: Hints): fc.Arbitrary<Mutation> =>
  fc
    .record({
      kind: fc.constantFrom<Mutation["kind"]>(
        "wrongType",
        "wrongType",
        "remove",
        "extra",
        "odd",
        "odd",
        "odd",
        "null",
        "huge",
        "hint",
        "hint",
        "nested",
      ),
      pick: fc.nat(),
      wrong: wrongType,
      odd: oddString,
      hinted: hintValues(hints),
      key: extraKey,
      // Around the 1 MiB body limit too: 1,040,000 fits, 1,100,000 does not (413).
      size: fc.constantFrom(300, 4_096, 70_000, 500_000, 1_040_000, 1_100_000),
      depth: fc.constantFrom(64, 1_000, 20_000),
    })
    .map(({ kind, pick, wrong, odd, hinted, key, size, depth }) => ({
      kind,
      pick,
      value: kind === "odd" ? odd : kind === "hint" ? hinted : wrong,
      key,
      size,
      depth,
    }))

/** One plausible value per hinted field name, drawn together so a hint mutation can use any of them. */
const hintValues = (hints: Hints): fc.Arbitrary<Record<string, unknown>> => {
  const keys = ["email", "password", "token", "captcha", "fullName", "terms", "currency", "language"]
  const entries: Record<string, fc.Arbitrary<unknown>> = {}
  for (const key of keys) {
    const arb = hintFor(key, hints)
    if (arb !== undefined) entries[key] = arb
  }
  return fc.record(entries)
}

const nestedText = (depth: number, open: string, close: string, leaf: string) =>
  open.repeat(depth) + leaf + close.repeat(depth)

/** The hint for a payload field: same name (any case), or `password` for any *password* field. */
const hintKeyOf = (key: string, hintKeys: ReadonlyArray<string>): string | undefined =>
  hintKeys.find((h) => h.toLowerCase() === key.toLowerCase()) ??
  (key.toLowerCase().includes("password") ? "password" : undefined)

/** Applies one mutation; returns the new value (or a raw-text body for the `huge`/`nested` kinds) and a note. */
const applyMutation = (value: unknown, m: Mutation): { value: unknown; raw?: BodySpec; note: string } => {
  const paths = pathsOf(value)
  const path = paths.length === 0 ? undefined : paths[m.pick % paths.length]
  const where = path === undefined ? "(root)" : path.join(".")
  switch (m.kind) {
    case "wrongType":
      return path === undefined
        ? { value: m.value, note: `root := ${JSON.stringify(m.value)?.slice(0, 40)}` }
        : { value: setAt(value, path, m.value), note: `${where} := ${JSON.stringify(m.value)?.slice(0, 40)}` }
    case "remove":
      return path === undefined
        ? { value, note: "remove (nothing to remove)" }
        : { value: setAt(value, path, undefined, true), note: `remove ${where}` }
    case "extra":
      return isRecord(value)
        ? { value: setAt(value, [m.key], m.value), note: `extra ${JSON.stringify(m.key)}` }
        : { value, note: "extra (not an object)" }
    case "odd":
      return path === undefined
        ? { value: m.value, note: `root := odd ${JSON.stringify(m.value)}` }
        : {
            value: setAt(value, path, m.value),
            note: `${where} := odd ${JSON.stringify(m.value).slice(0, 60)}`,
          }
    case "null":
      return path === undefined
        ? { value: null, note: "root := null" }
        : { value: setAt(value, path, null), note: `${where} := null` }
    case "hint": {
      const hinted = m.value as Record<string, unknown>
      let out = value
      const used: Array<string> = []
      if (isRecord(value)) {
        for (const key of Object.keys(value)) {
          const key2 = hintKeyOf(key, Object.keys(hinted))
          if (key2 !== undefined) {
            out = setAt(out, [key], hinted[key2])
            used.push(key)
          }
        }
      }
      return { value: out, note: `plausible ${used.join(",") || "(no hinted field)"}` }
    }
    case "huge": {
      const target = path ?? []
      const text = JSON.stringify(target.length === 0 ? HUGE : setAt(value, target, HUGE)) ?? HUGE_JSON
      const [before = "", after = ""] = text.split(HUGE_JSON)
      return {
        value,
        raw: { kind: "huge", before: `${before}"`, unit: "x", size: m.size, after: `"${after}` },
        note: `${where} := ${m.size} × "x"`,
      }
    }
    case "nested": {
      const target = path ?? []
      const text = JSON.stringify(target.length === 0 ? HUGE : setAt(value, target, HUGE)) ?? HUGE_JSON
      const [before = "", after = ""] = text.split(HUGE_JSON)
      const nested =
        m.pick % 2 === 0 ? nestedText(m.depth, "[", "]", "1") : nestedText(m.depth, '{"a":', "}", "1")
      return {
        value,
        raw: { kind: "text", text: before + nested + after },
        note: `${where} := nested ${m.depth} deep`,
      }
    }
  }
}

// ── Bodies ───────────────────────────────────────────────────────────────────────────────────

const malformed = (valid: string): fc.Arbitrary<{ body: BodySpec; note: string }> =>
  fc.oneof(
    fc.nat().map((n) => ({
      body: { kind: "text", text: valid.slice(0, n % Math.max(1, valid.length)) } as BodySpec,
      note: "truncated JSON",
    })),
    fc
      .constantFrom(
        "{",
        "}",
        "{]",
        "{'email':'a'}",
        '{"email":"a",}',
        '{"email":"a"}garbage',
        '{"email":"a"}{"email":"b"}',
        '{"email":NaN}',
        '{"email":Infinity}',
        '{"email":1e400}',
        '{"email":123456789012345678901234567890}',
        '{"email":"\\x41"}',
        '{"email":"\\u12"}',
        '{"email":"\\ud800"}',
        '{"email":"\\u0000"}',
        '{"email":"unterminated}',
        '{"email":"raw\nnewline"}',
        "/* comment */ {}",
        "\ufeff{}",
        "[]",
        "null",
        "true",
        "0",
        '"string"',
        "",
        " ",
        "\u0000",
      )
      .map((text) => ({
        body: { kind: "text", text } as BodySpec,
        note: `malformed ${JSON.stringify(text).slice(0, 40)}`,
      })),
    fc
      .constantFrom(
        // Invalid UTF-8 inside a JSON string: lone continuation, overlong NUL, CESU-8 surrogate, truncated sequence, 0xFF.
        [0x80],
        [0xc0, 0x80],
        [0xed, 0xa0, 0x80],
        [0xe2, 0x82],
        [0xff, 0xfe],
        [0xf4, 0x90, 0x80, 0x80],
      )
      .map((bad) => ({
        body: {
          kind: "bytes",
          bytes: [...Buffer.from('{"email":"'), ...bad, ...Buffer.from('","password":"p","captcha":""}')],
        } as BodySpec,
        note: `invalid UTF-8 ${bad.map((b) => b.toString(16)).join(" ")}`,
      })),
    fc.jsonValue({ maxDepth: 4 }).map((v) => ({
      body: { kind: "text", text: JSON.stringify(v) ?? "null" } as BodySpec,
      note: "arbitrary JSON value",
    })),
    fc.constantFrom(1_000, 100_000).map((depth) => ({
      body: { kind: "text", text: nestedText(depth, "[", "]", "") } as BodySpec,
      note: `root nested ${depth} deep`,
    })),
  )

const payloadBody = (
  pool: ReadonlyArray<unknown>,
  hints: Hints,
): fc.Arbitrary<{ body: BodySpec; notes: ReadonlyArray<string> }> =>
  fc
    .record({
      sample: fc.nat({ max: Math.max(0, pool.length - 1) }),
      variant: fc.constantFrom(
        "valid",
        "plausible",
        "plausible",
        "mutated",
        "mutated",
        "mutated",
        "mutated",
        "malformed",
        "empty",
      ),
      plausible: hintValues(hints),
      mutations: fc.array(mutationArb(hints), { minLength: 1, maxLength: 3 }),
    })
    .chain(
      ({
        sample,
        variant,
        plausible,
        mutations,
      }): fc.Arbitrary<{ body: BodySpec; notes: ReadonlyArray<string> }> => {
        const valid = pool[sample] ?? {}
        const hinted = applyMutation(valid, {
          kind: "hint",
          pick: 0,
          value: plausible,
          key: "",
          size: 0,
          depth: 0,
        })
        switch (variant) {
          case "valid":
            return fc.constant({
              body: { kind: "text", text: JSON.stringify(valid) } as BodySpec,
              notes: ["valid (schema sample)"],
            })
          case "plausible":
            return fc.constant({
              body: { kind: "text", text: JSON.stringify(hinted.value) } as BodySpec,
              notes: [hinted.note],
            })
          case "empty":
            return fc.constant({ body: { kind: "text", text: "" } as BodySpec, notes: ["empty body"] })
          case "malformed":
            return malformed(JSON.stringify(valid)).map(({ body, note }) => ({ body, notes: [note] }))
          default: {
            let value: unknown = sample % 2 === 0 ? hinted.value : valid
            const notes: Array<string> = [sample % 2 === 0 ? hinted.note : "schema sample"]
            for (const m of mutations) {
              const out = applyMutation(value, m)
              notes.push(out.note)
              if (out.raw !== undefined) return fc.constant({ body: out.raw, notes })
              value = out.value
            }
            return fc.constant({
              body: { kind: "text", text: JSON.stringify(value) ?? "" } as BodySpec,
              notes,
            })
          }
        }
      },
    )

/** A body for an endpoint that takes none: usually none, sometimes something anyway. */
const strayBody: fc.Arbitrary<{ body: BodySpec; notes: ReadonlyArray<string> }> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constant({ body: { kind: "none" } as BodySpec, notes: [] as ReadonlyArray<string> }),
  },
  {
    weight: 1,
    arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({
      body: { kind: "text", text: JSON.stringify(v) ?? "" } as BodySpec,
      notes: ["unexpected JSON body"],
    })),
  },
  {
    weight: 1,
    arbitrary: malformed("{}").map(({ body, note }) => ({ body, notes: [`unexpected body: ${note}`] })),
  },
)

// ── Methods, paths, query strings, headers ───────────────────────────────────────────────────

const standardMethods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const
/** Methods Node's parser knows but the API does not use, and tokens it does not know at all. */
export const unknownMethods = [
  "PROPFIND",
  "MKCOL",
  "PURGE",
  "LINK",
  "SEARCH",
  "REPORT",
  "FOO",
  "get",
  "X-CUSTOM",
] as const
/** Method tokens llhttp (Node's HTTP parser) refuses before the application sees the request. */
export const parserRefusedMethods: ReadonlySet<string> = new Set(["FOO", "get", "X-CUSTOM"])

const methodArb = (own: string): fc.Arbitrary<{ method: string; note?: string }> =>
  fc.oneof(
    { weight: 14, arbitrary: fc.constant({ method: own }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(...standardMethods).map((method) => ({ method, note: `method ${method}` })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...unknownMethods).map((method) => ({ method, note: `method ${method}` })),
    },
  )

const queryText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    "a=1",
    "a=1&a=2&a=3",
    "%00=%00",
    "%ZZ",
    "%",
    "a=%E2%80%AE",
    "a=%ED%A0%80",
    "[]=1&a[b][c]=2",
    "__proto__[x]=1",
    "a=' OR 1=1 --",
    "=&=&&",
    "a=<script>",
    "email=a@example.com&password=x",
  ),
  fc.string({ unit: "binary-ascii", maxLength: 60 }),
  fc.webQueryParameters(),
  fc.constantFrom(1_000, 6_000).map((n) => `q=${"x".repeat(n)}`),
)

const pathSegmentGarbage = fc.constantFrom(
  "x",
  "%00",
  "%ZZ",
  "%2F",
  "%2e%2e",
  "..",
  ".",
  "😀",
  "\u0000",
  "a;b=c",
  "' OR 1=1",
  "%E2%80%AE",
  "x".repeat(3_000),
)

/** A value for a `:param` segment: from its schema when one exists, or garbage. */
const paramValue = (schema: Schema.Top | undefined, key: string, seed: number): string => {
  if (schema === undefined) return "x"
  try {
    const sampled = Effect.runSync(
      Arbitrary.sampleEffect(Arbitrary.schema(Schema.toEncoded(schema)), { count: 1, seed }),
    )
    const value = (sampled[0] as Record<string, unknown> | undefined)?.[key]
    return encodeURIComponent(String(value ?? "x"))
  } catch {
    return "x"
  }
}

const pathArb = (ep: EndpointSpec): fc.Arbitrary<{ path: string; notes: ReadonlyArray<string> }> =>
  fc
    .record({
      // Mostly the real path (with or without a query string), so most requests reach the handler.
      variant: fc.oneof(
        { weight: 12, arbitrary: fc.constant("exact") },
        { weight: 4, arbitrary: fc.constant("query") },
        { weight: 1, arbitrary: fc.constantFrom("trailing", "double", "suffix", "case", "dot") },
      ),
      query: queryText,
      garbage: pathSegmentGarbage,
      paramSeed: fc.nat(),
      garbageParams: fc.boolean(),
    })
    .map(({ variant, query, garbage, paramSeed, garbageParams }) => {
      const notes: Array<string> = []
      // Path parameters: valid values from the params schema, or garbage.
      let path = ep.path.replace(/:(\w+)/g, (_, key: string) => {
        if (garbageParams) {
          notes.push(`param ${key} := ${JSON.stringify(garbage).slice(0, 30)}`)
          return garbage
        }
        return paramValue(ep.params, key, paramSeed)
      })
      switch (variant) {
        case "query":
          path = `${path}?${query}`
          notes.push(`query ${JSON.stringify(query).slice(0, 60)}`)
          break
        case "trailing":
          path = `${path}/`
          notes.push("trailing slash")
          break
        case "double":
          path = path.replace("/api/", "//api//")
          notes.push("double slashes")
          break
        case "suffix":
          path = `${path}/${garbage}`
          notes.push(`suffix ${JSON.stringify(garbage).slice(0, 30)}`)
          break
        case "case":
          path = path.toUpperCase()
          notes.push("upper case")
          break
        case "dot":
          path = path.replace(/\/([^/]+)$/, "/./x/../$1")
          notes.push("dot segments")
          break
      }
      return { path, notes }
    })

const contentTypes = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/json; charset=latin1",
  "application/json;;;",
  "application/vnd.api+json",
  "application/merge-patch+json",
  "text/plain",
  "text/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "application/xml",
  "application/octet-stream",
  "*/*",
  "",
  "garbage",
] as const

export interface HeaderOptions {
  /** The server's own origin (allowed), for the Origin header. */
  readonly origin: string
}

const headersArb = (withBody: boolean, options: HeaderOptions) =>
  fc
    .record({
      contentType: fc.oneof(
        { weight: 12, arbitrary: fc.constant<string | undefined>("application/json") },
        { weight: 3, arbitrary: fc.constantFrom<string | undefined>(...contentTypes) },
        { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
      ),
      // A foreign Origin stops a write at the edge (403): a few, so most writes get past it.
      origin: fc.oneof(
        { weight: 6, arbitrary: fc.constant<string | undefined>(undefined) },
        { weight: 3, arbitrary: fc.constant<string | undefined>(options.origin) },
        {
          weight: 1,
          arbitrary: fc.constantFrom<string | undefined>(
            "https://evil.example",
            "null",
            "http://127.0.0.1:1",
          ),
        },
      ),
      cookie: fc.oneof(
        { weight: 4, arbitrary: fc.constant<string | undefined>(undefined) },
        { weight: 4, arbitrary: fc.constant<string | undefined>(SESSION_COOKIE) },
        {
          weight: 2,
          arbitrary: fc
            .constantFrom(
              "casino_session=%00",
              "casino_session=%ZZ",
              "casino_session=",
              `casino_session=${"A".repeat(43)}`,
              `casino_session=${"A".repeat(4_000)}`,
              "clickId=%00",
              "clickId=%ED%A0%80",
              "clickId=%E2%80%AE%F0%9F%98%80",
              `clickId=${"c".repeat(3_000)}`,
              "casino_session=a; casino_session=b; clickId=x",
              "=; ;;; =x",
              "\u00ff\u00fe=\u00e9",
            )
            .map((c): string | undefined => c),
        },
      ),
      accept: fc.constantFrom<string | undefined>(
        undefined,
        "application/json",
        "text/html",
        "*/*",
        "image/png",
        "garbage",
      ),
      forwardedFor: fc.constantFrom<string | undefined>(
        undefined,
        undefined,
        undefined,
        "8.8.8.8",
        "81.2.69.142",
        "not an ip",
        "::ffff:8.8.8.8",
        "1.2.3.4, 5.6.7.8",
        "999.999.999.999",
        "[::1]:80",
        "",
      ),
    })
    .map(({ contentType, origin, cookie, accept, forwardedFor }) => {
      const headers: Record<string, string> = {}
      const notes: Array<string> = []
      if (withBody || contentType !== "application/json") {
        if (contentType === undefined) notes.push("no content-type")
        else {
          headers["content-type"] = contentType
          if (contentType !== "application/json") notes.push(`content-type ${JSON.stringify(contentType)}`)
        }
      }
      if (origin !== undefined) {
        headers.origin = origin
        if (origin !== options.origin) notes.push(`origin ${origin}`)
      }
      if (cookie !== undefined) {
        headers.cookie = cookie
        notes.push(cookie === SESSION_COOKIE ? "signed in" : `cookie ${JSON.stringify(cookie).slice(0, 40)}`)
      }
      if (accept !== undefined) headers.accept = accept
      if (forwardedFor !== undefined) {
        headers["x-forwarded-for"] = forwardedFor
        notes.push(`x-forwarded-for ${JSON.stringify(forwardedFor)}`)
      }
      return { headers, notes }
    })

// ── Paths outside the contract ───────────────────────────────────────────────────────────────

const unknownPaths = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        "/user-service/api/v1/",
        "/profile-service/api/v1/",
        "/profile-service/api/v1/profile/",
        "/game-aggregator-service/api/v1/",
        "/ip-service/api/v1/",
        "/api/",
        "/user-service/",
        "/api/v2/",
      ),
      fc.oneof(fc.webSegment(), pathSegmentGarbage),
    )
    .map(([prefix, rest]) => prefix + rest),
  fc.constantFrom(
    "/user-service/api/v1/promotion/coupon",
    "/profile-service/api/v1/profile/currency/extra",
    "/profile-service/api/v1/rate/limit",
    "/api/error-logger/x",
    "/%ZZ",
    "/user-service/api/v1/%ZZ",
    "/user-service/api/v1/%00",
    "/api/%2e%2e/%2e%2e/etc/passwd",
  ),
)

// ── The case arbitrary ───────────────────────────────────────────────────────────────────────

export interface CaseOptions {
  readonly endpoints: ReadonlyArray<EndpointSpec>
  /** Valid payloads per endpoint id (Effect Arbitrary samples of the payload schema). */
  readonly pools: ReadonlyMap<string, ReadonlyArray<unknown>>
  readonly hints: Hints
  readonly origin: string
  /** Share of cases sent to the server with the captcha on (0–1). */
  readonly captchaShare: number
}

const targetArb = (share: number): fc.Arbitrary<Target> =>
  fc.integer({ min: 0, max: 999 }).map((n): Target => (n < share * 1000 ? "captcha" : "open"))

const endpointCase = (ep: EndpointSpec, options: CaseOptions): fc.Arbitrary<FuzzCase> => {
  const pool = options.pools.get(ep.id) ?? [{}]
  return fc
    .record({
      method: methodArb(ep.method),
      path: pathArb(ep),
      headers: headersArb(ep.payload !== undefined, { origin: options.origin }),
      body: ep.payload === undefined ? strayBody : payloadBody(pool, options.hints),
      target: targetArb(options.captchaShare),
      chunked: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    })
    .map(({ method, path, headers, body, target, chunked }) => {
      const notes = [
        ...(method.note === undefined ? [] : [method.note]),
        ...path.notes,
        ...headers.notes,
        ...body.notes,
        ...(chunked && body.body.kind !== "none" ? ["chunked"] : []),
      ]
      return {
        endpoint: ep.id,
        notes,
        target,
        method: method.method,
        path: path.path,
        headers: headers.headers,
        body: body.body,
        chunked: chunked && body.body.kind !== "none",
      }
    })
}

const unknownCase = (options: CaseOptions): fc.Arbitrary<FuzzCase> =>
  fc
    .record({
      method: fc.constantFrom(...standardMethods, ...unknownMethods),
      path: unknownPaths,
      headers: headersArb(true, { origin: options.origin }),
      body: strayBody,
      target: targetArb(options.captchaShare),
    })
    .map(({ method, path, headers, body, target }) => ({
      endpoint: "unknown",
      notes: [`path outside the contract`, ...headers.notes, ...body.notes],
      target,
      method,
      path,
      headers: headers.headers,
      body: body.body,
      chunked: false,
    }))

/** One arbitrary for every request: each contract endpoint weighs the same, paths outside it a little less. */
export const caseArbitrary = (options: CaseOptions): fc.Arbitrary<FuzzCase> =>
  fc.oneof(...options.endpoints.map((ep) => ({ weight: 4, arbitrary: endpointCase(ep, options) })), {
    weight: 3,
    arbitrary: unknownCase(options),
  })

/** Valid payloads of an endpoint from its schema (wire form), `count` of them, reproducible from `seed`. */
export const samplePayloads = (schema: Schema.Top, count: number, seed: number): ReadonlyArray<unknown> =>
  Effect.runSync(Arbitrary.sampleEffect(Arbitrary.schema(Schema.toEncoded(schema)), { count, seed })).map(
    (v) =>
      // The wire form is JSON: what JSON.stringify drops (undefined) is absent on the wire too.
      JSON.parse(JSON.stringify(v) ?? "null"),
  )
