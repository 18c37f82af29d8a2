/**
 * Child process started by the e2e global setup: the casino with every outside party's sandbox
 * (compose/local.ts, as `npm start` runs it) configured from the environment, printing one line per
 * party (`E2E_PARTY <name> <public url> <url>`) and then one READY line with the casino's URL.
 */
import { startLocal } from "../../../compose/local.ts"

const stack = await startLocal(process.env)

// Ready means ready for a player: with the studio on, its games are in the lobby (the casino reads
// the provider's signed games list in the background; the first test must not race it).
if (stack.parties.has("studio")) {
  const lobby = `${stack.casino.url}/game-aggregator-service/api/v1/games-and-categories/EUR`
  for (let attempt = 0; attempt < 600; attempt++) {
    const games = await fetch(lobby)
      .then((r) => (r.ok ? (r.json() as Promise<{ games?: ReadonlyArray<unknown> }>) : undefined))
      .catch(() => undefined)
    if ((games?.games?.length ?? 0) > 0) break
    await new Promise((r) => setTimeout(r, 200))
  }
}
for (const party of stack.parties.values()) {
  process.stdout.write(`E2E_PARTY ${party.name} ${party.publicUrl} ${party.url}\n`)
}
// The casino's EVM node (the chains party's anvil): the crypto journeys pay and mine on it.
if (stack.config.evmRpcUrl !== undefined) process.stdout.write(`E2E_EVM_RPC_URL ${stack.config.evmRpcUrl}\n`)
process.stdout.write(`E2E_SERVER_READY ${stack.casino.url}\n`)

const stop = (): void => {
  stack.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`close failed: ${String(error)}\n`)
      process.exit(1)
    },
  )
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
