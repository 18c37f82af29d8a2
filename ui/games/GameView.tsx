/**
 * A game's page (`/game/{id}`): a projection of the `gamePage` actor — the demo / real money switch,
 * the frame (or why it is not there: paused while a reality check reminder shows), the low-balance
 * message with Deposit, and the info panel (RTP, volatility, brand, category, bet limits). The
 * frame's messages reach the machine from here: only messages from this frame's window are read
 * (other scripts post messages too); so does the browser's refusal to frame it (a CSP violation
 * naming the game's origin). A frame that could not be loaded is said in words, with Try again.
 */
import { useSelector } from "@xstate/react"
import { useEffect, useRef } from "react"
import type { ActorRefFrom } from "xstate"
import { GamePageMessages, type gamePageMachine } from "../../machines/games/gamePage.machine.ts"
import { parseFrameMessage } from "../../machines/games/support.ts"
import { useAuthActor, useModalsActor, useShell } from "../app/actors.tsx"
import { Amount } from "../components/Amount.tsx"
import { Link } from "../components/Link.tsx"
import { Spinner } from "../components/Spinner.tsx"
import { prefetchModalLayer } from "../shell/ModalHost.tsx"

type GameActor = ActorRefFrom<typeof gamePageMachine>

const volatilityLabels = { low: "Low", medium: "Medium", high: "High" } as const

const originOf = (url: string): string | null => {
  try {
    return new URL(url, window.location.href).origin
  } catch {
    return null
  }
}

const Frame = ({ actor, url, title }: { actor: GameActor; url: string; title: string }) => {
  const frame = useRef<HTMLIFrameElement>(null)
  useEffect(() => {
    const origin = originOf(url)
    const onMessage = (event: MessageEvent) => {
      if (frame.current === null || event.source !== frame.current.contentWindow) return
      const message = parseFrameMessage(event.data)
      if (message !== null) actor.send({ type: "FRAME", message })
    }
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (event.effectiveDirective === "frame-src" && originOf(event.blockedURI) === origin)
        actor.send({ type: "FRAME_BLOCKED" })
    }
    window.addEventListener("message", onMessage)
    document.addEventListener("securitypolicyviolation", onViolation)
    return () => {
      window.removeEventListener("message", onMessage)
      document.removeEventListener("securitypolicyviolation", onViolation)
    }
  }, [actor, url])
  return (
    <iframe
      ref={frame}
      className="game__frame"
      src={url}
      title={title}
      allow="fullscreen; autoplay"
      referrerPolicy="same-origin"
    />
  )
}

const LowBalance = ({ actor }: { actor: GameActor }) => {
  const auth = useAuthActor()
  const modals = useModalsActor()
  return (
    <div className="notice game__low" role="alert">
      <span>{GamePageMessages.insufficientFunds}</span>
      <span className="game__low-actions">
        <button
          type="button"
          className="button button--primary"
          onPointerEnter={prefetchModalLayer}
          onFocus={prefetchModalLayer}
          onClick={() => {
            const { profile, fund } = auth.getSnapshot().context
            modals.send({ type: "OPEN_DEPOSIT", profile, fund })
            actor.send({ type: "DISMISS" })
          }}
        >
          Deposit
        </button>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => actor.send({ type: "DISMISS" })}
        >
          Dismiss
        </button>
      </span>
    </div>
  )
}

const ModeSwitch = ({ actor }: { actor: GameActor }) => {
  const mode = useSelector(actor, (s) => s.context.mode)
  const demo = useSelector(actor, (s) => s.context.game?.demo ?? false)
  const busy = useSelector(actor, (s) => s.matches("launching"))
  return (
    <fieldset className="game__modes">
      <legend className="visually-hidden">Play mode</legend>
      <button
        type="button"
        className="segments__chip"
        aria-pressed={mode === "demo"}
        disabled={!demo || busy}
        onClick={() => actor.send({ type: "PLAY", mode: "demo" })}
      >
        Demo
      </button>
      <button
        type="button"
        className="segments__chip"
        aria-pressed={mode === "real"}
        disabled={busy}
        onClick={() => actor.send({ type: "PLAY", mode: "real" })}
      >
        Real money
      </button>
    </fieldset>
  )
}

