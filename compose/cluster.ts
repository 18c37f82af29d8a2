/**
 * The casino as a cluster on this machine: N casino nodes (`node server/main.ts`, each its own
 * process and port) on one PostgreSQL, HAProxy in front (compose/cluster/haproxy.cfg, the file an
 * operator uses), and the outside parties' sandboxes once beside them, told that the casino is the
 * proxy's address (their webhooks and wallet calls reach any node). `npm run cluster`
 * (scripts/cluster.ts), the cluster test and `npm run bench:cluster` start it.
 *
 * The nodes share one DATA_DIR: its persistent secrets (the captcha's, the operator CLI's, the back
 * office's TOTP key), the CDN files and the mail outbox are the same for every node. Nodes start one
 * after another (the first applies the migrations). Their background jobs run once for the cluster
 * (server/lifecycle/Jobs.ts).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { startParties } from "./local.ts"

type Env = Readonly<Record<string, string | undefined>>

const repoRoot = fileURLToPath(new URL("..", import.meta.url))
export const haproxyTemplate = join(repoRoot, "compose/cluster/haproxy.cfg")
const nodeBinary = join(repoRoot, "node_modules/.bin/node")

/** HAProxy's path, installed from Debian's packages where missing (as .ci/run installs Chromium). */
export const ensureHaproxy = (log: (line: string) => void = () => undefined): string => {
  const found = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].find((p) => existsSync(p))
  if (found !== undefined) return found
  log("HAProxy is missing: installing Debian's package (apt-get install -y haproxy)")
  try {
    execFileSync("apt-get", ["install", "-y", "haproxy"], { stdio: "inherit" })
  } catch {
    // Stale or missing package lists on a fresh machine: read them, then try once more.
    execFileSync("apt-get", ["update"], { stdio: "inherit" })
    execFileSync("apt-get", ["install", "-y", "haproxy"], { stdio: "inherit" })
  }
  const installed = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].find((p) => existsSync(p))
  if (installed === undefined) throw new Error("apt-get install haproxy did not install /usr/sbin/haproxy")
  return installed
}

/** The template with its `server` lines replaced by one per node. */
export const haproxyConfig = (nodes: ReadonlyArray<{ name: string; port: number }>): string => {
  const template = readFileSync(haproxyTemplate, "utf8")
  const kept = template.split("\n").filter((line) => !/^\s+server node\d+ /.test(line))
  return `${kept.join("\n").trimEnd()}\n${nodes.map((n) => `    server ${n.name} 127.0.0.1:${n.port}`).join("\n")}\n`
}

export interface ClusterOptions {
  /** Casino nodes (3). */
  readonly nodes?: number
  /** The proxy's port (8080); the parties take the next five, node i listens on port + 20 + i. */
  readonly port?: number
  /** The nodes' ports instead (tests: ports the kernel chose; with SANDBOX_PORTS=auto for the parties). */
  readonly nodePorts?: ReadonlyArray<number>
  /** The shared database; required (a cluster is PostgreSQL's deployment). */
  readonly databaseUrl: string
  /** The nodes' shared DATA_DIR; HAProxy's generated configuration is written there too. */
  readonly dataDir: string
  /** The environment the nodes and parties start from (LOG_LEVEL, rates, sandboxes' switches…). */
  readonly env?: Env
  /** Each node's and HAProxy's output lines, prefixed by their name. */
  readonly log?: (line: string) => void
}

