/**
 * Every metric the casino exposes at `GET /metrics` (./http.ts), in ONE registry of its own — not
 * prom-client's global one, so a test process that starts several servers, or imports another
 * library that registers there, never clashes. Process-wide on purpose: the Node process is what
 * the default metrics describe, and one process serves one casino.
 *
 * Labels are bounded: `route` is a route TEMPLATE (`/profile-service/api/v1/profile/session/:id`),
 * never the raw path, so ids and typed-in garbage cannot grow the series. No SQL here.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client"

export const registry = new Registry()

// CPU, memory, heap, event-loop lag, GC, handles: what a Node service's dashboards expect.
collectDefaultMetrics({ register: registry })

const httpRequests = new Counter({
  name: "http_requests_total",
  help: "Requests answered, by method, route template and status.",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
})

const httpDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time from the request reaching the edge to its answer's head, by method and route template.",
  labelNames: ["method", "route"] as const,
  // prom-client's defaults (5 ms … 10 s): the API answers in ms, a slow database in seconds.
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
})

const sseStreams = new Gauge({
  name: "sse_streams_open",
  help: "Server-sent event streams open now (players' pushes, chat, the back office's inbox).",
  registers: [registry],
})

// The label is `job_name`, not `job`: Prometheus gives every scraped series its own `job` label.
const jobRuns = new Counter({
  name: "background_job_runs_total",
  help: "Rounds of a background job run on this node (it held the job's lease), by outcome.",
  labelNames: ["job_name", "outcome"] as const,
  registers: [registry],
})

const jobDuration = new Histogram({
  name: "background_job_duration_seconds",
  help: "How long a background job's round took on this node.",
  labelNames: ["job_name"] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
  registers: [registry],
})

const jobLastSuccess = new Gauge({
  name: "background_job_last_success_timestamp_seconds",
  help: "When a round of the job last succeeded on this node (Unix seconds): the 'job not run' alert reads its max over the cluster.",
  labelNames: ["job_name"] as const,
  registers: [registry],
})

const jobLeader = new Gauge({
  name: "background_job_lease_held",
  help: "1 while this node holds the job's lease (runs it for the cluster), 0 otherwise.",
  labelNames: ["job_name"] as const,
  registers: [registry],
})

/** One round of a background job, run by the lease holder. */
export const observeJobRound = (job: string, ok: boolean, seconds: number): void => {
  jobRuns.inc({ job_name: job, outcome: ok ? "ok" : "failed" })
  jobDuration.observe({ job_name: job }, seconds)
  if (ok) jobLastSuccess.set({ job_name: job }, Date.now() / 1000)
}

/** Whether this node holds a job's lease now. */
export const observeJobLease = (job: string, held: boolean): void => {
  jobLeader.set({ job_name: job }, held ? 1 : 0)
}

const ledgerCheckClean = new Gauge({
  name: "ledger_check_clean",
  help: "1 when the last ledger check (every LEDGER_CHECK_MINUTES, on the node holding its lease) found the invariants hold, 0 when it did not.",
  registers: [registry],
})

const ledgerCheckProblems = new Gauge({
  name: "ledger_check_problems",
  help: "What the last ledger check found wrong: unbalanced or empty transactions, currency mismatches, balance drift, negative player balances (each counted, up to 100 of a kind).",
  registers: [registry],
})

const ledgerCheckLastRun = new Gauge({
  name: "ledger_check_last_run_timestamp_seconds",
  help: "When the ledger was last checked on this node (Unix seconds).",
  registers: [registry],
})

/** One ledger check's outcome. */
export const observeLedgerCheck = (clean: boolean, problems: number): void => {
  ledgerCheckClean.set(clean ? 1 : 0)
  ledgerCheckProblems.set(problems)
  ledgerCheckLastRun.set(Date.now() / 1000)
}

/** Methods as label values: the usual ones as sent, anything else one bucket (clients choose them). */
const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/** One answered request (the edge middleware's response hook calls this once per request). */
export const observeRequest = (method: string, route: string, status: number, seconds: number): void => {
  const m = knownMethods.has(method) ? method : "OTHER"
  httpRequests.inc({ method: m, route, status: String(status) })
  httpDuration.observe({ method: m, route }, seconds)
}

/** A stream opened; call the returned function once when it ends. */
export const streamOpened = (): (() => void) => {
  sseStreams.inc()
  let closed = false
  return () => {
    if (closed) return
    closed = true
    sseStreams.dec()
  }
}

/** The exposition text and its content type (`text/plain; version=0.0.4; charset=utf-8`). */
export const exposition = async (): Promise<{ readonly body: string; readonly contentType: string }> => ({
  body: await registry.metrics(),
  contentType: registry.contentType,
})
