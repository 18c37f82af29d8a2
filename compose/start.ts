/**
 * `npm start`: the casino with a sandbox of every outside party beside it (compose/local.ts), in one
 * process, each on its own port with its own storage under DATA_DIR. A bad configuration exits with
 * status 2 and one line saying what to set; SIGINT / SIGTERM stop everything gracefully.
 */
import { runMain } from "../lib/main.ts"
import { startBanner } from "../server/security/production.ts"
import { startLocal } from "./local.ts"

runMain({
  name: "casino",
  config: () => process.env,
  start: (env) => startLocal(env),
  describe: (_env, stack) => [
    ...startBanner(stack.config, stack.casino.url),
    ...[...stack.parties.values()].map(
      (party) =>
        `sandbox ${party.name}: ${party.publicUrl} (a test environment: nothing it takes or pays is real)`,
    ),
  ],
})
