/**
 * The UTXO chains' address formats, as both sides of the chains' protocol read them (the casino
 * derives deposit addresses, a chain checks and pays them): the bitcoinjs-lib parameters (mainnet). Bitcoin's are built in; Litecoin's and
 * Dogecoin's are not, so they are written here from the chains' own chainparams.cpp (address
 * version bytes, WIF, bech32 prefix). Extended keys are read with Bitcoin's `xpub` versions on every
 * chain (the account xpub of docs/crypto.md), so `bip32` is the same for all three.
 */
import { type Network as BitcoinNetwork, networks } from "bitcoinjs-lib"

const xpubVersions = { public: 0x0488b21e, private: 0x0488ade4 }

export const networkParams = {
  bitcoin: networks.bitcoin,
  litecoin: {
    messagePrefix: "\x19Litecoin Signed Message:\n",
    bech32: "ltc",
    bip32: xpubVersions,
    pubKeyHash: 0x30,
    scriptHash: 0x32,
    wif: 0xb0,
  },
  dogecoin: {
    messagePrefix: "\x19Dogecoin Signed Message:\n",
    // Dogecoin has no segwit; bitcoinjs wants a prefix anyway and it is never used.
    bech32: "doge",
    bip32: xpubVersions,
    pubKeyHash: 0x1e,
    scriptHash: 0x16,
    wif: 0x9e,
  },
} as const satisfies Record<string, BitcoinNetwork>

export type UtxoNetwork = keyof typeof networkParams
export const utxoNetworks: ReadonlyArray<UtxoNetwork> = ["bitcoin", "litecoin", "dogecoin"]
export const isUtxoNetwork = (network: string): network is UtxoNetwork =>
  (utxoNetworks as ReadonlyArray<string>).includes(network)
