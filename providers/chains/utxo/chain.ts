/**
 * One local UTXO chain of the sandbox (docs/crypto.md "Sandbox chains"): real bitcoinjs-lib
 * transactions in blocks with real headers (merkle root, previous hash; no proof of work), a UTXO
 * set, a mempool, and a faucet wallet whose key receives every coinbase. Submitted transactions are
 * checked like a node would: inputs exist and are unspent, amounts add up, and every input's
 * signature verifies (P2WPKH and P2PKH — what the faucet and the tests use). Never a real chain:
 * mainnet address formats so deposit addresses are the production ones, but nothing leaves this
 * process — except, given a `stateFile`, the chain's own state: the raw blocks, the mempool and the
 * faucet key, rewritten atomically after every change and re-verified block by block at the next
 * start, so a restarted sandbox continues the same chain (a watcher's cursor stays valid).
 */
import { randomBytes, randomInt } from "node:crypto"
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { address as addressCodec, Block, crypto, Psbt, payments, script, Transaction } from "bitcoinjs-lib"
import { ECPairFactory, type ECPairInterface } from "ecpair"
import * as ecc from "tiny-secp256k1"
import { networkParams, type UtxoNetwork } from "../../../protocols/chains/networks.ts"

const ECPair = ECPairFactory(ecc)
/** Each block pays the faucet this much (in minor units): 50 coins. */
export const COINBASE_VALUE = 50n * 100_000_000n
/** The fee the faucet pays per transaction. */
export const FAUCET_FEE = 10_000n

export interface SandboxBlock {
  readonly hash: string
  readonly height: number
  readonly prevHash: string
  readonly time: number
  readonly txs: ReadonlyArray<Transaction>
  /** The whole block (header and transactions) as a node serialises it: what the state file keeps. */
  readonly raw: string
}

/** `${CHAINS_DATA_DIR}/utxo/<network>.json`: everything needed to rebuild the chain. */
interface ChainState {
  readonly format: 1
  readonly network: UtxoNetwork
  /** The faucet's private key (hex). A sandbox TEST key of a chain that exists only here: never money. */
  readonly faucetPrivateKey: string
  /** Every block from genesis, raw hex (`Block.toHex()`). */
  readonly blocks: ReadonlyArray<string>
  /** The mempool's transactions, raw hex, in arrival order. */
  readonly mempool: ReadonlyArray<string>
}

export interface SandboxChainOptions {
  /** Where the chain is kept between runs; none ⇒ memory only (a new chain per process). */
  readonly stateFile?: string
}

const isHexString = (v: unknown): v is string => typeof v === "string" && /^(?:[0-9a-f]{2})+$/.test(v)
const isHexList = (v: unknown): v is ReadonlyArray<string> => Array.isArray(v) && v.every(isHexString)

/** The state file, undefined when there is none yet; a file that is not a chain state throws. */
const readState = (file: string, network: UtxoNetwork): ChainState | undefined => {
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch (e) {
    if (e instanceof Error && "code" in e && e.code === "ENOENT") return undefined
    throw e
  }
  const parsed: unknown = JSON.parse(text)
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    !("format" in parsed && parsed.format === 1) ||
    !("network" in parsed && parsed.network === network) ||
    !("faucetPrivateKey" in parsed && isHexString(parsed.faucetPrivateKey)) ||
    !("blocks" in parsed && isHexList(parsed.blocks) && parsed.blocks.length > 0) ||
    !("mempool" in parsed && isHexList(parsed.mempool))
  )
    throw new Error(`not a ${network} sandbox chain state`)
  return {
    format: 1,
    network,
    faucetPrivateKey: parsed.faucetPrivateKey,
    blocks: parsed.blocks,
    mempool: parsed.mempool,
  }
}

interface Utxo {
  readonly value: bigint
  readonly script: Uint8Array
}

const outpoint = (txid: string, vout: number) => `${txid}:${vout}`
const txidOfInput = (hash: Uint8Array) => Buffer.from(hash).reverse().toString("hex")
const equalBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b))

export class TxRefused extends Error {}

export class SandboxChain {
  readonly network: UtxoNetwork
  readonly faucetKey: ECPairInterface
  readonly faucetAddress: string
  private readonly params
  private readonly stateFile: string | undefined
  /** Off while the state is being rebuilt from the file (nothing new to write). */
  private saving = true
  private blocks: SandboxBlock[] = []
  private mempool: Transaction[] = []
  private utxos = new Map<string, Utxo>()
  /** Every transaction ever accepted and still in the chain or mempool, by txid. */
  private txs = new Map<string, { tx: Transaction; height: number | null }>()

