/**
 * A server that can be stopped and started again on the SAME data (one DATA_DIR, one PostgreSQL
 * database or PGlite folder), in the test process: what a restart of the process running the chain
 * watcher looks like. `harness.ts`'s `close()` deletes the data, so the restart tests open the data
 * here once, start servers on it one after another, and delete it at `dispose()`.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeServer } from "../../server/app.ts"
import { loadConfig } from "../../server/config.ts"
import { createDatabase, seedPgliteDataDir, type TestDatabase } from "../support/databases.ts"
import { freePort } from "../support/server.ts"
import { type Backend, queryThrough, type TestServer } from "./harness.ts"

export interface RestartableData {
  /**
   * Starts a server on the data (stop the previous one first: PGlite is one process's folder);
   * `env` adds to (or replaces) the environment given at opening, for this server only.
   */
  readonly start: (env?: Record<string, string>) => Promise<TestServer>
  /** Deletes the data (the database or folder); every server must be closed before. */
  readonly dispose: () => Promise<void>
}

export const openRestartableData = async (
  backend: Backend,
  env: Record<string, string>,
): Promise<RestartableData> => {
  const dataDir = await mkdtemp(join(tmpdir(), "casino-restart-"))
  const database: TestDatabase | undefined =
    backend === "postgres" ? await createDatabase("casino_test") : undefined
  if (database === undefined) await seedPgliteDataDir(dataDir)

  const start = async (extra: Record<string, string> = {}): Promise<TestServer> => {
    const port = await freePort()
    const config = {
      ...loadConfig({
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        CAPTCHA_COST: "10",
        LOG_LEVEL: process.env.LOG_LEVEL ?? "Warn",
        NODE_ENV: "test",
        ...(database === undefined ? {} : { DATABASE_URL: database.url }),
        ...env,
        ...extra,
      }),
      captchaEnabled: false,
    }
    const running = await makeServer(config)
    const query = queryThrough(running.run)
    let closing: Promise<void> | undefined
    return {
      backend,
      url: running.url,
      config,
      dataDir,
      outboxDir: config.mailOutboxDir,
      query,
      sql: query,
      run: running.run,
      parties: new Map(),
      // Stops the server only: the data stays for the next `start()`.
      close: () => {
        closing ??= running.close()
        return closing
      },
      drain: (settleMs) => {
        closing ??= running.drain(settleMs)
        return closing
      },
    }
  }

  return {
    start,
    dispose: async () => {
      await database?.drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
