/**
 * Writes the API descriptions from the contracts: docs/api/openapi.json (the player app's API,
 * `CasinoApi`) and docs/api/backoffice-openapi.json (`BackofficeApi`). `--check` fails when a file
 * is stale (run by tests/unit/api-docs.test.ts), so the committed descriptions never drift from the code.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { OpenApi } from "effect/http-api"
import { CasinoApi } from "../services/api.ts"
import { BackofficeApi } from "../services/backoffice/api.ts"

export const apiDocsPath = fileURLToPath(new URL("../docs/api/openapi.json", import.meta.url))
export const backofficeApiDocsPath = fileURLToPath(
  new URL("../docs/api/backoffice-openapi.json", import.meta.url),
)

export const renderApiDocs = (): string => `${JSON.stringify(OpenApi.fromApi(CasinoApi), null, 2)}\n`
export const renderBackofficeApiDocs = (): string =>
  `${JSON.stringify(OpenApi.fromApi(BackofficeApi), null, 2)}\n`

const files = [
  { path: apiDocsPath, render: renderApiDocs },
  { path: backofficeApiDocsPath, render: renderBackofficeApiDocs },
]

const isMain = process.argv[1] === fileURLToPath(import.meta.url)
if (isMain) {
  for (const { path, render } of files) {
    const fresh = render()
    if (process.argv.includes("--check")) {
      let current = ""
      try {
        current = readFileSync(path, "utf8")
      } catch {}
      if (current !== fresh) {
        console.error(`${path} is stale: run \`npm run docs:api\``)
        process.exit(1)
      }
    } else {
      writeFileSync(path, fresh)
      console.log(`wrote ${path}`)
    }
  }
}