  constructor(network: UtxoNetwork, options: SandboxChainOptions = {}) {
    this.network = network
    this.params = networkParams[network]
    this.stateFile = options.stateFile
    let saved: ChainState | undefined
    try {
      saved = this.stateFile === undefined ? undefined : readState(this.stateFile, network)
    } catch (e) {
      throw this.unusableState(e)
    }
    this.faucetKey =
      saved === undefined
        ? ECPair.makeRandom({ network: this.params })
        : ECPair.fromPrivateKey(Buffer.from(saved.faucetPrivateKey, "hex"), { network: this.params })
    const faucet = payments.p2pkh({ pubkey: this.faucetKey.publicKey, network: this.params }).address
    if (faucet === undefined) throw new Error("no faucet address")
    this.faucetAddress = faucet
    if (saved === undefined) {
      // Genesis, then a few blocks so the faucet has coins from the start.
      this.mine(5)
      return
    }
    this.saving = false
    try {
      this.restore(saved)
    } catch (e) {
      throw this.unusableState(e)
    }
    this.saving = true
  }

  private unusableState(cause: unknown): Error {
    const why = cause instanceof Error ? cause.message : String(cause)
    // Never a silent new chain: the watcher's cursor and the credited deposits refer to this one.
    return new Error(
      `the ${this.network} sandbox chain in ${this.stateFile} cannot be restored (${why}); ` +
        'move it away to start a new chain (docs/crypto.md "Sandbox chains")',
    )
  }

  /**
   * Rebuilds blocks, UTXO set and mempool from a state file, checking everything again as if the
   * blocks came from a peer: heights in order, each previous hash, each merkle root, one coinbase
   * first, and every other transaction's inputs, amounts and signatures.
   */
  private restore(state: ChainState): void {
    state.blocks.forEach((hex, height) => {
      let header: Block
      try {
        header = Block.fromHex(hex)
      } catch {
        throw new Error(`block ${height} does not parse`)
      }
      const txs = header.transactions ?? []
      const prevHash = height === 0 ? "0".repeat(64) : this.tip.hash
      if (
        Buffer.from(header.prevHash ?? new Uint8Array(32))
          .reverse()
          .toString("hex") !== prevHash
      )
        throw new Error(`block ${height} does not follow block ${height - 1}`)
      if (
        header.merkleRoot === undefined ||
        !equalBytes(header.merkleRoot, Block.calculateMerkleRoot(txs)) ||
        txs[0]?.isCoinbase() !== true ||
        txs.slice(1).some((t) => t.isCoinbase())
      )
        throw new Error(`block ${height} has bad transactions`)
      for (const tx of txs) {
        if (!tx.isCoinbase()) {
          try {
            this.verify(tx)
          } catch (e) {
            throw new Error(
              `block ${height}, transaction ${tx.getId()}: ${e instanceof Error ? e.message : e}`,
            )
          }
        }
        this.apply(tx)
        this.txs.set(tx.getId(), { tx, height })
      }
      this.blocks.push({ hash: header.getId(), height, prevHash, time: header.timestamp, txs, raw: hex })
    })
    for (const hex of state.mempool) this.submit(hex)
  }

  /** Writes the state file (temp file + rename: a crash leaves the old state or the new, never half). */
  private save(): void {
    if (this.stateFile === undefined || !this.saving) return
    const state: ChainState = {
      format: 1,
      network: this.network,
      faucetPrivateKey: Buffer.from(this.faucetKey.privateKey ?? new Uint8Array()).toString("hex"),
      blocks: this.blocks.map((b) => b.raw),
      mempool: this.mempool.map((t) => t.toHex()),
    }
    mkdirSync(dirname(this.stateFile), { recursive: true })
    const temp = `${this.stateFile}.${process.pid}.tmp`
    writeFileSync(temp, JSON.stringify(state), { mode: 0o600 })
    renameSync(temp, this.stateFile)
  }

  get tip(): SandboxBlock {
    const tip = this.blocks.at(-1)
    if (tip === undefined) throw new Error("empty chain")
    return tip
  }

