/**
 * Multiplayer crash, provably fair as bustabit does it (docs/fairness.md, "Multiplayer crash"):
 *
 * - A chain of N hashes is generated backwards from a secret seed: h_N = the seed (64 hex
 *   characters), h_i = SHA-256(text of h_{i+1}) as lower-case hex, down to h_0, the terminating hash,
 *   published before any game is played.
 * - Game k (k = 1 … N) is played with h_k. SHA-256(h_k) = h_{k−1}, so each game's hash proves the one
 *   before it and, link by link, the terminating hash: the studio cannot choose a game's hash once
 *   h_0 is out.
 * - The bust point: HMAC-SHA256(key = text of the game hash, message = the chain's public salt) as hex;
 *   if that 256-bit number is divisible by 101 the game busts at once (1.00×, the 1 % house edge);
 *   otherwise h = its first 52 bits, e = 2⁵², bust = ⌊(100·e − h) / (e − h)⌋ / 100.
 * - The multiplier t ms after the start: ⌊100 · e^(0.00006 t)⌋ / 100.
 *
 * Browser-safe: WebCrypto only (the casino's verifier recomputes a round with it).
 */

const encoder = new TextEncoder()
const subtle = (): SubtleCrypto => globalThis.crypto.subtle

const toHex = (bytes: Uint8Array): string => {
  let out = ""
  for (const b of bytes) out += b.toString(16).padStart(2, "0")
  return out
}

/** A game hash (and the seed): 64 lower-case hex characters. */
export const isGameHash = (value: string): boolean => /^[0-9a-f]{64}$/.test(value)

/** SHA-256 of the hash's text, lower-case hex: the hash of the game before it. */
export const previousGameHash = async (gameHash: string): Promise<string> =>
  toHex(new Uint8Array(await subtle().digest("SHA-256", encoder.encode(gameHash))))

/**
 * Whether `nextHash` (the hash of the game played after the one of `hash`) links to it in the chain:
 * SHA-256(nextHash) = hash. The terminating hash is the `hash` before game 1.
 */
export const verifyChainLink = async (hash: string, nextHash: string): Promise<boolean> =>
  isGameHash(nextHash) && (await previousGameHash(nextHash)) === hash.toLowerCase()

/**
 * Walks back from a game's hash to the terminating hash: true when game `gameNumber` hashes down to
 * it in exactly `gameNumber` steps.
 */
export const verifyGameInChain = async (
  gameHash: string,
  gameNumber: number,
  terminatingHash: string,
): Promise<boolean> => {
  if (!isGameHash(gameHash) || !Number.isSafeInteger(gameNumber) || gameNumber < 1) return false
  let h = gameHash
  for (let i = 0; i < gameNumber; i++) h = await previousGameHash(h)
  return h === terminatingHash.toLowerCase()
}

const E = 2n ** 52n

/** The bust point in hundredths (100 = 1.00×) of the game hash under the chain's public salt. */
export const crashBustFromHash = async (gameHash: string, salt: string): Promise<number> => {
  const key = await subtle().importKey(
    "raw",
    encoder.encode(gameHash),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  )
  const hex = toHex(new Uint8Array(await subtle().sign("HMAC", key, encoder.encode(salt))))
  return bustFromHmacHex(hex)
}

/** The bust in hundredths from the HMAC's hex (the step after the HMAC, exported for the verifier's detail). */
export const bustFromHmacHex = (hmacHex: string): number => {
  if (BigInt(`0x${hmacHex}`) % 101n === 0n) return 100
  const h = BigInt(`0x${hmacHex.slice(0, 13)}`)
  return Number((100n * E - h) / (E - h))
}

/** The growth rate per millisecond: the multiplier is e^(GROWTH · t). */
export const CRASH_GROWTH_PER_MS = 0.00006

/** The multiplier in hundredths `elapsedMs` after the start (100 at the start). */
export const multiplierAt = (elapsedMs: number): number =>
  Math.max(100, Math.floor(100 * Math.exp(CRASH_GROWTH_PER_MS * Math.max(0, elapsedMs))))

/** The first whole millisecond at which the multiplier reaches `hundredths`. */
export const msToReach = (hundredths: number): number => {
  if (hundredths <= 100) return 0
  let t = Math.floor(Math.log(hundredths / 100) / CRASH_GROWTH_PER_MS)
  while (multiplierAt(t) < hundredths) t++
  while (t > 0 && multiplierAt(t - 1) >= hundredths) t--
  return t
}

/**
 * The return of cashing out at `target` (hundredths), in percent rounded down to 2 places:
 * target/100 × P(bust ≥ target) = target/100 × (100/101) × 99/(target − 1), so 99.00 at 1.01× and
 * 98.51 at 2.00×, falling towards 98.01 for high targets.
 */
export const crashMultiplayerRtp = (target: number): string => {
  const x = BigInt(Math.max(101, Math.floor(target)))
  const basisPoints = (990_000n * x) / (101n * (x - 1n))
  return `${basisPoints / 100n}.${(basisPoints % 100n).toString().padStart(2, "0")}`
}
