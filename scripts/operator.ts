/**
 * `npm run operator -- <command>`: the operators' command line, a client of the back-office API
 * (services/backoffice/api.ts) authenticated as an operator by an API token — the same contract,
 * permission checks and audit as the browser's back office. The usage is ./operator/usage.ts;
 * docs/operations.md tells how to sign in and what each command does.
 *
 *   operator/cli.ts       the whole command: arguments and its io (./operator/io.ts) → the exit code
 *   operator/parse.ts     arguments → a command (usage errors)
 *   operator/auth.ts      which server, which token; the token file `login` writes
 *   operator/client.ts    the derived HttpApiClient and what its failures mean
 *   operator/commands.ts  each command as API calls
 *   operator/login.ts     login / logout
 *   operator/output.ts    text or --json
 *   operator/bootstrap.ts `operators add` without a token: the first admin, on the database itself
 *
 * Exit codes: 0 done, 1 refused (the API's refusal, printed as `refused (<reason>): <message>`),
 * 2 usage or setup error (no server, no valid token). This file gives the command the process's
 * environment and streams, and exits with its code.
 */

import { runOperatorCli } from "./operator/cli.ts"
import type { OperatorIo } from "./operator/io.ts"

const io: OperatorIo = {
  env: process.env,
  stdout: (text) => {
    process.stdout.write(text)
  },
  stderr: (text) => {
    process.stderr.write(text)
  },
  // Read only when asked (by `login`): the other commands leave stdin alone.
  get stdin() {
    return process.stdin
  },
  get stdinIsTTY() {
    return process.stdin.isTTY === true
  },
}

runOperatorCli(process.argv.slice(2), io).then((code) => process.exit(code))
