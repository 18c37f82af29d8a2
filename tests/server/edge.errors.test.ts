/**
 * Every 500 is logged with its cause and answered `{ "error": "InternalError", "message" }`, which
 * names nothing of the cause. The product has no route that fails on purpose, so this test serves
 * routes of its own (a defect, a thrown exception, an undeclared failure, an empty 500) through the
 * real edge middleware on the real Node server factory, and records the log lines. No database is
 * involved, so it runs once, not per backend.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Effect, Exit, Layer, Logger, Scope } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadConfig } from "../../server/config.ts"
import { edgeMiddleware, internalErrorBody } from "../../server/security/middleware.ts"
import { createNodeServer } from "../../server/security/nodeServer.ts"
import { makeEndpointIndex } from "../../server/static/endpoints.ts"

const SECRET = "db password is hunter2"

describe("500 answers", () => {
  const logs: Array<{ level: string; text: string }> = []
  let url = ""
  let scope: Scope.Closeable | undefined

  beforeAll(async () => {
    const config = loadConfig({ CAPTCHA_SECRET: "x".repeat(32), HOST: "127.0.0.1", PORT: "0" })
    const TestRoutes = Layer.mergeAll(
      HttpRouter.add("GET", "/test/defect", Effect.die(new Error(`defect: ${SECRET}`))),
      HttpRouter.add(
        "GET",
        "/test/throw",
        Effect.sync((): HttpServerResponse.HttpServerResponse => {
          throw new TypeError(`thrown: ${SECRET}`)
        }),
      ),
      HttpRouter.add("GET", "/test/failure", Effect.fail(new Error(`failure: ${SECRET}`))),
      HttpRouter.add("GET", "/test/empty-500", Effect.succeed(HttpServerResponse.empty({ status: 500 }))),
      HttpRouter.add("GET", "/test/ok", Effect.succeed(HttpServerResponse.text("fine"))),
      edgeMiddleware(config, makeEndpointIndex([])),
    )
    const recorder = Logger.make(({ logLevel, message, cause }) => {
      const parts = Array.isArray(message) ? message : [message]
      logs.push({ level: logLevel, text: `${parts.map(String).join(" ")} ${String(cause)}` })
    })
    const layer = HttpRouter.serve(TestRoutes, { disableLogger: true, disableListenLog: true }).pipe(
      Layer.provideMerge(NodeHttpServer.layer(createNodeServer, { port: 0, host: "127.0.0.1" })),
      Layer.provide(Logger.layer([recorder])),
    )
    const s = Scope.makeUnsafe()
    scope = s
    const built = await Effect.runPromise(Layer.buildWithScope(layer, s))
    const address = Context.get(built, HttpServer.HttpServer).address
    if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
    url = `http://127.0.0.1:${address.port}`
  })
  afterAll(async () => {
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  for (const path of ["/test/defect", "/test/throw", "/test/failure", "/test/empty-500"]) {
    it(`${path}: JSON InternalError without the cause, and an error log line with it`, async () => {
      const before = logs.length
      const res = await fetch(url + path)
      expect(res.status).toBe(500)
      expect(res.headers.get("content-type")).toMatch(/^application\/json/)
      expect(res.headers.get("cache-control")).toBe("no-store")
      expect(res.headers.get("x-content-type-options")).toBe("nosniff")
      const text = await res.text()
      expect(JSON.parse(text)).toEqual(internalErrorBody)
      expect(text).not.toContain("hunter2")
      const errors = logs.slice(before).filter((l) => l.level === "Error")
      expect(errors.length, `log lines: ${JSON.stringify(logs.slice(before))}`).toBeGreaterThan(0)
      const logged = errors.map((l) => l.text).join("\n")
      expect(logged).toContain(path)
      // The cause is in the log (except for the empty 500, which has none to give).
      if (path !== "/test/empty-500") expect(logged).toContain(SECRET)
    })
  }

  it("an answer that succeeds is not touched, and nothing is logged as an error", async () => {
    const before = logs.length
    const res = await fetch(`${url}/test/ok`)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe("fine")
    expect(logs.slice(before).filter((l) => l.level === "Error")).toEqual([])
  })
})
