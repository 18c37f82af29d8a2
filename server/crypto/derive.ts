/**
 * Deposit addresses from an account extended PUBLIC key (docs/crypto.md "Keys"): `<xpub>/0/<index>`
 * (the external chain of BIP44/BIP84). No private key is ever on the server: the operator's wallet
 * holds the account's seed and sees every deposit on its own. BTC and LTC are bech32 P2WPKH (BIP84),
 * DOGE is P2PKH (it has no segwit), ETH/USDT the EIP-55 checksummed address of the same key kind.
 */
import { BIP32Factory, type BIP32Interface } from "bip32"
import { initEccLib, payments } from "bitcoinjs-lib"
import * as ecc from "tiny-secp256k1"
import { publicKeyToAddress } from "viem/accounts"
import type { Network } from "../../services/crypto-service.ts"
import { networkParams } from "./networks.ts"

initEccLib(ecc)
const bip32 = BIP32Factory(ecc)

/**
 * The account xpubs of the PUBLIC test mnemonic "abandon abandon … abandon about" (BIP39's first
 * vector): TEST ONLY — anyone can spend what is sent to these addresses. Used in development, tests
 * and the sandbox; `server/config.ts` refuses them when NODE_ENV=production.
 * Paths: BTC m/84'/0'/0', LTC m/84'/2'/0', DOGE m/44'/3'/0', ETH m/44'/60'/0'.
 */
export const testXpubs: Readonly<Record<Network, string>> = {
  bitcoin:
    "xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V",
  litecoin:
    "xpub6CjGURuDpczf6uNrCCwfhVizn5J3hsWcvZ2m6GAdmAjZnoWJPrx6TFPjGSftc2o5fvox6ubQjSXmjjaHZjwYMH7SGFpHHb9Jg24zBf66mbE",
  dogecoin:
    "xpub6Bxse8AT19u9HExKtP1EAudLi9CpLxPpxDvanL2fFtM7UFE2Q7TTWRg4bnMnmT4KcyN6GQkSgZmPWDtyUywSii3MDpMNfXSTuzH7gvZywLU",
  ethereum:
    "xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt",
}

/** Is this a readable account xpub (public only: an xprv is refused, it must never be configured)? */
export const parseXpub = (xpub: string): BIP32Interface | null => {
  try {
    const node = bip32.fromBase58(xpub)
    return node.isNeutered() ? node : null
  } catch {
    return null
  }
}

const toHex = (bytes: Uint8Array): `0x${string}` => `0x${Buffer.from(bytes).toString("hex")}`

/** The public key at `<account>/0/<index>` as the chain's receiving address. */
export const addressFromNode = (network: Network, account: BIP32Interface, index: number): string => {
  const child = account.derive(0).derive(index)
  switch (network) {
    case "bitcoin":
    case "litecoin":
    case "dogecoin": {
      const params = networkParams[network]
      const payment =
        network === "dogecoin"
          ? payments.p2pkh({ pubkey: child.publicKey, network: params })
          : payments.p2wpkh({ pubkey: child.publicKey, network: params })
      if (payment.address === undefined) throw new Error(`no ${network} address for index ${index}`)
      return payment.address
    }
    case "ethereum": {
      const uncompressed = ecc.pointCompress(child.publicKey, false)
      return publicKeyToAddress(toHex(uncompressed))
    }
  }
}

/** `deriveAddress(network, xpub, i)`: the address at index i (throws on an unreadable xpub). */
export const deriveAddress = (network: Network, xpub: string, index: number): string => {
  const account = parseXpub(xpub)
  if (account === null) throw new Error(`unreadable account xpub for ${network}`)
  return addressFromNode(network, account, index)
}
