/**
 * One game in the lobby: its art, name and brand, a link to its page, and the favorite toggle
 * (`aria-pressed`; a visitor's press asks to log in — the lobby machine decides).
 */
import type { Game } from "../../services/game-service.ts"
import { Link } from "../components/Link.tsx"

export const GameTile = ({
  game,
  favorite,
  saving,
  onToggleFavorite,
}: {
  game: Game
  favorite: boolean
  saving: boolean
  onToggleFavorite: () => void
}) => (
  <li className="tile">
    <Link to={`/game/${game.id}`} className="tile__link">
      {/* A background, not an <img>: art that does not load leaves the tile's gradient, no broken mark. */}
      <span
        className="tile__art"
        aria-hidden="true"
        style={{
          backgroundImage: `url("${encodeURI(game.image)}"), linear-gradient(135deg, var(--panel), var(--bg-sunken))`,
        }}
      />
      <span className="tile__name">{game.name}</span>
      <span className="tile__brand">{game.provider}</span>
      {game.isNew ? <span className="tile__flag">New</span> : null}
      {game.jackpot ? <span className="tile__flag tile__flag--jackpot">Jackpot</span> : null}
    </Link>
    <button
      type="button"
      className="tile__fav"
      aria-pressed={favorite}
      aria-busy={saving}
      aria-label={favorite ? `Remove ${game.name} from favorites` : `Add ${game.name} to favorites`}
      onClick={onToggleFavorite}
    >
      <span aria-hidden="true">{favorite ? "♥" : "♡"}</span>
    </button>
  </li>
)
