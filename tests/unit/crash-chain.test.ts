/**
 * Multiplayer crash's fairness maths (services/games/crash-chain.ts) against an independent
 * computation with node:crypto: the chain links, the bust from a game hash (bustabit's formula, 1 %
 * edge), the distribution, and the growth curve.
 */
import { createHash, createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import {
  crashBustFromHash,
  crashMultiplayerRtp,
  msToReach,
  multiplierAt,
  verifyChainLink,
  verifyGameInChain,
} from "../../services/games/crash-chain.ts"

const sha = (text: string) => createHash("sha256").update(text).digest("hex")

/** bustabit's crashPointFromHash, written out here with plain numbers and BigInt. */
const expectedBust = (gameHash: string, salt: string): number => {
  const hex = createHmac("sha256", gameHash).update(salt).digest("hex")
  if (BigInt(`0x${hex}`) % 101n === 0n) return 100
  const h = Number.parseInt(hex.slice(0, 13), 16)
  const e = 2 ** 52
  return Number((BigInt(100) * BigInt(e) - BigInt(h)) / (BigInt(e) - BigInt(h)))
}

const chain = (seed: string, n: number): Array<string> => {
  const out = [seed]
  for (let i = 0; i < n; i++) out.push(sha(out[out.length - 1] ?? ""))
  return out.reverse() // out[0] = terminating hash, out[k] = game k
}

describe("crash chain", () => {
  const seed = "a".repeat(64)
  const salt = "0000000000000000000fa3b65e43e4240d71762a5bf397d5304b2596d116859c"
  const hashes = chain(seed, 20)

  it("each game's hash hashes to the one before it, down to the terminating hash", async () => {
    for (let k = 1; k <= 20; k++) {
      expect(await verifyChainLink(hashes[k - 1] ?? "", hashes[k] ?? "")).toBe(true)
    }
    // Backwards, skipping a game, or not a hash: no link.
    expect(await verifyChainLink(hashes[2] ?? "", hashes[1] ?? "")).toBe(false)
    expect(await verifyChainLink(hashes[1] ?? "", hashes[3] ?? "")).toBe(false)
    expect(await verifyChainLink(hashes[0] ?? "", "not a hash")).toBe(false)
    expect(await verifyGameInChain(hashes[7] ?? "", 7, hashes[0] ?? "")).toBe(true)
    expect(await verifyGameInChain(hashes[7] ?? "", 6, hashes[0] ?? "")).toBe(false)
  })

  it("known vectors: the bust equals bustabit's formula computed with node:crypto", async () => {
    for (const h of hashes) expect(await crashBustFromHash(h, salt)).toBe(expectedBust(h, salt))
    // A fixed vector, by hand: the HMAC of "b"*64 under "salt".
    const hex = createHmac("sha256", "b".repeat(64)).update("salt").digest("hex")
    const h = BigInt(`0x${hex.slice(0, 13)}`)
    const e = 2n ** 52n
    const manual = BigInt(`0x${hex}`) % 101n === 0n ? 100 : Number((100n * e - h) / (e - h))
    expect(await crashBustFromHash("b".repeat(64), "salt")).toBe(manual)
  })

  it("distribution: P(bust ≥ 2.00×) ≈ 0.495, P(1.00×) ≈ 1/101 + a little, never below 1.00×", async () => {
    const n = 20_000
    let atLeast2 = 0
    let instant = 0
    let h = "c".repeat(64)
    for (let i = 0; i < n; i++) {
      h = sha(h)
      const b = await crashBustFromHash(h, salt)
      expect(b).toBeGreaterThanOrEqual(100)
      if (b >= 200) atLeast2++
      if (b === 100) instant++
    }
    expect(atLeast2 / n).toBeGreaterThan(0.48)
    expect(atLeast2 / n).toBeLessThan(0.51)
    expect(instant / n).toBeGreaterThan(0.01)
    expect(instant / n).toBeLessThan(0.025)
  })

  it("the return of a cash-out target: 99.00 % at 1.01×, 98.51 % at 2.00×, above 98.01 % however high", () => {
    expect(crashMultiplayerRtp(101)).toBe("99.00")
    expect(crashMultiplayerRtp(200)).toBe("98.51")
    expect(crashMultiplayerRtp(100_000)).toBe("98.02")
  })

  it("the multiplier grows as floor(100·e^(0.00006 t))/100", () => {
    expect(multiplierAt(0)).toBe(100)
    expect(multiplierAt(1000)).toBe(Math.floor(100 * Math.exp(0.06)))
    expect(multiplierAt(11552)).toBe(199)
    expect(multiplierAt(11553)).toBe(200)
    expect(msToReach(200)).toBe(11553)
    expect(msToReach(100)).toBe(0)
    for (const x of [101, 150, 237, 1000, 100000]) {
      const t = msToReach(x)
      expect(multiplierAt(t)).toBeGreaterThanOrEqual(x)
      expect(multiplierAt(t - 1)).toBeLessThan(x)
    }
  })
})
