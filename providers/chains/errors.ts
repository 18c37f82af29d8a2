/** What the sandbox chains answer when they cannot do what was asked (docs: protocols/chains/faucet.ts). */
import { Schema } from "effect"

/** The request cannot be served as asked: not an address of that chain, an empty faucet, a bad reorg. */
export class ChainRefused extends Schema.TaggedError<ChainRefused>()("ChainRefused", {
  message: Schema.String,
}) {}

/** A chain's node did not answer (anvil stopped, a timeout): nothing was done, try later. */
export class ChainDown extends Schema.TaggedError<ChainDown>()("ChainDown", {
  network: Schema.String,
  message: Schema.String,
}) {}
