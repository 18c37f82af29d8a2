/**
 * What the command line reads and writes of its process, passed in: the real process's in
 * scripts/operator.ts, strings and a prepared stdin in the tests that run it in-process.
 */
export interface OperatorIo {
  /** The environment: OPERATOR_TOKEN, CASINO_URL, XDG_CONFIG_HOME, DATA_DIR, DATABASE_URL, OPERATOR_SECRET… */
  readonly env: NodeJS.ProcessEnv
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** Where `login` reads the password and the authenticator code. */
  readonly stdin: NodeJS.ReadableStream
  /** A terminal: `login` shows its questions and does not echo the password. */
  readonly stdinIsTTY: boolean
}

/** Where a command's text goes. */
export type Output = Pick<OperatorIo, "stdout" | "stderr">
