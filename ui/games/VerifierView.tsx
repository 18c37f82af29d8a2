/**
 * The fairness verifier (`/fairness`): a projection of the `verifier` actor. The round of the address
 * (`?round=`, the Verify links) as the casino recorded it; the form — the game (chosen explicitly),
 * its bet options built for its kind (dice: target and over/under; crash: the auto cash-out target;
 * mines: the mines and the picked tiles on a 5×5 board; plinko: rows and risk; roulette: a list of
 * bets; slot: none), the server seed, the client seed, the nonce — and the answer: the outcome, the
 * payout multiplier, the jackpot draw, and sha256 of the server seed beside the committed hash.
 * Type-only imports of the machine: its module (and the game maths) is downloaded with the route.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { VerifierField, verifierMachine } from "../../machines/games/verifier.machine.ts"
import type { OptionsForm, RouletteBetForm } from "../../machines/games/verifier-form.ts"
import { rouletteBetTypes } from "../../services/games/roulette.ts"
import { resultWords } from "../../services/games/words.ts"
import { useShell } from "../app/actors.tsx"
import { Amount } from "../components/Amount.tsx"
import { Spinner } from "../components/Spinner.tsx"

type VerifierActor = ActorRefFrom<typeof verifierMachine>

/** 1/10,000 of the bet → "2.5×" (exact: integer digits, trailing zeros dropped). */
export const multiplierText = (basisPoints: string): string => {
  const digits = basisPoints.replace(/^0+(?=\d)/, "").padStart(5, "0")
  const whole = digits.slice(0, -4)
  const fraction = digits.slice(-4).replace(/0+$/, "")
  return `${whole}${fraction === "" ? "" : `.${fraction}`}×`
}

export const secretSeedText =
  "This round's server seed is still secret: rotate your seed in the game's Fairness panel, then verify."

const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined)

/** The outcome in the game's own words (the game page says the same): the roll, the crash point, … */
export const outcomeLine = (kind: string, detail: unknown): string | null => {
  if (typeof detail !== "object" || detail === null) return null
  const d = detail as Readonly<Record<string, unknown>>
  switch (kind) {
    case "dice": {
      const roll = num(d.roll)
      return roll === undefined
        ? null
        : `Roll ${roll.toFixed(2)} (${String(d.direction)} ${String(d.target)})`
    }
    case "crash": {
      const point = num(d.crashPoint)
      return point === undefined ? null : `Crashed at ${point.toFixed(2)}×`
    }
    case "mines":
      return Array.isArray(d.mines) ? `Mines on tiles ${d.mines.map((t) => Number(t) + 1).join(", ")}` : null
    case "plinko": {
      const bucket = num(d.bucket)
      const rows = num(d.rows)
      return bucket === undefined || rows === undefined ? null : `Bucket ${bucket + 1} of ${rows + 1}`
    }
    case "roulette":
      return num(d.pocket) === undefined ? null : `The ball lands on ${String(d.pocket)} (${String(d.color)})`
    case "slot":
      return Array.isArray(d.stops) ? `Reel stops ${d.stops.join(", ")}` : null
    default:
      return null
  }
}

