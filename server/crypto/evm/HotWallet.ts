/**
 * Crypto payouts from the EVM hot wallet (docs/chains-evm.md): ETH and USDT (ERC-20) transfers
 * signed with the key from configuration (CRYPTO_HOT_WALLET_KEY_ETH) and broadcast over JSON-RPC.
 *
 * Exactly once per request key, across retries, restarts and servers:
 * 1. under a row lock on the wallet's row (crypto_hot_wallets), the key is looked up again, the
 *    funds are checked (chain balance less what the wallet's signed-but-unmined payouts will take),
 *    the next nonce is taken, the transaction is signed and STORED (raw bytes + nonce) with the key
 *    UNIQUE — all in one database transaction;
 * 2. only then is it broadcast. A repeat with the same key rebroadcasts the stored bytes: the
 *    same hash, never a second transfer. A crash between 1 and 2 leaves a stored transaction that
 *    the next repeat (or `confirmations`) broadcasts.
 */
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import {
  BaseError,
  ExecutionRevertedError,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  InsufficientFundsError,
  isAddress,
  isHex,
  keccak256,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  zeroAddress,
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import type { CryptoCurrency } from "../../../services/crypto-service.ts"
import { ChainUnavailable } from "../chain.ts"
import { CryptoPayouts, type CryptoPayoutsShape, PayoutRejected, type PayoutRequest } from "../payouts.ts"
import { makePayoutsRepo, type PayoutTxRow } from "./PayoutsRepo.ts"
import { errorText, evmPublicClient, rpc } from "./rpc.ts"

export interface HotWalletOptions {
  /** JSON-RPC endpoint of the node the payouts go through. */
  readonly rpcUrl: string
  /** The chain id signed into every transaction (1 on mainnet, 31337 in the sandbox). */
  readonly chainId: number
  readonly usdtContract: string
  /** The hot wallet's private key (0x + 64 hex), from configuration. */
  readonly privateKey: Hex
}

const network = "ethereum"

/** A hash or raw transaction as viem types it; strings here come from our own table or caller. */
const hex = (value: string): Hex => (isHex(value) ? value : "0x")

/** Whether the node refused the call itself (revert, no funds) rather than failing to answer. */
const refusedByChain = (error: unknown): boolean =>
  error instanceof BaseError &&
  error.walk((e) => e instanceof ExecutionRevertedError || e instanceof InsufficientFundsError) !== null

export const makeHotWallet = (options: HotWalletOptions) =>
  Effect.gen(function* () {
    const repo = yield* makePayoutsRepo
    const client = evmPublicClient(options.rpcUrl)
    const account = privateKeyToAccount(options.privateKey)
    const address = account.address.toLowerCase()
    const usdt = getAddress(options.usdtContract)
    const supports = (currency: CryptoCurrency) => currency === "ETH" || currency === "USDT"
    const reject = (currency: string, message: string) =>
      Effect.fail(new PayoutRejected({ currency, message }))

    const minedCount = rpc("eth_getTransactionCount", () =>
      client.getTransactionCount({ address: account.address, blockTag: "latest" }).then(BigInt),
    )

    /** Sends the stored bytes; "already known" and friends are fine when the node has our hash. */
    const broadcast = (row: PayoutTxRow) =>
      Effect.tryPromise({
        try: () => client.sendRawTransaction({ serializedTransaction: hex(row.rawTx) }),
        catch: (error) => error,
      }).pipe(
        Effect.asVoid,
        Effect.catch((error) =>
          rpc("eth_getTransactionByHash", () =>
            client.getTransaction({ hash: hex(row.txHash) }).catch((e: unknown) => {
              if (e instanceof TransactionNotFoundError) return undefined
              throw e
            }),
          ).pipe(
            Effect.flatMap((known) =>
              known !== undefined
                ? Effect.void
                : Effect.fail(
                    new ChainUnavailable({ network, message: `eth_sendRawTransaction: ${errorText(error)}` }),
                  ),
            ),
          ),
        ),
      )

    const transferData = (request: PayoutRequest): Hex | undefined =>
      request.currency === "USDT"
        ? encodeFunctionData({
            abi: erc20Abi,
            functionName: "transfer",
            args: [getAddress(request.to), request.amount],
          })
        : undefined

    /** Signs and stores the payout under the wallet's row lock; answers the stored row. */
    const signOnce = (request: PayoutRequest) =>
      repo.transaction(
        Effect.gen(function* () {
          yield* repo.ensureWallet(network, address, yield* minedCount)
          const nextNonce = yield* repo.lockWallet(network, address)
          // A concurrent call with the same key may have signed while this one waited for the lock.
          const again = yield* repo.findByKey(request.key)
          if (again !== undefined) return again
          const mined = yield* minedCount
          const unmined = yield* repo.unmined(network, address, mined)
          const fees = yield* rpc("eth_feeHistory", () => client.estimateFeesPerGas())
          const ethBalance = yield* rpc("eth_getBalance", () =>
            client.getBalance({ address: account.address, blockTag: "latest" }),
          )
          const sum = (rows: ReadonlyArray<PayoutTxRow>, f: (r: PayoutTxRow) => bigint) =>
            rows.reduce((total, r) => total + f(r), 0n)
          const ethReserved = sum(
            unmined,
            (r) => (r.currency === "ETH" ? r.amount : 0n) + r.gasLimit * r.maxFeePerGas,
          )
          const value = request.currency === "ETH" ? request.amount : 0n
          if (request.currency === "USDT") {
            const tokens = yield* rpc("balanceOf", () =>
              client.readContract({
                address: usdt,
                abi: erc20Abi,
                functionName: "balanceOf",
                args: [account.address],
              }),
            )
            const usdtReserved = sum(unmined, (r) => (r.currency === "USDT" ? r.amount : 0n))
            if (tokens - usdtReserved < request.amount)
              return yield* reject("USDT", "the hot wallet does not hold enough USDT for this payout")
          }
          // A plain transfer costs 21,000 gas: refuse before asking the node to estimate a transfer
          // that cannot be paid (its estimate would fail with a less clear error).
          if (ethBalance - ethReserved < value + 21_000n * fees.maxFeePerGas)
            return yield* reject(
              request.currency,
              "the hot wallet does not hold enough ETH for this payout and its gas",
            )
          const data = transferData(request)
          const to = request.currency === "USDT" ? usdt : getAddress(request.to)
          const estimate = yield* Effect.tryPromise({
            try: () =>
              client.estimateGas(
                data === undefined
                  ? { account: account.address, to, value }
                  : { account: account.address, to, data },
              ),
            catch: (error) => error,
          }).pipe(
            Effect.catch(
              (error): Effect.Effect<never, PayoutRejected | ChainUnavailable> =>
                refusedByChain(error)
                  ? reject(request.currency, `the chain refuses this transfer: ${errorText(error)}`)
                  : Effect.fail(
                      new ChainUnavailable({ network, message: `eth_estimateGas: ${errorText(error)}` }),
                    ),
            ),
          )
          // A margin over the estimate: state can change between estimate and inclusion.
          const gasLimit =
            value > 0n && data === undefined && estimate === 21_000n ? estimate : (estimate * 12n) / 10n
          if (ethBalance - ethReserved < value + gasLimit * fees.maxFeePerGas)
            return yield* reject(
              request.currency,
              "the hot wallet does not hold enough ETH for this payout and its gas",
            )
          const nonce = nextNonce > mined ? nextNonce : mined
          const rawTx = yield* Effect.promise(() =>
            account.signTransaction({
              type: "eip1559",
              chainId: options.chainId,
              nonce: Number(nonce),
              to,
              value,
              ...(data === undefined ? {} : { data }),
              gas: gasLimit,
              maxFeePerGas: fees.maxFeePerGas,
              maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
            }),
          )
          const row: PayoutTxRow = {
            requestKey: request.key,
            currency: request.currency,
            toAddress: request.to.toLowerCase(),
            amount: request.amount,
            nonce,
            gasLimit,
            maxFeePerGas: fees.maxFeePerGas,
            txHash: keccak256(rawTx),
            rawTx,
          }
          yield* repo.insert({ ...row, network, fromAddress: address })
          yield* repo.setNextNonce(network, address, nonce + 1n)
          return row
        }),
      )

    const send: CryptoPayoutsShape["send"] = (request) =>
      Effect.gen(function* () {
        if (!supports(request.currency))
          return yield* reject(request.currency, `no hot wallet pays out ${request.currency}`)
        if (request.amount <= 0n) return yield* reject(request.currency, "the amount must be positive")
        if (!isAddress(request.to) || request.to.toLowerCase() === zeroAddress)
          return yield* reject(request.currency, "not a valid Ethereum address (check its checksum)")
        const row = (yield* repo.findByKey(request.key)) ?? (yield* signOnce(request))
        if (
          row.currency !== request.currency ||
          row.toAddress !== request.to.toLowerCase() ||
          row.amount !== request.amount
        )
          return yield* reject(request.currency, `the key ${request.key} already paid a different payout`)
        yield* broadcast(row)
        yield* repo.markBroadcast(row.requestKey)
        return { txHash: row.txHash }
      }).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))

    const confirmations: CryptoPayoutsShape["confirmations"] = (_currency, txHash) =>
      Effect.gen(function* () {
        const hash = hex(txHash)
        const receipt = yield* Effect.tryPromise({
          try: () => client.getTransactionReceipt({ hash }),
          catch: (error) => error,
        }).pipe(
          Effect.catch((error) =>
            error instanceof TransactionReceiptNotFoundError
              ? Effect.succeed(undefined)
              : Effect.fail(
                  new ChainUnavailable({
                    network,
                    message: `eth_getTransactionReceipt: ${errorText(error)}`,
                  }),
                ),
          ),
        )
        if (receipt !== undefined) {
          // A reverted payout moved nothing: to the caller it is not a payment the chain knows.
          if (receipt.status !== "success") return null
          const tip = yield* rpc("eth_blockNumber", () => client.getBlockNumber({ cacheTime: 0 }))
          return Number(tip - receipt.blockNumber + 1n)
        }
        const pending = yield* rpc("eth_getTransactionByHash", () =>
          client.getTransaction({ hash }).catch((e: unknown) => {
            if (e instanceof TransactionNotFoundError) return undefined
            throw e
          }),
        )
        if (pending !== undefined) return 0
        // Not on the node: if it is ours and its nonce is still free (dropped from a mempool, or its
        // block reorged away), broadcast it again; it stays the same transaction.
        const row = yield* repo.findByHash(txHash)
        if (row === undefined || row.nonce < (yield* minedCount)) return null
        yield* broadcast(row)
        return 0
      }).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))

    return { supports, send, confirmations } satisfies CryptoPayoutsShape
  })

/** The hot wallet as the server's `CryptoPayouts` (needs the database). */
export const hotWalletLayer = (
  options: HotWalletOptions,
): Layer.Layer<CryptoPayouts, never, SqlClient.SqlClient> =>
  Layer.effect(CryptoPayouts, makeHotWallet(options))
