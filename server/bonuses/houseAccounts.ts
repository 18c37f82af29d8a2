/**
 * The house's ledger accounts (kind `house`) the bonus money moves between: what bonuses cost is
 * taken from and given back to `bonus`; free-round winnings come from `games`, the account every
 * game's bets and wins settle against (server/games/walletCore.ts), and go back to it unused.
 */
export const BONUS_HOUSE_CODE = "bonus"
export const GAMES_HOUSE_CODE = "games"
