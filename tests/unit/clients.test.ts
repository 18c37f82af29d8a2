/**
 * The generated client tables (services/clients/*) are the contract, read: fresh against the
 * generator, and, endpoint by endpoint, the same method, path, statuses and schemas as `CasinoApi`
 * (each table schema is the very object the endpoint's codec wraps).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Schema } from "effect"
import { HttpApi, HttpApiSchema } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { renderClients, servicesDir, targets } from "../../scripts/generate-clients.ts"
import { CasinoApi } from "../../services/api.ts"
import type { EndpointTable } from "../../services/client.ts"

/** Tables by `<target dir>/<group>`: both contracts may name a group alike (the player's and staff's `chat`). */
const tables = async (): Promise<Map<string, Record<string, EndpointTable>>> => {
  const byGroup = new Map<string, Record<string, EndpointTable>>()
  for (const file of (await renderClients()).keys()) {
    const group = file.replace(/^.*\//, "").replace(/\.ts$/, "")
    const module: Record<string, unknown> = await import(join(servicesDir, file))
    const table = module[`${group}Table`]
    if (typeof table !== "object" || table === null) throw new Error(`${file} exports no ${group}Table`)
    byGroup.set(file.replace(/\.ts$/, ""), table as Record<string, EndpointTable>)
  }
  return byGroup
}

const originalOf = (schema: Schema.Top): unknown => ("schema" in schema ? schema.schema : schema)

/** The contract's schemas need no services (it is browser-safe). */
const asCodec = (schema: Schema.Top): Schema.Codec<unknown, unknown> =>
  schema as Schema.Codec<unknown, unknown>

describe("the generated client tables (services/clients, services/backoffice/clients)", () => {
  it("is fresh (regenerate with `npm run generate:clients`)", async () => {
    for (const [file, content] of await renderClients()) {
      expect(readFileSync(join(servicesDir, file), "utf8"), `services/${file}`).toBe(content)
    }
  }, 60_000)

  it("has, for every endpoint of the contract, its method, path, statuses and schemas", async () => {
    const byGroup = await tables()
    let endpoints = 0
    for (const target of targets)
      target.reflect({
        onGroup: () => undefined,
        onEndpoint: ({ group, endpoint, successes, errors }) => {
          endpoints++
          const entry = byGroup.get(`${target.dir}/${group.identifier}`)?.[endpoint.identifier]
          expect(entry, `${group.identifier}.${endpoint.identifier}`).toBeDefined()
          if (entry === undefined) return
          expect(entry.method).toBe(endpoint.method)
          expect(entry.path).toBe(endpoint.path)
          expect(Object.keys(entry.success).map(Number).sort()).toEqual([...successes.keys()].sort())
          expect(Object.keys(entry.errors).map(Number).sort()).toEqual([...errors.keys()].sort())
          for (const [status, schemas] of successes) {
            const table = entry.success[status]
            if (schemas.every((s) => HttpApiSchema.isNoContent(s.ast))) expect(table).toBeNull()
            else expect(table).toEqual(schemas.map(originalOf))
          }
          for (const [status, schemas] of errors)
            expect(entry.errors[status]).toEqual(schemas.map(originalOf))
          const payload = [...endpoint.payload.values()][0]
          if (payload === undefined) expect(entry.payload).toBeUndefined()
          else if (payload.encoding._tag === "Multipart") expect(entry.payload).toBe("multipart")
          else expect(entry.payload).toBe(payload.schemas[0] && originalOf(payload.schemas[0]))
        },
      })
    expect(endpoints).toBeGreaterThan(50)
  }, 60_000)

  it("encodes a payload exactly as the endpoint's own codec does", async () => {
    const byGroup = await tables()
    const value = { email: "ada@example.com", password: "correct horse", captcha: "x" }
    let checked = false
    HttpApi.reflect(CasinoApi, {
      onGroup: () => undefined,
      onEndpoint: ({ group, endpoint }) => {
        if (group.identifier !== "user" || endpoint.identifier !== "signin") return
        const payload = [...endpoint.payload.values()][0]?.schemas[0]
        const table = byGroup.get("clients/user")?.signin?.payload
        if (payload === undefined || table === undefined || table === "multipart")
          throw new Error("no payload")
        const viaEndpoint = Schema.encodeUnknownSync(asCodec(payload))(value)
        const viaTable = Schema.encodeUnknownSync(asCodec(Schema.toCodecJson(table)))(value)
        expect(viaTable).toEqual(viaEndpoint)
        checked = true
      },
    })
    expect(checked).toBe(true)
    // The first call of `tables()` in a worker imports every client module: seconds on a busy machine.
  }, 60_000)
})