  blockAt(height: number): SandboxBlock | undefined {
    return this.blocks[height]
  }

  blockByHash(hash: string): SandboxBlock | undefined {
    return this.blocks.find((b) => b.hash === hash)
  }

  transaction(txid: string): { tx: Transaction; height: number | null } | undefined {
    return this.txs.get(txid)
  }

  addressOf(out: Uint8Array): string | null {
    try {
      return addressCodec.fromOutputScript(out, this.params)
    } catch {
      return null
    }
  }

  /** The unspent outputs paying `address` (mempool spends excluded, mempool outputs included). */
  utxosOf(address: string): Array<{ txid: string; vout: number; value: bigint; confirmed: boolean }> {
    const out: Array<{ txid: string; vout: number; value: bigint; confirmed: boolean }> = []
    for (const [key, utxo] of this.utxos) {
      if (this.addressOf(utxo.script) !== address) continue
      const [txid = "", vout = "0"] = key.split(":")
      out.push({
        txid,
        vout: Number(vout),
        value: utxo.value,
        confirmed: this.txs.get(txid)?.height !== null,
      })
    }
    return out
  }

  /** Mines `count` blocks; the first takes the whole mempool. Answers the new tip. */
  mine(count = 1): SandboxBlock {
    for (let i = 0; i < count; i++) {
      const height = this.blocks.length
      const coinbase = new Transaction()
      // BIP34-like height plus random bytes: every coinbase (and so every block) is unique.
      coinbase.addInput(
        new Uint8Array(32),
        0xffffffff,
        0xffffffff,
        script.compile([script.number.encode(height), randomBytes(8)]),
      )
      const faucetScript = payments.p2pkh({ pubkey: this.faucetKey.publicKey, network: this.params }).output
      if (faucetScript === undefined) throw new Error("no faucet script")
      coinbase.addOutput(faucetScript, COINBASE_VALUE)
      const txs = [coinbase, ...this.mempool]
      this.mempool = []
      const header = new Block()
      header.version = 0x20000000
      header.prevHash = height === 0 ? new Uint8Array(32) : Buffer.from(this.tip.hash, "hex").reverse()
      header.merkleRoot = Block.calculateMerkleRoot(txs)
      header.timestamp = Math.floor(Date.now() / 1000) + height
      header.bits = 0x207fffff
      header.nonce = randomInt(0, 2 ** 31)
      header.transactions = txs
      const block: SandboxBlock = {
        hash: header.getId(),
        height,
        prevHash: height === 0 ? "0".repeat(64) : this.tip.hash,
        time: header.timestamp,
        txs,
        raw: header.toHex(),
      }
      this.blocks.push(block)
      for (const tx of txs) {
        const id = tx.getId()
        if (tx.isCoinbase()) this.apply(tx)
        this.txs.set(id, { tx, height })
      }
    }
    this.save()
    return this.tip
  }

  /**
   * Replaces the last `depth` blocks by `depth + 1` new ones (a longer branch wins). Their
   * transactions go back to the mempool and into the new first block — or, with `dropTxs`, are gone
   * (as if double-spent on the other branch).
   */
  reorg(depth: number, options: { readonly dropTxs?: boolean } = {}): SandboxBlock {
    if (depth < 1 || depth >= this.blocks.length) throw new Error(`cannot reorg ${depth} blocks`)
    const removed = this.blocks.splice(this.blocks.length - depth, depth)
    const returning =
      options.dropTxs === true ? [] : removed.flatMap((b) => b.txs.filter((t) => !t.isCoinbase()))
    const pending = [...returning, ...this.mempool]
    this.rebuild()
    // One write, for the new branch (mine saves), not one per returning transaction.
    this.saving = false
    for (const tx of pending) {
      try {
        this.submit(tx.toHex())
      } catch {
        // Its inputs went with the replaced blocks: it is gone, as on a real chain.
      }
    }
    this.saving = true
    return this.mine(depth + 1)
  }

  /** Accepts a signed transaction into the mempool (Esplora's POST /tx). Answers its txid. */
  submit(hex: string): string {
    let tx: Transaction
    try {
      tx = Transaction.fromHex(hex)
    } catch {
      throw new TxRefused("not a transaction")
    }
    if (tx.isCoinbase() || tx.ins.length === 0 || tx.outs.length === 0)
      throw new TxRefused("bad transaction shape")
    const id = tx.getId()
    if (this.txs.has(id)) throw new TxRefused("transaction already known")
    this.verify(tx)
    this.apply(tx)
    this.mempool.push(tx)
    this.txs.set(id, { tx, height: null })
    this.save()
    return id
  }

