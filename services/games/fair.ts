/**
 * Provably fair randomness (docs/fairness.md): the round's floats come from
 * HMAC-SHA256(key = serverSeed, message = `${clientSeed}:${nonce}:${cursor}`), cursor = 0, 1, 2…,
 * 32 bytes per block, read 4 bytes at a time into a float in [0, 1) (Stake's scheme):
 * f = b0/256 + b1/256² + b2/256³ + b3/256⁴. Browser-safe: WebCrypto only, no node: imports.
 */

const encoder = new TextEncoder()

const toHex = (bytes: Uint8Array): string => {
  let out = ""
  for (const b of bytes) out += b.toString(16).padStart(2, "0")
  return out
}

const subtle = (): SubtleCrypto => globalThis.crypto.subtle

/** SHA-256 of the server seed's text, lower-case hex: the commitment shown before play. */
export const hashServerSeed = async (serverSeed: string): Promise<string> =>
  toHex(new Uint8Array(await subtle().digest("SHA-256", encoder.encode(serverSeed))))

const hmacKey = (serverSeed: string): Promise<CryptoKey> =>
  subtle().importKey("raw", encoder.encode(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])

/** The raw HMAC blocks of a round (exported for the verifier's "show the bytes" view). */
export const roundBytes = async (
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  blocks: number,
): Promise<ReadonlyArray<Uint8Array>> => {
  const key = await hmacKey(serverSeed)
  const out: Array<Uint8Array> = []
  for (let cursor = 0; cursor < blocks; cursor++) {
    const signature = await subtle().sign("HMAC", key, encoder.encode(`${clientSeed}:${nonce}:${cursor}`))
    out.push(new Uint8Array(signature))
  }
  return out
}

/** Four bytes → a float in [0, 1); exactly a multiple of 2⁻³², so `f * 2**32` is an exact integer. */
export const bytesToFloat = (b0: number, b1: number, b2: number, b3: number): number =>
  b0 / 256 + b1 / 256 ** 2 + b2 / 256 ** 3 + b3 / 256 ** 4

/** The round's first `count` floats, in order. */
export const roundFloats = async (
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  count: number,
): Promise<ReadonlyArray<number>> => {
  if (!Number.isSafeInteger(nonce) || nonce < 0) throw new RangeError("nonce must be a non-negative integer")
  if (!Number.isSafeInteger(count) || count < 0 || count > 4096)
    throw new RangeError("float count out of range")
  const blocks = await roundBytes(serverSeed, clientSeed, nonce, Math.ceil(count / 8))
  const floats: Array<number> = []
  for (const block of blocks) {
    for (let i = 0; i < 32 && floats.length < count; i += 4) {
      floats.push(bytesToFloat(block[i] ?? 0, block[i + 1] ?? 0, block[i + 2] ?? 0, block[i + 3] ?? 0))
    }
  }
  return floats
}

/** The float as its exact 32-bit integer numerator (f = n / 2³²). */
export const floatToUint32 = (f: number): number => Math.floor(f * 2 ** 32)

export const TWO_POW_32 = 2n ** 32n

/** A fresh random hex string (server seeds: 32 bytes; default client seeds: 16 hex characters = 8 bytes). */
export const randomHex = (bytes: number): string => {
  const buf = new Uint8Array(bytes)
  globalThis.crypto.getRandomValues(buf)
  return toHex(buf)
}
