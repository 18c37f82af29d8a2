/**
 * Players' traffic through a cluster's proxy (compose/cluster.ts), for the cluster test and
 * `npm run bench:cluster`: each client registers, then loops — sign in, read the profile, check the
 * session — and some players keep their push stream (`/api/events`) open the way a browser's
 * EventSource does: when it ends, it opens it again. Requests are counted per phase (the caller
 * names phases around what it does to the nodes); a stream that ends is counted as told to
 * reconnect (its last words were the drain's `retry:`) or cut (it just stopped: a killed node).
 */
import { request as httpRequest } from "node:http"
import { performance } from "node:perf_hooks"
import { cookieFrom, keepAliveAgent, send } from "./http.ts"

const USER = "/user-service/api/v1"
const PASSWORD = "cluster load password 1"
const json = { "content-type": "application/json" }

export interface PhaseFigures {
  readonly name: string
  ok: number
  failed: number
  readonly latencies: Array<number>
  readonly errors: Map<string, number>
  /** Streams that ended after the drain's reconnect hint / without it. */
  streamsToldToReconnect: number
  streamsCut: number
  seconds: number
}

export interface ClusterLoad {
  /** Runs `action` as a phase named `name` under the traffic; its figures are kept. */
  readonly phase: (name: string, action: () => Promise<void>) => Promise<PhaseFigures>
  /** Stops the traffic; then every acknowledged registration is signed in once more. */
  readonly stop: () => Promise<{ readonly acknowledged: number; readonly notSigningIn: number }>
}

const newPhase = (name: string): PhaseFigures => ({
  name,
  ok: 0,
  failed: 0,
  latencies: [],
  errors: new Map(),
  streamsToldToReconnect: 0,
  streamsCut: 0,
  seconds: 0,
})

export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0)
}

export const startClusterLoad = (
  url: string,
  options: { readonly clients: number; readonly streams: number },
): ClusterLoad => {
  const agent = keepAliveAgent(options.clients * 2)
  const acknowledged: Array<string> = []
  let current = newPhase("warm-up")
  let stopping = false
  const openStreams = new Set<{ destroy: () => void }>()
  const count = (here: PhaseFigures, what: string) => {
    here.failed++
    here.errors.set(what, (here.errors.get(what) ?? 0) + 1)
  }
  const call = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
    const started = performance.now()
    const here = current
    try {
      const res = await send(url, agent, { method, path, headers, body }, 15_000)
      here.latencies.push(performance.now() - started)
      if (res.status >= 500) count(here, `HTTP ${res.status}`)
      else here.ok++
      return res
    } catch (error) {
      count(here, (error as { code?: string }).code ?? String(error).slice(0, 40))
      return undefined
    }
  }
  const register = async (email: string) => {
    const body = JSON.stringify({
      email,
      password: PASSWORD,
      fullName: "Cluster Player",
      terms: true,
      language: "en",
      currency: "EUR",
      captcha: "",
    })
    const res = await call("POST", `${USER}/registration`, json, body)
    if (res?.status === 200) acknowledged.push(email)
    return res
  }
  const signIn = (email: string) =>
    call("POST", `${USER}/signin`, json, JSON.stringify({ email, password: PASSWORD, captcha: "" }))

  const client = async (id: number) => {
    for (let n = 0; !stopping; n++) {
      const email = `cluster.${id}.${n}.${Date.now()}@example.com`
      await register(email)
      for (let k = 0; k < 5 && !stopping; k++) {
        const signin = await signIn(email)
        const cookie = signin === undefined ? undefined : cookieFrom(signin, "casino_session")
        if (cookie === undefined) continue
        await call("GET", "/profile-service/api/v1/profile", { cookie })
        await call("POST", `${USER}/isAuthenticated`, { cookie })
      }
    }
  }

  /** One stream read to its end: whether it ended with the drain's hint. */
  const readStream = (cookie: string): Promise<"reconnect" | "cut" | "refused"> =>
    new Promise((resolve) => {
      const target = new URL("/api/events", url)
      const req = httpRequest(target, { headers: { cookie, accept: "text/event-stream" } }, (res) => {
        if (res.statusCode !== 200) {
          res.resume()
          return resolve("refused")
        }
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => {
          text = (text + chunk).slice(-200)
        })
        const ended = (how: string) => {
          const told = text.includes("retry: 500")
          if (!told && process.env.CLUSTER_LOAD_DEBUG === "1")
            console.log(`stream cut (${how}): ${JSON.stringify(text)}`)
          resolve(told ? "reconnect" : "cut")
        }
        res.on("end", () => ended("end"))
        res.on("error", (e) => ended(String(e)))
      })
      req.on("error", (e) => {
        if (process.env.CLUSTER_LOAD_DEBUG === "1") console.log(`stream request failed: ${String(e)}`)
        resolve("cut")
      })
      req.on("close", () => openStreams.delete(req))
      openStreams.add(req)
      req.end()
    })

  const streamer = async (id: number) => {
    const email = `cluster.stream.${id}.${Date.now()}@example.com`
    while (!stopping && (await register(email))?.status !== 200) await new Promise((r) => setTimeout(r, 500))
    let cookie: string | undefined
    while (!stopping) {
      if (cookie === undefined) {
        const signin = await signIn(email)
        cookie = signin === undefined ? undefined : cookieFrom(signin, "casino_session")
        if (cookie === undefined) {
          await new Promise((r) => setTimeout(r, 500))
          continue
        }
      }
      const here = current
      const ended = await readStream(cookie)
      if (stopping) break
      if (ended === "reconnect") here.streamsToldToReconnect++
      else if (ended === "cut") here.streamsCut++
      // EventSource waits `retry` (500 ms) before it opens the stream again.
      await new Promise((r) => setTimeout(r, 500))
    }
  }

  const running = [
    ...Array.from({ length: options.clients }, (_, i) => client(i)),
    ...Array.from({ length: options.streams }, (_, i) => streamer(i)),
  ]
  return {
    phase: async (name, action) => {
      const figures = newPhase(name)
      current = figures
      const started = performance.now()
      await action()
      figures.seconds = (performance.now() - started) / 1000
      current = newPhase("between phases")
      return figures
    },
    stop: async () => {
      stopping = true
      for (const stream of openStreams) stream.destroy()
      await Promise.all(running)
      let notSigningIn = 0
      for (const email of acknowledged) if ((await signIn(email))?.status !== 200) notSigningIn++
      agent.destroy()
      return { acknowledged: acknowledged.length, notSigningIn }
    },
  }
}
