/**
 * Properties of deposit-address derivation (server/crypto/derive.ts), checked against a
 * SECOND implementation written here from the standards with node:crypto only: BIP39 seed (PBKDF2),
 * BIP32 private child derivation down the full path (HMAC-SHA512, arithmetic mod n, the point from
 * node's own secp256k1), hash160 (SHA-256 + RIPEMD-160), BIP173 bech32, base58check, Keccak-256 and
 * EIP-55. The product derives PUBLICLY from an account xpub (bip32 + tiny-secp256k1 + bitcoinjs-lib +
 * viem); this side derives PRIVATELY from the seed with none of those libraries, so a wrong HRP,
 * version byte, path, child number or checksum on either side makes them disagree.
 *
 * - Published vectors of the BIP39 test phrase "abandon … about" that other wallets print, for
 *   BTC, LTC (BIP84 m/84'/2'/0'/0/i), DOGE (BIP44 m/44'/3'/0'/0/0) and ETH — reached by both
 *   implementations (the second one is thereby checked too).
 * - For random mnemonics (random entropy → bip39 phrase; the xpub made with bip32 like an operator's
 *   wallet would) and random indices: the product's address equals the second implementation's;
 *   it is deterministic; distinct indices give distinct addresses; every address passes the
 *   product's own validator for its currency (`isValidAddress`); BTC/LTC are bech32 P2WPKH with the
 *   chain's HRP (witness v0, 20-byte program), DOGE is P2PKH with version byte 0x1e, ETH is EIP-55
 *   checksummed. Amount conversion is crypto-rules.property.test.ts's (not repeated here).
 */
import { createECDH, createHash, createHmac, pbkdf2Sync } from "node:crypto"
import { BIP32Factory } from "bip32"
import { entropyToMnemonic, mnemonicToSeedSync } from "bip39"
import { address as addressCodec } from "bitcoinjs-lib"
import fc from "fast-check"
import * as ecc from "tiny-secp256k1"
import { getAddress } from "viem"
import { describe, expect, it } from "vitest"
import { testXpubs } from "../../providers/chains/testKeys.ts"
import { deriveAddress } from "../../server/crypto/derive.ts"
import { isValidAddress } from "../../services/crypto-rules.ts"
import type { Network } from "../../services/crypto-service.ts"

// ── the second implementation (node:crypto and the standards' text only) ───────────────────────

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest()
const hash160 = (b: Uint8Array) => createHash("ripemd160").update(sha256(b)).digest()
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const toBig = (b: Uint8Array) => BigInt(`0x${Buffer.from(b).toString("hex") || "0"}`)
const to32 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, "0"), "hex")
const ser32 = (i: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(i >>> 0)
  return b
}

/** The secp256k1 point of a private key, from node's OpenSSL (not tiny-secp256k1). */
const pointOf = (k: bigint, form: "compressed" | "uncompressed"): Buffer => {
  const ecdh = createECDH("secp256k1")
  ecdh.setPrivateKey(to32(k))
  return ecdh.getPublicKey(undefined, form)
}

/** BIP39: the seed of a phrase (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic"). */
const seedOf = (phrase: string): Buffer =>
  pbkdf2Sync(Buffer.from(phrase.normalize("NFKD")), Buffer.from("mnemonic"), 2048, 64, "sha512")

interface PrivNode {
  readonly key: bigint
  readonly chainCode: Buffer
}

/** BIP32 master key and private child derivation (CKDpriv), hardened when the index says so. */
const master = (seed: Uint8Array): PrivNode => {
  const I = createHmac("sha512", "Bitcoin seed").update(seed).digest()
  return { key: toBig(I.subarray(0, 32)), chainCode: I.subarray(32) }
}
const child = (parent: PrivNode, index: number): PrivNode => {
  const hardened = index >= 0x80000000
  const data = hardened
    ? Buffer.concat([Buffer.alloc(1), to32(parent.key), ser32(index)])
    : Buffer.concat([pointOf(parent.key, "compressed"), ser32(index)])
  const I = createHmac("sha512", parent.chainCode).update(data).digest()
  const il = toBig(I.subarray(0, 32))
  const key = (il + parent.key) % N
  if (il >= N || key === 0n) throw new Error("invalid child (probability ~2^-127)")
  return { key, chainCode: I.subarray(32) }
}
const H = 0x80000000
const accountPath: Readonly<Record<Network, readonly number[]>> = {
  bitcoin: [84 + H, 0 + H, 0 + H],
  litecoin: [84 + H, 2 + H, 0 + H],
  dogecoin: [44 + H, 3 + H, 0 + H],
  ethereum: [44 + H, 60 + H, 0 + H],
}

