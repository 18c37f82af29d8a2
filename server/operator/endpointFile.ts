/**
 * Where a running server can be reached by `npm run operator` when it holds the embedded
 * database: `${DATA_DIR}/operator-endpoint.json` = { url, pid }, written when the server listens
 * and removed when it stops (mode 0600: same owner as the database and the secret).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Option, Schema } from "effect"

export interface OperatorEndpoint {
  readonly url: string
  readonly pid: number
}

export const operatorEndpointFile = (dataDir: string): string => join(dataDir, "operator-endpoint.json")

export const writeOperatorEndpoint = (dataDir: string, url: string): void => {
  writeFileSync(operatorEndpointFile(dataDir), `${JSON.stringify({ url, pid: process.pid })}\n`, {
    mode: 0o600,
  })
}

export const removeOperatorEndpoint = (dataDir: string): void => {
  rmSync(operatorEndpointFile(dataDir), { force: true })
}

const decodeEndpoint = Schema.decodeUnknownOption(
  Schema.fromJsonString(Schema.Struct({ url: Schema.String, pid: Schema.Number })),
)

export const readOperatorEndpoint = (dataDir: string): OperatorEndpoint | undefined => {
  try {
    return Option.getOrUndefined(decodeEndpoint(readFileSync(operatorEndpointFile(dataDir), "utf8")))
  } catch {
    return undefined
  }
}