export interface ClusterNode {
  readonly name: string
  readonly port: number
  readonly url: string
  /** Whether its process runs. */
  readonly running: () => boolean
  /** Starts it (again) and resolves once its `/ready` answers 200. */
  readonly start: () => Promise<void>
  /** Sends the signal (SIGTERM: a drain) and resolves with the exit code once it is gone. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

export interface Cluster {
  /** Where players reach it: the proxy. */
  readonly url: string
  readonly nodes: ReadonlyArray<ClusterNode>
  readonly haproxyConfigFile: string
  /** Every node in turn: SIGTERM, wait for its exit, start it again, wait until it is ready. */
  readonly rollingRestart: () => Promise<void>
  /** The nodes (drained), the proxy, the parties. */
  readonly close: () => Promise<void>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `url` until it answers 200, while `alive()` holds, within `timeoutMs`. */
const waitFor200 = async (url: string, alive: () => boolean, timeoutMs: number): Promise<void> => {
  const until = Date.now() + timeoutMs
  for (;;) {
    if (!alive()) throw new Error(`${url}: its process exited before it was ready`)
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      await res.body?.cancel()
      if (res.status === 200) return
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`)
    await sleep(250)
  }
}

const pipeLines = (child: ChildProcess, prefix: string, log: (line: string) => void): void => {
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = ""
    stream?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8")
      const lines = buffer.split("\n")
      buffer = lines.pop() ?? ""
      for (const line of lines) if (line !== "") log(`${prefix} ${line}`)
    })
  }
}

export const startCluster = async (options: ClusterOptions): Promise<Cluster> => {
  const log = options.log ?? (() => undefined)
  const count = options.nodes ?? 3
  const port = options.port ?? 8080
  const env = options.env ?? process.env
  const haproxy = ensureHaproxy(log)
  mkdirSync(options.dataDir, { recursive: true })
  const proxyUrl = `http://127.0.0.1:${port}`
  // The parties are told the casino is the proxy: webhooks, wallet calls and callbacks reach any node.
  const parties = await startParties({
    ...env,
    PORT: String(port),
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${port}`,
    INTERNAL_URL: proxyUrl,
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
  })
  const children = new Set<ChildProcess>()
  const nodes: Array<ClusterNode> = []
  try {
    for (let i = 1; i <= count; i++) {
      const name = `node${i}`
      const nodePort = options.nodePorts?.[i - 1] ?? port + 20 + i
      const nodeEnv: Record<string, string> = Object.fromEntries(
        Object.entries({
          ...parties.casinoEnv,
          PORT: String(nodePort),
          HOST: "127.0.0.1",
          // One hop: HAProxy's X-Forwarded-For is the player's address.
          TRUST_PROXY: env.TRUST_PROXY ?? "1",
          DRAIN_SETTLE_SECONDS: env.DRAIN_SETTLE_SECONDS ?? "2",
          // One JSON object per line, each with its request id: what a log shipper reads.
          LOG_FORMAT: env.LOG_FORMAT ?? "json",
          NODE_NAME: name,
        }).filter((e): e is [string, string] => e[1] !== undefined),
      )
      let child: ChildProcess | undefined
      const running = () => child !== undefined && child.exitCode === null && child.signalCode === null
      const node: ClusterNode = {
        name,
        port: nodePort,
        url: `http://127.0.0.1:${nodePort}`,
        running,
        start: async () => {
          if (running()) return
          const started = spawn(nodeBinary, [join(repoRoot, "server/main.ts")], {
            cwd: repoRoot,
            env: nodeEnv,
            stdio: ["ignore", "pipe", "pipe"],
          })
          child = started
          children.add(started)
          started.once("exit", () => children.delete(started))
          pipeLines(started, `[${name}]`, log)
          await waitFor200(`${node.url}/ready`, running, 120_000)
        },
        stop: (signal = "SIGTERM") =>
          new Promise((resolve) => {
            const current = child
            if (current === undefined || !running()) return resolve(current?.exitCode ?? null)
            current.once("exit", (code) => resolve(code))
            current.kill(signal)
          }),
      }
      nodes.push(node)
      // One after another: the first applies the migrations, the others find them done.
      await node.start()
    }
    const configFile = join(options.dataDir, "haproxy.cfg")
    writeFileSync(configFile, haproxyConfig(nodes))
    const proxy = spawn(haproxy, ["-db", "-f", configFile], {
      env: { ...process.env, CLUSTER_BIND: `${env.HOST ?? "0.0.0.0"}:${port}` },
      stdio: ["ignore", "pipe", "pipe"],
    })
    children.add(proxy)
    pipeLines(proxy, "[haproxy]", log)
    await waitFor200(`${proxyUrl}/ready`, () => proxy.exitCode === null, 30_000)
    let closing: Promise<void> | undefined
    return {
      url: proxyUrl,
      nodes,
      haproxyConfigFile: configFile,
      rollingRestart: async () => {
        for (const node of nodes) {
          await node.stop("SIGTERM")
          await node.start()
          // Back in the proxy's rotation (two checks) before the next one goes.
          await sleep(2_500)
        }
      },
      close: () => {
        closing ??= (async () => {
          await Promise.all(nodes.map((n) => n.stop("SIGTERM")))
          await new Promise<void>((resolve) => {
            if (proxy.exitCode !== null) return resolve()
            proxy.once("exit", () => resolve())
            proxy.kill("SIGTERM")
          })
          await parties.close()
        })()
        return closing
      },
    }
  } catch (error) {
    for (const c of children) c.kill("SIGKILL")
    await parties.close()
    throw error
  }
}
