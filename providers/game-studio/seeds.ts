/**
 * Provably fair seeds (docs/fairness.md, table `studio_seeds`): per player key the active server
 * seed, committed by its SHA-256 hash before any round is played with it, the player's client seed
 * and the nonce. Rotation reveals the old seed and commits the next (nonce back to 0), except while
 * a mines round drawn from it is still played: its revealed seed would show where the mines are.
 */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import { hashServerSeed } from "../../services/games/fair.ts"
import { playerKey, type Refusal, refusal } from "./roundRules.ts"
import type { SessionRow } from "./Studio.ts"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface SeedRow {
  readonly id: string
  readonly serverSeed: string
  readonly hash: string
  readonly clientSeed: string
  readonly nonce: string
}

export interface SeedState {
  readonly serverSeedHash: string
  readonly clientSeed: string
  readonly nonce: number
}

export interface Rotated {
  readonly revealed: {
    readonly serverSeed: string
    readonly serverSeedHash: string
    readonly clientSeed: string
    readonly nonce: number
  }
  readonly next: SeedState
}

const seedColumns = `id::text AS "id", server_seed AS "serverSeed", hash, client_seed AS "clientSeed", nonce::text AS "nonce"`

export const makeSeeds = (sql: SqlClient.SqlClient) => {
  /** The active seed of a player key, created (committed) when there is none; locked for a nonce. */
  const activeSeed = (key: string, lock: boolean): Sql<SeedRow> =>
    Effect.gen(function* () {
      const serverSeed = randomBytes(32).toString("hex")
      const hash = yield* Effect.promise(() => hashServerSeed(serverSeed))
      yield* sql`INSERT INTO studio_seeds (player_key, server_seed, hash, client_seed)
                 VALUES (${key}, ${serverSeed}, ${hash}, ${randomBytes(8).toString("hex")})
                 ON CONFLICT (player_key) WHERE revealed_at IS NULL DO NOTHING`
      const rows = yield* sql<SeedRow>`SELECT ${sql.literal(seedColumns)} FROM studio_seeds
        WHERE player_key = ${key} AND revealed_at IS NULL ${sql.literal(lock ? "FOR UPDATE" : "")}`
      const row = rows[0]
      if (row === undefined) return yield* Effect.die(new Error(`no active seed for ${key}`))
      return row
    })

  const seedState = (s: SessionRow): Sql<SeedState> =>
    Effect.map(activeSeed(playerKey(s), false), (seed) => ({
      serverSeedHash: seed.hash,
      clientSeed: seed.clientSeed,
      nonce: Number(seed.nonce),
    }))

  const setClientSeed = (s: SessionRow, clientSeed: string): Sql<SeedState> =>
    Effect.gen(function* () {
      const seed = yield* activeSeed(playerKey(s), false)
      yield* sql`UPDATE studio_seeds SET client_seed = ${clientSeed} WHERE id = ${seed.id}::bigint`
      return { serverSeedHash: seed.hash, clientSeed, nonce: Number(seed.nonce) }
    })

  const rotate = (s: SessionRow): Sql<Rotated | Refusal> =>
    sql.withTransaction(
      Effect.gen(function* () {
        const old = yield* activeSeed(playerKey(s), true)
        // Under the seed's lock, which a mines round's start holds too: none can begin meanwhile.
        const playing = yield* sql`SELECT 1 AS one FROM studio_rounds
          WHERE seed_id = ${old.id}::bigint AND steps = 'playing' AND status IN ('pending', 'open') LIMIT 1`
        if (playing.length > 0)
          return refusal(
            409,
            "ROUND_OPEN",
            "Finish your open Mines round first: its mines come from this seed, so it cannot be revealed yet.",
          )
        yield* sql`UPDATE studio_seeds SET revealed_at = now() WHERE id = ${old.id}::bigint`
        const serverSeed = randomBytes(32).toString("hex")
        const hash = yield* Effect.promise(() => hashServerSeed(serverSeed))
        yield* sql`INSERT INTO studio_seeds (player_key, server_seed, hash, client_seed)
                   VALUES (${playerKey(s)}, ${serverSeed}, ${hash}, ${old.clientSeed})`
        return {
          revealed: {
            serverSeed: old.serverSeed,
            serverSeedHash: old.hash,
            clientSeed: old.clientSeed,
            nonce: Number(old.nonce),
          },
          next: { serverSeedHash: hash, clientSeed: old.clientSeed, nonce: 0 },
        }
      }),
    )

  return { activeSeed, seedState, setClientSeed, rotate }
}
