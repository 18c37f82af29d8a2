/**
 * The sandbox's ERC-20 (../contracts/SandboxUSDT.sol) as compiled into ../contracts/SandboxUSDT.json by
 * `npm run contracts:build`. Only the runtime code and the storage layout are needed here: the
 * sandbox installs the code at the mainnet USDT address and writes the owner slot itself.
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { type Hex, isHex, parseAbi } from "viem"

const HexString = Schema.String.check(Schema.makeFilter((s: string) => isHex(s) || "a 0x hex string"))

const Artifact = Schema.Struct({
  contractName: Schema.Literal("SandboxUSDT"),
  deployedBytecode: HexString,
  storageLayout: Schema.Array(Schema.Struct({ label: Schema.String, slot: Schema.String })),
})

export const sandboxUsdtArtifactFile = fileURLToPath(
  new URL("../contracts/SandboxUSDT.json", import.meta.url),
)

export interface SandboxUsdtCode {
  readonly runtime: Hex
  /** The storage slot of `owner` (from the compiler's layout). */
  readonly ownerSlot: number
}

export const loadSandboxUsdt = (): SandboxUsdtCode => {
  const artifact = Schema.decodeUnknownSync(Artifact)(
    JSON.parse(readFileSync(sandboxUsdtArtifactFile, "utf8")),
  )
  const owner = artifact.storageLayout.find((s) => s.label === "owner")
  if (owner === undefined) throw new Error("SandboxUSDT.json: no `owner` in the storage layout")
  const runtime = artifact.deployedBytecode
  if (!isHex(runtime) || runtime.length < 4) throw new Error("SandboxUSDT.json: no runtime bytecode")
  return { runtime, ownerSlot: Number(owner.slot) }
}

/** The calls the sandbox makes beyond the ERC-20 standard. */
export const sandboxUsdtAbi = parseAbi([
  "function mint(address to, uint256 value) returns (bool)",
  "function owner() view returns (address)",
  "function decimals() view returns (uint8)",
  "function balanceOf(address) view returns (uint256)",
  "function transfer(address to, uint256 value) returns (bool)",
])