/** BIP173 bech32 (the checksum constant 1: witness version 0). */
const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const bech32Checksum = (hrp: string, data: readonly number[]): number[] => {
  const G = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
  const values = [
    ...[...hrp].map((c) => c.charCodeAt(0) >> 5),
    0,
    ...[...hrp].map((c) => c.charCodeAt(0) & 31),
    ...data,
    0,
    0,
    0,
    0,
    0,
    0,
  ]
  let chk = 1
  for (const v of values) {
    const b = chk >>> 25
    chk = ((chk & 0x1ffffff) << 5) ^ v
    G.forEach((g, i) => {
      if ((b >> i) & 1) chk ^= g
    })
  }
  chk ^= 1
  return Array.from({ length: 6 }, (_, i) => (chk >>> (5 * (5 - i))) & 31)
}
const toFiveBits = (bytes: Uint8Array): number[] => {
  const out: number[] = []
  let acc = 0
  let bits = 0
  for (const byte of bytes) {
    acc = (acc << 8) | byte
    bits += 8
    while (bits >= 5) {
      bits -= 5
      out.push((acc >> bits) & 31)
    }
    acc &= (1 << bits) - 1
  }
  if (bits > 0) out.push((acc << (5 - bits)) & 31)
  return out
}
const segwitV0 = (hrp: string, program: Uint8Array): string => {
  const data = [0, ...toFiveBits(program)]
  return `${hrp}1${[...data, ...bech32Checksum(hrp, data)].map((d) => CHARSET[d]).join("")}`
}

/** Base58check of version byte + payload. */
const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const base58check = (version: number, payload: Uint8Array): string => {
  const body = Buffer.concat([Buffer.from([version]), payload])
  const full = Buffer.concat([body, sha256(sha256(body)).subarray(0, 4)])
  let n = toBig(full)
  let text = ""
  while (n > 0n) {
    text = B58[Number(n % 58n)] + text
    n /= 58n
  }
  for (const byte of full) {
    if (byte !== 0) break
    text = `1${text}`
  }
  return text
}

/** Keccak-256 (the original padding 0x01, not SHA3's 0x06): FIPS 202's permutation over bigint lanes. */
const MASK = (1n << 64n) - 1n
const rotl = (x: bigint, n: number) => (n === 0 ? x : ((x << BigInt(n)) | (x >> BigInt(64 - n))) & MASK)
const RC = (() => {
  const out: bigint[] = []
  let lfsr = 1
  for (let round = 0; round < 24; round++) {
    let rc = 0n
    for (let j = 0; j < 7; j++) {
      if (lfsr & 1) rc |= 1n << BigInt((1 << j) - 1)
      lfsr = lfsr & 0x80 ? ((lfsr << 1) ^ 0x71) & 0xff : (lfsr << 1) & 0xff
    }
    out.push(rc)
  }
  return out
})()
const ROT = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]
const keccakF = (s: bigint[]) => {
  for (const rc of RC) {
    const c = [0, 1, 2, 3, 4].map(
      (x) => (s[x] ?? 0n) ^ (s[x + 5] ?? 0n) ^ (s[x + 10] ?? 0n) ^ (s[x + 15] ?? 0n) ^ (s[x + 20] ?? 0n),
    )
    for (let x = 0; x < 5; x++) {
      const d = (c[(x + 4) % 5] ?? 0n) ^ rotl(c[(x + 1) % 5] ?? 0n, 1)
      for (let y = 0; y < 25; y += 5) s[x + y] = (s[x + y] ?? 0n) ^ d
    }
    const b: bigint[] = new Array<bigint>(25).fill(0n)
    for (let x = 0; x < 5; x++)
      for (let y = 0; y < 5; y++)
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(s[x + 5 * y] ?? 0n, ROT[x + 5 * y] ?? 0)
    for (let x = 0; x < 5; x++)
      for (let y = 0; y < 5; y++)
        s[x + 5 * y] =
          (b[x + 5 * y] ?? 0n) ^ (~(b[((x + 1) % 5) + 5 * y] ?? 0n) & MASK & (b[((x + 2) % 5) + 5 * y] ?? 0n))
    s[0] = (s[0] ?? 0n) ^ rc
  }
}
const keccak256 = (input: Uint8Array): Buffer => {
  const rate = 136
  const padded = Buffer.alloc(Math.floor(input.length / rate + 1) * rate)
  padded.set(input)
  padded[input.length] = (padded[input.length] ?? 0) ^ 0x01
  padded[padded.length - 1] = (padded[padded.length - 1] ?? 0) ^ 0x80
  const s: bigint[] = new Array<bigint>(25).fill(0n)
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i++) s[i] = (s[i] ?? 0n) ^ padded.readBigUInt64LE(off + 8 * i)
    keccakF(s)
  }
  const out = Buffer.alloc(32)
  for (let i = 0; i < 4; i++) out.writeBigUInt64LE(s[i] ?? 0n, 8 * i)
  return out
}