  /** A node's checks of a spending transaction against the UTXO set; throws `TxRefused`. */
  private verify(tx: Transaction): void {
    let inputs = 0n
    const seen = new Set<string>()
    tx.ins.forEach((input, i) => {
      const key = outpoint(txidOfInput(input.hash), input.index)
      const prev = this.utxos.get(key)
      if (prev === undefined || seen.has(key)) throw new TxRefused(`input ${i} is missing or spent`)
      seen.add(key)
      if (!this.signatureValid(tx, i, prev)) throw new TxRefused(`input ${i}: bad signature`)
      inputs += prev.value
    })
    const outputs = tx.outs.reduce((sum, o) => sum + o.value, 0n)
    if (tx.outs.some((o) => o.value <= 0n) || outputs > inputs) throw new TxRefused("outputs exceed inputs")
  }

  /** Pays `amount` from the faucet to `to` (signed by the faucet key). Answers the txid. */
  send(to: string, amount: bigint): string {
    const toScript = addressCodec.toOutputScript(to, this.params)
    const faucet = this.utxosOf(this.faucetAddress).sort((a, b) => (a.value < b.value ? 1 : -1))
    const psbt = new Psbt({ network: this.params })
    let total = 0n
    for (const u of faucet) {
      const prev = this.txs.get(u.txid)
      if (prev === undefined) continue
      psbt.addInput({ hash: u.txid, index: u.vout, nonWitnessUtxo: prev.tx.toBuffer() })
      total += u.value
      if (total >= amount + FAUCET_FEE) break
    }
    if (total < amount + FAUCET_FEE) throw new TxRefused("the faucet is empty: mine a block")
    psbt.addOutput({ script: toScript, value: amount })
    const change = total - amount - FAUCET_FEE
    if (change > 0n) psbt.addOutput({ address: this.faucetAddress, value: change })
    psbt.signAllInputs(this.faucetKey)
    psbt.finalizeAllInputs()
    return this.submit(psbt.extractTransaction().toHex())
  }

  private signatureValid(tx: Transaction, index: number, prev: Utxo): boolean {
    const input = tx.ins[index]
    if (input === undefined) return false
    const out = prev.script
    try {
      if (out.length === 22 && out[0] === 0x00 && out[1] === 0x14) {
        const [sig, pubkey] = input.witness
        if (sig === undefined || pubkey === undefined || !equalBytes(crypto.hash160(pubkey), out.subarray(2)))
          return false
        const decoded = script.signature.decode(sig)
        const scriptCode = payments.p2pkh({ hash: out.subarray(2) }).output
        if (scriptCode === undefined) return false
        const hash = tx.hashForWitnessV0(index, scriptCode, prev.value, decoded.hashType)
        return ecc.verify(hash, pubkey, decoded.signature)
      }
      const p2pkh = payments.p2pkh({ output: out })
      const parts = script.decompile(input.script)
      const [sig, pubkey] = parts ?? []
      if (!(sig instanceof Uint8Array) || !(pubkey instanceof Uint8Array) || p2pkh.hash === undefined)
        return false
      if (!equalBytes(crypto.hash160(pubkey), p2pkh.hash)) return false
      const decoded = script.signature.decode(sig)
      const hash = tx.hashForSignature(index, out, decoded.hashType)
      return ecc.verify(hash, pubkey, decoded.signature)
    } catch {
      return false
    }
  }

  private apply(tx: Transaction): void {
    if (!tx.isCoinbase())
      for (const input of tx.ins) this.utxos.delete(outpoint(txidOfInput(input.hash), input.index))
    const id = tx.getId()
    tx.outs.forEach((o, vout) => {
      this.utxos.set(outpoint(id, vout), { value: o.value, script: o.script })
    })
  }

  /** The UTXO set and index from the blocks alone (after a reorg); the mempool is emptied. */
  private rebuild(): void {
    this.utxos = new Map()
    this.txs = new Map()
    this.mempool = []
    for (const block of this.blocks)
      for (const tx of block.txs) {
        this.apply(tx)
        this.txs.set(tx.getId(), { tx, height: block.height })
      }
  }
}
