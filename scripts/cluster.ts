/**
 * `npm run cluster [-- --nodes 3 --port 8080]`: the casino as several nodes behind HAProxy on this
 * machine (compose/cluster.ts): the player app and the back office at http://localhost:8080, each
 * request on whichever node the proxy chooses. PostgreSQL is required: DATABASE_URL, or a database
 * `casino_cluster` created on the local server (postgres://postgres@127.0.0.1:5432). The nodes share
 * DATA_DIR (`.data/cluster`). Ctrl-C drains every node, then stops the proxy and the sandboxes.
 */
import { parseArgs } from "node:util"
import { startCluster } from "../compose/cluster.ts"
import { runSql, withDatabase } from "../lib/db/adminSql.ts"
import { ConfigError } from "../lib/env.ts"
import { runMain } from "../lib/main.ts"

const ADMIN_URL = process.env.CLUSTER_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

interface ClusterArgs {
  readonly nodes: number
  readonly port: number
}

const readArgs = (): ClusterArgs => {
  const { values } = parseArgs({
    options: { nodes: { type: "string", default: "3" }, port: { type: "string", default: "8080" } },
  })
  const nodes = Number(values.nodes)
  const port = Number(values.port)
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 16)
    throw new ConfigError(`--nodes ${values.nodes} is invalid: expected 1…16`)
  if (!Number.isInteger(port) || port < 1 || port > 65_000)
    throw new ConfigError(`--port ${values.port} is invalid: expected 1…65000`)
  return { nodes, port }
}

/** DATABASE_URL, or `casino_cluster` on the local server, created when missing. */
const database = async (): Promise<string> => {
  const given = process.env.DATABASE_URL?.trim()
  if (given !== undefined && given !== "") return given
  const exists = await runSql(ADMIN_URL, "SELECT 1 FROM pg_database WHERE datname = 'casino_cluster'")
  if (exists.length === 0) await runSql(ADMIN_URL, "CREATE DATABASE casino_cluster")
  return withDatabase(ADMIN_URL, "casino_cluster")
}

runMain({
  name: "cluster",
  config: readArgs,
  start: async (args) =>
    startCluster({
      nodes: args.nodes,
      port: args.port,
      databaseUrl: await database(),
      dataDir: process.env.DATA_DIR ?? ".data/cluster",
      log: (line) => console.log(line),
    }),
  describe: (args, cluster) => [
    `${cluster.url} — HAProxy in front of ${args.nodes} casino nodes (${cluster.nodes.map((n) => `${n.name} :${n.port}`).join(", ")})`,
    `the proxy's configuration: ${cluster.haproxyConfigFile} (from compose/cluster/haproxy.cfg)`,
    "each node: /health (alive), /ready (what the proxy checks), /metrics; Ctrl-C drains them all",
  ],
  stopBoundMs: () => 60_000,
})
