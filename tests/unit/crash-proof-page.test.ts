/**
 * The crash proof page's own check (providers/game-studio/crash/proofPage.ts, a plain script run in
 * the player's browser) agrees with the verifier's maths (services/games/crash-chain.ts) — and both
 * with a bust computed here from node:crypto and bustabit's rule written out.
 */
import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { bustScript } from "../../providers/game-studio/crash/proofPage.ts"
import { crashBustFromHash } from "../../services/games/crash-chain.ts"

const pageBust = new Function(`${bustScript}; return bustOf`)() as (hex: string) => number

/** Bustabit: 1 in 101 at 1.00×, else floor((100·2^52 − h) / (2^52 − h)), h the first 52 bits. */
const expected = (hash: string, salt: string): number => {
  const hex = createHmac("sha256", hash).update(salt).digest("hex")
  if (BigInt(`0x${hex}`) % 101n === 0n) return 100
  const e = 2n ** 52n
  const h = BigInt(`0x${hex.slice(0, 13)}`)
  return Number((100n * e - h) / (e - h))
}

describe("the crash proof page's bust", () => {
  const salt = "0000000000000000000fa3b65e43e4240d71762a5bf397d5304b2596d116859c"
  const hashes = Array.from({ length: 200 }, (_, i) =>
    createHmac("sha256", "proof-page-test").update(String(i)).digest("hex"),
  )

  it("the page's script, the verifier's maths and bustabit's rule give the same bust", async () => {
    for (const hash of hashes) {
      const hex = createHmac("sha256", hash).update(salt).digest("hex")
      const want = expected(hash, salt)
      expect(pageBust(hex)).toBe(want)
      expect(await crashBustFromHash(hash, salt)).toBe(want)
    }
  })

  it("an HMAC divisible by 101 busts at 1.00×", () => {
    // 101 × 0x1 padded to 64 hex digits is divisible by 101.
    expect(pageBust((101n * 12345678901234567890n).toString(16).padStart(64, "0"))).toBe(100)
  })
})
