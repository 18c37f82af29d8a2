/**
 * `login`: the browser's two steps (password, then the authenticator code) with the session cookie,
 * then an API token named `cli@<user>@<host>` made from that session, saved for the next commands;
 * the session itself is signed out at once (the token is what stays). `logout`: the token signs
 * itself out (the server revokes a token used to log out) and the saved file is removed.
 */
import { hostname, userInfo } from "node:os"
import { createInterface } from "node:readline"
import { Writable } from "node:stream"
import { Effect, Option } from "effect"
import { Cookies } from "effect/http"
import { forgetLogin, readSavedLogin, saveLogin, type Target } from "./auth.ts"
import { makeClient, NO_TOKEN, Refused, SetupError } from "./client.ts"
import type { OperatorIo } from "./io.ts"

/**
 * Lines typed at the terminal (the password without echo) or piped on stdin, one per question: a
 * script feeds `password\ncode\n`. Lines that arrive before their question wait in a queue.
 */
const makePrompter = (io: OperatorIo) => {
  const tty = io.stdinIsTTY
  let muted = false
  const output = new Writable({
    // The strings readline writes, as written.
    decodeStrings: false,
    write(chunk, _encoding, done) {
      if (!muted) io.stderr(String(chunk))
      done()
    },
  })
  const reader = createInterface({ input: io.stdin, output, terminal: tty })
  const queue: Array<string> = []
  const waiting: Array<(line: string | undefined) => void> = []
  let closed = false
  reader.on("line", (line) => {
    const next = waiting.shift()
    if (next === undefined) queue.push(line)
    else next(line)
  })
  reader.on("close", () => {
    closed = true
    for (const next of waiting.splice(0)) next(undefined)
  })
  const ask = async (question: string, hidden: boolean): Promise<string> => {
    if (tty) io.stderr(question)
    muted = hidden
    const line =
      queue.shift() ?? (closed ? undefined : await new Promise<string | undefined>((r) => waiting.push(r)))
    muted = false
    if (tty && hidden) io.stderr("\n")
    if (line === undefined) throw new Error(`no answer to "${question.trim()}" on stdin`)
    return line.trim()
  }
  return { ask, close: () => reader.close() }
}

const sessionCookie = (cookies: Cookies.Cookies): string | undefined =>
  Option.getOrUndefined(Option.map(Cookies.getValue(cookies, "bo_session"), (v) => `bo_session=${v}`))

export const login = (target: Target, email: string, io: OperatorIo) =>
  Effect.suspend(() => {
    const prompter = makePrompter(io)
    return signIn(target, email, prompter.ask, io).pipe(Effect.ensuring(Effect.sync(prompter.close)))
  })

const signIn = (
  target: Target,
  email: string,
  prompt: (question: string, hidden: boolean) => Promise<string>,
  io: OperatorIo,
) =>
  Effect.gen(function* () {
    let cookie: string | undefined
    const client = yield* makeClient(target.server, { cookie: () => cookie })
    const ask = (question: string, hidden: boolean) =>
      Effect.tryPromise({
        try: () => prompt(question, hidden),
        catch: (e) => new SetupError({ message: e instanceof Error ? e.message : String(e) }),
      })
    const password = yield* ask("Password: ", true)
    const [step, first] = yield* client.login.login({
      payload: { email, password },
      responseMode: "decoded-and-response",
    })
    cookie = sessionCookie(first.cookies)
    if (step.step === "enrol")
      io.stderr(
        "Your second factor is not set up yet. Add this key to your authenticator app, then type its code:\n" +
          `  ${step.secret}\n  ${step.otpauthUri}\n`,
      )
    const code = yield* ask("Authenticator code: ", false)
    const [me, second] = yield* client.login.loginTotp({
      payload: { code },
      responseMode: "decoded-and-response",
    })
    cookie = sessionCookie(second.cookies) ?? cookie
    const name = `cli@${userInfo().username}@${hostname()}`.slice(0, 100)
    const made = yield* client.tokens.createToken({ payload: { name } })
    // The session was only the way to a token: end it now rather than let it idle out.
    yield* client.session.logout().pipe(Effect.ignore)
    const file = saveLogin({ server: target.server, token: made.token }, io.env)
    return {
      message:
        `Signed in as ${me.operator.email} (${me.role}) on ${target.server}. ` +
        `Token "${made.apiToken.name}" saved in ${file}, valid until ${made.apiToken.expiresAt}.`,
      operator: me.operator,
      role: me.role,
      apiToken: made.apiToken,
      file,
    }
  })

export const logout = (target: Target, env: NodeJS.ProcessEnv) =>
  Effect.gen(function* () {
    if (target.token === undefined) return yield* new SetupError({ message: NO_TOKEN })
    const client = yield* makeClient(target.server, { token: target.token })
    const revoked = yield* client.session.logout().pipe(
      Effect.as(true),
      // A token the server no longer accepts is gone already: forgetting it is all that is left.
      Effect.catchTag("Unauthenticated", () => Effect.succeed(false)),
    )
    // The saved file goes only with its own token: revoking OPERATOR_TOKEN leaves another login be.
    const forgot = readSavedLogin(env)?.token === target.token && forgetLogin(env)
    if (!revoked && !forgot)
      return yield* new Refused({ error: "Unauthenticated", message: "The token was not valid." })
    return {
      message: `${revoked ? "The token is revoked" : "The token was no longer valid"}${forgot ? " and forgotten" : ""}.`,
      revoked,
      forgotten: forgot,
    }
  })
