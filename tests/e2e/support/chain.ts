/**
 * The e2e stack's local EVM chain (the chains party's anvil, the casino's EVM_RPC_URL, handed to the
 * tests as `E2E_EVM_RPC_URL`), seen from the TEST, as the outside world a player pays from and is
 * paid to:
 * - `sendToken`: USDT from a throwaway wallet of the test's own (a fresh random key, given gas with
 *   `anvil_setBalance` and USDT minted by the token's owner, anvil's PUBLIC test account #0 whose key
 *   is printed by every anvil and in its docs), then the transfer, mined in one block;
 * - `mine`: blocks on demand (the e2e chains mine none by themselves: CHAIN_SANDBOX_BLOCK_SECONDS=0);
 * - `tokenBalance`: what an address holds (a payout arrived);
 * - `withChain`: one journey at a time on the chain, across Playwright's workers (a block mined by
 *   one journey would count confirmations of another's transfer: "pending" could never be seen).
 */
import { closeSync, openSync, rmSync } from "node:fs"
import { join } from "node:path"
import {
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseAbi,
  parseEther,
  publicActions,
} from "viem"
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts"
import { E2E_ENV, requiredEnv } from "./env.ts"

/** anvil's account #0 (mnemonic "test test … junk"): a public TEST key, the sandbox USDT's owner. */
const ANVIL_TEST_KEY_0: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"

/** The sandbox token (contracts/SandboxUSDT.sol): a standard ERC-20 plus the owner's mint. */
const usdtAbi = parseAbi([
  "function mint(address to, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function balanceOf(address) view returns (uint256)",
])

/** The chain's RPC address (set by the global setup). */
export const evmRpcUrl = (): string => requiredEnv(E2E_ENV.evmRpcUrl)

const anvil = (rpcUrl: string) => {
  const transport = http(rpcUrl)
  const chain = {
    id: 31337,
    name: "anvil (e2e)",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  } as const
  return {
    test: createTestClient({ mode: "anvil", transport, chain, cacheTime: 0 }).extend(publicActions),
    wallet: (account: PrivateKeyAccount) =>
      createWalletClient({ account, transport, chain, cacheTime: 0 }).extend(publicActions),
  }
}

/**
 * Account #0 is also the chains' faucet (the Buy crypto sandbox pays through it): a transaction sent
 * at the same moment may take the same nonce. The node then refuses one of them; it is sent again.
 */
const withNonceRetry = async <A>(send: () => Promise<A>): Promise<A> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send()
    } catch (error) {
      if (attempt >= 5 || !/nonce|underpriced|already known/i.test(String(error))) throw error
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt))
    }
  }
}

/**
 * Sends `amount` USDT minor units to `to` from a fresh wallet of the test's, mined in one block;
 * returns the transfer's hash. (The mint to that wallet is a transfer too, but from the zero
 * address to an address no player has.)
 */
export const sendToken = async (rpcUrl: string, token: string, to: string, amount: bigint): Promise<Hex> => {
  const { test, wallet } = anvil(rpcUrl)
  const payer = privateKeyToAccount(generatePrivateKey())
  await test.setBalance({ address: payer.address, value: parseEther("1") })
  const owner = wallet(privateKeyToAccount(ANVIL_TEST_KEY_0))
  const mint = await withNonceRetry(() =>
    owner.writeContract({
      address: getAddress(token),
      abi: usdtAbi,
      functionName: "mint",
      args: [payer.address, amount],
    }),
  )
  await test.mine({ blocks: 1 })
  ensureSuccess((await test.waitForTransactionReceipt({ hash: mint })).status, "mint")
  const hash = await wallet(payer).writeContract({
    address: getAddress(token),
    abi: usdtAbi,
    functionName: "transfer",
    args: [getAddress(to), amount],
  })
  await test.mine({ blocks: 1 })
  ensureSuccess((await test.waitForTransactionReceipt({ hash })).status, "transfer")
  return hash
}

const ensureSuccess = (status: "success" | "reverted", what: string): void => {
  if (status !== "success") throw new Error(`the test's USDT ${what} reverted on the local chain`)
}

/** Mines `blocks` blocks now: whatever is in the mempool goes into the first one. */
export const mine = async (rpcUrl: string, blocks: number): Promise<void> => {
  await anvil(rpcUrl).test.mine({ blocks })
}

/** The USDT (minor units) `address` holds on the local chain. */
export const tokenBalance = (rpcUrl: string, token: string, address: string): Promise<bigint> =>
  anvil(rpcUrl).test.readContract({
    address: getAddress(token),
    abi: usdtAbi,
    functionName: "balanceOf",
    args: [getAddress(address)],
  })

/** A new EIP-55 address nobody uses (a random key the test forgets): where a payout goes. */
export const freshAddress = (): string => privateKeyToAccount(generatePrivateKey()).address

/**
 * Runs `journey` holding the chain's lock: a file created exclusively in the e2e server's data folder
 * (fresh each run), removed when the journey ends, failed or not. Other workers wait for it.
 */
export const withChain = async <A>(journey: () => Promise<A>): Promise<A> => {
  const lock = join(requiredEnv(E2E_ENV.dataDir), "e2e-chain.lock")
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"))
      break
    } catch (error) {
      if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  try {
    return await journey()
  } finally {
    rmSync(lock, { force: true })
  }
}
