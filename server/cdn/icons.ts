/**
 * Currency icons (spec: images/{type}/{currency}.svg): a coloured disc with the currency's symbol,
 * or its code when the symbol is long. Generated, so every seeded currency has one.
 */

/** Brand-like colours for the well-known codes; others get a stable colour derived from the code. */
const knownColours: Readonly<Record<string, string>> = {
  BTC: "#F7931A",
  ETH: "#627EEA",
  LTC: "#345D9D",
  DOG: "#BA9F33",
  USDT: "#26A17B",
  EUR: "#1F4E9E",
  USD: "#2E7D32",
  CAD: "#C62828",
  NOK: "#B71C1C",
  BRL: "#009C3B",
  AUD: "#00695C",
  NZD: "#283593",
  PLN: "#AD1457",
  JPY: "#6A1B9A",
}

const palette = ["#1565C0", "#2E7D32", "#6A1B9A", "#C62828", "#EF6C00", "#00838F", "#4E342E", "#37474F"]

export const iconColour = (code: string): string => {
  const known = knownColours[code]
  if (known !== undefined) return known
  let h = 0
  for (const ch of code) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0
  return palette[h % palette.length] ?? "#37474F"
}

const escapeXml = (s: string): string =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c,
  )

/** An SVG 64×64 icon: disc, thin inner ring, and the symbol (1–2 characters) or the code. */
export const currencyIconSvg = (currency: {
  readonly code: string
  readonly name: string
  readonly symbol: string
}) => {
  const symbolLength = [...currency.symbol].length
  // Symbols newer than the common system fonts (₿ is U+20BF, 2017) render as a blank box: use the code.
  const renderable = [...currency.symbol].every((c) => (c.codePointAt(0) ?? 0) <= 0x20b9)
  const label = renderable && symbolLength >= 1 && symbolLength <= 2 ? currency.symbol : currency.code
  const chars = [...label].length
  const fontSize = chars <= 1 ? 34 : chars === 2 ? 26 : chars === 3 ? 19 : 15
  const colour = iconColour(currency.code)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${escapeXml(currency.name)}">
  <title>${escapeXml(currency.name)} (${escapeXml(currency.code)})</title>
  <circle cx="32" cy="32" r="32" fill="${colour}"/>
  <circle cx="32" cy="32" r="27" fill="none" stroke="#FFFFFF" stroke-opacity="0.35" stroke-width="2"/>
  <text x="32" y="32" dy="0.35em" text-anchor="middle" fill="#FFFFFF" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" font-weight="700" font-size="${fontSize}">${escapeXml(label)}</text>
</svg>
`
}
