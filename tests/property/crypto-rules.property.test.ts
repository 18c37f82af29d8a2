/**
 * Properties of the shared crypto rules (services/crypto-rules.ts): address validation per chain
 * against addresses bitcoinjs-lib and viem produce (and their published vectors), exact unit
 * conversion, and payment URIs that read back to what was written.
 */
import { payments } from "bitcoinjs-lib"
import fc from "fast-check"
import { getAddress } from "viem"
import { describe, expect, it } from "vitest"
import { networkParams } from "../../protocols/chains/networks.ts"
import {
  fromMinorUnits,
  isValidAddress,
  parsePaymentUri,
  paymentUri,
  toMinorUnits,
} from "../../services/crypto-rules.ts"
import { cryptoCurrencies } from "../../services/crypto-service.ts"

const hash20 = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((a) => Buffer.from(a))
const hash32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((a) => Buffer.from(a))

describe("isValidAddress", () => {
  it("accepts the published vectors", () => {
    // BIP84 "abandon … about" m/84'/0'/0'/0/0, BIP173's P2WPKH, BIP350's taproot, legacy P2PKH/P2SH.
    for (const a of [
      "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
      "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
      "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
      "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
      "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
    ])
      expect(isValidAddress("BTC", a), a).toBe(true)
    expect(isValidAddress("ETH", "0x9858EfFD232B4033E47d90003D41EC34EcaEda94")).toBe(true)
    expect(isValidAddress("USDT", "0x9858effd232b4033e47d90003d41ec34ecaeda94")).toBe(true)
  })

  it("refuses the BIP173/BIP350 invalid vectors, wrong checksums and other chains' addresses", () => {
    for (const a of [
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", // checksum
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8f3t4", // mixed case
      "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd", // bech32 for v1
      "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", // testnet
      "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3",
      "",
      " bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
    ])
      expect(isValidAddress("BTC", a), a).toBe(false)
    expect(isValidAddress("LTC", "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu")).toBe(false)
    expect(isValidAddress("ETH", "0x9858EfFD232B4033E47d90003D41EC34EcaEda95")).toBe(false) // EIP-55
    expect(isValidAddress("ETH", "0x9858effd232b4033e47d90003d41ec34ecaeda9")).toBe(false)
    expect(isValidAddress("EUR", "0x9858effd232b4033e47d90003d41ec34ecaeda94")).toBe(false)
  })

  it("accepts every address bitcoinjs-lib makes for the chain, and no other chain accepts it", () => {
    fc.assert(
      fc.property(hash20, hash32, (h20, h32) => {
        const made = {
          BTC: [
            payments.p2wpkh({ hash: h20, network: networkParams.bitcoin }).address,
            payments.p2wsh({ hash: h32, network: networkParams.bitcoin }).address,
            payments.p2pkh({ hash: h20, network: networkParams.bitcoin }).address,
            payments.p2sh({ hash: h20, network: networkParams.bitcoin }).address,
          ],
          LTC: [
            payments.p2wpkh({ hash: h20, network: networkParams.litecoin }).address,
            payments.p2pkh({ hash: h20, network: networkParams.litecoin }).address,
            payments.p2sh({ hash: h20, network: networkParams.litecoin }).address,
          ],
          DOG: [
            payments.p2pkh({ hash: h20, network: networkParams.dogecoin }).address,
            payments.p2sh({ hash: h20, network: networkParams.dogecoin }).address,
          ],
        } as const
        for (const [currency, addresses] of Object.entries(made))
          for (const address of addresses) {
            if (address === undefined) throw new Error("no address")
            expect(isValidAddress(currency, address)).toBe(true)
            for (const other of ["BTC", "LTC", "DOG", "ETH"].filter((c) => c !== currency))
              expect(isValidAddress(other, address)).toBe(false)
          }
      }),
    )
  })

  it("one changed character makes a UTXO address invalid", () => {
    fc.assert(
      fc.property(
        hash20,
        fc.nat(),
        fc.constantFrom("bitcoin", "litecoin", "dogecoin" as const),
        (h, at, net) => {
          const network = networkParams[net]
          const address =
            net === "dogecoin"
              ? payments.p2pkh({ hash: h, network }).address
              : payments.p2wpkh({ hash: h, network }).address
          if (address === undefined) throw new Error("no address")
          const currency = net === "bitcoin" ? "BTC" : net === "litecoin" ? "LTC" : "DOG"
          const i = at % address.length
          const alphabet = net === "dogecoin" ? "123456789ABCDEFGH" : "qpzry9x8gf2tvdw0"
          const replacement = [...alphabet].find((c) => c !== address[i]) ?? "q"
          const changed = address.slice(0, i) + replacement + address.slice(i + 1)
          expect(isValidAddress(currency, changed)).toBe(false)
        },
      ),
    )
  })

  it("EVM: checksummed and lowercase forms of any 20 bytes are valid", () => {
    fc.assert(
      fc.property(hash20, (h) => {
        const lower = `0x${h.toString("hex")}`
        expect(isValidAddress("ETH", lower)).toBe(true)
        expect(isValidAddress("USDT", getAddress(lower))).toBe(true)
      }),
    )
  })
})

