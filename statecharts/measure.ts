/**
 * Deterministic text measurement shared by the layout and the renderer. The diagram draws every
 * text in a monospace stack headed by DejaVu Sans Mono (installed here and in CI; every glyph
 * advances 1233/2048 ≈ 0.602 em, bold too), so a width is a character count times a constant: the
 * same number in Node (no canvas) and in Chromium, and the geometry tests can trust it. 0.61 leaves
 * a little room for a fallback monospace font that runs slightly wider.
 */

export const CHART_FONT_FAMILY = '"DejaVu Sans Mono", Menlo, Consolas, monospace'

/** Advance width of one character, in em, rounded up from DejaVu Sans Mono's 0.602. */
export const CHAR_WIDTH_EM = 0.61

export const FONT_SIZE = {
  /** State titles (bold). */
  title: 13,
  /** entry / exit / invoke / internal-transition lines inside a state. */
  detail: 11,
  edgeLabel: 11,
  /** The "from any state" chip. */
  chip: 10,
} as const

export const TITLE_WEIGHT = 700

/** Baseline-to-baseline distance for a font size. */
export const lineHeight = (fontSize: number): number => Math.ceil(fontSize * 1.4)

/** Distance from a line box's top to its baseline: the ascent, plus half the leading. */
export const baselineOffset = (fontSize: number): number =>
  Math.round((lineHeight(fontSize) - fontSize) / 2 + fontSize * 0.8)

const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], // Hangul Jamo
  [0x2e80, 0x303e], // CJK radicals, punctuation
  [0x3041, 0x33ff], // Kana, CJK symbols
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe30, 0xfe4f], // CJK compatibility forms
  [0xff00, 0xff60], // Fullwidth forms
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f], // Emoji: pictographs, emoticons
  [0x1f900, 0x1f9ff], // Supplemental symbols and pictographs
  [0x20000, 0x3fffd], // CJK extensions B+
]

/** East Asian wide characters and emoji take two cells in a monospace font. */
export const isWide = (codePoint: number): boolean =>
  WIDE_RANGES.some(([from, to]) => codePoint >= from && codePoint <= to)

/** Monospace cells the text occupies. */
export const textCells = (text: string): number => {
  let cells = 0
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0
    cells += isWide(cp) ? 2 : 1
  }
  return cells
}

/** Width in px of `text` at `fontSize`, rounded up. */
export const textWidth = (text: string, fontSize: number): number =>
  Math.ceil(textCells(text) * CHAR_WIDTH_EM * fontSize)

/** Splits `text` at spaces into lines of at most `maxCells` cells (a longer word stays whole). */
export const wrapText = (text: string, maxCells: number): Array<string> => {
  const words = text.split(" ")
  const lines: Array<string> = []
  let current = ""
  for (const word of words) {
    const candidate = current === "" ? word : `${current} ${word}`
    if (current !== "" && textCells(candidate) > maxCells) {
      lines.push(current)
      current = word
    } else {
      current = candidate
    }
  }
  if (current !== "") lines.push(current)
  return lines
}
