/**
 * The fairness verifier (`/fairness`): a projection of the `verifier` actor. The form (game, options,
 * server seed, client seed, nonce) and the answer: the outcome, the payout multiplier, the jackpot
 * draw, and sha256 of the server seed to compare with the hash committed before play. Type-only
 * imports of the machine: its module (and the game math) is downloaded with the route's actor.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { VerifierField, verifierMachine } from "../../machines/games/verifier.machine.ts"
import { Spinner } from "../components/Spinner.tsx"

type VerifierActor = ActorRefFrom<typeof verifierMachine>

/** 1/10,000 of the bet → "2.5×" (exact: integer digits, trailing zeros dropped). */
export const multiplierText = (basisPoints: string): string => {
  const digits = basisPoints.replace(/^0+(?=\d)/, "").padStart(5, "0")
  const whole = digits.slice(0, -4)
  const fraction = digits.slice(-4).replace(/0+$/, "")
  return `${whole}${fraction === "" ? "" : `.${fraction}`}×`
}

const Field = ({
  actor,
  field,
  label,
  hint,
  multiline,
}: {
  actor: VerifierActor
  field: VerifierField
  label: string
  hint?: string
  multiline?: boolean
}) => {
  const value = useSelector(actor, (s) => s.context[field])
  const id = `verifier-${field}`
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <textarea
          id={id}
          className="input verifier__options"
          value={value}
          rows={3}
          spellCheck={false}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(event) => actor.send({ type: "EDIT", field, value: event.currentTarget.value })}
        />
      ) : (
        <input
          id={id}
          className="input"
          value={value}
          spellCheck={false}
          autoComplete="off"
          inputMode={field === "nonce" ? "numeric" : undefined}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(event) => actor.send({ type: "EDIT", field, value: event.currentTarget.value })}
        />
      )}
      {hint ? (
        <p id={`${id}-hint`} className="field__hint muted">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

const Result = ({ actor }: { actor: VerifierActor }) => {
  const result = useSelector(actor, (s) => s.context.result)
  const problem = useSelector(actor, (s) => s.context.problem)
  if (problem !== null)
    return (
      <p className="field__error" role="alert">
        {problem}
      </p>
    )
  if (result === null) return null
  return (
    <section className="panel verifier__result" aria-labelledby="verifier-result" aria-live="polite">
      <h2 id="verifier-result">Outcome</h2>
      <dl className="game__facts">
        <dt>Payout multiplier</dt>
        <dd className="verifier__multiplier">{multiplierText(result.multiplier)}</dd>
        <dt>Jackpot draw</dt>
        <dd>{result.jackpotHit ? "Hit" : "No hit"}</dd>
        <dt>sha256(server seed)</dt>
        <dd className="verifier__hash">{result.serverSeedHash}</dd>
      </dl>
      <details>
        <summary>Round details</summary>
        <pre className="verifier__detail">{JSON.stringify(result.detail, null, 2)}</pre>
      </details>
    </section>
  )
}

export const VerifierView = ({ actor }: { actor: VerifierActor }) => {
  const state = useSelector(actor, (s) =>
    s.matches("loading") ? "loading" : s.matches("loadFailed") ? "loadFailed" : "ready",
  )
  const games = useSelector(actor, (s) => s.context.games)
  const gameId = useSelector(actor, (s) => s.context.gameId)
  const verifying = useSelector(actor, (s) => s.matches("verifying"))
  return (
    <div className="verifier">
      <h1>Provably fair: verify a round</h1>
      <p className="muted">
        Every round's outcome is HMAC-SHA256 of the server seed (committed by its hash before you play), your
        client seed and the round's nonce. Once the server seed is revealed (rotate it in a game), recompute
        any round here: the result must be the one you got.
      </p>
      {state === "loading" ? (
        <Spinner label="Loading the verifier" />
      ) : state === "loadFailed" ? (
        <div className="notice" role="alert">
          The verifier could not be loaded.{" "}
          <button type="button" className="link-button" onClick={() => actor.send({ type: "RETRY" })}>
            Try again
          </button>
        </div>
      ) : (
        <form
          className="panel verifier__form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            actor.send({ type: "VERIFY" })
          }}
        >
          <div className="field">
            <label className="field__label" htmlFor="verifier-game">
              Game
            </label>
            <select
              id="verifier-game"
              className="input"
              value={gameId}
              onChange={(event) => actor.send({ type: "GAME", gameId: event.currentTarget.value })}
            >
              {games.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name} ({g.brand})
                </option>
              ))}
            </select>
          </div>
          <Field
            actor={actor}
            field="options"
            label="Bet options (JSON)"
            hint="As the round's record shows them; the game's defaults are filled in."
            multiline
          />
          <Field actor={actor} field="serverSeed" label="Server seed (revealed)" />
          <Field actor={actor} field="clientSeed" label="Client seed" />
          <Field actor={actor} field="nonce" label="Nonce" />
          <button type="submit" className="button button--primary" disabled={verifying}>
            {verifying ? "Verifying…" : "Verify"}
          </button>
          <Result actor={actor} />
        </form>
      )}
    </div>
  )
}
