/**
 * Writes the browser's client tables from the contracts: `services/clients/<group>.ts` from
 * `CasinoApi` (the player app) and `services/backoffice/clients/<group>.ts` from `BackofficeApi`;
 * for every group, every endpoint's method, path, and the exported schemas its params, query,
 * payload and answers (by status) were made of. `--check` fails when a file is stale (also run by
 * tests/unit/clients.test.ts). `npm run generate:clients` after changing `services/api/*.ts`.
 *
 * HttpApiEndpoint wraps each schema in the codec the server uses (`Schema.toCodecJson` for bodies,
 * the HttpApi string codec for path and query); the wrapper keeps the original as `.schema`, which
 * is how an endpoint's schema is found among the exports of the schema modules below. A schema that
 * is not exported cannot be named by the generated file: the generator says so and stops.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { basename, dirname, join, posix } from "node:path"
import { fileURLToPath } from "node:url"
import type { Schema } from "effect"
import { HttpApi, HttpApiSchema } from "effect/http-api"
import { CasinoApi } from "../services/api.ts"
import { BackofficeApi } from "../services/backoffice/api.ts"

/** Every path below is relative to services/. */
export const servicesDir = fileURLToPath(new URL("../services/", import.meta.url))
const biome = fileURLToPath(new URL("../node_modules/@biomejs/biome/bin/biome", import.meta.url))

/** The repository's own formatting, so a generated file reads like the rest and lint stays quiet. */
const format = (file: string, source: string): string =>
  execFileSync(process.execPath, [biome, "format", `--stdin-file-path=${join(servicesDir, file)}`], {
    input: source,
    encoding: "utf8",
  })

interface Module {
  readonly file: string
  readonly load: () => Promise<object>
}

/** Browser-safe modules holding the contract's schemas; a new service adds its own here. */
const schemaModules: ReadonlyArray<Module> = [
  { file: "errors.ts", load: () => import("../services/errors.ts") },
  { file: "user-service.ts", load: () => import("../services/user-service.ts") },
  { file: "ip-service.ts", load: () => import("../services/ip-service.ts") },
  { file: "profile-service.ts", load: () => import("../services/profile-service.ts") },
  { file: "error-logger.ts", load: () => import("../services/error-logger.ts") },
  { file: "wallet-service.ts", load: () => import("../services/wallet-service.ts") },
  { file: "game-service.ts", load: () => import("../services/game-service.ts") },
  { file: "crypto-service.ts", load: () => import("../services/crypto-service.ts") },
  { file: "cashout-service.ts", load: () => import("../services/cashout-service.ts") },
  { file: "bonus-service.ts", load: () => import("../services/bonus-service.ts") },
  { file: "loyalty-service.ts", load: () => import("../services/loyalty-service.ts") },
  { file: "chat-service.ts", load: () => import("../services/chat-service.ts") },
]

/** Where each group is defined (for the generated file's type import). */
const groupModules: ReadonlyArray<Module> = [
  { file: "api/user-service.ts", load: () => import("../services/api/user-service.ts") },
  { file: "api/ip-service.ts", load: () => import("../services/api/ip-service.ts") },
  { file: "api/profile-service.ts", load: () => import("../services/api/profile-service.ts") },
  { file: "api/error-logger.ts", load: () => import("../services/api/error-logger.ts") },
  { file: "api/wallet-service.ts", load: () => import("../services/api/wallet-service.ts") },
  { file: "api/game-service.ts", load: () => import("../services/api/game-service.ts") },
  { file: "api/crypto-service.ts", load: () => import("../services/api/crypto-service.ts") },
  { file: "api/cashout-service.ts", load: () => import("../services/api/cashout-service.ts") },
  { file: "api/bonus-service.ts", load: () => import("../services/api/bonus-service.ts") },
  { file: "api/chat-service.ts", load: () => import("../services/api/chat-service.ts") },
]

const backofficeSchemaModules: ReadonlyArray<Module> = [
  { file: "errors.ts", load: () => import("../services/errors.ts") },
  { file: "backoffice/errors.ts", load: () => import("../services/backoffice/errors.ts") },
  { file: "backoffice/operators.ts", load: () => import("../services/backoffice/operators.ts") },
  { file: "backoffice/queues.ts", load: () => import("../services/backoffice/queues.ts") },
  { file: "backoffice/players.ts", load: () => import("../services/backoffice/players.ts") },
  { file: "backoffice/reports.ts", load: () => import("../services/backoffice/reports.ts") },
  { file: "backoffice/settings.ts", load: () => import("../services/backoffice/settings.ts") },
  { file: "backoffice/chat.ts", load: () => import("../services/backoffice/chat.ts") },
  // A round's fairness proof is the player API's own schema.
  { file: "game-service.ts", load: () => import("../services/game-service.ts") },
]

