/**
 * The games area's pages: a projection of the shell's `gamesArea` actor — the home page (its hero,
 * the wallets, the lobby), a game's page, the fairness verifier. Loaded on first need (App.tsx
 * imports it lazily, with the area's machines), so the first download stays within its budget.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { gamePageMachine } from "../../machines/games/gamePage.machine.ts"
import type { gamesAreaMachine } from "../../machines/games/gamesArea.machine.ts"
import type { lobbyMachine } from "../../machines/games/lobby.machine.ts"
import type { verifierMachine } from "../../machines/games/verifier.machine.ts"
import { useShell } from "../app/actors.tsx"
import { Link } from "../components/Link.tsx"
import { Spinner } from "../components/Spinner.tsx"
import { HomePage } from "../pages/HomePage.tsx"
import { GameView } from "./GameView.tsx"
import { LobbyView } from "./LobbyView.tsx"
import { VerifierView } from "./VerifierView.tsx"
import { Wallets } from "./Wallets.tsx"
import "./games.css"

type AreaActor = ActorRefFrom<typeof gamesAreaMachine>

const Page = ({ area }: { area: AreaActor }) => {
  const page = useSelector(area, (s) =>
    s.matches("lobby")
      ? "lobby"
      : s.matches("game")
        ? "game"
        : s.matches("fairness")
          ? "fairness"
          : s.matches("notFound")
            ? "notFound"
            : "waiting",
  )
  const children = useSelector(area, (s) => s.children)
  const verifierFailed = useSelector(area, (s) => s.matches({ fairness: "loadFailed" }))
  const signedIn = useSelector(area, (s) => s.context.session === "signedIn")
  switch (page) {
    case "lobby": {
      const lobby = children.lobby as ActorRefFrom<typeof lobbyMachine> | undefined
      return (
        <>
          <HomePage />
          {signedIn ? <Wallets /> : null}
          {lobby ? <LobbyView actor={lobby} /> : null}
        </>
      )
    }
    case "game": {
      const game = children.game as ActorRefFrom<typeof gamePageMachine> | undefined
      return game ? <GameView key={game.id} actor={game} /> : null
    }
    case "fairness": {
      const verifier = children.verifier as ActorRefFrom<typeof verifierMachine> | undefined
      if (verifier) return <VerifierView actor={verifier} />
      return verifierFailed ? (
        <div className="notice" role="alert">
          The verifier could not be loaded.{" "}
          <button type="button" className="link-button" onClick={() => area.send({ type: "RETRY" })}>
            Try again
          </button>
        </div>
      ) : (
        <Spinner label="Loading the verifier" />
      )
    }
    case "notFound":
      return (
        <section className="page" aria-labelledby="games-not-found">
          <h1 id="games-not-found">Page not found</h1>
          <Link to="/" className="button button--primary">
            Back to the lobby
          </Link>
        </section>
      )
    case "waiting":
      return <Spinner label="Loading the games" />
  }
}

export const GamesPage = () => {
  const area = useShell((s) => s.children.gamesArea) as AreaActor | undefined
  return area ? <Page area={area} /> : <Spinner label="Loading the games" />
}
