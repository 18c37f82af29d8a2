/**
 * The embedded database's lock (`${DATA_DIR}/pglite.lock`, server/db/client.ts) after a crash:
 * a dead owner, a zombie owner and a pid that now belongs to another process must not block a
 * restart; a live owner must.
 *
 * The zombie is real: `sh -c 'node server/main.ts & echo $!; exec sleep 600'` starts the server as a
 * child of the shell, then the shell BECOMES `sleep`, which never calls wait(). SIGKILL the server
 * and it stays a zombie (state Z in /proc) for as long as `sleep` lives, exactly like a server under
 * a container's pid 1 that does not reap. `process.kill(pid, 0)` still succeeds for it, which is
 * why the lock looked held.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import {
  isLockOwnerAlive,
  lockText,
  parseLock,
  procStat,
  releaseLock,
  takeLock,
} from "../../lib/db/client.ts"
import { seedPgliteDataDir } from "../support/databases.ts"
import { freePort, nodeBinary, repoRoot, serverEntry, startServerProcess } from "../support/server.ts"

const hasProcfs = existsSync("/proc/self/stat")
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const waitFor = async (what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

const dirs: Array<string> = []
const children: Array<ChildProcess> = []
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "casino-lock-"))
  dirs.push(dir)
  return dir
}
/** A live process that is not this one. */
const liveProcess = (): ChildProcess => {
  const child = spawn("sleep", ["600"], { stdio: "ignore" })
  children.push(child)
  return child
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL")
})
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe.runIf(hasProcfs)("PGlite lock: who owns it", () => {
  it("reads state and start time from /proc, also for commands with spaces and parentheses", () => {
    const self = procStat(process.pid)
    expect(self?.state).toMatch(/^[RS]$/)
    expect(self?.startTime).toMatch(/^\d+$/)
  })

  it("a live owner blocks, with a message naming its pid", async () => {
    const owner = liveProcess()
    const pid = owner.pid ?? 0
    await waitFor("the owner's /proc entry", () => procStat(pid) !== undefined)
    const lockFile = join(await tempDir(), "pglite.lock")
    writeFileSync(lockFile, lockText(pid, procStat(pid)?.startTime))
    expect(() => takeLock(lockFile)).toThrow(`in use by process ${pid}`)
    // A lock written before start times were recorded (pid only) still protects a live owner.
    writeFileSync(lockFile, `${pid}\n`)
    expect(() => takeLock(lockFile)).toThrow(`in use by process ${pid}`)
    expect(parseLock(readFileSync(lockFile, "utf8"))?.pid).toBe(pid)
  })

  it("a pid now used by another process (other start time) does not block", async () => {
    const other = liveProcess()
    const pid = other.pid ?? 0
    await waitFor("the process's /proc entry", () => procStat(pid) !== undefined)
    const lockFile = join(await tempDir(), "pglite.lock")
    // The recorded owner had this pid but started at another moment: it is not this process.
    const startTime = String(Number(procStat(pid)?.startTime) + 1)
    expect(isLockOwnerAlive({ pid, startTime })).toBe(false)
    writeFileSync(lockFile, lockText(pid, startTime))
    takeLock(lockFile)
    expect(parseLock(readFileSync(lockFile, "utf8"))).toEqual({
      pid: process.pid,
      startTime: procStat(process.pid)?.startTime,
    })
    releaseLock(lockFile)
    expect(existsSync(lockFile)).toBe(false)
  })

  it("a dead owner and an unreadable lock are taken over", async () => {
    const gone = spawn("true", [], { stdio: "ignore" })
    const pid = gone.pid ?? 0
    await new Promise((resolve) => gone.once("exit", resolve))
    const lockFile = join(await tempDir(), "pglite.lock")
    writeFileSync(lockFile, lockText(pid, "12345"))
    takeLock(lockFile)
    releaseLock(lockFile)
    writeFileSync(lockFile, "garbage\n")
    takeLock(lockFile)
    expect(parseLock(readFileSync(lockFile, "utf8"))?.pid).toBe(process.pid)
    releaseLock(lockFile)
  })

  it("release leaves a lock another process took over in place", async () => {
    const lockFile = join(await tempDir(), "pglite.lock")
    takeLock(lockFile)
    const other = liveProcess()
    writeFileSync(lockFile, lockText(other.pid ?? 0, undefined))
    releaseLock(lockFile)
    expect(parseLock(readFileSync(lockFile, "utf8"))?.pid).toBe(other.pid)
  })
})

describe.runIf(hasProcfs)("PGlite lock: a SIGKILLed server that stays a zombie", () => {
  it("does not block the restart on the same DATA_DIR", async () => {
    const dataDir = await tempDir()
    await seedPgliteDataDir(dataDir)
    const port = await freePort()
    const env: Record<string, string> = {
      ...Object.fromEntries(
        Object.entries(process.env).filter(
          (e): e is [string, string] => e[1] !== undefined && e[0] !== "DATABASE_URL",
        ),
      ),
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      CAPTCHA: "off",
      LOG_LEVEL: "Warn",
    }
    // The shell prints the server's pid, then turns into `sleep`: a parent that never reaps.
    const parent = spawn(
      "sh",
      ["-c", `"$0" "$1" & echo "server-pid $!"; exec sleep 600`, nodeBinary, serverEntry],
      {
        cwd: repoRoot,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    )
    children.push(parent)
    let output = ""
    parent.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8")
    })
    parent.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8")
    })
    await waitFor("the server to listen", () => output.includes("casino: listening on"), 60_000)
    const pid = Number(/server-pid (\d+)/.exec(output)?.[1])
    expect(Number.isInteger(pid)).toBe(true)
    const lock = parseLock(readFileSync(join(dataDir, "pglite.lock"), "utf8"))
    expect(lock).toEqual({ pid, startTime: procStat(pid)?.startTime })

    process.kill(pid, "SIGKILL")
    await waitFor("the server to become a zombie", () => procStat(pid)?.state === "Z")
    // The situation of the bug: the pid still "exists" for signal 0, and its lock is still there.
    expect(() => process.kill(pid, 0)).not.toThrow()
    expect(parseLock(readFileSync(join(dataDir, "pglite.lock"), "utf8"))?.pid).toBe(pid)

    const restarted = await startServerProcess({ dataDir, env: { CAPTCHA: "off" }, nice: 10 })
    try {
      const res = await fetch(`${restarted.url}/ip-service/api/v1/user/currentIp`)
      expect(res.status).toBe(200)
      expect(procStat(pid)?.state, "the old server is still a zombie while the new one runs").toBe("Z")
      expect(parseLock(readFileSync(join(dataDir, "pglite.lock"), "utf8"))?.pid).toBe(restarted.pid)
    } finally {
      await restarted.stop()
    }
    // Killing `sleep` hands the zombie to init (or the nearest subreaper), which reaps it.
    parent.kill("SIGKILL")
  }, 120_000)
})
