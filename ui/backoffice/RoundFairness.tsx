/**
 * A round's provably-fair proof on a player's Bets tab (docs/fairness.md): what the player's own
 * proof shows — the hash committed before the round, the server seed once revealed, the client
 * seed, the nonce, the bet options and what was paid — loaded when the operator opens it (the
 * provider is asked each time, so "Load again" shows a seed revealed since).
 */
import { playersClient } from "../../services/backoffice/clients/players.ts"
import type { RoundFairness } from "../../services/game-service.ts"
import { paidMultiplier } from "../../services/games/words.ts"
import { useResource } from "./actors.tsx"
import { money, when } from "./format.ts"
import { ResourceState } from "./Layout.tsx"
import { Facts } from "./PlayerParts.tsx"

const Mono = ({ children }: { readonly children: string }) => <span className="bo-mono">{children}</span>

const paid = (p: RoundFairness): string =>
  `${money(p.win, p.currency)} paid for a ${money(p.bet, p.currency)} stake (${paidMultiplier(BigInt(p.bet), BigInt(p.win))})`

const Proof = ({ proof }: { readonly proof: RoundFairness }) => (
  <>
    <Facts
      facts={[
        ["Game", `${proof.gameName} (${proof.gameId}, ${proof.kind})`],
        ["Played", `${when(proof.at)} · round ${proof.roundNumber} of this game`],
        ["Outcome", paid(proof)],
        ["Bet options", <Mono key="options">{JSON.stringify(proof.options)}</Mono>],
        ["Server seed hash (committed before the round)", <Mono key="hash">{proof.serverSeedHash}</Mono>],
        [
          "Server seed",
          proof.serverSeed === null ? (
            <span key="seed" className="bo-badge">
              Not revealed yet
            </span>
          ) : (
            <Mono key="seed">{proof.serverSeed}</Mono>
          ),
        ],
        ["Client seed", <Mono key="client">{proof.clientSeed}</Mono>],
        ["Nonce", String(proof.nonce)],
      ]}
    />
    {proof.serverSeed === null ? (
      <p className="bo-muted bo-proof__note">
        The server seed is still the player's active one, so it stays secret: it is revealed when the player
        rotates their seed in the game's Fairness panel. Until then only the hash can be shown.
      </p>
    ) : (
      <p className="bo-muted bo-proof__note">
        To verify: SHA-256 of the server seed must equal the hash committed before the round. The outcome then
        follows from the server seed, the client seed, the nonce and the bet options — the casino's{" "}
        <a href="/fairness" target="_blank" rel="noopener">
          verifier page (opens in a new tab)
        </a>{" "}
        recomputes it when given these values.
      </p>
    )}
  </>
)

export const RoundFairnessProof = ({
  id,
  playerId,
  roundId,
}: {
  readonly id: string
  readonly playerId: string
  readonly roundId: string
}) => {
  const proof = useResource(() => playersClient.roundFairness({ params: { id: playerId, round: roundId } }))
  return (
    <section id={id} className="bo-proof" aria-label={`Fairness proof of round ${roundId}`}>
      <ResourceState {...proof} />
      {proof.data && <Proof proof={proof.data} />}
      {proof.data && (
        <button type="button" className="bo-button" onClick={proof.refresh} disabled={proof.refreshing}>
          {proof.refreshing ? "Loading…" : "Load again"}
        </button>
      )}
    </section>
  )
}
