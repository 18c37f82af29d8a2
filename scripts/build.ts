/**
 * `npm run build`: the two browser apps the server serves, each its own Vite build with its own
 * module graph — the player app (vite.config.ts → dist/app, at `/`) and the back office
 * (vite.backoffice.config.ts → dist/backoffice, at `/backoffice`). Separate builds so no back-office
 * code, nor any effect function only it uses, lands in a chunk the player downloads (docs/performance.md).
 * One process for both: Node and Vite start once. Exits non-zero when either build fails.
 */
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "vite"

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..")

// The configs' `root` and `outDir` are relative to the working directory.
process.chdir(repoRoot)
for (const config of ["vite.config.ts", "vite.backoffice.config.ts"])
  await build({ configFile: join(repoRoot, config) })
