/**
 * What the deposit form shows of an address: the URI its QR code carries — the payment URI
 * of `crypto-rules.ts` (BIP21 for the UTXO chains, EIP-681 for ETH and ERC-20 tokens) with no amount,
 * since the player chooses how much to send — and shortened hashes for table cells. Shared by views
 * and tests.
 */
import { isCryptoCurrency, paymentUri } from "./crypto-rules.ts"

/** What the URI needs of POST /profile/crypto/deposit's answer. */
export interface PaymentTarget {
  readonly currency: string
  readonly address: string
  readonly chainId: number | null
  readonly tokenContract: string | null
}

/** The QR code's payment URI; a currency that is not a crypto one (never served) shows the bare address. */
export const depositQrUri = (target: PaymentTarget): string =>
  isCryptoCurrency(target.currency)
    ? paymentUri({
        currency: target.currency,
        address: target.address,
        chainId: target.chainId,
        tokenContract: target.tokenContract,
        // Only an amount is written in units; the QR code carries none.
        subunitsToUnit: 1n,
      })
    : target.address

/** `0x1234…abcd`: the start and end of a long hash or address, for a table cell (the full one goes in a title). */
export const shortenHash = (hash: string, keep = 6): string =>
  hash.length <= keep * 2 + 1 ? hash : `${hash.slice(0, keep)}…${hash.slice(-keep)}`
