/**
 * Odd requests get clean JSON answers, never a reset connection: 414 for long URLs and 431 for
 * large headers (in the edge, the connection stays usable), 431 for heads past Node's parser limit
 * and 400 for unparseable requests (the clientError answer, with a lingering close so the answer
 * arrives even while the client is still sending); 404 for unknown paths under every API prefix,
 * 405 + Allow for known paths with another method (the contract's endpoints, read by reflection,
 * and the not-built table), 501 for every spec endpoint not built yet.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { maxHeaderBytes, maxUrlBytes } from "../../server/security/nodeServer.ts"
import {
  implementedEndpoints,
  makeEndpointIndex,
  matchesPattern,
  notBuiltEndpoints,
} from "../../server/static/endpoints.ts"
import { jsonOf, parseRawResponse, raw, tcpExchange } from "./edge-support.ts"
import { describeOn, type TestServer } from "./harness.ts"

const concrete = (pattern: string) => pattern.replace(/:[A-Za-z]+/g, "EUR")

const expectJsonError = (body: unknown, error: string) => {
  expect(body).toMatchObject({ error })
  expect(typeof (body as { message?: unknown }).message).toBe("string")
}

describe("the endpoint index", () => {
  it("reads the implemented endpoints from the contract", () => {
    const implemented = implementedEndpoints()
    expect(implemented).toContainEqual({ method: "POST", path: "/user-service/api/v1/signin" })
    expect(implemented).toContainEqual({ method: "GET", path: "/ip-service/api/v1/user/currentIp" })
    expect(implemented).toContainEqual({ method: "GET", path: "/profile-service/api/v1/profile" })
    expect(implemented).toContainEqual({ method: "POST", path: "/api/error-logger" })
  })

  it("matches router patterns segment by segment", () => {
    expect(matchesPattern("/a/:id", "/a/1")).toBe(true)
    expect(matchesPattern("/a/:id", "/a/")).toBe(false)
    expect(matchesPattern("/a/:id", "/a/1/b")).toBe(false)
    expect(matchesPattern("/a", "/a/")).toBe(false)
    expect(matchesPattern("/cdn/*", "/cdn/x/y.json")).toBe(true)
  })

  it("no not-built row duplicates an implemented endpoint (a built capability must leave the table)", () => {
    const implemented = implementedEndpoints()
    const isStatic = (path: string) => !path.includes(":") && !path.includes("*")
    for (const row of notBuiltEndpoints) {
      // A static row beside a parameterised endpoint is not a duplicate: the router prefers the
      // static route (POST …/profile/crypto/deposit is the crypto deposit, not a `{gateway}` deposit).
      const clash = implemented.find(
        (e) =>
          e.method === row.method &&
          matchesPattern(e.path, concrete(row.path)) &&
          !(isStatic(row.path) && !isStatic(e.path)),
      )
      expect(clash, `${row.method} ${row.path}`).toBeUndefined()
    }
  })

  it("lists a path's methods with HEAD for GET", () => {
    const index = makeEndpointIndex([])
    expect(index.allowedMethods("/profile-service/api/v1/profile")).toEqual(["GET", "HEAD", "PUT"])
    expect(index.allowedMethods("/profile-service/api/v1/profile/currency")).toEqual([
      "GET",
      "HEAD",
      "POST",
      "PUT",
    ])
    expect(index.allowedMethods("/user-service/api/v1/signin")).toEqual(["POST"])
    expect(index.allowedMethods("/profile-service/api/v1/nothing")).toEqual([])
  })
})

describeOn("postgres", "odd requests, clean answers", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
  })
  afterAll(() => server?.close())

  it("414 JSON for URLs of 20, 40 and 60 KB, on a connection that stays usable", async () => {
    for (const size of [20_000, 40_000, 60_000]) {
      const res = await fetch(`${server.url}/${"a".repeat(size)}`)
      expect(res.status, `${size}`).toBe(414)
      expectJsonError(await res.json(), "UriTooLong")
      const query = await fetch(`${server.url}/ip-service/api/v1/user/currentIp?x=${"b".repeat(size)}`)
      expect(query.status, `${size} in the query`).toBe(414)
    }
    // Just under the limit is an ordinary request.
    const fits = await fetch(
      `${server.url}/ip-service/api/v1/user/currentIp?x=${"b".repeat(maxUrlBytes - 100)}`,
    )
    expect(fits.status).toBe(200)
    // fetch reuses its keep-alive connections: the server did not close them.
    const after = await fetch(`${server.url}/ip-service/api/v1/user/currentIp`)
    expect(after.status).toBe(200)
  })

  it("431 JSON for a 20 KB header (edge) and for a 100 KB header (past the parser limit)", async () => {
    const edge = await fetch(`${server.url}/ip-service/api/v1/user/currentIp`, {
      headers: { "x-big": "h".repeat(20_000) },
    })
    expect(edge.status).toBe(431)
    expectJsonError(await edge.json(), "RequestHeaderFieldsTooLarge")
    const huge = await raw(server.url, "/ip-service/api/v1/user/currentIp", {
      headers: { "x-big": "h".repeat(100_000) },
    })
    expect(huge.status).toBe(431)
    expect(huge.headers.connection).toBe("close")
    expectJsonError(jsonOf(huge), "RequestHeaderFieldsTooLarge")
  })

  it("heads past the parser limit, sent in one write, get their JSON answer instead of a reset", async () => {
    const requests = [
      `GET /${"a".repeat(200_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET /ip-service/api/v1/user/currentIp HTTP/1.1\r\nHost: x\r\nX-Big: ${"h".repeat(maxHeaderBytes * 3)}\r\n\r\n`,
      `POST /api/error-logger HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Big: ${"h".repeat(maxHeaderBytes * 2)}\r\nContent-Length: 2\r\n\r\n{}`,
    ]
    // Repeated: a reset depends on timing, so one lucky pass would prove little.
    for (let round = 0; round < 5; round++) {
      for (const request of requests) {
        const answer = parseRawResponse(await tcpExchange(server.url, request))
        expect(answer.status, request.slice(0, 40)).toBe(431)
        expect(answer.head).toMatch(/\r\nConnection: close/i)
        expectJsonError(JSON.parse(answer.body), "RequestHeaderFieldsTooLarge")
      }
    }
  })

  it("a body over the limit, uploaded slowly, gets its 413 and the connection stays usable (no reset)", async () => {
    // The client pauses mid-upload for longer than the platform's 500 ms close grace: the edge reads
    // the unread body to its end before answering, so the answer is not lost to a TCP reset.
    const { hostname, port } = new URL(server.url)
    const total = 1_100_000
    const socket = connect(Number(port), hostname)
    const received: Array<Buffer> = []
    const errors: Array<string> = []
    socket.on("data", (chunk: Buffer) => received.push(chunk))
    socket.on("error", (e) => errors.push(e.message))
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
    const head = `POST /user-service/api/v1/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`
    socket.write(head)
    socket.write(Buffer.alloc(300_000, 0x61))
    await new Promise((r) => setTimeout(r, 1_200))
    socket.write(Buffer.alloc(total - 300_000, 0x61))
    socket.write("GET /ip-service/api/v1/user/currentIp HTTP/1.1\r\nHost: x\r\n\r\n")
    // Both answers arrive on the one connection: the 413, then the next request's 200.
    for (;;) {
      const text = Buffer.concat(received).toString("latin1")
      if (/HTTP\/1\.1 413[\s\S]*HTTP\/1\.1 200/.test(text) || errors.length > 0 || socket.destroyed) break
      await new Promise((r) => setTimeout(r, 20))
    }
    socket.destroy()
    expect(errors).toEqual([])
    const text = Buffer.concat(received).toString("latin1")
    expect(text).toMatch(/^HTTP\/1\.1 413 /)
    expect(text).toMatch(/"error":"PayloadTooLarge"/)
    expect(text).toMatch(/HTTP\/1\.1 200 /)
  })

  it("400 JSON for a request that is not HTTP", async () => {
    for (const garbage of [
      "GARBAGE\r\n\r\n",
      "GET / HTTP/1.1\r\nHost x\r\n\r\n",
      "GET /\u0001 HTTP/1.1\r\n\r\n",
    ]) {
      const answer = parseRawResponse(await tcpExchange(server.url, garbage))
      expect(answer.status, JSON.stringify(garbage)).toBe(400)
      expectJsonError(JSON.parse(answer.body), "BadRequest")
    }
  })

  it("404 JSON for unknown paths under every API prefix, whatever the method", async () => {
    const paths = [
      "/profile-service/api/v1/nothing",
      "/profile-service/nothing",
      "/profile-service/api/v1/profile/nothing",
      "/profile-service/api/v1/profile/unknowngateway/refund",
      "/profile-service/api/v1/profile/jeton/Other/refund",
      "/user-service/api/v1/nothing",
      "/user-service/api/v1/signin/extra",
      "/game-aggregator-service/api/v1/nothing",
      "/game-aggregator-service/api/v1/category/other-games",
      "/ip-service/api/v1/nothing",
      "/api/nothing",
    ]
    for (const path of paths) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const res = await raw(server.url, path, {
          method,
          headers: { "content-type": "application/json", accept: "text/html" },
          ...(method === "GET" ? {} : { body: "{}" }),
        })
        // A value outside a literal path parameter, with the one method its route takes, reaches
        // the contract's schema: 400 (kind Params). Every other method: no such address.
        const literalParam = /\/(unknowngateway|jeton\/Other)\/deposit$/.test(path) && method === "POST"
        expect(res.status, `${method} ${path}`).toBe(literalParam ? 400 : 404)
        if (literalParam) expect(jsonOf(res)).toMatchObject({ error: "BadRequest", kind: "Params" })
        else expectJsonError(jsonOf(res), "NotFound")
      }
    }
  })

  it("405 with Allow for every implemented endpoint asked with another method", async () => {
    const endpoints = implementedEndpoints()
    for (const endpoint of endpoints) {
      const path = concrete(endpoint.path)
      // A method no endpoint of this path answers (the back office has GET and PATCH on one path).
      const taken = new Set(endpoints.filter((e) => e.path === endpoint.path).map((e) => e.method))
      const other = ["PATCH", "PUT", "DELETE", "POST"].find((m) => !taken.has(m)) ?? "OPTIONS"
      const res = await raw(server.url, path, {
        method: other,
        headers: { "content-type": "application/json" },
        body: "{}",
      })
      expect(res.status, `${other} ${path}`).toBe(405)
      const allow = (res.headers.allow ?? "").split(", ")
      expect(allow, `${other} ${path}`).toContain(endpoint.method)
      expect(jsonOf(res)).toMatchObject({ error: "MethodNotAllowed", allow })
    }
    // GET on a POST-only endpoint (reaches the app's catch-all) is 405 too, not the app's HTML.
    const getSignin = await raw(server.url, "/user-service/api/v1/signin", {
      headers: { accept: "text/html" },
    })
    expect(getSignin.status).toBe(405)
    expect(getSignin.headers.allow).toBe("POST")
    const patchProfile = await raw(server.url, "/profile-service/api/v1/profile", { method: "PATCH" })
    expect(patchProfile.headers.allow).toBe("GET, HEAD, PUT")
    const postDocs = await raw(server.url, "/openapi.json", { method: "POST" })
    expect(postDocs.status).toBe(405)
    expect(postDocs.headers.allow).toBe("GET, HEAD")
    // HEAD of a GET endpoint is answered like GET, without the body.
    const head = await raw(server.url, "/ip-service/api/v1/user/currentIp", { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    const cdnHead = await raw(server.url, "/cdn/site-config.json", { method: "HEAD" })
    expect(cdnHead.status).toBe(200)
    expect(cdnHead.headers["content-type"]).toMatch(/^application\/json/)
    expect(cdnHead.body.length).toBe(0)
  })

  it("501 with the capability for every spec endpoint not built yet, 405 for its other methods", async () => {
    for (const row of notBuiltEndpoints) {
      const path = concrete(row.path)
      const res = await raw(server.url, path, {
        method: row.method,
        headers: { "content-type": "application/json" },
        ...(row.method === "GET" ? {} : { body: "{}" }),
      })
      expect(res.status, `${row.method} ${path}`).toBe(501)
      expect(jsonOf(res), `${row.method} ${path}`).toMatchObject({
        error: "NotImplemented",
        capability: row.capability,
      })
    }
    const wrongMethod = await raw(server.url, "/game-aggregator-service/api/v1/jackpots", {
      method: "DELETE",
    })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.allow).toBe("GET, HEAD")
    // The implemented methods of a path keep working next to its not-built ones (here: 401, no session).
    expect((await raw(server.url, "/profile-service/api/v1/profile")).status).toBe(401)
    expect((await raw(server.url, "/profile-service/api/v1/profile/currency")).status).toBe(401)
  })
})
