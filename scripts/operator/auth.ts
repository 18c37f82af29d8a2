/**
 * Which server the command talks to and which operator API token it sends. The token `login`
 * saves lives in `${XDG_CONFIG_HOME:-~/.config}/casino-operator/token.json` (mode 0600: it acts
 * as the operator until it expires or is revoked).
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, join } from "node:path"
import { Option, Schema } from "effect"
import { readOperatorEndpoint } from "../../server/operator/endpointFile.ts"

export const DEFAULT_SERVER = "http://127.0.0.1:8080"

export interface SavedLogin {
  readonly server: string
  readonly token: string
}

export const tokenFile = (env: NodeJS.ProcessEnv): string =>
  join(env.XDG_CONFIG_HOME?.trim() || join(homedir(), ".config"), "casino-operator", "token.json")

const decodeSavedLogin = Schema.decodeUnknownOption(
  Schema.fromJsonString(Schema.Struct({ server: Schema.String, token: Schema.String })),
)

/** The login saved by `login`; none when the file is missing or not one. */
export const readSavedLogin = (env: NodeJS.ProcessEnv): SavedLogin | undefined => {
  try {
    return Option.getOrUndefined(decodeSavedLogin(readFileSync(tokenFile(env), "utf8")))
  } catch {
    return undefined
  }
}

export const saveLogin = (login: SavedLogin, env: NodeJS.ProcessEnv): string => {
  const file = tokenFile(env)
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  writeFileSync(file, `${JSON.stringify(login)}\n`, { mode: 0o600 })
  // A file that existed keeps its old mode through writeFileSync: make it 0600 in any case.
  chmodSync(file, 0o600)
  return file
}

/** Forgets the saved login; true when there was one. */
export const forgetLogin = (env: NodeJS.ProcessEnv): boolean => {
  const had = readSavedLogin(env) !== undefined
  rmSync(tokenFile(env), { force: true })
  return had
}

/** Whether process `pid` runs (EPERM: it runs, as another user). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

export const dataDirOf = (env: NodeJS.ProcessEnv): string => env.DATA_DIR?.trim() || ".data"

/** The address a live server on DATA_DIR publishes (server/operator/endpointFile.ts). */
export const localServer = (env: NodeJS.ProcessEnv): string | undefined => {
  const endpoint = readOperatorEndpoint(dataDirOf(env))
  return endpoint !== undefined && isAlive(endpoint.pid) ? endpoint.url : undefined
}

export interface Target {
  readonly server: string
  readonly token: string | undefined
}

/**
 * `--server`, else CASINO_URL, else the server the saved token was made on (when that token is the
 * one sent), else the server running on DATA_DIR, else the default. The token: OPERATOR_TOKEN, else
 * the saved one.
 */
export const resolveTarget = (flag: string | undefined, env: NodeJS.ProcessEnv): Target => {
  const fromEnv = env.OPERATOR_TOKEN?.trim() || undefined
  const saved = fromEnv === undefined ? readSavedLogin(env) : undefined
  const server =
    flag ?? (env.CASINO_URL?.trim() || undefined) ?? saved?.server ?? localServer(env) ?? DEFAULT_SERVER
  return { server: server.replace(/\/+$/, ""), token: fromEnv ?? saved?.token }
}
