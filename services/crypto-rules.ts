/**
 * The crypto rules both sides apply (spec sections 2, 5 and 9): which chain a currency
 * lives on, whether an address is one of that chain's MAINNET addresses (the deposit form, the
 * cashout form and the server all call `isValidAddress`), the standard payment URIs the QR code
 * carries (BIP21 for UTXO coins, EIP-681 for ETH and ERC-20), and exact conversion between a decimal in
 * whole coins and the currency's minor units (`subunits_to_unit`). The purchase widgets' fee tiers
 * are `onramp-rules.ts`. Pure and browser-safe: bigint only, checksums verified here (bech32/bech32m, base58check,
 * EIP-55) so a typo never passes as an address.
 */
import { isAddress, sha256 } from "viem"
import { type CryptoCurrency, cryptoCurrencies, type Network } from "./crypto-service.ts"

// ── currencies and chains ───────────────────────────────────────────────────────────────────────

export const isCryptoCurrency = (currency: string): currency is CryptoCurrency =>
  (cryptoCurrencies as ReadonlyArray<string>).includes(currency)

/** The chain of each crypto currency: USDT is the ERC-20 token on Ethereum (spec: "USDT (Erc20)"). */
export const networkOf: Readonly<Record<CryptoCurrency, Network>> = {
  BTC: "bitcoin",
  LTC: "litecoin",
  DOG: "dogecoin",
  ETH: "ethereum",
  USDT: "ethereum",
}

/** The list's code DOG is displayed as DOGE (spec section 2); USDT is marked (Erc20). */
export const displayCode = (currency: string): string => (currency === "DOG" ? "DOGE" : currency)

/** ETH and USDT share one address per player (the same EVM key receives both). */
export const sharesAddress = (a: CryptoCurrency, b: CryptoCurrency): boolean => networkOf[a] === networkOf[b]

// ── unit conversion ─────────────────────────────────────────────────────────────────────────────

/** decimals = log10(subunits_to_unit); the list only carries powers of ten. */
const decimals = (subunitsToUnit: bigint): number => subunitsToUnit.toString().length - 1

/**
 * "0.0015" BTC → 150000n satoshi, exactly. A plain non-negative decimal with at most the currency's
 * decimals; anything else (sign, exponent, too many decimals, empty) is null — never rounded.
 */
export const toMinorUnits = (text: string, subunitsToUnit: bigint): bigint | null => {
  const match = /^(\d{1,40})(?:\.(\d{1,40}))?$/.exec(text.trim())
  if (match === null) return null
  const [, whole = "0", fraction = ""] = match
  const places = decimals(subunitsToUnit)
  if (fraction.length > places) return null
  return BigInt(whole) * subunitsToUnit + (places === 0 ? 0n : BigInt(fraction.padEnd(places, "0") || "0"))
}

