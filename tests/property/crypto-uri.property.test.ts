/**
 * Properties of the deposit QR code's payment URI (services/crypto-uri.ts over crypto-rules.ts): BIP21 on the UTXO chains,
 * EIP-681 on Ethereum (native and ERC-20 transfer), with the address always recoverable from the URI,
 * and of the shortened hash shown in the history.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { depositQrUri, shortenHash } from "../../services/crypto-uri.ts"

const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const utxoAddress = fc
  .array(fc.constantFrom(...base58.split("")), { minLength: 26, maxLength: 62 })
  .map((chars) => chars.join(""))
const evmAddress = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`)
const chainId = fc.integer({ min: 1, max: 2 ** 31 - 1 })

describe("depositQrUri (crypto-rules' payment URI without an amount)", () => {
  it("published examples", () => {
    expect(
      depositQrUri({
        currency: "BTC",
        address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
        chainId: null,
        tokenContract: null,
      }),
    ).toBe("bitcoin:bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu")
    expect(
      depositQrUri({
        currency: "USDT",
        address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
        chainId: 1,
        tokenContract: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
      }),
    ).toBe(
      "ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
    )
  })

  it("BIP21: the coin's scheme, then exactly the address", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(["bitcoin", "BTC"], ["litecoin", "LTC"], ["dogecoin", "DOG"]),
        utxoAddress,
        ([network, currency], address) => {
          const uri = depositQrUri({ currency, address, chainId: null, tokenContract: null })
          expect(uri).toBe(`${network}:${address}`)
          expect(uri.slice(uri.indexOf(":") + 1)).toBe(address)
        },
      ),
    )
  })

  it("EIP-681 native: ethereum:<address>@<chainId>, the chain id left out only when unknown", () => {
    fc.assert(
      fc.property(evmAddress, fc.option(chainId), (address, id) => {
        const uri = depositQrUri({ currency: "ETH", address, chainId: id, tokenContract: null })
        expect(uri).toBe(id === null ? `ethereum:${address}` : `ethereum:${address}@${id}`)
        const parsed = /^ethereum:(0x[0-9a-f]{40})(?:@(\d+))?$/.exec(uri)
        expect(parsed?.[1]).toBe(address)
        expect(parsed?.[2] === undefined ? null : Number(parsed[2])).toBe(id)
      }),
    )
  })

  it("EIP-681 token: the contract is the target, the player's address the transfer's recipient", () => {
    fc.assert(
      fc.property(evmAddress, evmAddress, chainId, (address, token, id) => {
        const uri = depositQrUri({ currency: "USDT", address, chainId: id, tokenContract: token })
        const parsed = /^ethereum:(0x[0-9a-f]{40})@(\d+)\/transfer\?address=(0x[0-9a-f]{40})$/.exec(uri)
        expect(parsed).not.toBeNull()
        expect(parsed?.[1]).toBe(token)
        expect(Number(parsed?.[2])).toBe(id)
        expect(parsed?.[3]).toBe(address)
      }),
    )
  })
})

describe("shortenHash", () => {
  it("keeps the ends of a long hash and leaves a short one whole", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 0, maxLength: 80 }), (hash) => {
        const short = shortenHash(hash)
        if (hash.length <= 13) expect(short).toBe(hash)
        else {
          expect(short.length).toBe(13)
          expect(hash.startsWith(short.slice(0, 6))).toBe(true)
          expect(hash.endsWith(short.slice(-6))).toBe(true)
        }
      }),
    )
  })
})
