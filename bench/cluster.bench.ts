/**
 * The cluster under players' traffic (compose/cluster.ts: HAProxy in front of casino nodes on one
 * PostgreSQL), through the proxy (tests/support/clusterLoad.ts: players who register, sign in, read
 * their profile, and keep their push stream open), in phases:
 *   1. steady with 1 node in the proxy's rotation, then with N (throughput and p50/p99 of each — on
 *      this 2-core machine the point is correctness and the ratio, not absolute speed);
 *   2. a rolling restart of every node by SIGTERM, one at a time;
 *   3. kill -9 of one node, then its restart.
 * Prints requests and failures per phase, the streams told to reconnect or cut, and whether every
 * acknowledged registration signs in afterwards. A measurement: it asserts nothing about speed.
 *
 *   npm run bench:cluster                          # 3 nodes, 12 clients, 4 streams, 15 s phases
 *   npm run bench:cluster -- --nodes=2 --clients=8 --seconds=10
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Cluster, startCluster } from "../compose/cluster.ts"
import { runSql, withDatabase } from "../lib/db/adminSql.ts"
import { type PhaseFigures, percentile, startClusterLoad } from "../tests/support/clusterLoad.ts"

const flag = (name: string): string | undefined =>
  process.argv
    .slice(2)
    .find((a) => a.startsWith(`--${name}=`))
    ?.split("=")[1]
const NODES = Number(flag("nodes") ?? 3)
const CLIENTS = Number(flag("clients") ?? 12)
const STREAMS = Number(flag("streams") ?? 4)
const SECONDS = Number(flag("seconds") ?? 15)
const ADMIN = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const name = `casino_cluster_bench_${Date.now()}`
await runSql(ADMIN, `CREATE DATABASE ${name}`)
const dataDir = await mkdtemp(join(tmpdir(), "casino-cluster-"))
let cluster: Cluster | undefined
try {
  cluster = await startCluster({
    nodes: NODES,
    port: 18_480,
    databaseUrl: withDatabase(ADMIN, name),
    dataDir,
    env: { ...process.env, CAPTCHA: "off", RATE_LIMIT_SCALE: "1000", LOG_LEVEL: "Warn" },
  })
  const c = cluster
  const load = startClusterLoad(c.url, { clients: CLIENTS, streams: STREAMS })
  const phases: Array<PhaseFigures> = []
  // One node in rotation (the others stopped), then all of them.
  const others = c.nodes.slice(1)
  await Promise.all(others.map((n) => n.stop("SIGTERM")))
  await pause(3_000)
  phases.push(await load.phase("1 node", () => pause(SECONDS * 1000)))
  await Promise.all(others.map((n) => n.start()))
  await pause(3_000)
  phases.push(await load.phase(`${NODES} nodes`, () => pause(SECONDS * 1000)))
  phases.push(await load.phase("rolling restart (SIGTERM, one node at a time)", () => c.rollingRestart()))
  phases.push(
    await load.phase("kill -9 of one node, then its restart", async () => {
      await pause(2_000)
      await c.nodes[0]?.stop("SIGKILL")
      await pause(5_000)
      await c.nodes[0]?.start()
      await pause(3_000)
    }),
  )
  const after = await load.stop()
  console.log(
    `\ncluster bench: ${NODES} nodes behind HAProxy, ${CLIENTS} clients, ${STREAMS} push streams, ${SECONDS} s steady phases`,
  )
  console.log(
    "| phase | requests | failed | req/s | p50 ms | p99 ms | failures | streams told to reconnect / cut |",
  )
  console.log("|---|---|---|---|---|---|---|---|")
  for (const p of phases) {
    const total = p.ok + p.failed
    const failures = [...p.errors].map(([k, v]) => `${k} ×${v}`).join(", ") || "—"
    console.log(
      `| ${p.name} | ${total} | ${p.failed} | ${(total / p.seconds).toFixed(0)} | ${percentile(p.latencies, 50).toFixed(1)} | ${percentile(p.latencies, 99).toFixed(1)} | ${failures} | ${p.streamsToldToReconnect} / ${p.streamsCut} |`,
    )
  }
  console.log(
    `\nacknowledged registrations: ${after.acknowledged}; not signing in afterwards: ${after.notSigningIn}`,
  )
} finally {
  await cluster?.close()
  await runSql(ADMIN, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined)
  await rm(dataDir, { recursive: true, force: true })
}
