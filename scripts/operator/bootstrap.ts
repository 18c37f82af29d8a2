/**
 * `operators add` without a token: the first admin, before anyone can sign in to make a token.
 * With DATABASE_URL the command opens PostgreSQL itself; on the embedded PGlite in DATA_DIR (no
 * DATABASE_URL, or `embedded`) it opens the folder when no server holds it, and otherwise goes
 * through that server's bootstrap endpoint (/api/operator/v1/backoffice/operators) with the local
 * operator secret, which makes only the first admin (docs/backoffice.md, "The first admin"). Loaded
 * only for this command: it brings the server's modules with it.
 */
import { readFileSync } from "node:fs"
import { hostname, userInfo } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Layer, References } from "effect"
import { makeDbLayer } from "../../lib/db/client.ts"
import { postgresUrl } from "../../lib/env.ts"
import { Backoffice } from "../../server/backoffice/Backoffice.ts"
import { AppConfig, loadConfig, operatorSecretFile } from "../../server/config.ts"
import { migrate } from "../../server/db/migrate.ts"
import { OperatorAudit } from "../../server/operator/Audit.ts"
import { OPERATOR_PREFIX } from "../../server/operator/endpoint.ts"
import { readOperatorEndpoint } from "../../server/operator/endpointFile.ts"
import { RateLimiter } from "../../server/security/RateLimiter.ts"
import { Passwords } from "../../server/users/Passwords.ts"
import type { Role } from "../../services/backoffice/permissions.ts"
import { dataDirOf, isAlive } from "./auth.ts"
import { Refused, SetupError } from "./client.ts"

export interface NewOperator {
  readonly email: string
  readonly name: string
  readonly role: Role
}

const direct = async (input: NewOperator, env: NodeJS.ProcessEnv): Promise<unknown> => {
  const config = loadConfig(env)
  const services = Backoffice.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(Passwords.layer, OperatorAudit.layer, RateLimiter.layer)),
    Layer.provideMerge(Layer.effectDiscard(migrate())),
    Layer.provideMerge(makeDbLayer(config)),
    Layer.provideMerge(AppConfig.layerFrom(config)),
  )
  const label = `cli:${userInfo().username}@${hostname()}`
  const program = Effect.gen(function* () {
    const backoffice = yield* Backoffice
    return yield* backoffice.createOperator({ operatorId: null, email: null, label, ip: null }, input)
  })
  // Logs (e.g. "applied migrations") stay out of the command's output unless they are warnings.
  const quiet = Layer.succeed(References.MinimumLogLevel, "Warn")
  const exit = await Effect.runPromiseExit(
    program.pipe(Effect.provide(services), Effect.provide(quiet), Effect.scoped),
  )
  if (Exit.isSuccess(exit)) return exit.value
  const failure = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (failure !== undefined && failure._tag === "Fail")
    throw new Refused({ error: failure.error._tag, message: failure.error.message })
  throw new SetupError({ message: `the command failed: ${String(exit.cause)}` })
}

const operatorSecret = (dataDir: string, env: NodeJS.ProcessEnv): string => {
  const fromEnv = env.OPERATOR_SECRET?.trim()
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv
  try {
    return readFileSync(operatorSecretFile(dataDir), "utf8").trim()
  } catch {
    throw new SetupError({
      message: `no operator secret: set OPERATOR_SECRET or run from the server's DATA_DIR (${operatorSecretFile(dataDir)})`,
    })
  }
}

const viaServer = async (url: string, secret: string, input: NewOperator): Promise<unknown> => {
  let res: Response
  try {
    res = await fetch(`${url.replace(/\/+$/, "")}${OPERATOR_PREFIX}/backoffice/operators`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify(input),
    })
  } catch (error) {
    throw new SetupError({
      message: `cannot reach the server at ${url}: ${error instanceof Error ? error.message : String(error)}`,
    })
  }
  const body = (await res.json()) as Record<string, unknown>
  if (res.ok) return body
  if (res.status === 401 || (res.status === 400 && body.error === "BadRequest"))
    throw new SetupError({
      message: `the server refused the operator request (${res.status}): ${String(body.message)}`,
    })
  throw new Refused({ error: String(body.error), message: String(body.message) })
}

/** The pid holding the embedded database of `dataDir`, when that process is alive. */
const pgliteHolder = (dataDir: string): number | undefined => {
  try {
    const pid = Number.parseInt(readFileSync(join(dataDir, "pglite.lock"), "utf8"), 10)
    return Number.isInteger(pid) && pid !== process.pid && isAlive(pid) ? pid : undefined
  } catch {
    return undefined
  }
}

export const bootstrapOperator = async (input: NewOperator, env: NodeJS.ProcessEnv): Promise<unknown> => {
  // DATABASE_URL=embedded is the embedded database, as unset (lib/env.ts).
  if (postgresUrl(env, "DATABASE_URL") !== undefined) return direct(input, env)
  const dataDir = dataDirOf(env)
  const holder = pgliteHolder(dataDir)
  if (holder === undefined) return direct(input, env)
  const endpoint = readOperatorEndpoint(dataDir)
  if (endpoint === undefined || endpoint.pid !== holder)
    throw new SetupError({
      message:
        `the embedded database in ${dataDir}/pglite is in use by process ${holder}, which publishes no ` +
        "operator endpoint; stop it, or use PostgreSQL (DATABASE_URL)",
    })
  return viaServer(endpoint.url, operatorSecret(dataDir, env), input)
}
