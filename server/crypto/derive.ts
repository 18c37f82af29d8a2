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
import { networkParams } from "../../protocols/chains/networks.ts"
import type { Network } from "../../services/crypto-service.ts"

initEccLib(ecc)
const bip32 = BIP32Factory(ecc)

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
