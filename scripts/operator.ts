/**
 * `npm run operator -- <command>`: the operators' command line, a client of the back-office API
 * (services/backoffice/api.ts) authenticated as an operator by an API token — the same contract,
 * permission checks and audit as the browser's back office. The usage is ./operator/usage.ts;
 * docs/operations.md tells how to sign in and what each command does.
 *
 *   operator/parse.ts     arguments → a command (usage errors)
 *   operator/auth.ts      which server, which token; the token file `login` writes
 *   operator/client.ts    the derived HttpApiClient and what its failures mean
 *   operator/commands.ts  each command as API calls
 *   operator/login.ts     login / logout
 *   operator/output.ts    text or --json
 *   operator/bootstrap.ts `operators add` without a token: the first admin, on the database itself
 *
 * Exit codes: 0 done, 1 refused (the API's refusal, printed as `refused (<reason>): <message>`),
 * 2 usage or setup error (no server, no valid token).
 */
import { Effect, Exit } from "effect"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { resolveTarget } from "./operator/auth.ts"
import { classify, makeClient, NO_TOKEN, Refused, SetupError } from "./operator/client.ts"
import { runCommand } from "./operator/commands.ts"
import { login, logout } from "./operator/login.ts"
import { print, printRefused } from "./operator/output.ts"
import { type Options, parse, UsageError } from "./operator/parse.ts"
import { usage } from "./operator/usage.ts"

const program = (options: Options): Effect.Effect<unknown, unknown, HttpClient.HttpClient> => {
  const c = options.command
  const target = resolveTarget(options.server)
  if (c._tag === "login") return login(target, c.email)
  if (c._tag === "logout") return logout(target)
  if (c._tag === "operatorsAdd" && target.token === undefined) {
    // No operator can sign in yet: the first admin is written to the database itself.
    const input = { email: c.email, name: c.name, role: c.role }
    return Effect.tryPromise({
      try: () => import("./operator/bootstrap.ts").then((m) => m.bootstrapOperator(input)),
      catch: (e) => e,
    })
  }
  const token = target.token
  if (token === undefined) return Effect.fail(new SetupError({ message: NO_TOKEN }))
  return Effect.flatMap(makeClient(target.server, { token }), (client) => runCommand(client, c))
}

const main = async (): Promise<number> => {
  let options: Options
  try {
    options = parse(process.argv.slice(2))
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && "code" in error)) {
      // (parseArgs throws a TypeError with a code for an unknown option or a missing value.)
      if (error.message !== "") process.stderr.write(`operator: ${error.message}\n\n`)
      process.stderr.write(`${usage}\n`)
      return 2
    }
    throw error
  }
  const target = resolveTarget(options.server)
  const exit = await Effect.runPromiseExit(
    program(options).pipe(
      Effect.catch((e) => Effect.flatMap(classify(target.server)(e), Effect.fail)),
      Effect.provide(FetchHttpClient.layer),
    ),
  )
  if (Exit.isSuccess(exit)) {
    print(options.command, options.json, exit.value)
    return 0
  }
  const failure = exit.cause.reasons.find((r) => r._tag === "Fail")
  const error = failure?._tag === "Fail" ? failure.error : undefined
  if (error instanceof Refused) {
    printRefused(options.json, { refused: true, error: error.error, message: error.message })
    return 1
  }
  const message = error instanceof SetupError ? error.message : `the command failed: ${String(exit.cause)}`
  process.stderr.write(`operator: ${message}\n`)
  return 2
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`operator: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(2)
  },
)
