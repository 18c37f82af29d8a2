/**
 * The whole command line as one function: arguments and an `OperatorIo` in, the exit code out
 * (0 done, 1 refused, 2 usage or setup error). It never exits the process nor sets its exit code:
 * scripts/operator.ts does, with the real process's streams; the tests call it in-process too.
 */
import { Effect, Exit } from "effect"
import { FetchHttpClient, type HttpClient } from "effect/http"
import { resolveTarget, type Target } from "./auth.ts"
import { classify, makeClient, NO_TOKEN, Refused, SetupError } from "./client.ts"
import { runCommand } from "./commands.ts"
import type { OperatorIo } from "./io.ts"
import { login, logout } from "./login.ts"
import { print, printRefused } from "./output.ts"
import { type Options, parse, UsageError } from "./parse.ts"
import { usage } from "./usage.ts"

const program = (
  options: Options,
  target: Target,
  io: OperatorIo,
): Effect.Effect<unknown, unknown, HttpClient.HttpClient> => {
  const c = options.command
  if (c._tag === "login") return login(target, c.email, io)
  if (c._tag === "logout") return logout(target, io.env)
  if (c._tag === "operatorsAdd" && target.token === undefined) {
    // No operator can sign in yet: the first admin is written to the database itself.
    const input = { email: c.email, name: c.name, role: c.role }
    return Effect.tryPromise({
      try: () => import("./bootstrap.ts").then((m) => m.bootstrapOperator(input, io.env)),
      catch: (e) => e,
    })
  }
  const token = target.token
  if (token === undefined) return Effect.fail(new SetupError({ message: NO_TOKEN }))
  return Effect.flatMap(makeClient(target.server, { token }), (client) => runCommand(client, c))
}

const run = async (argv: ReadonlyArray<string>, io: OperatorIo): Promise<number> => {
  let options: Options
  try {
    options = parse(argv)
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && "code" in error)) {
      // (parseArgs throws a TypeError with a code for an unknown option or a missing value.)
      if (error.message !== "") io.stderr(`operator: ${error.message}\n\n`)
      io.stderr(`${usage}\n`)
      return 2
    }
    throw error
  }
  const target = resolveTarget(options.server, io.env)
  const exit = await Effect.runPromiseExit(
    program(options, target, io).pipe(
      Effect.catch((e) => Effect.flatMap(classify(target.server)(e), Effect.fail)),
      Effect.provide(FetchHttpClient.layer),
    ),
  )
  if (Exit.isSuccess(exit)) {
    print(io, options.command, options.json, exit.value)
    return 0
  }
  const failure = exit.cause.reasons.find((r) => r._tag === "Fail")
  const error = failure?._tag === "Fail" ? failure.error : undefined
  if (error instanceof Refused) {
    printRefused(io, options.json, { refused: true, error: error.error, message: error.message })
    return 1
  }
  const message = error instanceof SetupError ? error.message : `the command failed: ${String(exit.cause)}`
  io.stderr(`operator: ${message}\n`)
  return 2
}

/** `npm run operator -- <argv>`: its exit code; whatever goes wrong unforeseen is a setup error (2). */
export const runOperatorCli = (argv: ReadonlyArray<string>, io: OperatorIo): Promise<number> =>
  run(argv, io).catch((error: unknown) => {
    io.stderr(`operator: ${error instanceof Error ? error.message : String(error)}\n`)
    return 2
  })
