/** Reading a test server's `GET /metrics` (the metrics and ledger-check suites). */
import type { TestServer } from "./harness.ts"

export const scrape = async (server: TestServer, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}/metrics`, { headers })
  return { status: res.status, contentType: res.headers.get("content-type"), text: await res.text() }
}

/** The value of one exact series line (`name{labels} value`), or undefined when absent. */
export const seriesValue = (text: string, series: string): number | undefined => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}
