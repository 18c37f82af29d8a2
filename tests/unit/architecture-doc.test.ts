/**
 * docs/architecture.md's picture of the parties and the protocols is kept beside the code: every
 * folder of providers/ and protocols/, and every party the composition root starts, is named in it.
 * A new party or protocol without its place in the picture fails here.
 */
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { parties } from "../../compose/local.ts"

const root = new URL("../../", import.meta.url)
const doc = readFileSync(new URL("docs/architecture.md", root), "utf8")
const folders = (dir: string) =>
  readdirSync(new URL(`${dir}/`, root), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)

describe("docs/architecture.md: the parties and the protocols", () => {
  it.each(folders("providers"))("names the provider %s/", (name) => {
    expect(doc).toContain(`${name}/`)
  })
  it.each(folders("protocols"))("names the protocol %s/", (name) => {
    expect(doc).toContain(`${name}/`)
  })
  it.each(parties.map((p) => [p.name, p.switch] as const))(
    "names the party %s and its switch %s",
    (name, on) => {
      expect(doc).toContain(on)
      expect(doc).toContain(name)
    },
  )
})
