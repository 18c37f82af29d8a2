/**
 * The real server as a separate PROCESS (`node server/main.ts`, the production entry point), for
 * tests that must survive what they do to it: a crash is an observable exit instead of taking the
 * test runner down, and SIGKILL is a real SIGKILL. Used by the fuzzer, the crash test and
 * `bench/load.bench.ts`.
 *
 * The child gets a free port on 127.0.0.1, `PUBLIC_URL` with that port, `NODE_ENV=test` and the
 * environment given; it is ready when it prints `casino: listening on <url>`. Its stdout and stderr
 * are kept (the last 256 KiB) for failure messages. A child still running when the test process
 * exits is SIGKILLed.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { setPriority } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
export const nodeBinary = join(repoRoot, "node_modules/.bin/node")
export const serverEntry = join(repoRoot, "server/main.ts")

export const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const probe = createServer()
    probe.unref()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolvePort(port))
    })
  })

export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface ServerProcess {
  /** e.g. http://127.0.0.1:40123 */
  readonly url: string
  readonly port: number
  readonly pid: number
  readonly child: ChildProcess
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<Exit>
  /** Undefined while running. */
  readonly exit: () => Exit | undefined
  /** The process's output so far (last 256 KiB of stdout and stderr, interleaved). */
  readonly output: () => string
  /** SIGKILL now; resolves once the process is gone. */
  readonly kill: () => Promise<Exit>
  /** SIGTERM (graceful shutdown), SIGKILL after `graceMs`; resolves once the process is gone. */
  readonly stop: (graceMs?: number) => Promise<Exit>
}

export interface StartOptions {
  /** DATA_DIR of the server (the embedded database lives in `${dataDir}/pglite`). */
  readonly dataDir: string
  /** PostgreSQL URL; unset ⇒ embedded PGlite. */
  readonly databaseUrl?: string | undefined
  /** Extra environment (CAPTCHA, RATE_LIMIT_SCALE, LOG_LEVEL…). */
  readonly env?: Readonly<Record<string, string>>
  /** How long to wait for the listening line. */
  readonly startTimeoutMs?: number
  /** Fixed port (default: a free one). */
  readonly port?: number
  /**
   * Niceness of the server process (0–19). The robustness tests use 10 so that, running beside the
   * rest of the suite on two cores, their servers yield the CPU to tests with tight timeouts.
   */
  readonly nice?: number
}

const running = new Set<ChildProcess>()
let exitHookInstalled = false
const installExitHook = (): void => {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on("exit", () => {
    for (const child of running) child.kill("SIGKILL")
  })
}

const OUTPUT_LIMIT = 256 * 1024

/** Starts `server/main.ts`; resolves once it listens, rejects (with its output) if it exits or times out. */
export const startServerProcess = async (options: StartOptions): Promise<ServerProcess> => {
  installExitHook()
  const port = options.port ?? (await freePort())
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[0] !== "DATABASE_URL",
    ),
  )
  const env: Record<string, string> = {
    ...inherited,
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: options.dataDir,
    LOG_LEVEL: "Warn",
    ...options.env,
  }
  if (options.databaseUrl !== undefined) env.DATABASE_URL = options.databaseUrl

  const child = spawn(nodeBinary, [serverEntry], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  })
  running.add(child)
  if (options.nice !== undefined && child.pid !== undefined) {
    try {
      setPriority(child.pid, options.nice)
    } catch {
      // Not permitted here (e.g. lowering below our own niceness): run at the default priority.
    }
  }
  let output = ""
  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8")
    if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT)
  }
  child.stdout?.on("data", append)
  child.stderr?.on("data", append)
  let exitInfo: Exit | undefined
  const exited = new Promise<Exit>((resolveExit) => {
    child.once("exit", (code, signal) => {
      exitInfo = { code, signal }
      running.delete(child)
      resolveExit(exitInfo)
    })
  })

  // A bound for a hung start, not a speed check: a busy two-core machine starts it in seconds to a minute.
  const timeoutMs = options.startTimeoutMs ?? 180_000
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`the server did not listen within ${timeoutMs} ms; output:\n${output}`))
    }, timeoutMs)
    const onData = () => {
      const match = /casino: listening on (http:\/\/\S+)/.exec(output)
      if (match?.[1] !== undefined) {
        clearTimeout(timer)
        child.stdout?.off("data", onData)
        resolveUrl(match[1])
      }
    }
    child.stdout?.on("data", onData)
    void exited.then((exit) => {
      clearTimeout(timer)
      reject(
        new Error(
          `the server exited before listening (code ${String(exit.code)}, signal ${String(exit.signal)}); output:\n${output}`,
        ),
      )
    })
  })

  const pid = child.pid
  if (pid === undefined) throw new Error("the server process has no pid")

  const kill = (): Promise<Exit> => {
    if (exitInfo === undefined) child.kill("SIGKILL")
    return exited
  }
  const stop = (graceMs = 10_000): Promise<Exit> => {
    if (exitInfo !== undefined) return exited
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
    child.kill("SIGTERM")
    return exited.finally(() => clearTimeout(timer))
  }
  return {
    url,
    port,
    pid,
    child,
    exited,
    exit: () => exitInfo,
    output: () => output,
    kill,
    stop,
  }
}