const backofficeGroupModules: ReadonlyArray<Module> = [
  { file: "backoffice/api/session.ts", load: () => import("../services/backoffice/api/session.ts") },
  { file: "backoffice/api/operators.ts", load: () => import("../services/backoffice/api/operators.ts") },
  { file: "backoffice/api/queues.ts", load: () => import("../services/backoffice/api/queues.ts") },
  { file: "backoffice/api/players.ts", load: () => import("../services/backoffice/api/players.ts") },
  { file: "backoffice/api/reports.ts", load: () => import("../services/backoffice/api/reports.ts") },
  { file: "backoffice/api/settings.ts", load: () => import("../services/backoffice/api/settings.ts") },
  { file: "backoffice/api/chat.ts", load: () => import("../services/backoffice/api/chat.ts") },
]

/** A contract and where its client tables go (a folder of services/). */
export interface Target {
  /** Walks the contract's endpoints (`HttpApi.reflect` of one API). */
  readonly reflect: (options: Parameters<typeof HttpApi.reflect>[1]) => void
  readonly dir: string
  readonly schemaModules: ReadonlyArray<Module>
  readonly groupModules: ReadonlyArray<Module>
}

export const targets: ReadonlyArray<Target> = [
  { reflect: (options) => HttpApi.reflect(CasinoApi, options), dir: "clients", schemaModules, groupModules },
  {
    reflect: (options) => HttpApi.reflect(BackofficeApi, options),
    dir: "backoffice/clients",
    schemaModules: backofficeSchemaModules,
    groupModules: backofficeGroupModules,
  },
]

interface Named {
  readonly file: string
  readonly name: string
}

class GenerationError extends Error {
  override readonly name = "GenerationError"
}

const indexExports = async (modules: ReadonlyArray<Module>): Promise<Map<unknown, Named>> => {
  const index = new Map<unknown, Named>()
  for (const { file, load } of modules) {
    for (const [name, value] of Object.entries(await load())) {
      if (typeof value === "object" || typeof value === "function") {
        if (!index.has(value)) index.set(value, { file, name })
      }
    }
  }
  return index
}

/** The exported schema an endpoint's (wrapped) schema was made of. */
const originalOf = (
  schema: Schema.Top,
  index: Map<unknown, Named>,
  modules: ReadonlyArray<Module>,
  where: string,
): Named => {
  const inner: unknown = "schema" in schema ? schema.schema : undefined
  const found = index.get(schema) ?? index.get(inner)
  if (found === undefined) {
    throw new GenerationError(
      `${where}: the schema is not exported by any schema module (${modules.map((m) => `services/${m.file}`).join(", ")}); ` +
        "export it by name so the browser client can refer to it",
    )
  }
  return found
}

interface Imports {
  readonly byFile: Map<string, Set<string>>
}

const use = (imports: Imports, named: Named): string => {
  const names = imports.byFile.get(named.file) ?? new Set<string>()
  names.add(named.name)
  imports.byFile.set(named.file, names)
  return named.name
}

const statusMap = (
  map: ReadonlyMap<number, ReadonlyArray<Schema.Top>>,
  render: (schemas: ReadonlyArray<Schema.Top>) => string,
): string => {
  const entries = [...map.entries()].sort(([a], [b]) => a - b)
  return `{ ${entries.map(([status, schemas]) => `${status}: ${render(schemas)}`).join(", ")} }`
}

const header = (group: string, groupFile: string) =>
  [
    "/**",
    ` * GENERATED by \`npm run generate:clients\` from the \`${group}\` group (services/${groupFile}):`,
    " * do not edit. The browser's typed calls of that group, with the schemas the server uses.",
    " */",
  ].join("\n")

/** The import specifier of `file` (relative to services/) from a generated file in `dir`. */
const importPath = (dir: string, file: string): string => posix.relative(dir, file)

/** file (relative to services/) → content, for every group of every contract. */
export const renderClients = async (): Promise<Map<string, string>> => {
  const files = new Map<string, string>()
  for (const target of targets)
    for (const [file, content] of await renderTarget(target)) files.set(file, content)
  return files
}

