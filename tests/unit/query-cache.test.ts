/**
 * Reads kept until stale (services/query-cache.ts). Spec section 9: a query is stale after 5
 * minutes — written here as 300,000 ms. The clock is Effect's TestClock, moved by hand.
 */
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { forgetAllQueries, forgetPlayerQueries, keyedQuery, query } from "../../services/query-cache.ts"

/** A read that counts how often the server was asked, and answers with that count. */
const counting = () => {
  let calls = 0
  const load = Effect.sync(() => {
    calls += 1
    return calls
  })
  return { load, calls: () => calls }
}

const run = <A, E>(program: Effect.Effect<A, E>) =>
  Effect.runPromise(Effect.provide(program, TestClock.layer()))

describe("query cache", () => {
  it("reuses an answer for just under 5 minutes, asks again at 5 minutes", async () => {
    const server = counting()
    const q = query(server.load, { scope: "public" })
    const answers = await run(
      Effect.gen(function* () {
        const first = yield* q.read
        yield* TestClock.adjust(299_999)
        const kept = yield* q.read
        yield* TestClock.adjust(1)
        const renewed = yield* q.read
        return [first, kept, renewed]
      }),
    )
    expect(answers).toEqual([1, 1, 2])
    expect(server.calls()).toBe(2)
    q.forget()
  })

  it("keeps no failure: the next read asks the server again", async () => {
    let fail = true
    let calls = 0
    const q = query(
      Effect.suspend(() => {
        calls += 1
        return fail ? Effect.fail("down" as const) : Effect.succeed("up")
      }),
      { scope: "public" },
    )
    const first = await run(Effect.result(q.read))
    fail = false
    const second = await run(q.read)
    const third = await run(q.read)
    expect(first._tag).toBe("Failure")
    expect([second, third]).toEqual(["up", "up"])
    expect(calls).toBe(2)
    q.forget()
  })

  it("fresh always asks and keeps the answer; set keeps a written value", async () => {
    const server = counting()
    const q = query(server.load, { scope: "player" })
    const answers = await run(
      Effect.gen(function* () {
        const a = yield* q.read
        const b = yield* q.fresh
        const c = yield* q.read
        yield* q.set(42)
        const d = yield* q.read
        return [a, b, c, d]
      }),
    )
    expect(answers).toEqual([1, 2, 2, 42])
    expect(server.calls()).toBe(2)
    q.forget()
  })

  it("a livelier read has its own, shorter age", async () => {
    const server = counting()
    const q = query(server.load, { scope: "public", staleMs: 15_000 })
    const answers = await run(
      Effect.gen(function* () {
        const a = yield* q.read
        yield* TestClock.adjust(14_999)
        const b = yield* q.read
        yield* TestClock.adjust(1)
        const c = yield* q.read
        return [a, b, c]
      }),
    )
    expect(answers).toEqual([1, 1, 2])
    q.forget()
  })

  it("keeps one answer per key", async () => {
    const asked: Array<string> = []
    const q = keyedQuery(
      (currency: string) =>
        Effect.sync(() => {
          asked.push(currency)
          return `games in ${currency}`
        }),
      { scope: "public" },
    )
    const answers = await run(Effect.all([q.read("EUR"), q.read("BTC"), q.read("EUR"), q.read("BTC")]))
    expect(answers).toEqual(["games in EUR", "games in BTC", "games in EUR", "games in BTC"])
    expect(asked).toEqual(["EUR", "BTC"])
    q.forget()
  })

  it("a session ending drops the player's reads and keeps the public ones", async () => {
    const mine = counting()
    const everyone = counting()
    const favorites = query(mine.load, { scope: "player" })
    const catalogue = query(everyone.load, { scope: "public" })
    await run(Effect.all([favorites.read, catalogue.read]))
    forgetPlayerQueries()
    await run(Effect.all([favorites.read, catalogue.read]))
    expect(mine.calls()).toBe(2)
    expect(everyone.calls()).toBe(1)
    forgetAllQueries()
    await run(catalogue.read)
    expect(everyone.calls()).toBe(2)
  })
})
