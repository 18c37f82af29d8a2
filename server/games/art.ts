/**
 * Generated tile art for the catalogue (no outside images): one SVG per game under
 * `{CDN_DIR}/games/{id}.svg`, served as `{CDN_BASE_PATH}/games/{id}.svg`. A file that exists is the
 * operator's (or the studio's richer art) and is never overwritten.
 */
import { createHash } from "node:crypto"
import { mkdir, stat, writeFile } from "node:fs/promises"
import { join } from "node:path"
import type { CatalogueGame } from "./catalogue.ts"

const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** Two hues from the id's hash: stable per game, distinct between games. */
export const tileSvg = (game: Pick<CatalogueGame, "id" | "name" | "brand" | "kind">): string => {
  const h = createHash("sha256").update(game.id).digest()
  const hue1 = ((h[0] ?? 0) * 360) >> 8
  const hue2 = (hue1 + 40 + ((h[1] ?? 0) >> 2)) % 360
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 400" role="img" aria-label="${escapeXml(game.name)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue1} 70% 45%)"/><stop offset="1" stop-color="hsl(${hue2} 75% 22%)"/></linearGradient></defs>
<rect width="300" height="400" rx="24" fill="url(#g)"/>
<circle cx="150" cy="160" r="${70 + ((h[2] ?? 0) % 30)}" fill="hsl(${hue2} 80% 70% / .25)"/>
<text x="150" y="300" text-anchor="middle" font-family="system-ui,sans-serif" font-size="26" font-weight="700" fill="#fff">${escapeXml(game.name)}</text>
<text x="150" y="336" text-anchor="middle" font-family="system-ui,sans-serif" font-size="16" fill="#fffc">${escapeXml(game.brand)} · ${game.kind}</text>
</svg>
`
}

export const writeTileArt = async (cdnDir: string, games: ReadonlyArray<CatalogueGame>): Promise<void> => {
  const dir = join(cdnDir, "games")
  await mkdir(dir, { recursive: true })
  for (const game of games) {
    const path = join(dir, `${game.id}.svg`)
    const exists = await stat(path).then(
      () => true,
      () => false,
    )
    if (!exists) await writeFile(path, tileSvg(game), "utf8")
  }
}
