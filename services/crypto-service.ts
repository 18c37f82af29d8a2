/**
 * Crypto deposits: the schemas of the crypto deposit and crypto history calls. The group
 * is `api/crypto-service.ts`; the rules both sides apply (payment URIs, unit conversion, widget fee
 * tiers) are `crypto-rules.ts`. Amounts are integers in the currency's own minor unit (satoshi, wei,
 * USDT's 6 decimals) as decimal strings, like every amount of the contract.
 */
import { Schema } from "effect"
import { Amount, CurrencyCode, HistoryQuery } from "./wallet-service.ts"

/** The crypto currencies of the currency list, by the list's codes (DOG is displayed DOGE). */
export const cryptoCurrencies = ["BTC", "LTC", "DOG", "ETH", "USDT"] as const
export type CryptoCurrency = (typeof cryptoCurrencies)[number]

/** The chain a currency lives on. USDT is the ERC-20 token on Ethereum (spec: "USDT (Erc20)"). */
export const networks = ["bitcoin", "litecoin", "dogecoin", "ethereum"] as const
export type Network = (typeof networks)[number]

/** POST /profile/crypto/deposit: the spec's payload (currency, promotionCoupon). */
export const CryptoDepositPayload = Schema.Struct({
  currency: CurrencyCode,
  promotionCoupon: Schema.optional(Schema.String.check(Schema.isMaxLength(40))),
})
export type CryptoDepositPayload = typeof CryptoDepositPayload.Type

/** One purchase widget of the Buy crypto tab (spec section 9: two fee tiers). */
export const BuyCryptoWidget = Schema.Struct({
  /** Stable id, e.g. "banxa". */
  id: Schema.String,
  name: Schema.String,
  /** Fee in basis points: 500 = 5 %, 450 = 4.5 %. */
  feeBps: Schema.Int,
  /** About how long a purchase takes, in minutes (15 or 20). */
  etaMinutes: Schema.Int,
  /** Above this many EUR the widget asks for identity verification (200 or 100). */
  verificationAboveEur: Schema.Int,
  /** The page the frame opens, already carrying the currency and the player's deposit address. */
  url: Schema.String,
})
export type BuyCryptoWidget = typeof BuyCryptoWidget.Type

/**
 * The answer of POST /profile/crypto/deposit: the player's own address for the currency (the same
 * one every time), what the Deposit tab shows with it, and the Buy crypto tab's widgets.
 */
export const CryptoDepositAddress = Schema.Struct({
  currency: CurrencyCode,
  network: Schema.Literals(networks),
  address: Schema.String,
  /** EVM chain id for the EIP-681 payment URI (1 on mainnet, the local node's id in the sandbox); null on UTXO chains. */
  chainId: Schema.NullOr(Schema.Int),
  /** ERC-20 contract address for a token (USDT); null for a chain's native coin. */
  tokenContract: Schema.NullOr(Schema.String),
  /** Confirmations a transfer needs before it is credited. */
  confirmations: Schema.Int,
  /** minDeposit in minor units (the crypto minimum warning). */
  minDeposit: Amount,
  /** The spec's field: the frame address of the first purchase widget (Banxa's family). */
  banxaCheckoutIframe: Schema.NullOr(Schema.String),
  /** All four purchase widgets of the Buy crypto tab, in display order. */
  widgets: Schema.Array(BuyCryptoWidget),
})
export type CryptoDepositAddress = typeof CryptoDepositAddress.Type

export const cryptoTransferStatuses = [
  /** Seen on chain, waiting for its confirmations. */
  "pending",
  /** Confirmed and booked in the ledger. */
  "credited",
  /** Confirmed but below minDeposit: recorded and shown, credited by the rule in docs/crypto.md. */
  "below_minimum",
  /** Its block was replaced by a reorg before it was credited (or its credit was reversed). */
  "orphaned",
] as const
export type CryptoTransferStatus = (typeof cryptoTransferStatuses)[number]

export const cryptoHistoryTypes = ["deposit", "withdraw"] as const
export const CryptoHistoryParams = Schema.Struct({ type: Schema.Literals(cryptoHistoryTypes) })
export const CryptoHistoryQuery = HistoryQuery

/** GET /profile/crypto/{type}: one on-chain transfer of the player, newest first. */
export const CryptoTransfer = Schema.Struct({
  id: Schema.String,
  currency: CurrencyCode,
  network: Schema.Literals(networks),
  txHash: Schema.String,
  /** The ERC-20 log index or the UTXO output index; null for a native ETH transfer. */
  outputIndex: Schema.NullOr(Schema.Int),
  /** The player's deposit address (deposit) or the payout address (withdraw). */
  address: Schema.String,
  amount: Amount,
  confirmations: Schema.Int,
  requiredConfirmations: Schema.Int,
  status: Schema.String,
  /** ISO 8601, UTC. */
  createdAt: Schema.String,
  updatedAt: Schema.String,
})
export type CryptoTransfer = typeof CryptoTransfer.Type
export const CryptoHistory = Schema.Array(CryptoTransfer)
export type CryptoHistory = typeof CryptoHistory.Type