/** 150000n satoshi → "0.0015": the shortest exact decimal in whole coins (no trailing zeros). */
export const fromMinorUnits = (minor: bigint, subunitsToUnit: bigint): string => {
  const negative = minor < 0n
  const abs = negative ? -minor : minor
  const whole = abs / subunitsToUnit
  const places = decimals(subunitsToUnit)
  const fraction =
    places === 0 ? "" : (abs % subunitsToUnit).toString().padStart(places, "0").replace(/0+$/, "")
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`
}

// ── address validation ──────────────────────────────────────────────────────────────────────────

const BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const BECH32M_CONST = 0x2bc830a3

const polymod = (values: ReadonlyArray<number>): number => {
  const generator = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
  let chk = 1
  for (const value of values) {
    const top = chk >>> 25
    chk = (((chk & 0x1ffffff) << 5) ^ value) >>> 0
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ (generator[i] ?? 0)) >>> 0
  }
  return chk
}

const hrpExpand = (hrp: string): number[] => [
  ...[...hrp].map((c) => c.charCodeAt(0) >>> 5),
  0,
  ...[...hrp].map((c) => c.charCodeAt(0) & 31),
]

/** 5-bit groups → bytes (BIP173's convertbits without padding); null if the padding is not zero. */
const fromWords = (words: ReadonlyArray<number>): number[] | null => {
  let acc = 0
  let bits = 0
  const out: number[] = []
  for (const word of words) {
    acc = (acc << 5) | word
    bits += 5
    while (bits >= 8) {
      bits -= 8
      out.push((acc >>> bits) & 0xff)
    }
  }
  if (bits >= 5 || ((acc << (8 - bits)) & 0xff) !== 0) return null
  return out
}

/**
 * A segwit address of `hrp` (BIP173 bech32 for version 0, BIP350 bech32m for versions 1–16), with
 * the program lengths BIP141 allows (v0: 20 or 32 bytes).
 */
export const isSegwitAddress = (hrp: string, address: string): boolean => {
  if (address.length > 90) return false
  // Mixed case is invalid; one case throughout is allowed (QR codes use upper case).
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false
  const text = address.toLowerCase()
  const separator = text.lastIndexOf("1")
  if (separator < 1 || text.slice(0, separator) !== hrp || text.length - separator - 1 < 6) return false
  const data: number[] = []
  for (const c of text.slice(separator + 1)) {
    const value = BECH32_CHARSET.indexOf(c)
    if (value < 0) return false
    data.push(value)
  }
  const check = polymod([...hrpExpand(hrp), ...data])
  const version = data[0]
  if (version === undefined || version > 16) return false
  if (check !== (version === 0 ? 1 : BECH32M_CONST)) return false
  const program = fromWords(data.slice(1, -6))
  if (program === null || program.length < 2 || program.length > 40) return false
  return version !== 0 || program.length === 20 || program.length === 32
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

const base58Decode = (text: string): Uint8Array | null => {
  let value = 0n
  for (const c of text) {
    const digit = BASE58.indexOf(c)
    if (digit < 0) return null
    value = value * 58n + BigInt(digit)
  }
  const bytes: number[] = []
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn))
    value >>= 8n
  }
  for (const c of text) {
    if (c !== "1") break
    bytes.unshift(0)
  }
  return Uint8Array.from(bytes)
}

/** A base58check address (P2PKH / P2SH) whose version byte is one of `versions`. */
export const isBase58Address = (versions: ReadonlyArray<number>, address: string): boolean => {
  if (address.length < 25 || address.length > 36) return false
  const bytes = base58Decode(address)
  if (bytes === null || bytes.length !== 25) return false
  const payload = bytes.subarray(0, 21)
  const checksum = sha256(sha256(payload, "bytes"), "bytes").subarray(0, 4)
  if (!checksum.every((b, i) => b === bytes[21 + i])) return false
  return versions.includes(bytes[0] ?? -1)
}

/** Mainnet parameters of the UTXO chains (the address prefixes their wallets print). */
export const utxoParams = {
  bitcoin: { hrp: "bc", pubKeyHash: 0x00, scriptHash: 0x05 },
  // Litecoin's P2SH moved from "3" (0x05) to "M" (0x32). The old "3…" form is refused on purpose:
  // it is byte-for-byte a Bitcoin address, and a player pasting a BTC address into the LTC form
  // must be stopped, not paid.
  litecoin: { hrp: "ltc", pubKeyHash: 0x30, scriptHash: 0x32 },
  // Dogecoin has no segwit: P2PKH "D…" and P2SH "9…"/"A…".
  dogecoin: { hrp: null, pubKeyHash: 0x1e, scriptHash: 0x16 },
} as const

/**
 * Is `address` a mainnet address the currency can be sent to? BTC: bech32/bech32m `bc1…`, `1…`,
 * `3…`; LTC: `ltc1…`, `L…`, `M…` (not the legacy `3…`); DOGE: `D…`, `9…`/`A…`; ETH and USDT: `0x` + 40 hex, and
 * when it carries upper-case letters, a correct EIP-55 checksum. Surrounding spaces are not trimmed
 * here: callers trim what a player typed, so what is validated is what is used.
 */
export const isValidAddress = (currency: string, address: string): boolean => {
  if (!isCryptoCurrency(currency)) return false
  const network = networkOf[currency]
  if (network === "ethereum")
    return /^0x[0-9a-fA-F]{40}$/.test(address) && isAddress(address, { strict: true })
  const params = utxoParams[network]
  if (params.hrp !== null && /^[a-z]+1/i.test(address) && address.toLowerCase().startsWith(`${params.hrp}1`))
    return isSegwitAddress(params.hrp, address)
  return isBase58Address([params.pubKeyHash, params.scriptHash], address)
}

// ── payment URIs (what the QR code carries) ─────────────────────────────────────────────────────

const bip21Scheme: Readonly<Record<Exclude<Network, "ethereum">, string>> = {
  bitcoin: "bitcoin",
  litecoin: "litecoin",
  dogecoin: "dogecoin",
}

export interface PaymentRequest {
  readonly currency: CryptoCurrency
  readonly address: string
  /** EVM chain id (EIP-681 `@chainId`); ignored on UTXO chains. */
  readonly chainId?: number | null | undefined
  /** ERC-20 contract for a token (USDT); null/undefined for a native coin. */
  readonly tokenContract?: string | null | undefined
  /** Optional amount in minor units. */
  readonly amount?: bigint | undefined
  readonly subunitsToUnit: bigint
}

/**
 * The standard URI a wallet app understands when it scans the QR code:
 * - BTC/LTC/DOGE (BIP21): `bitcoin:<address>?amount=<decimal coins>`;
 * - ETH (EIP-681): `ethereum:<address>@<chainId>?value=<wei>`;
 * - ERC-20 (EIP-681): `ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<minor units>`.
 */
export const paymentUri = (request: PaymentRequest): string => {
  const network = networkOf[request.currency]
  if (network !== "ethereum") {
    const amount =
      request.amount === undefined ? "" : `?amount=${fromMinorUnits(request.amount, request.subunitsToUnit)}`
    return `${bip21Scheme[network]}:${request.address}${amount}`
  }
  const chain = request.chainId === null || request.chainId === undefined ? "" : `@${request.chainId}`
  if (request.tokenContract !== null && request.tokenContract !== undefined) {
    const amount = request.amount === undefined ? "" : `&uint256=${request.amount}`
    return `ethereum:${request.tokenContract}${chain}/transfer?address=${request.address}${amount}`
  }
  const value = request.amount === undefined ? "" : `?value=${request.amount}`
  return `ethereum:${request.address}${chain}${value}`
}

export interface ParsedPaymentUri {
  readonly scheme: string
  /** The receiver (for an ERC-20 transfer: the `address` parameter, not the contract). */
  readonly address: string
  readonly chainId: number | null
  readonly tokenContract: string | null
  /** Minor units, or null when the URI carries no amount. */
  readonly amount: bigint | null
}

/** Reads back what `paymentUri` writes (the tests' round trip, and a pasted URI in a form). */
export const parsePaymentUri = (uri: string, subunitsToUnit: bigint): ParsedPaymentUri | null => {
  const match = /^([a-z]+):([^?@/]+)(?:@(\d+))?(\/transfer)?(?:\?(.*))?$/.exec(uri)
  if (match === null) return null
  const [, scheme = "", target = "", chain, transfer, query = ""] = match
  const params = new URLSearchParams(query)
  const chainId = chain === undefined ? null : Number(chain)
  if (scheme === "ethereum") {
    if (transfer !== undefined) {
      const to = params.get("address")
      if (to === null) return null
      const raw = params.get("uint256")
      if (raw !== null && !/^\d+$/.test(raw)) return null
      return {
        scheme,
        address: to,
        chainId,
        tokenContract: target,
        amount: raw === null ? null : BigInt(raw),
      }
    }
    const raw = params.get("value")
    if (raw !== null && !/^\d+$/.test(raw)) return null
    return {
      scheme,
      address: target,
      chainId,
      tokenContract: null,
      amount: raw === null ? null : BigInt(raw),
    }
  }
  if (!Object.values(bip21Scheme).includes(scheme)) return null
  const raw = params.get("amount")
  const amount = raw === null ? null : toMinorUnits(raw, subunitsToUnit)
  if (raw !== null && amount === null) return null
  return { scheme, address: target, chainId: null, tokenContract: null, amount }
}

// ── confirmations ───────────────────────────────────────────────────────────────────────────────

/** Confirmations of a transfer mined at `height` when the tip is `tip` (0 if not yet / above the tip). */
export const confirmationsAt = (height: bigint, tip: bigint): number =>
  tip < height ? 0 : Number(tip - height + 1n)
