/**
 * Properties of the game maths (services/games/): floats from the HMAC stream lie in [0, 1) and are
 * deterministic; every game's outcome is deterministic and never negative for any floats; options
 * the decoder accepts play, junk is refused with a message; the verifier equals the direct play.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { catalogue } from "../../services/games/catalogue.ts"
import { bytesToFloat, hashServerSeed, roundFloats } from "../../services/games/fair.ts"
import {
  decodeOptions,
  defaultOptions,
  floatsNeeded,
  isOptionsError,
  playRound,
} from "../../services/games/play.ts"
import { verifyRound } from "../../services/games/verify.ts"
import { validOptions } from "./games-reference.ts"

const byte = fc.integer({ min: 0, max: 255 })
/** A float as fair.ts makes them: a multiple of 2⁻³² in [0, 1). */
const float = fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((n) => n / 2 ** 32)
const seed = fc.string({ minLength: 1, maxLength: 64 })
const game = fc.constantFrom(...catalogue)

const gameWithOptions = game.chain((def) => validOptions(def.kind).map((options) => ({ def, options })))

describe("fairness", () => {
  it("four bytes make a float in [0, 1)", () => {
    fc.assert(
      fc.property(byte, byte, byte, byte, (a, b, c, d) => {
        const f = bytesToFloat(a, b, c, d)
        expect(f).toBeGreaterThanOrEqual(0)
        expect(f).toBeLessThan(1)
        expect(Number.isInteger(f * 2 ** 32)).toBe(true)
      }),
    )
  })

  it("round floats are in [0, 1), as many as asked, and deterministic", async () => {
    await fc.assert(
      fc.asyncProperty(
        seed,
        seed,
        fc.nat({ max: 1_000_000 }),
        fc.integer({ min: 0, max: 40 }),
        async (s, c, n, k) => {
          const a = await roundFloats(s, c, n, k)
          expect(a).toHaveLength(k)
          for (const f of a) {
            expect(f).toBeGreaterThanOrEqual(0)
            expect(f).toBeLessThan(1)
          }
          expect(await roundFloats(s, c, n, k)).toEqual(a)
          // A longer read extends the same stream (the jackpot float follows the game's).
          expect((await roundFloats(s, c, n, k + 3)).slice(0, k)).toEqual(a)
        },
      ),
      { numRuns: 60 },
    )
  })

  it("the nonce and the client seed change the stream", async () => {
    await fc.assert(
      fc.asyncProperty(seed, seed, fc.nat({ max: 1_000_000 }), async (s, c, n) => {
        const a = await roundFloats(s, c, n, 8)
        expect(await roundFloats(s, c, n + 1, 8)).not.toEqual(a)
        expect(await roundFloats(s, `${c}x`, n, 8)).not.toEqual(a)
      }),
      { numRuns: 40 },
    )
  })

  it("the commitment is SHA-256 hex of the seed", async () => {
    expect(await hashServerSeed("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    )
  })
})

describe("outcomes", () => {
  it("valid options decode; every round is deterministic and never pays a negative multiplier", () => {
    fc.assert(
      fc.property(
        gameWithOptions,
        fc.array(float, { minLength: 30, maxLength: 30 }),
        ({ def, options }, floats) => {
          expect(isOptionsError(decodeOptions(def, options))).toBe(false)
          const a = playRound(def, options, floats)
          if (isOptionsError(a)) throw new Error(`${def.id}: ${a.error}`)
          expect(a.multiplier).toBeGreaterThanOrEqual(0n)
          expect(playRound(def, options, floats)).toEqual(a)
          expect(JSON.parse(JSON.stringify(a.detail))).toEqual(a.detail)
        },
      ),
      { numRuns: 500 },
    )
  })

  it("junk options are refused with a message, never thrown", () => {
    fc.assert(
      fc.property(game, fc.anything(), (def, junk) => {
        const decoded = decodeOptions(def, junk)
        if (isOptionsError(decoded)) expect(decoded.error.length).toBeGreaterThan(0)
        const played = playRound(
          def,
          junk,
          Array.from({ length: 30 }, () => 0.5),
        )
        expect(isOptionsError(decoded)).toBe(isOptionsError(played))
      }),
      { numRuns: 500 },
    )
  })

  it("edge options are refused", () => {
    const dice = catalogue.find((g) => g.kind === "dice")
    const mines = catalogue.find((g) => g.kind === "mines")
    const crash = catalogue.find((g) => g.kind === "crash")
    if (!dice || !mines || !crash) throw new Error("catalogue")
    expect(decodeOptions(dice, { target: 0.5, direction: "under" })).toHaveProperty("error")
    expect(decodeOptions(dice, { target: 50.123, direction: "under" })).toHaveProperty("error")
    expect(decodeOptions(dice, { target: 50, direction: "sideways" })).toHaveProperty("error")
    expect(decodeOptions(mines, { mines: 0, picks: [1] })).toHaveProperty("error")
    expect(decodeOptions(mines, { mines: 3, picks: [1, 1] })).toHaveProperty("error")
    expect(decodeOptions(mines, { mines: 24, picks: [1, 2] })).toHaveProperty("error")
    expect(decodeOptions(crash, { target: 1 })).toHaveProperty("error")
    expect(floatsNeeded(mines, { mines: 5, picks: [1] })).toBe(5)
  })

  it("the verifier recomputes exactly what playing from the seeds gives", async () => {
    await fc.assert(
      fc.asyncProperty(
        gameWithOptions,
        seed,
        seed,
        fc.nat({ max: 10_000 }),
        async ({ def, options }, s, c, nonce) => {
          const floats = await roundFloats(s, c, nonce, floatsNeeded(def, options) + 1)
          const direct = playRound(def, options, floats)
          const verified = await verifyRound({ gameId: def.id, options, serverSeed: s, clientSeed: c, nonce })
          expect(verified.multiplier).toBe(isOptionsError(direct) ? -1n : direct.multiplier)
          expect(verified.detail).toEqual(isOptionsError(direct) ? null : direct.detail)
        },
      ),
      { numRuns: 100 },
    )
  })

  it("every title plays its default options", () => {
    for (const def of catalogue)
      expect(isOptionsError(playRound(def, defaultOptions(def), Array(30).fill(0.3)))).toBe(false)
  })
})
