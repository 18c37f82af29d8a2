/**
 * The cluster as `npm run cluster` starts it (compose/cluster.ts): two casino nodes on one
 * PostgreSQL behind HAProxy (installed from Debian's packages where missing), players' traffic
 * through the proxy (tests/support/clusterLoad.ts: register, sign in, read the profile, push
 * streams open). A smaller load than `npm run bench:cluster`, the same events:
 * - a rolling restart by SIGTERM, one node at a time, fails no request, and the push streams of a
 *   draining node are told to reconnect;
 * - a kill -9 of one node fails at most the requests in flight on it;
 * - every registration the cluster acknowledged signs in afterwards.
 * Backend: PostgreSQL only — several nodes on one database is PostgreSQL's deployment.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type Cluster, startCluster } from "../../compose/cluster.ts"
import { runSql, withDatabase } from "../../lib/db/adminSql.ts"
import { type ClusterLoad, startClusterLoad } from "../support/clusterLoad.ts"
import { freePort } from "../support/server.ts"
import { adminDatabaseUrl } from "../support/templates.ts"
import { describeOn } from "./harness.ts"

const CLIENTS = 4
const STREAMS = 2

describeOn("postgres", "two nodes behind HAProxy", () => {
  const name = `casino_cluster_test_${Date.now()}`
  let dataDir: string
  let cluster: Cluster | undefined
  let load: ClusterLoad
  beforeAll(async () => {
    await runSql(adminDatabaseUrl, `CREATE DATABASE ${name}`)
    dataDir = await mkdtemp(join(tmpdir(), "casino-cluster-"))
    // Every port the kernel's choice (other test files run servers meanwhile).
    cluster = await startCluster({
      nodes: 2,
      port: await freePort(),
      nodePorts: [await freePort(), await freePort()],
      databaseUrl: withDatabase(adminDatabaseUrl, name),
      dataDir,
      env: {
        ...process.env,
        CAPTCHA: "off",
        RATE_LIMIT_SCALE: "1000",
        LOG_LEVEL: "Warn",
        NODE_ENV: "test",
        SANDBOX_PORTS: "auto",
      },
    })
    load = startClusterLoad(cluster.url, { clients: CLIENTS, streams: STREAMS })
  })
  afterAll(async () => {
    await cluster?.close()
    await runSql(adminDatabaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined)
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
  })

  it("a rolling restart by SIGTERM fails no request; draining nodes tell their streams to reconnect", async () => {
    const c = cluster as Cluster
    const phase = await load.phase("rolling restart", () => c.rollingRestart())
    expect(phase.ok, "traffic flowed while the nodes restarted").toBeGreaterThan(50)
    expect([...phase.errors], "failed requests").toEqual([])
    expect(
      phase.streamsToldToReconnect,
      "streams ended with the drain's reconnect hint",
    ).toBeGreaterThanOrEqual(1)
  })

  it("a kill -9 fails at most what was in flight on that node; every acknowledged registration signs in", async () => {
    const c = cluster as Cluster
    const victim = c.nodes[0]
    if (victim === undefined) throw new Error("no node")
    const phase = await load.phase("kill -9", async () => {
      await victim.stop("SIGKILL")
      await victim.start()
    })
    // Each client has one request in flight at a time.
    expect(phase.failed, `failed: ${JSON.stringify([...phase.errors])}`).toBeLessThanOrEqual(CLIENTS)
    const after = await load.stop()
    expect(after.acknowledged).toBeGreaterThan(0)
    expect(after.notSigningIn).toBe(0)
  })
})
