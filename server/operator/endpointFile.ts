/**
 * Where a running server can be reached by `npm run operator` when it holds the embedded
 * database: `${DATA_DIR}/operator-endpoint.json` = { url, pid }, written when the server listens
 * and removed when it stops (mode 0600: same owner as the database and the secret).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

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

export const readOperatorEndpoint = (dataDir: string): OperatorEndpoint | undefined => {
  try {
    const parsed: unknown = JSON.parse(readFileSync(operatorEndpointFile(dataDir), "utf8"))
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      "url" in parsed &&
      "pid" in parsed &&
      typeof parsed.url === "string" &&
      typeof parsed.pid === "number"
    ) {
      return { url: parsed.url, pid: parsed.pid }
    }
    return undefined
  } catch {
    return undefined
  }
}
