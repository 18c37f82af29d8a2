/**
 * A migrated database for the EVM tests, without a whole server: PGlite in a temporary folder or a
 * fresh PostgreSQL database (tests/support/databases.ts), the production migrations applied.
 * `run` provides its `SqlClient`; two `run`s share one pool (PGlite is one session).
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Layer, References, Scope } from "effect"
import type { SqlClient } from "effect/sql"
import { makeDbLayer } from "../../lib/db/client.ts"
import { migrate } from "../../server/db/migrate.ts"
import { createDatabase, seedPgliteDataDir } from "../support/databases.ts"
import type { Backend } from "./harness.ts"

export interface TestDb {
  readonly run: <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => Promise<A>
  readonly close: () => Promise<void>
}

export const openTestDb = async (backend: Backend): Promise<TestDb> => {
  const dataDir = await mkdtemp(join(tmpdir(), "casino-evm-"))
  const database = backend === "postgres" ? await createDatabase("casino_evm") : undefined
  if (database === undefined) await seedPgliteDataDir(dataDir)
  const scope = Scope.makeUnsafe()
  const layer = makeDbLayer({ databaseUrl: database?.url, dataDir }).pipe(
    Layer.provide(Layer.succeed(References.MinimumLogLevel, "Error")),
  )
  const context = await Effect.runPromise(Layer.buildWithScope(Layer.orDie(layer), scope))
  const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
    Effect.runPromise(
      effect.pipe(Effect.provideContext(context), Effect.provideService(References.MinimumLogLevel, "Error")),
    )
  await run(migrate())
  return {
    run,
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await database?.drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
