/**
 * Generated art (no outside images): a lobby tile per game as SVG, drawn from the game's palette
 * and kind. `/studio/art/{imageId}.svg`, 400×300. Each title differs: a slot shows its own wild and
 * top symbols (the same art as its reels), every tile a glow, light rays and sparkles placed from
 * its name, and a frame in its accent colour. The title sits in the bottom band, where the casino's
 * badges (top left) never reach.
 */
import type { GameDefinition } from "../../services/games/catalogue.ts"
import { slotSymbols } from "./pages/slot.ts"

/** A small deterministic number stream from the title (sparkles and rays differ per title). */
const seeded = (name: string) => {
  let h = 2166136261
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619)
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507)
    h = Math.imul(h ^ (h >>> 13), 3266489909)
    h ^= h >>> 16
    return (h >>> 0) / 4294967296
  }
}

const decor = (def: GameDefinition): string => {
  const rnd = seeded(def.id)
  const { accent, primary } = def.palette
  const turn = Math.round(rnd() * 30)
  const rays = Array.from({ length: 12 }, (_, i) => {
    const a = ((i * 30 + turn) * Math.PI) / 180
    const b = ((i * 30 + turn + 12) * Math.PI) / 180
    const p = (x: number) => `${(200 + Math.cos(x) * 320).toFixed(0)} ${(120 + Math.sin(x) * 320).toFixed(0)}`
    return `<path d="M200 120L${p(a)}L${p(b)}Z" fill="${primary}" opacity=".07"/>`
  }).join("")
  const sparkles = Array.from({ length: 9 }, () => {
    const x = (20 + rnd() * 360).toFixed(0)
    const y = (14 + rnd() * 200).toFixed(0)
    const r = 2 + rnd() * 5
    const [a, b] = [(2 * r).toFixed(1), (0.35 * r).toFixed(1)]
    return `<path transform="translate(${x} ${y})" d="M0 -${a}L${b} -${b}L${a} 0L${b} ${b}L0 ${a}L-${b} ${b}L-${a} 0L-${b} -${b}Z" fill="${accent}" opacity="${(0.35 + rnd() * 0.5).toFixed(2)}"/>`
  }).join("")
  return `${rays}<circle cx="200" cy="120" r="130" fill="url(#glow)"/>${sparkles}`
}

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
      // The wild in the middle, raised; the two best paying symbols beside it, on reel windows.
      const wild = def.params.symbols.find((x) => x.kind === "wild")
      const top = def.params.symbols.filter((x) => x.kind === "normal").slice(0, 2)
      const shown = [top[0], wild, top[1]].flatMap((x) => (x === undefined ? [] : [x]))
      return `<defs>${slotSymbols(def.params)}</defs>${shown
        .map((x, i) => {
          const mid = i === 1
          const w = mid ? 120 : 96
          const cx = 200 + (i - 1) * 112
          return `<g transform="translate(${cx - w / 2} ${mid ? 34 : 58})"><rect width="${w}" height="${w + 20}" rx="14" fill="#000" opacity=".35" stroke="${accent}" stroke-width="3"/><use href="#sym-${x.id}" x="6" y="16" width="${w - 12}" height="${w - 12}"/></g>`
        })
        .join(
          "",
        )}<text x="200" y="214" text-anchor="middle" font-family="system-ui,sans-serif" font-size="13" font-weight="700" letter-spacing="3" fill="${text}" opacity=".85">${def.params.lines} LINES</text>`
    }
  }
}

export const gameArt = (def: GameDefinition): string => {
  const { background, primary, accent, text } = def.palette
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" width="400" height="300" role="img" aria-label="${escapeXml(def.name)}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${background}"/><stop offset="1" stop-color="${primary}" stop-opacity="0.45"/></linearGradient><radialGradient id="glow"><stop offset="0" stop-color="${accent}" stop-opacity=".35"/><stop offset="1" stop-color="${accent}" stop-opacity="0"/></radialGradient><linearGradient id="band" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${background}" stop-opacity=".6"/><stop offset=".4" stop-color="${background}" stop-opacity=".95"/></linearGradient></defs>
<rect width="400" height="300" fill="url(#bg)"/>
${decor(def)}
${motif(def)}
<rect y="222" width="400" height="78" fill="url(#band)"/><rect y="222" width="400" height="2" fill="${accent}" opacity=".8"/>
<rect x="3" y="3" width="394" height="294" rx="10" fill="none" stroke="${accent}" stroke-opacity=".55" stroke-width="4"/>
<text x="20" y="262" font-family="system-ui,sans-serif" font-size="26" font-weight="700" fill="${text}">${escapeXml(def.name)}</text>
<text x="20" y="286" font-family="system-ui,sans-serif" font-size="14" fill="${accent}">${escapeXml(def.brand)}${def.jackpot === null ? "" : " · JACKPOT"}</text>
</svg>`
}