const Info = ({ actor }: { actor: GameActor }) => {
  const game = useSelector(actor, (s) => s.context.game)
  const limits = useSelector(actor, (s) => s.context.betLimits)
  const category = useSelector(actor, (s) => s.context.categoryName)
  const currency = useSelector(actor, (s) => s.context.launch?.currency ?? s.context.catalogueCurrency)
  const currencies = useShell((s) => s.context.currencies)
  if (game === null) return null
  return (
    <aside className="panel game__info" aria-labelledby="game-info">
      <h2 id="game-info">About this game</h2>
      <dl className="game__facts">
        <dt>Return to player</dt>
        <dd>{game.rtp} %</dd>
        <dt>Volatility</dt>
        <dd>{volatilityLabels[game.volatility]}</dd>
        <dt>Brand</dt>
        <dd>{game.provider}</dd>
        <dt>Category</dt>
        <dd>{category}</dd>
        {limits ? (
          <>
            <dt>Bets</dt>
            <dd>
              <Amount minor={limits.min} currency={currency} currencies={currencies} /> –{" "}
              <Amount minor={limits.max} currency={currency} currencies={currencies} /> {currency}
            </dd>
          </>
        ) : null}
        {game.jackpot ? (
          <>
            <dt>Jackpot</dt>
            <dd>Progressive: 1 % of each bet feeds the pool</dd>
          </>
        ) : null}
      </dl>
      <p className="muted">
        Provably fair: every round can be recomputed from its seeds on the{" "}
        <Link to="/fairness">fairness page</Link>.
      </p>
    </aside>
  )
}

const Stage = ({ actor }: { actor: GameActor }) => {
  const state = useSelector(actor, (s) =>
    s.matches({ playing: "paused" })
      ? "paused"
      : s.matches({ playing: "failed" })
        ? "frameFailed"
        : s.matches("playing")
          ? "playing"
          : s.matches("needsLogin")
            ? "needsLogin"
            : s.matches("refused")
              ? "refused"
              : s.matches("unavailable")
                ? "unavailable"
                : "launching",
  )
  const url = useSelector(actor, (s) => s.context.launch?.url ?? null)
  const name = useSelector(actor, (s) => s.context.game?.name ?? "Game")
  const message = useSelector(actor, (s) => s.context.message)
  const low = useSelector(actor, (s) => s.matches({ playing: "lowBalance" }))
  const attempt = useSelector(actor, (s) => s.context.frameAttempt)
  const failure = useSelector(actor, (s) => s.context.frameFailure)
  const modals = useModalsActor()
  switch (state) {
    // No frame while the reminder waits for an answer: nothing in it plays on, no bet leaves it.
    case "paused":
      return (
        <div className="game__placeholder" role="status">
          <p>
            <strong>{GamePageMessages.paused}</strong>
          </p>
          <p>Answer the reminder to continue playing {name}.</p>
        </div>
      )
    case "playing":
      return (
        <>
          {low ? <LowBalance actor={actor} /> : null}
          {url ? <Frame key={attempt} actor={actor} url={url} title={name} /> : null}
        </>
      )
    case "frameFailed":
      return (
        <div className="game__placeholder" role="alert">
          <p>
            <strong>{GamePageMessages.loadFailed}</strong>
          </p>
          {failure === null ? null : (
            <p>{failure === "blocked" ? GamePageMessages.frameBlocked : GamePageMessages.frameTimeout}</p>
          )}
          <button
            type="button"
            className="button button--primary"
            onClick={() => actor.send({ type: "RETRY" })}
          >
            Try again
          </button>
        </div>
      )
    case "needsLogin":
      return (
        <div className="game__placeholder">
          <p>Log in to play {name} for real money.</p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => modals.send({ type: "OPEN_LOGIN" })}
          >
            Log in
          </button>
        </div>
      )
    case "refused":
    case "unavailable":
      return (
        <div className="game__placeholder" role="alert">
          <p>{message}</p>
          {state === "unavailable" ? (
            <button
              type="button"
              className="button button--primary"
              onClick={() => actor.send({ type: "RETRY" })}
            >
              Try again
            </button>
          ) : null}
        </div>
      )
    case "launching":
      return (
        <div className="game__placeholder">
          <Spinner label={`Starting ${name}`} />
        </div>
      )
  }
}

export const GameView = ({ actor }: { actor: GameActor }) => {
  const state = useSelector(actor, (s) =>
    s.matches("loading")
      ? "loading"
      : s.matches("loadFailed")
        ? "loadFailed"
        : s.matches("notFound")
          ? "notFound"
          : "ready",
  )
  const name = useSelector(actor, (s) => s.context.game?.name ?? "")
  const brand = useSelector(actor, (s) => s.context.game?.provider ?? "")
  switch (state) {
    case "loading":
      return <Spinner label="Loading the game" />
    case "loadFailed":
      return (
        <div className="notice" role="alert">
          {GamePageMessages.loadFailed}{" "}
          <button type="button" className="link-button" onClick={() => actor.send({ type: "RETRY" })}>
            Try again
          </button>
        </div>
      )
    case "notFound":
      return (
        <div className="game__missing">
          <h1>{GamePageMessages.notFound}</h1>
          <Link to="/" className="button button--primary">
            Back to the lobby
          </Link>
        </div>
      )
    case "ready":
      return (
        <div className="game">
          <div className="game__head">
            <div>
              <h1 className="game__title">{name}</h1>
              <p className="muted game__brand">{brand}</p>
            </div>
            <ModeSwitch actor={actor} />
          </div>
          <div className="game__body">
            <div className="game__stage">
              <Stage actor={actor} />
            </div>
            <Info actor={actor} />
          </div>
        </div>
      )
  }
}