/** EIP-55: upper-case each hex letter whose nibble in keccak(lowercase hex) is ≥ 8. */
const eip55 = (lowerHex40: string): string => {
  const hash = keccak256(Buffer.from(lowerHex40, "ascii")).toString("hex")
  return `0x${[...lowerHex40].map((c, i) => (Number.parseInt(hash[i] ?? "0", 16) >= 8 ? c.toUpperCase() : c)).join("")}`
}

/** The receiving address at `<account>/0/<index>`, by the second implementation. */
const secondAddress = (network: Network, account: PrivNode, index: number): string => {
  const node = child(child(account, 0), index)
  switch (network) {
    case "bitcoin":
      return segwitV0("bc", hash160(pointOf(node.key, "compressed")))
    case "litecoin":
      return segwitV0("ltc", hash160(pointOf(node.key, "compressed")))
    case "dogecoin":
      return base58check(0x1e, hash160(pointOf(node.key, "compressed")))
    case "ethereum":
      return eip55(keccak256(pointOf(node.key, "uncompressed").subarray(1)).subarray(12).toString("hex"))
  }
}
const secondAccount = (seed: Uint8Array, network: Network): PrivNode =>
  accountPath[network].reduce(child, master(seed))

// ── the properties ──────────────────────────────────────────────────────────────────────────────

