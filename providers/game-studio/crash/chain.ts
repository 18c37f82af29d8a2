/**
 * A crash title's hash chain on the studio's side (services/games/crash-chain.ts has the public maths):
 * a random seed h_N, h_i = SHA-256(h_{i+1}) down to the terminating hash h_0. Only every
 * CHECKPOINT-th hash is kept in memory (100 of a 100,000 chain); game k's hash is rehashed from the
 * checkpoint above it (< CHECKPOINT hashes, ≈ 1 ms). Building the checkpoints walks the whole chain
 * once per process, when its table first opens (60–350 ms for 100,000 on this 2-core box, idle to
 * busy), in slices that yield to the event loop.
 */
import { createHash } from "node:crypto"

export const CHECKPOINT = 1_000
const SLICE = 10_000

const sha = (text: string): string => createHash("sha256").update(text).digest("hex")

export interface Chain {
  readonly length: number
  readonly terminatingHash: string
  /** Game k's hash, 1 ≤ k ≤ length. */
  readonly gameHash: (k: number) => string
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Walks the chain from its seed: the checkpoints (index → hash) and the terminating hash. */
export const buildChain = async (seed: string, length: number): Promise<Chain> => {
  const checkpoints = new Map<number, string>()
  let h = seed
  for (let i = length; i > 0; i--) {
    if (i % CHECKPOINT === 0 || i === length) checkpoints.set(i, h)
    h = sha(h)
    if (i % SLICE === 0) await tick()
  }
  const terminatingHash = h
  return {
    length,
    terminatingHash,
    gameHash: (k) => {
      if (!Number.isSafeInteger(k) || k < 1 || k > length) throw new RangeError(`no game ${k} in the chain`)
      const above = Math.min(length, Math.ceil(k / CHECKPOINT) * CHECKPOINT)
      let x = checkpoints.get(above) ?? seed
      for (let i = above; i > k; i--) x = sha(x)
      return x
    },
  }
}
