/**
 * The operator command (`npm run operator -- …`, docs/operations.md) run against the e2e server's
 * database, as an operator would. Only its bootstrap (`operators add`) is used here: everything an
 * operator does after that goes through the back-office API with a token (support/backoffice.ts).
 */
import { execFile } from "node:child_process"
import { join } from "node:path"
import { promisify } from "node:util"
import { E2E_ENV, repoRoot, requiredEnv } from "./env.ts"

const run = promisify(execFile)

export interface OperatorResult {
  readonly stdout: string
  readonly stderr: string
}

export const operator = async (
  databaseUrl: string | undefined,
  args: ReadonlyArray<string>,
  /** The server's DATA_DIR (default: the e2e server's); its embedded database is reached through it. */
  dataDir = requiredEnv(E2E_ENV.dataDir),
): Promise<OperatorResult> => {
  const env: Record<string, string> = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  )
  env.DATA_DIR = dataDir
  if (databaseUrl === undefined) delete env.DATABASE_URL
  else env.DATABASE_URL = databaseUrl
  const { stdout, stderr } = await run(
    join(repoRoot, "node_modules/.bin/node"),
    [join(repoRoot, "scripts/operator.ts"), ...args],
    { cwd: repoRoot, env, timeout: 60_000 },
  )
  return { stdout, stderr }
}