const renderTarget = async (target: Target): Promise<Map<string, string>> => {
  const { dir } = target
  const schemas = await indexExports(target.schemaModules)
  const groups = await indexExports(target.groupModules)
  const files = new Map<string, string>()
  const perGroup = new Map<
    string,
    { readonly group: Named; readonly imports: Imports; readonly entries: Array<string> }
  >()

  target.reflect({
    onGroup: ({ group }) => {
      const named = groups.get(group)
      if (named === undefined) {
        throw new GenerationError(
          `group ${group.identifier}: add its module to groupModules in ${basename(import.meta.url)}`,
        )
      }
      perGroup.set(group.identifier, { group: named, imports: { byFile: new Map() }, entries: [] })
    },
    onEndpoint: ({ group, endpoint, successes, errors }) => {
      const state = perGroup.get(group.identifier)
      if (state === undefined) throw new GenerationError(`group ${group.identifier} was not announced`)
      const where = `${group.identifier}.${endpoint.identifier}`
      const name = (schema: Schema.Top, part: string) =>
        use(state.imports, originalOf(schema, schemas, target.schemaModules, `${where} ${part}`))
      const list = (schemas_: ReadonlyArray<Schema.Top>, part: string) =>
        `[${schemas_.map((s) => name(s, part)).join(", ")}]`

      const fields: Array<string> = [
        `method: ${JSON.stringify(endpoint.method)}`,
        `path: ${JSON.stringify(endpoint.path)}`,
      ]
      if (endpoint.params) fields.push(`params: ${name(endpoint.params, "params")}`)
      if (endpoint.query) fields.push(`query: ${name(endpoint.query, "query")}`)
      if (endpoint.headers) fields.push(`headers: ${name(endpoint.headers, "headers")}`)
      const payloads = [...endpoint.payload.values()]
      if (payloads.length > 1)
        throw new GenerationError(`${where}: one payload encoding per endpoint is supported`)
      const payload = payloads[0]
      if (payload !== undefined) {
        if (payload.encoding._tag === "Multipart") fields.push(`payload: "multipart"`)
        else if (payload.encoding._tag === "Json" && payload.schemas.length === 1 && payload.schemas[0]) {
          if (endpoint.method === "GET")
            throw new GenerationError(`${where}: a GET payload is not supported, use query`)
          fields.push(`payload: ${name(payload.schemas[0], "payload")}`)
        } else
          throw new GenerationError(`${where}: payload encoding ${payload.encoding._tag} is not supported`)
      }
      fields.push(
        `success: ${statusMap(successes, (s) =>
          s.every((x) => HttpApiSchema.isNoContent(x.ast)) ? "null" : list(s, "success"),
        )}`,
      )
      fields.push(`errors: ${statusMap(errors, (s) => list(s, "error"))}`)
      state.entries.push(`  ${endpoint.identifier}: {\n${fields.map((f) => `    ${f},`).join("\n")}\n  },`)
    },
  })

  for (const [identifier, { group, imports, entries }] of perGroup) {
    // One list sorted by module path, the order biome's organizeImports keeps.
    const importLines = [
      ...[...imports.byFile.entries()].map(
        ([file, names]) =>
          [
            importPath(dir, file),
            `import { ${[...names].sort((a, b) => a.localeCompare(b, "en")).join(", ")} } from "${importPath(dir, file)}"`,
          ] as const,
      ),
      [
        importPath(dir, "client.ts"),
        `import { type ClientTable, makeClient } from "${importPath(dir, "client.ts")}"`,
      ] as const,
      [
        importPath(dir, group.file),
        `import type { ${group.name} } from "${importPath(dir, group.file)}"`,
      ] as const,
    ]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, line]) => line)
    const lines = [
      header(identifier, group.file),
      ...importLines,
      "",
      `export const ${identifier}Table: ClientTable<typeof ${group.name}> = {`,
      ...entries,
      "}",
      "",
      `export const ${identifier}Client = makeClient(${identifier}Table)`,
      "",
    ]
    const file = `${dir}/${identifier}.ts`
    files.set(file, format(file, lines.join("\n")))
  }
  return files
}

const isMain = process.argv[1] === fileURLToPath(import.meta.url)
if (isMain) {
  const fresh = await renderClients()
  const existing = targets.flatMap(({ dir }) =>
    readdirSync(join(servicesDir, dir))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `${dir}/${f}`),
  )
  if (process.argv.includes("--check")) {
    const stale = [
      ...[...fresh].filter(([file, content]) => {
        try {
          return readFileSync(join(servicesDir, file), "utf8") !== content
        } catch {
          return true
        }
      }),
    ].map(([file]) => file)
    const extra = existing.filter((f) => !fresh.has(f))
    if (stale.length > 0 || extra.length > 0) {
      console.error(
        `the client tables are stale (${[...stale, ...extra].join(", ")}): run \`npm run generate:clients\``,
      )
      process.exit(1)
    }
  } else {
    for (const file of existing) if (!fresh.has(file)) rmSync(join(servicesDir, file))
    for (const [file, content] of fresh) {
      mkdirSync(dirname(join(servicesDir, file)), { recursive: true })
      writeFileSync(join(servicesDir, file), content)
    }
    console.log(`wrote ${[...fresh.keys()].map((f) => `services/${f}`).join(", ")}`)
  }
}