describe("unit conversion", () => {
  const subunits = fc.constantFrom(1n, 100n, 10n ** 6n, 10n ** 8n, 10n ** 18n)

  it("minor → decimal → minor is the identity", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), subunits, (minor, unit) => {
        expect(toMinorUnits(fromMinorUnits(minor, unit), unit)).toBe(minor)
      }),
    )
  })

  it("never rounds: more decimals than the currency has is refused", () => {
    expect(toMinorUnits("0.0015", 10n ** 8n)).toBe(150_000n)
    expect(toMinorUnits("1", 10n ** 18n)).toBe(10n ** 18n)
    expect(toMinorUnits("0.0000001", 10n ** 6n)).toBeNull()
    expect(toMinorUnits("-1", 100n)).toBeNull()
    expect(toMinorUnits("1e5", 100n)).toBeNull()
    expect(fromMinorUnits(150_000n, 10n ** 8n)).toBe("0.0015")
    expect(fromMinorUnits(100_000_000n, 10n ** 8n)).toBe("1")
  })
})

describe("payment URIs", () => {
  it("BIP21 and EIP-681 read back to the receiver, chain, token and amount", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...cryptoCurrencies),
        fc.option(fc.bigInt({ min: 1n, max: 10n ** 24n }), { nil: undefined }),
        hash20,
        (currency, amount, h) => {
          const evm = currency === "ETH" || currency === "USDT"
          const address = evm
            ? getAddress(`0x${h.toString("hex")}`)
            : "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
          const tokenContract = currency === "USDT" ? "0xdAC17F958D2ee523a2206206994597C13D831ec7" : null
          const unit = currency === "USDT" ? 10n ** 6n : currency === "ETH" ? 10n ** 18n : 10n ** 8n
          const uri = paymentUri({
            currency,
            address,
            chainId: evm ? 1 : null,
            tokenContract,
            amount,
            subunitsToUnit: unit,
          })
          const parsed = parsePaymentUri(uri, unit)
          expect(parsed?.address).toBe(address)
          expect(parsed?.amount).toBe(amount ?? null)
          expect(parsed?.tokenContract).toBe(tokenContract)
          expect(parsed?.chainId).toBe(evm ? 1 : null)
        },
      ),
    )
  })

  it("writes the standard forms", () => {
    const base = { subunitsToUnit: 10n ** 8n }
    expect(paymentUri({ ...base, currency: "BTC", address: "bc1qx", amount: 150_000n })).toBe(
      "bitcoin:bc1qx?amount=0.0015",
    )
    expect(paymentUri({ ...base, currency: "DOG", address: "D1" })).toBe("dogecoin:D1")
    expect(
      paymentUri({
        currency: "USDT",
        address: "0xA",
        chainId: 1,
        tokenContract: "0xT",
        amount: 5n,
        subunitsToUnit: 10n ** 6n,
      }),
    ).toBe("ethereum:0xT@1/transfer?address=0xA&uint256=5")
    expect(paymentUri({ currency: "ETH", address: "0xA", chainId: 31337, subunitsToUnit: 10n ** 18n })).toBe(
      "ethereum:0xA@31337",
    )
  })
})
