/**
 * Deposit addresses (docs/crypto.md "Keys"): the player's own address per network, derived from the
 * chain's account xpub at `<xpub>/0/<index>` (a network without a configured xpub offers none) with the index the network's counter gives (the first
 * player of a network gets 0, the next 1…). ETH and USDT share the player's ethereum address. The
 * same player always gets the same address (UNIQUE (user_id, network)); two players never share one
 * (UNIQUE (network, address)).
 */
import { Context, Effect, Layer } from "effect"
import { networkOf } from "../../services/crypto-rules.ts"
import type { CryptoCurrency, Network } from "../../services/crypto-service.ts"
import { AppConfig } from "../config.ts"
import { AddressesRepo, type AddressRow } from "./AddressesRepo.ts"
import { normalizeAddress } from "./chain.ts"
import { addressFromNode, parseXpub } from "./derive.ts"

export interface AddressesShape {
  /** Whether deposits on this currency's network are offered (its account xpub is configured). */
  readonly offers: (currency: CryptoCurrency) => boolean
  /** The player's address, or undefined when the network is not offered. */
  readonly forPlayer: (userId: string, currency: CryptoCurrency) => Effect.Effect<AddressRow | undefined>
  /** The watched addresses of a network: normalized address → owner. */
  readonly watched: (network: Network) => Effect.Effect<ReadonlyMap<string, AddressRow>>
}

const make = Effect.gen(function* () {
  const config = yield* AppConfig
  const repo = yield* AddressesRepo
  const accounts = new Map(
    (Object.entries(config.crypto.xpubs) as Array<[Network, string | undefined]>).flatMap(
      ([network, xpub]) => {
        if (xpub === undefined) return []
        const node = parseXpub(xpub)
        // config.ts validated every xpub: an unreadable one here is a programming error.
        if (node === null) throw new Error(`unreadable ${network} xpub`)
        return [[network, { node, fingerprint: Buffer.from(node.fingerprint).toString("hex") }] as const]
      },
    ),
  )

  const forPlayer = (userId: string, currency: CryptoCurrency) => {
    const network = networkOf[currency]
    const account = accounts.get(network)
    if (account === undefined) return Effect.succeed(undefined)
    return repo
      .findOrCreate(userId, network, account.fingerprint, (index) => {
        const address = addressFromNode(network, account.node, index)
        return { address, normalized: normalizeAddress(network, address) }
      })
      .pipe(Effect.orDie)
  }

  const watched = (network: Network) =>
    repo.allOf(network).pipe(
      Effect.map((rows) => new Map(rows.map((r) => [r.addressNormalized, r] as const))),
      Effect.orDie,
    )

  const offers = (currency: CryptoCurrency) => accounts.has(networkOf[currency])

  return { offers, forPlayer, watched } satisfies AddressesShape
})

export class Addresses extends Context.Service<Addresses, AddressesShape>()(
  "casino/server/crypto/Addresses",
) {
  static readonly layer = Layer.effect(Addresses, make)
}
