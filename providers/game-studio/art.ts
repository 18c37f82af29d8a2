/**
 * Generated art (no outside images): a lobby tile per game as SVG, drawn from the game's palette
 * and kind. `/studio/art/{imageId}.svg`, 400×300.
 */
import type { GameDefinition } from "../../services/games/catalogue.ts"

export const escapeXml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] ?? c,
  )

const motif = (def: GameDefinition): string => {
  const { primary, accent, text } = def.palette
  switch (def.kind) {
    case "dice":
      return `<g transform="translate(150 70) rotate(-12 50 50)"><rect width="100" height="100" rx="18" fill="${primary}"/>
        ${[
          [25, 25],
          [75, 75],
          [50, 50],
          [75, 25],
          [25, 75],
        ]
          .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9" fill="${text}"/>`)
          .join("")}</g>`
    case "crash":
      return `<path d="M40 210 Q200 200 330 60" stroke="${primary}" stroke-width="8" fill="none" stroke-linecap="round"/>
        <circle cx="330" cy="60" r="16" fill="${accent}"/><text x="60" y="110" font-size="44" font-weight="700" fill="${accent}">2.00×</text>`
    case "mines":
      return Array.from({ length: 25 }, (_, i) => {
        const x = 110 + (i % 5) * 38
        const y = 40 + Math.floor(i / 5) * 34
        const mine = i === 7 || i === 18
        return `<rect x="${x}" y="${y}" width="32" height="28" rx="5" fill="${mine ? accent : primary}" opacity="${mine ? 1 : 0.75}"/>`
      }).join("")
    case "plinko": {
      const pegs = Array.from({ length: 7 }, (_, r) =>
        Array.from(
          { length: r + 3 },
          (_, c) =>
            `<circle cx="${200 - (r + 2) * 14 + c * 28}" cy="${40 + r * 24}" r="5" fill="${primary}"/>`,
        ).join(""),
      ).join("")
      return `${pegs}<circle cx="214" cy="88" r="9" fill="${accent}"/>`
    }
    case "roulette":
      return `<g transform="translate(200 120)">${Array.from({ length: 37 }, (_, i) => {
        const a0 = (i / 37) * Math.PI * 2
        const a1 = ((i + 1) / 37) * Math.PI * 2
        const p = (a: number, r: number) => `${(Math.cos(a) * r).toFixed(1)} ${(Math.sin(a) * r).toFixed(1)}`
        const fill = i === 0 ? "#1b8a3a" : i % 2 === 0 ? "#161616" : "#c62828"
        return `<path d="M0 0 L${p(a0, 90)} A90 90 0 0 1 ${p(a1, 90)} Z" fill="${fill}"/>`
      }).join("")}<circle r="40" fill="${primary}"/><circle r="12" fill="${accent}"/></g>`
    case "slot": {
      const symbols = def.params.symbols.filter((s) => s.kind !== "scatter").slice(0, 3)
      return symbols
        .map(
          (
            s,
            i,
          ) => `<g transform="translate(${85 + i * 80} 60)"><rect width="70" height="110" rx="10" fill="${primary}" opacity="0.9"/>
          <circle cx="35" cy="55" r="26" fill="${s.color}"/><text x="35" y="64" font-size="24" text-anchor="middle" font-weight="700" fill="#111">${escapeXml(s.glyph)}</text></g>`,
        )
        .join("")
    }
  }
}

export const gameArt = (def: GameDefinition): string => {
  const { background, primary, accent, text } = def.palette
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" width="400" height="300" role="img" aria-label="${escapeXml(def.name)}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${background}"/><stop offset="1" stop-color="${primary}" stop-opacity="0.45"/></linearGradient></defs>
<rect width="400" height="300" fill="url(#bg)"/>
${motif(def)}
<rect y="228" width="400" height="72" fill="${background}" opacity="0.85"/>
<text x="20" y="262" font-family="system-ui,sans-serif" font-size="26" font-weight="700" fill="${text}">${escapeXml(def.name)}</text>
<text x="20" y="286" font-family="system-ui,sans-serif" font-size="14" fill="${accent}">${escapeXml(def.brand)}${def.jackpot === null ? "" : " · JACKPOT"}</text>
</svg>`
}