const TEST_PHRASE =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
const networks: ReadonlyArray<Network> = ["bitcoin", "litecoin", "dogecoin", "ethereum"]
const currencyOf: Readonly<Record<Network, "BTC" | "LTC" | "DOG" | "ETH">> = {
  bitcoin: "BTC",
  litecoin: "LTC",
  dogecoin: "DOG",
  ethereum: "ETH",
}
const bip32 = BIP32Factory(ecc)
/** The account xpub an operator's wallet would configure (bip32, from the seed). */
const productXpub = (seed: Uint8Array, network: Network): string =>
  bip32
    .fromSeed(Buffer.from(seed))
    .derivePath(`m/${accountPath[network].map((i) => `${i - H}'`).join("/")}`)
    .neutered()
    .toBase58()

/** The address has its chain's form (decoded with bitcoinjs-lib / viem, not the product's validator). */
const expectForm = (network: Network, address: string) => {
  switch (network) {
    case "bitcoin":
    case "litecoin": {
      const decoded = addressCodec.fromBech32(address)
      expect(decoded.prefix).toBe(network === "bitcoin" ? "bc" : "ltc")
      expect(decoded.version).toBe(0)
      expect(decoded.data.length).toBe(20) // P2WPKH, not P2WSH
      expect(address).toBe(address.toLowerCase())
      return
    }
    case "dogecoin": {
      const decoded = addressCodec.fromBase58Check(address)
      expect(decoded.version).toBe(0x1e)
      expect(decoded.hash.length).toBe(20)
      expect(address[0]).toBe("D")
      return
    }
    case "ethereum":
      expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
      expect(getAddress(address.toLowerCase())).toBe(address) // EIP-55 checksummed as given
  }
}

describe("the second implementation is right", () => {
  it("Keccak-256 and EIP-55 reproduce their published vectors", () => {
    expect(keccak256(new Uint8Array()).toString("hex")).toBe(
      "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
    )
    // EIP-55's own examples.
    for (const a of [
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ])
      expect(eip55(a.slice(2).toLowerCase())).toBe(a)
  })

  it("BIP84's own vectors (BTC) from the test phrase", () => {
    const account = secondAccount(seedOf(TEST_PHRASE), "bitcoin")
    expect(secondAddress("bitcoin", account, 0)).toBe("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu")
    expect(secondAddress("bitcoin", account, 1)).toBe("bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g")
  })
})

describe("published vectors of the test phrase, by the product and by the second implementation", () => {
  // Printed by wallets and BIP39 tools for "abandon … about" (no passphrase): Ian Coleman's BIP39
  // tool, Ledger Live, Trust Wallet Core's and imToken's test suites list the same first addresses.
  const vectors: ReadonlyArray<readonly [Network, number, string]> = [
    ["bitcoin", 0, "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"], // BIP84 m/84'/0'/0'/0/0
    ["litecoin", 0, "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh"], // m/84'/2'/0'/0/0
    ["litecoin", 1, "ltc1qwlezpr3890hcp6vva9twqh27mr6edadreqvhnn"], // m/84'/2'/0'/0/1
    ["dogecoin", 0, "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC"], // m/44'/3'/0'/0/0
    ["ethereum", 0, "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"], // m/44'/60'/0'/0/0
  ]
  const seed = seedOf(TEST_PHRASE)

  it("the test phrase's seed is the same by hand and by bip39", () => {
    expect(seed.equals(mnemonicToSeedSync(TEST_PHRASE))).toBe(true)
  })

  for (const [network, index, expected] of vectors)
    it(`${network} #${index} = ${expected}`, () => {
      expect(deriveAddress(network, testXpubs[network], index)).toBe(expected)
      expect(secondAddress(network, secondAccount(seed, network), index)).toBe(expected)
    })
})

describe("derivation from random xpubs and indices", () => {
  const entropy = fc.oneof(
    fc.uint8Array({ minLength: 16, maxLength: 16 }),
    fc.uint8Array({ minLength: 32, maxLength: 32 }),
  )
  const index = fc.integer({ min: 0, max: 2 ** 31 - 1 })
  const network = fc.constantFrom(...networks)

  it("the product's address is the second implementation's, and has its chain's form", () => {
    fc.assert(
      fc.property(entropy, network, index, (bytes, net, i) => {
        // The phrase's seed by hand (bip39's pure-JS PBKDF2 takes ~160 ms; equal on the test phrase above).
        const seed = seedOf(entropyToMnemonic(Buffer.from(bytes)))
        const address = deriveAddress(net, productXpub(seed, net), i)
        expect(address).toBe(secondAddress(net, secondAccount(seed, net), i))
        expectForm(net, address)
        expect(isValidAddress(currencyOf[net], address)).toBe(true)
        if (net === "ethereum") expect(isValidAddress("USDT", address)).toBe(true)
      }),
      { numRuns: 50 },
    )
  }, 60_000)

  it("deterministic; distinct indices give distinct addresses, each valid only for its own chain", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 64 }),
        network,
        fc.uniqueArray(index, { minLength: 2, maxLength: 6 }),
        (seed, net, indices) => {
          const xpub = productXpub(seed, net)
          const addresses = indices.map((i) => deriveAddress(net, xpub, i))
          expect(indices.map((i) => deriveAddress(net, xpub, i))).toEqual(addresses)
          expect(new Set(addresses).size).toBe(indices.length)
          for (const address of addresses) {
            expect(isValidAddress(currencyOf[net], address)).toBe(true)
            for (const other of networks.filter((n) => n !== net))
              expect(isValidAddress(currencyOf[other], address)).toBe(false)
          }
        },
      ),
      { numRuns: 40 },
    )
  }, 60_000)

  it("different accounts (seeds) never share an address at the same index", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        network,
        index,
        (a, b, net, i) => {
          fc.pre(!Buffer.from(a).equals(Buffer.from(b)))
          expect(deriveAddress(net, productXpub(a, net), i)).not.toBe(
            deriveAddress(net, productXpub(b, net), i),
          )
        },
      ),
      { numRuns: 30 },
    )
  }, 60_000)
})
