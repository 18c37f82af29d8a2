/**
 * `npm run contracts:build`: compiles providers/chains/contracts/SandboxUSDT.sol with solc 0.8.37 (a devDependency,
 * in-process WebAssembly) into providers/chains/contracts/SandboxUSDT.json — the abi, the creation and runtime
 * bytecode and the storage layout the sandbox needs. The JSON is committed so the server never
 * needs solc at run time; tests/server/crypto-evm.artifact.test.ts recompiles and checks it is fresh.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import solc from "solc"

export const contractSource = fileURLToPath(
  new URL("../providers/chains/contracts/SandboxUSDT.sol", import.meta.url),
)
export const artifactFile = fileURLToPath(
  new URL("../providers/chains/contracts/SandboxUSDT.json", import.meta.url),
)

const SolcOutput = Schema.Struct({
  errors: Schema.optional(
    Schema.Array(Schema.Struct({ severity: Schema.String, formattedMessage: Schema.String })),
  ),
  contracts: Schema.optional(
    Schema.Record(
      Schema.String,
      Schema.Record(
        Schema.String,
        Schema.Struct({
          abi: Schema.Array(Schema.Unknown),
          evm: Schema.Struct({
            bytecode: Schema.Struct({ object: Schema.String }),
            deployedBytecode: Schema.Struct({ object: Schema.String }),
          }),
          storageLayout: Schema.Struct({
            storage: Schema.Array(Schema.Struct({ label: Schema.String, slot: Schema.String })),
          }),
        }),
      ),
    ),
  ),
})

/** Compiles the contract and answers the artifact's JSON text (what the committed file must hold). */
export const compileSandboxUsdt = (): string => {
  const input = {
    language: "Solidity",
    sources: { "SandboxUSDT.sol": { content: readFileSync(contractSource, "utf8") } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "cancun",
      outputSelection: {
        "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object", "storageLayout"] },
      },
    },
  }
  const output = Schema.decodeUnknownSync(SolcOutput)(JSON.parse(solc.compile(JSON.stringify(input))))
  const errors = (output.errors ?? []).filter((e) => e.severity === "error")
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"))
  const contract = output.contracts?.["SandboxUSDT.sol"]?.SandboxUSDT
  if (contract === undefined) throw new Error("solc produced no SandboxUSDT contract")
  const artifact = {
    contractName: "SandboxUSDT",
    compiler: `solc ${String(solc.version())}`,
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
    deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
    storageLayout: contract.storageLayout.storage.map((s) => ({ label: s.label, slot: s.slot })),
  }
  return `${JSON.stringify(artifact, null, 2)}\n`
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(artifactFile, compileSandboxUsdt())
  console.log(`wrote ${artifactFile}`)
}
