/** The casino's own migrations (`server/db/migrations/`), run at start before anything listens. */
import { fileURLToPath } from "node:url"
import { migrate as migrateFolder } from "../../lib/db/migrate.ts"

export const migrationsDir = fileURLToPath(new URL("./migrations/", import.meta.url))

export const migrate = () => migrateFolder(migrationsDir)
