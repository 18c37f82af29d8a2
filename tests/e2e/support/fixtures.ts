/**
 * The e2e `test`: `baseURL` is the server the global setup started, and `world` gives a test what
 * it needs around the browser — the mail outbox, SQL on the server's database, fresh identities.
 */
import { randomBytes } from "node:crypto"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { test as base, type Page } from "@playwright/test"
import { runSql } from "./db.ts"
import { E2E_ENV, repoRoot, requiredEnv } from "./env.ts"
import { type OutboxMail, waitForMail } from "./mail.ts"

export interface World {
  readonly baseUrl: string
  readonly outboxDir: string
  /** undefined when the server runs on the embedded PGlite (no SQL from outside: tests needing it skip). */
  readonly databaseUrl: string | undefined
  readonly sql: <A extends object = Record<string, unknown>>(
    text: string,
    params?: ReadonlyArray<unknown>,
  ) => Promise<ReadonlyArray<A>>
  /** A new address nobody has used: `e2e-<tag>-<random>@example.com`. */
  readonly uniqueEmail: (tag: string) => string
  readonly mailTo: (to: string, predicate?: (mail: OutboxMail) => boolean) => Promise<OutboxMail>
  /** Saves a full-page screenshot as test-results/screenshots/<name>.png. */
  readonly screenshot: (page: Page, name: string) => Promise<void>
}

export const screenshotsDir = join(repoRoot, "test-results", "screenshots")

export const test = base.extend<{ world: World }>({
  world: async ({ baseURL }, use) => {
    if (baseURL === undefined) throw new Error("baseURL is not set: the e2e global setup did not run")
    const databaseUrl = process.env[E2E_ENV.databaseUrl]
    const outboxDir = requiredEnv(E2E_ENV.outboxDir)
    await use({
      baseUrl: baseURL,
      outboxDir,
      databaseUrl,
      sql: (text, params = []) => {
        if (databaseUrl === undefined) {
          // Only outside CI (with CI=true the global setup insists on PostgreSQL): say why, do not fail.
          base.skip(
            true,
            "needs SQL on the server's database, but PostgreSQL was unreachable: the server runs on PGlite",
          )
          return Promise.reject(new Error("no SQL access"))
        }
        return runSql(databaseUrl, text, params)
      },
      uniqueEmail: (tag) => `e2e-${tag}-${randomBytes(5).toString("hex")}@example.com`,
      mailTo: (to, predicate) => waitForMail(outboxDir, to, predicate),
      screenshot: async (page, name) => {
        mkdirSync(screenshotsDir, { recursive: true })
        await page.screenshot({ path: join(screenshotsDir, `${name}.png`), fullPage: true })
      },
    })
  },
})

export { expect } from "@playwright/test"
