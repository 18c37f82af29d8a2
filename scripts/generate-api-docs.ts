/**
 * Writes docs/api/openapi.json from the contract. `--check` fails when the file is stale
 * (run by tests/unit/api-docs.test.ts), so the committed API description never drifts from the code.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { OpenApi } from "effect/http-api"
import { CasinoApi } from "../services/api.ts"

export const apiDocsPath = fileURLToPath(new URL("../docs/api/openapi.json", import.meta.url))

export const renderApiDocs = (): string => `${JSON.stringify(OpenApi.fromApi(CasinoApi), null, 2)}\n`

const isMain = process.argv[1] === fileURLToPath(import.meta.url)
if (isMain) {
  const fresh = renderApiDocs()
  if (process.argv.includes("--check")) {
    const current = readFileSync(apiDocsPath, "utf8")
    if (current !== fresh) {
      console.error("docs/api/openapi.json is stale: run `npm run docs:api`")
      process.exit(1)
    }
  } else {
    writeFileSync(apiDocsPath, fresh)
    console.log(`wrote ${apiDocsPath}`)
  }
}