const Field = ({
  actor,
  field,
  label,
  hint,
}: {
  actor: VerifierActor
  field: VerifierField
  label: string
  hint?: string
}) => {
  const value = useSelector(actor, (s) => s.context[field])
  const id = `verifier-${field}`
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
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
      {hint ? (
        <p id={`${id}-hint`} className="field__hint muted">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

const Choice = ({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string
  label: string
  value: string
  options: ReadonlyArray<readonly [string, string]>
  onChange: (value: string) => void
}) => (
  <div className="field">
    <label className="field__label" htmlFor={id}>
      {label}
    </label>
    <select id={id} className="input" value={value} onChange={(event) => onChange(event.currentTarget.value)}>
      {options.map(([v, text]) => (
        <option key={v} value={v}>
          {text}
        </option>
      ))}
    </select>
  </div>
)

const TextOption = ({
  id,
  label,
  value,
  hint,
  onChange,
}: {
  id: string
  label: string
  value: string
  hint?: string
  onChange: (value: string) => void
}) => (
  <div className="field">
    <label className="field__label" htmlFor={id}>
      {label}
    </label>
    <input
      id={id}
      className="input"
      value={value}
      inputMode="decimal"
      autoComplete="off"
      aria-describedby={hint ? `${id}-hint` : undefined}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
    {hint ? (
      <p id={`${id}-hint`} className="field__hint muted">
        {hint}
      </p>
    ) : null}
  </div>
)

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

const MinesBoard = ({ actor, picks }: { actor: VerifierActor; picks: ReadonlyArray<number> }) => (
  <fieldset className="verifier__fieldset">
    <legend className="field__label">Picked tiles, in the order opened</legend>
    <div className="verifier__tiles">
      {range(0, 24).map((tile) => {
        const order = picks.indexOf(tile)
        return (
          <button
            key={tile}
            type="button"
            className={`verifier__tile${order >= 0 ? " verifier__tile--picked" : ""}`}
            aria-pressed={order >= 0}
            aria-label={`Tile ${tile + 1}${order >= 0 ? `, pick ${order + 1}` : ""}`}
            onClick={() => actor.send({ type: "TILE", tile })}
          >
            {order >= 0 ? order + 1 : ""}
          </button>
        )
      })}
    </div>
  </fieldset>
)

const RouletteBets = ({ actor, bets }: { actor: VerifierActor; bets: ReadonlyArray<RouletteBetForm> }) => (
  <fieldset className="verifier__fieldset">
    <legend className="field__label">Bets</legend>
    {bets.length === 0 ? <p className="muted">No bets: add one.</p> : null}
    <ol className="verifier__bets">
      {bets.map((bet, index) => (
        // The list is edited in place: a bet's position is its identity, as in the round's record.
        // biome-ignore lint/suspicious/noArrayIndexKey: bets have no id of their own
        <li key={index} className="verifier__bet">
          <Choice
            id={`verifier-bet-${index}-type`}
            label={`Bet ${index + 1} type`}
            value={bet.type}
            options={rouletteBetTypes.map((t) => [t, t] as const)}
            onChange={(value) => actor.send({ type: "BET", index, field: "type", value })}
          />
          <TextOption
            id={`verifier-bet-${index}-numbers`}
            label="Numbers"
            value={bet.numbers}
            onChange={(value) => actor.send({ type: "BET", index, field: "numbers", value })}
          />
          <TextOption
            id={`verifier-bet-${index}-chips`}
            label="Chips"
            value={bet.chips}
            onChange={(value) => actor.send({ type: "BET", index, field: "chips", value })}
          />
          <button
            type="button"
            className="button button--ghost"
            onClick={() => actor.send({ type: "REMOVE_BET", index })}
          >
            Remove bet {index + 1}
          </button>
        </li>
      ))}
    </ol>
    <button type="button" className="button button--ghost" onClick={() => actor.send({ type: "ADD_BET" })}>
      Add a bet
    </button>
  </fieldset>
)

/** The bet options of the chosen game's kind. */
const OptionsFields = ({ actor, form }: { actor: VerifierActor; form: OptionsForm }) => {
  const option = (field: "target" | "direction" | "mines" | "rows" | "risk") => (value: string) =>
    actor.send({ type: "OPTION", field, value })
  switch (form.kind) {
    case "none":
      return null
    case "slot":
      return <p className="muted">A slot round has no options: the seeds and the nonce decide it.</p>
    case "dice":
      return (
        <>
          <TextOption
            id="verifier-target"
            label="Target"
            value={form.target}
            hint="A number from 0.00 to 99.99."
            onChange={option("target")}
          />
          <Choice
            id="verifier-direction"
            label="Roll"
            value={form.direction}
            options={[
              ["under", "Under"],
              ["over", "Over"],
            ]}
            onChange={option("direction")}
          />
        </>
      )
    case "crash":
      return (
        <TextOption
          id="verifier-target"
          label="Auto cash-out target (×)"
          value={form.target}
          hint="e.g. 2.5"
          onChange={option("target")}
        />
      )
    case "mines":
      return (
        <>
          <Choice
            id="verifier-mines"
            label="Mines"
            value={form.mines}
            options={range(1, 24).map((n) => [String(n), String(n)] as const)}
            onChange={option("mines")}
          />
          <MinesBoard actor={actor} picks={form.picks} />
        </>
      )
    case "plinko":
      return (
        <>
          <Choice
            id="verifier-rows"
            label="Rows"
            value={form.rows}
            options={range(8, 16).map((n) => [String(n), String(n)] as const)}
            onChange={option("rows")}
          />
          <Choice
            id="verifier-risk"
            label="Risk"
            value={form.risk}
            options={[
              ["low", "Low"],
              ["medium", "Medium"],
              ["high", "High"],
            ]}
            onChange={option("risk")}
          />
        </>
      )
    case "roulette":
      return <RouletteBets actor={actor} bets={form.bets} />
  }
}

/** The round of the address as the casino recorded it, and whether its seed is still secret. */
const RoundPanel = ({ actor }: { actor: VerifierActor }) => {
  const round = useSelector(actor, (s) => s.context.round)
  const typedSeed = useSelector(actor, (s) => s.context.serverSeed)
  const reloading = useSelector(actor, (s) => s.matches("loadingRound"))
  const currencies = useShell((s) => s.context.currencies)
  if (round === null) return null
  const words = resultWords(BigInt(round.bet), BigInt(round.win), round.currency)
  return (
    <section className="panel verifier__round" aria-labelledby="verifier-round">
      <h2 id="verifier-round">
        {round.gameName}, round {round.roundNumber}
      </h2>
      <dl className="game__facts">
        <dt>Bet</dt>
        <dd>
          <Amount minor={round.bet} currency={round.currency} currencies={currencies} /> {round.currency}
        </dd>
        <dt>Result</dt>
        <dd className={words.tone === "win" ? "verifier__won" : undefined}>{words.text}</dd>
        <dt>Committed hash</dt>
        <dd className="verifier__hash">{round.serverSeedHash}</dd>
      </dl>
      {round.serverSeed === null && typedSeed === "" ? (
        <div className="notice" role="status">
          <p>{secretSeedText}</p>
          <button
            type="button"
            className="button button--ghost"
            disabled={reloading}
            onClick={() => actor.send({ type: "RELOAD" })}
          >
            I rotated it: load the seed
          </button>
        </div>
      ) : null}
    </section>
  )
}

const Result = ({ actor }: { actor: VerifierActor }) => {
  const result = useSelector(actor, (s) => s.context.result)
  const problem = useSelector(actor, (s) => s.context.problem)
  const kind = useSelector(actor, (s) => s.context.games.find((g) => g.id === s.context.gameId)?.kind ?? "")
  const committed = useSelector(actor, (s) => s.context.round?.serverSeedHash ?? null)
  if (problem !== null)
    return (
      <p className="field__error" role="alert">
        {problem}
      </p>
    )
  if (result === null) return null
  const line = outcomeLine(kind, result.detail)
  return (
    <section className="panel verifier__result" aria-labelledby="verifier-result" aria-live="polite">
      <h2 id="verifier-result">Outcome</h2>
      {line === null ? null : <p className="verifier__outcome">{line}</p>}
      <dl className="game__facts">
        <dt>Payout multiplier</dt>
        <dd className="verifier__multiplier">{multiplierText(result.multiplier)}</dd>
        <dt>Jackpot draw</dt>
        <dd>{result.jackpotHit ? "Hit" : "No hit"}</dd>
        <dt>sha256(server seed)</dt>
        <dd className="verifier__hash">{result.serverSeedHash}</dd>
        {committed === null ? null : (
          <>
            <dt>Committed before the round</dt>
            <dd>{committed === result.serverSeedHash ? "Matches" : "Does not match this seed"}</dd>
          </>
        )}
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
    s.matches("loading")
      ? "loading"
      : s.matches("loadFailed")
        ? "loadFailed"
        : s.matches("loadingRound") && s.context.round === null
          ? "loadingRound"
          : s.matches("roundFailed")
            ? "roundFailed"
            : "ready",
  )
  const games = useSelector(actor, (s) => s.context.games)
  const gameId = useSelector(actor, (s) => s.context.gameId)
  const form = useSelector(actor, (s) => s.context.form)
  const problem = useSelector(actor, (s) => s.context.problem)
  const verifying = useSelector(actor, (s) => s.matches("verifying"))
  return (
    <div className="verifier">
      <h1>Provably fair: verify a round</h1>
      <p className="muted">
        Every round's outcome is HMAC-SHA256 of the server seed (committed by its hash before you play), your
        client seed and the round's nonce. Once the server seed is revealed (rotate it in a game), recompute
        any round here: the result must be the one you got. Each round in your Bets tab has a Verify link.
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
      ) : state === "loadingRound" ? (
        <Spinner label="Loading your round" />
      ) : state === "roundFailed" ? (
        <div className="notice" role="alert">
          <p>{problem}</p>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => actor.send({ type: "RETRY" })}
          >
            Try again
          </button>{" "}
          <button type="button" className="link-button" onClick={() => actor.send({ type: "BY_HAND" })}>
            Verify a round by hand
          </button>
        </div>
      ) : (
        <>
          <RoundPanel actor={actor} />
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
                <option value="" disabled>
                  Choose a game
                </option>
                {games.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name} ({g.brand})
                  </option>
                ))}
              </select>
            </div>
            <OptionsFields actor={actor} form={form} />
            <Field actor={actor} field="serverSeed" label="Server seed (revealed)" />
            <Field actor={actor} field="clientSeed" label="Client seed" />
            <Field actor={actor} field="nonce" label="Nonce" />
            <button type="submit" className="button button--primary" disabled={verifying}>
              {verifying ? "Verifying…" : "Verify"}
            </button>
            <Result actor={actor} />
          </form>
        </>
      )}
    </div>
  )
}
