/**
 * Starts a local anvil node (Foundry's dev chain) as a child process: the sandbox's EVM chain.
 * The binary comes from Foundry's platform package `@foundry-rs/anvil-<os>-<arch>`, an optional
 * dependency of ours (only linux-x64 is listed: the wrapper `@foundry-rs/anvil` names every
 * platform's package, and the registry these machines use lacks the others, so `npm ci` refused its
 * lock file), resolved through Node's module resolution: nothing is downloaded at run time. It listens on 127.0.0.1 with a port the kernel picks (`--port 0`; the real
 * one is read from its "Listening on" line), chain id 31337, and mines only on demand (`--no-mining`,
 * `evm_mine`) unless a block time is given.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { Effect, Schema, type Scope } from "effect"

/** Anvil's default chain id, the sandbox's EVM chain. */
export const sandboxChainId = 31337

export class AnvilStartFailed extends Schema.TaggedError<AnvilStartFailed>()("AnvilStartFailed", {
  message: Schema.String,
}) {}

/** The anvil binary of this platform, or an error naming the missing package. */
export const anvilBinary = (): string => {
  const arch = process.arch === "x64" ? "amd64" : process.arch
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`
  const require = createRequire(import.meta.url)
  const manifest = require.resolve(`${pkg}/package.json`)
  return join(dirname(manifest), "bin", process.platform === "win32" ? "anvil.exe" : "anvil")
}

export interface AnvilOptions {
  /** Seconds between blocks; 0 (default) = a block only when `evm_mine` asks (tests). */
  readonly blockTimeSeconds?: number
  /**
   * Where the chain is kept between runs (`--state`: loaded at start, dumped every 10 s and on exit).
   * The server keeps it in its data folder so the chain outlives a restart like the database does:
   * a fresh chain under an old database would look like a reorg of every block the watcher saw.
   */
  readonly stateFile?: string
  /** The loopback port; 0 (default) = the kernel picks one. */
  readonly port?: number
}

export interface AnvilNode {
  readonly rpcUrl: string
  readonly chainId: number
  readonly pid: number
}

const startTimeoutMs = 15_000

const spawnAnvil = (options: AnvilOptions) =>
  Effect.callback<{ readonly node: AnvilNode; readonly child: ChildProcess }, AnvilStartFailed>((resume) => {
    let binary: string
    try {
      binary = anvilBinary()
    } catch (error) {
      resume(Effect.fail(new AnvilStartFailed({ message: `anvil binary not installed: ${String(error)}` })))
      return
    }
    const blockTime = options.blockTimeSeconds ?? 0
    const args = [
      "--host",
      "127.0.0.1",
      "--port",
      String(options.port ?? 0),
      "--chain-id",
      String(sandboxChainId),
      ...(blockTime > 0 ? ["--block-time", String(blockTime)] : ["--no-mining"]),
      ...(options.stateFile === undefined ? [] : ["--state", options.stateFile, "--state-interval", "10"]),
    ]
    // anvil runs under a small sh guard holding a pipe from this process: when the pipe closes (a
    // clean stop, or this process dying, even by SIGKILL) the guard sends anvil SIGTERM, so no
    // node is left behind. (A background job's stdin is /dev/null in sh, hence fd 3.)
    const guard =
      'exec 3<&0; "$0" "$@" & pid=$!; (cat <&3 >/dev/null; kill -TERM $pid 2>/dev/null) & wait $pid'
    const child = spawn("/bin/sh", ["-c", guard, binary, ...args], { stdio: ["pipe", "pipe", "pipe"] })
    let output = ""
    let done = false
    const finish = (effect: Effect.Effect<{ node: AnvilNode; child: ChildProcess }, AnvilStartFailed>) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resume(effect)
    }
    const timer = setTimeout(() => {
      child.stdin?.destroy()
      child.kill("SIGKILL")
      finish(
        Effect.fail(new AnvilStartFailed({ message: `anvil did not start in time: ${output.slice(-500)}` })),
      )
    }, startTimeoutMs)
    child.stdout?.setEncoding("utf8")
    child.stderr?.setEncoding("utf8")
    child.stdout?.on("data", (chunk: string) => {
      if (done) return
      output += chunk
      const listening = /Listening on (127\.0\.0\.1:\d+)/.exec(output)
      if (listening !== null) {
        const pid = child.pid ?? 0
        finish(
          Effect.succeed({ node: { rpcUrl: `http://${listening[1]}`, chainId: sandboxChainId, pid }, child }),
        )
      }
    })
    child.stderr?.on("data", (chunk: string) => {
      output += chunk
    })
    child.once("error", (error) =>
      finish(Effect.fail(new AnvilStartFailed({ message: `anvil failed to start: ${error.message}` }))),
    )
    child.once("exit", (code, signal) =>
      finish(
        Effect.fail(
          new AnvilStartFailed({
            message: `anvil exited (${code ?? signal}) before listening: ${output.slice(-500)}`,
          }),
        ),
      ),
    )
    // After start, the pipes are drained so a chatty node never blocks on a full pipe.
    return Effect.sync(() => {
      if (!done) {
        child.stdin?.destroy()
        child.kill("SIGKILL")
      }
    })
  })

const stop = (child: ChildProcess) =>
  Effect.callback<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resume(Effect.void)
      return
    }
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000)
    child.once("exit", () => {
      clearTimeout(kill)
      resume(Effect.void)
    })
    // Closing the pipe makes the guard stop anvil with SIGTERM (it dumps its state file first).
    child.stdin?.end()
  })

/** A running anvil for the scope's lifetime (stopped, SIGTERM then SIGKILL, when the scope closes). */
export const startAnvil = (
  options: AnvilOptions = {},
): Effect.Effect<AnvilNode, AnvilStartFailed, Scope.Scope> =>
  Effect.acquireRelease(spawnAnvil(options), ({ child }) => stop(child)).pipe(
    Effect.tap(({ child }) =>
      Effect.sync(() => {
        child.stdout?.resume()
        child.stderr?.resume()
        child.stdout?.removeAllListeners("data")
        child.stderr?.removeAllListeners("data")
        // The node must not outlive this process, even when the scope never closes (a crash).
        const killOnExit = () => child.stdin?.destroy()
        process.once("exit", killOnExit)
        child.once("exit", () => process.off("exit", killOnExit))
        child.unref()
        for (const stream of [child.stdin, child.stdout, child.stderr]) {
          if (stream !== null && "unref" in stream && typeof stream.unref === "function") stream.unref()
        }
      }),
    ),
    Effect.map(({ node }) => node),
  )
