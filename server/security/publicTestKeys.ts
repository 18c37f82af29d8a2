/**
 * Keys the whole world knows, refused with NODE_ENV=production. Only their PUBLIC halves are here:
 * the casino never holds a test private key or mnemonic (the local test chains do, beside it).
 *
 * - The account xpubs of BIP39's first test vector, "abandon abandon … abandon about" (the local
 *   composition's CRYPTO_XPUB_*): anyone can derive the private keys and spend every deposit.
 * - The addresses of anvil's and Hardhat's ten dev accounts (mnemonic "test test … junk", printed
 *   by every local node): a hot wallet key whose address is one of them is anybody's wallet.
 */
import { privateKeyToAccount } from "viem/accounts"

/** BTC m/84'/0'/0', LTC m/84'/2'/0', DOGE m/44'/3'/0', ETH m/44'/60'/0' of the "abandon … about" mnemonic. */
export const publicTestXpubs: ReadonlyArray<string> = [
  "xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V",
  "xpub6CjGURuDpczf6uNrCCwfhVizn5J3hsWcvZ2m6GAdmAjZnoWJPrx6TFPjGSftc2o5fvox6ubQjSXmjjaHZjwYMH7SGFpHHb9Jg24zBf66mbE",
  "xpub6Bxse8AT19u9HExKtP1EAudLi9CpLxPpxDvanL2fFtM7UFE2Q7TTWRg4bnMnmT4KcyN6GQkSgZmPWDtyUywSii3MDpMNfXSTuzH7gvZywLU",
  "xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt",
]

/** anvil's dev accounts #0…#9 (m/44'/60'/0'/0/i of "test test … junk"), lowercased. */
export const publicTestAddresses: ReadonlyArray<string> = [
  "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
  "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
  "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
  "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65",
  "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc",
  "0x976ea74026e726554db657fa54763abd0c3a0aa9",
  "0x14dc79964da2c08b23698b3d3cc7ca32193d9955",
  "0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f",
  "0xa0ee7a142d267c1f36714e4a8f75612f20a79720",
]

export const isPublicTestXpub = (xpub: string): boolean => publicTestXpubs.includes(xpub)

/** Whether this EVM private key (0x + 64 hex) signs for one of the public dev accounts. */
export const isPublicTestKey = (privateKey: `0x${string}`): boolean =>
  publicTestAddresses.includes(privateKeyToAccount(privateKey).address.toLowerCase())
