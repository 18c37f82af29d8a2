/**
 * The studio's game page, `/studio/play/{sessionId}`: ONE document per game kind with an inline
 * stylesheet and one small inline script, both allowed by a per-response nonce (strict CSP, no
 * outside asset). The script talks to /studio/api/session/{id}/… and tells the parent window the new
 * balance after each round: postMessage({ type: "studio:balance", balance, currency }), and a refused
 * round's code: postMessage({ type: "studio:error", code }) (INSUFFICIENT_FUNDS: the casino offers Deposit).
 *
 * Free rounds (freeRounds.ts): while the session's player has a grant for this game, a banner (a polite
 * status region) says how many are left and the bet is fixed at the grant's, marked "free"; both are
 * rendered with the page and updated from every round's answer.
 *
 * The script is the shared core (pages/core.ts) and the page's own kind's module (pages/<kind>.ts):
 * each animates exactly the round the server computed, then marks the board data-state="settled".
 *
 * Accessibility: every control has a label, the result is announced (aria-live) once the animation
 * ended, the mines tiles are buttons with aria-pressed, every roulette bet spot a button named with
 * its bet and chip count, and the panels are <details>. Works from 320 px.
 *
 * A studio running as a test environment (STUDIO_SANDBOX) marks its pages "Sandbox": a small label on
 * the brand's line in the header, in the page's flow, so it never covers the game's controls.
 */
import { escapeHtml } from "../../lib/html.ts"
import type { GameDefinition } from "../../services/games/catalogue.ts"
import { MINES_TILES, minesMultiplier } from "../../services/games/mines.ts"
import { plinkoTableSets } from "../../services/games/plinko.ts"
import { exactRtp, formatPercent } from "../../services/games/rtp.ts"
import { paylines } from "../../services/games/slot.ts"
import { crashPage } from "./crash/page.ts"
import type { FreeRoundsView } from "./freeRounds.ts"
import { bootScript, coreScript } from "./pages/core.ts"
import { kindModule } from "./pages/kinds.ts"
import { wheelSvg } from "./pages/roulette.ts"
import { slotPayTable, slotSprite } from "./pages/slot.ts"
import type { SessionRow } from "./Studio.ts"

/** Minor units as the page shows them: "0.20 EUR" (no decimals for JPY and KRW, like the script). */
const formatMinor = (minor: string, currency: string): string => {
  const exp = currency === "JPY" || currency === "KRW" ? 0 : 2
  if (exp === 0) return `${minor} ${currency}`
  const s = minor.padStart(exp + 1, "0")
  return `${s.slice(0, -exp)}.${s.slice(-exp)} ${currency}`
}

/** The free-rounds banner's words (the script says the same after each round). */
export const freeRoundsBanner = (free: FreeRoundsView | null): string =>
  free === null
    ? ""
    : free.status === "active"
      ? `Free spins: ${free.roundsLeft} of ${free.rounds} left`
      : free.status === "finished"
        ? "Free spins finished"
        : ""

/** JSON safe inside <script type="application/json">. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, "\\u003c")

/**
 * The game page's CSP: nothing from outside its own origin, the inline style and script allowed by
 * the response's nonce, no form posted (the game talks to its own JSON routes), framed only by
 * itself and the casino origins configured (STUDIO_FRAME_ANCESTORS).
 */
export const pageCsp = (nonce: string, frameAncestors: ReadonlyArray<string>): string => {
  const origins = frameAncestors.flatMap((o) => {
    try {
      return [new URL(o).origin]
    } catch {
      return []
    }
  })
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'none'",
    ["frame-ancestors 'self'", ...new Set(origins)].join(" "),
    "base-uri 'none'",
  ].join("; ")
}

/** How a page marks a test environment (only then). */
export interface PageOptions {
  readonly sandbox: boolean
}

const sandboxMarkStyle =
  ".sandbox-mark{display:inline-block;margin-left:8px;padding:0 6px;border-radius:4px;background:#ffd54f;color:#111111;font-size:.75rem;font-weight:700;letter-spacing:.03em;line-height:1.5;vertical-align:middle}"

const sandboxMark = (options: PageOptions): string =>
  options.sandbox
    ? '<span class="sandbox-mark" title="This game studio is a test environment">Sandbox</span>'
    : ""

/** Black or white text on a colour, whichever contrasts more (WCAG relative luminance). */
const onColor = (hex: string): string => {
  const n = Number.parseInt(hex.replace("#", "").padEnd(6, "0").slice(0, 6), 16)
  const lin = (c: number) => {
    const v = c / 255
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
  }
  const l = 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255)
  return l > 0.179 ? "#111111" : "#ffffff"
}

const styles = (def: GameDefinition) => `${kindModule(def.kind).style}
:root{--bg:${def.palette.background};--pri:${def.palette.primary};--on-pri:${onColor(def.palette.primary)};--acc:${def.palette.accent};--txt:${def.palette.text};color-scheme:dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.4}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--txt);min-height:100vh}
header{display:flex;flex-wrap:wrap;gap:8px;align-items:center;justify-content:space-between;padding:10px 14px;background:rgba(0,0,0,.35)}
h1{font-size:1.1rem;margin:0}.brand{font-size:.85rem}.brand-name{opacity:.8}${sandboxMarkStyle}.badge{background:var(--acc);color:#111;border-radius:4px;padding:1px 6px;font-size:.75rem;font-weight:700;margin-left:6px}
.balance{font-weight:700;font-size:1.05rem}
.free{margin:0 0 12px;padding:8px 12px;border-radius:10px;background:var(--acc);color:#111;font-weight:700;text-align:center}.free:empty{padding:0;margin:0}
.free-bet{margin:0;padding:9px 0;font-weight:700}
main{max-width:760px;margin:0 auto;padding:12px}
.board{background:rgba(0,0,0,.3);border-radius:12px;padding:12px;margin-bottom:12px;min-height:120px}
.controls{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px;align-items:end}
label{display:block;font-size:.85rem;margin-bottom:3px;opacity:.9}
input,select,button{font:inherit;border-radius:8px;border:1px solid rgba(255,255,255,.35);padding:9px 10px;background:rgba(255,255,255,.08);color:var(--txt);width:100%}
select option{color:#111}
button{cursor:pointer;font-weight:600}button.play{background:var(--pri);color:var(--on-pri);border:0;font-size:1.1rem}
button[disabled]{opacity:.55;cursor:progress}
button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid var(--acc);outline-offset:2px}
.result{min-height:1.4em;margin:8px 0;font-size:1.05rem;font-weight:600}.result.win{color:#8ef0a8}.result.even{color:var(--txt)}.result.loss{color:var(--txt);opacity:.9}.result.error{color:#ffb4ab}
.extras{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start;margin-top:10px}.extras .toggle{width:auto}.extras .toggle[aria-pressed="true"]{background:var(--acc);color:#111}
.extras details.auto{margin:0;flex:1 1 220px}.extras #autoStop{width:auto;background:var(--acc);color:#111}.extras #autoStatus,.extras .rules{flex-basis:100%;margin:0}.extras #autoStatus:empty{display:none}
.check{display:flex;gap:8px;align-items:center;margin:8px 0}.check input{width:auto}.check label{margin:0}
.hdr-right{display:flex;gap:10px;align-items:center}.sound{width:auto;padding:5px 10px;font-size:.8rem;font-weight:600}
.board{position:relative}
details{background:rgba(0,0,0,.25);border-radius:10px;padding:8px 12px;margin-top:10px}summary{cursor:pointer;font-weight:700}
table{border-collapse:collapse;width:100%;font-size:.85rem}td,th{padding:4px;border-top:1px solid rgba(255,255,255,.15);text-align:left}
code{word-break:break-all;font-size:.8rem}a{color:var(--txt);text-decoration:underline}a:focus-visible{outline:3px solid var(--acc);outline-offset:2px}
.scroll{overflow-x:auto}#roundsTable td.win{font-weight:700}#roundsTable td:nth-child(2),#roundsTable td:nth-child(4){white-space:nowrap}.muted{opacity:.75;font-size:.85rem}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
/* A frame wider than a phone: the board beside the bet and the play button, so both show without
   scrolling inside the frame (a 5×5 field above the controls is taller than a 720 px window leaves). */
@media (min-width:600px){main:not([data-kind=roulette]) .stage{display:grid;grid-template-columns:minmax(0,3fr) minmax(210px,2fr);gap:12px;align-items:start}main:not([data-kind=roulette]) .stage .board{margin-bottom:0}.stage .controls{grid-template-columns:repeat(auto-fit,minmax(120px,1fr))}}
@media (max-width:420px){main{padding:8px}.board{padding:8px}.big{font-size:1.8rem;margin:2px 0}}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}
`

/** The info panel's rules and pay table, rendered on the server from the same maths. */
const info = (def: GameDefinition): string => {
  const rtp = formatPercent(exactRtp(def))
  const head = `<p>${escapeHtml(def.description)}</p><p>RTP <strong>${rtp} %</strong> (exact, theoretical) · volatility <strong>${def.volatility}</strong>${def.jackpot === null ? "" : ` · feeds the <strong>${escapeHtml(def.jackpot.name)}</strong>: 1 % of each bet; any round wins it with odds 1 in ${def.jackpot.odds.toLocaleString("en")}`}.</p>`
  switch (def.kind) {
    case "dice":
      return `${head}<p>A roll from 0.00 to 99.99. Pick a target and roll under or over it: the payout is ${(100 - def.params.edgeBp / 100).toFixed(0)} ÷ chance (%). RTP ${(100 - def.params.edgeBp / 100).toFixed(2)} % for every target.</p>`
    case "crash":
      return `${head}<p>Set an auto-cashout target from 1.01× to ${(def.params.maxTarget / 100).toFixed(2)}×. If the crash point reaches it, you win target × bet. P(crash ≥ x) = 0.99 ÷ x.</p>`
    case "mines":
      return `${head}<p>Choose 1–24 mines and press Bet, then open tiles one at a time. Each gem raises the payout to 0.99 ÷ P(every tile opened is safe); cash out whenever you like after the first gem, or open every safe tile to cash out by itself. A mine loses the bet. The RTP shown is for 3 mines and 1 tile; every choice returns at most 99 %.</p>`
    case "plinko": {
      const set = plinkoTableSets[def.params.tableSet]
      const rows = (["low", "medium", "high"] as const)
        .map(
          (risk) =>
            `<tr><th scope="row">${risk}, 16 rows</th><td>${(set[risk][8] ?? []).map((m) => (m / 10_000).toString()).join(" · ")}</td></tr>`,
        )
        .join("")
      return `${head}<p>Each row the ball goes left or right (one float each). The RTP shown is for 12 rows, medium risk; the table of your rows and risk is drawn under the board.</p><table>${rows}</table>`
    }
    case "roulette":
      return `${head}<table><tr><th>Bet</th><th>Pays</th></tr><tr><td>Straight (1 number)</td><td>35 to 1</td></tr><tr><td>Split (2)</td><td>17 to 1</td></tr><tr><td>Street (3)</td><td>11 to 1</td></tr><tr><td>Corner (4)</td><td>8 to 1</td></tr><tr><td>Line (6)</td><td>5 to 1</td></tr><tr><td>Dozen, column</td><td>2 to 1</td></tr><tr><td>Red/black, odd/even, 1–18/19–36</td><td>1 to 1</td></tr></table>`
    case "slot": {
      const p = def.params
      return `${head}<p>5 reels, 3 rows, ${p.lines} paylines paying left to right in line bets (total bet ÷ ${p.lines}). Reel lengths ${p.reels.map((r) => r.length).join(", ")}.</p>${slotPayTable(p)}`
    }
  }
}

/**
 * Mines' ladder: for each number of mines (1–24), the multiplier after 1, 2 … safe tiles, in
 * hundredths floored as the page shows them ("1.12×"), from the same maths the studio pays by.
 */
const minesLadder = (params: Parameters<typeof minesMultiplier>[0]): ReadonlyArray<ReadonlyArray<number>> =>
  Array.from({ length: MINES_TILES - 1 }, (_, i) =>
    Array.from({ length: MINES_TILES - (i + 1) }, (_, k) =>
      Number(minesMultiplier(params, i + 1, k + 1) / 100n),
    ),
  )

/** The casino's verifier page, next to the lobby it gave at launch (none without a lobby). */
const verifierUrl = (lobbyUrl: string | null): string | null => {
  if (lobbyUrl === null) return null
  try {
    const url = new URL("fairness", lobbyUrl)
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null
  } catch {
    return null
  }
}

export const gamePage = (
  nonce: string,
  s: SessionRow,
  def: GameDefinition,
  options: PageOptions = { sandbox: false },
  free: FreeRoundsView | null = null,
): string => {
  // Crash is multiplayer, a page of its own (crash/page.ts).
  const crash = def.kind === "crash" ? crashPage(nonce, s, def, options) : null
  if (crash !== null) return crash
  const active = free?.status === "active" ? free : null
  const config = {
    sessionId: s.id,
    kind: def.kind,
    currency: s.currency,
    demo: s.demo,
    maxTarget: def.kind === "crash" ? def.params.maxTarget : null,
    plinko: def.kind === "plinko" ? plinkoTableSets[def.params.tableSet] : null,
    symbols: def.kind === "slot" ? def.params.symbols.map((x) => ({ id: x.id, name: x.name })) : null,
    lines: def.kind === "slot" ? paylines.slice(0, def.params.lines) : null,
    reels: def.kind === "slot" ? def.params.reels : null,
    wheel: def.kind === "roulette" ? wheelSvg() : null,
    minesLadder: def.kind === "mines" ? minesLadder(def.params) : null,
    verifyUrl: verifierUrl(s.lobbyUrl),
    freeRounds: free,
    play: { autoplay: s.autoplay, turbo: s.turbo, minRoundMs: s.minRoundMs },
  }
  return `<!doctype html>
<html lang="${escapeHtml(s.lang.slice(0, 2))}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(def.name)} · ${escapeHtml(def.brand)}</title>
<style nonce="${nonce}">${styles(def)}</style></head>
<body>
${def.kind === "slot" ? slotSprite(def.params) : ""}
<header><div><h1>${escapeHtml(def.name)}${s.demo ? '<span class="badge">DEMO</span>' : ""}</h1><div class="brand"><span class="brand-name">${escapeHtml(def.brand)}</span>${sandboxMark(options)}</div></div>
<div class="hdr-right"><button type="button" class="sound" id="sound" aria-pressed="false">♪ Sound off</button><div class="balance" aria-live="polite">Balance: <span id="balance">…</span></div></div></header>
<main data-kind="${def.kind}">
<p class="free" id="free" role="status" aria-live="polite"${freeRoundsBanner(free) === "" ? " hidden" : ""}>${escapeHtml(freeRoundsBanner(free))}</p>
<div class="stage">
<section class="board" id="board" aria-label="Game board"></section>
<form id="form" novalidate>
<div class="controls" id="controls">
<div id="betField"${active === null ? "" : " hidden"}><label for="bet">Bet (${escapeHtml(s.currency)})</label><input id="bet" inputmode="decimal" value="1.00" autocomplete="off"></div>
<p class="free-bet" id="freeBet"${active === null ? " hidden" : ""}>${active === null ? "" : `Bet ${escapeHtml(formatMinor(active.bet, s.currency))} — free`}</p>
</div>
<p class="result" id="result" role="status" aria-live="polite"></p>
<button class="play" id="play" type="submit">${def.kind === "slot" ? "Spin" : def.kind === "roulette" ? "Spin the wheel" : def.kind === "plinko" ? "Drop" : def.kind === "crash" ? "Launch" : def.kind === "mines" ? "Bet" : "Roll"}</button>
${def.kind === "slot" ? slotExtras(s) : ""}
</form>
</div>
<details id="rounds" open><summary>Your rounds</summary>
<p class="muted" id="noRounds">No rounds yet in this session.</p>
<div class="scroll"><table id="roundsTable" hidden><caption class="sr">Your last rounds, newest first</caption><thead><tr><th scope="col">Round</th><th scope="col">Bet</th><th scope="col">Outcome</th><th scope="col">Win</th><th scope="col">Verify</th></tr></thead><tbody id="roundsBody"></tbody></table></div>
<p class="muted" id="verifyHint" hidden>Each round is recomputed from the server seed (revealed when you rotate it under Fairness), your client seed and the round's nonce on the <a id="verifyLink" target="_top" rel="noopener">casino's verifier</a>.</p>
</details>
<details id="fair"><summary>Fairness</summary>
<p class="muted">The outcome is HMAC-SHA256(server seed, "client seed:nonce:cursor"). The server seed is committed by its SHA-256 hash before you play; rotate to reveal it and check any round on the casino's verifier.</p>
<p>Server seed hash: <code id="hash">…</code></p>
<p>Nonce (next round): <strong id="nonce">…</strong></p>
<div class="controls"><div><label for="client">Client seed</label><input id="client" maxlength="64" autocomplete="off"></div>
<div><button type="button" id="saveSeed">Save client seed</button></div><div><button type="button" id="rotate">Rotate server seed</button></div></div>
<p id="revealed" aria-live="polite"></p>
</details>
<details id="info"><summary>Info &amp; pay table</summary>${info(def)}</details>
</main>
<script type="application/json" id="cfg">${scriptJson(config)}</script>
<script nonce="${nonce}">${pageScript(def.kind)}</script>
</body></html>`
}

export const notFoundPage = (
  nonce: string,
  options: PageOptions = { sandbox: false },
): string => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Game session not found</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;background:#111;color:#eee;padding:24px}${sandboxMarkStyle}</style></head>
<body>${options.sandbox ? `<p>${sandboxMark(options)}</p>` : ""}<main><h1>Game session not found</h1><p>This game session does not exist or has ended. Open the game again from the lobby.</p></main></body></html>`

/**
 * Turbo and autoplay, each only where the launch's rules allow it; autoplay always with a number of
 * spins, and optionally a loss limit and a stop on any win. Where neither is allowed, a line says so.
 */
const slotExtras = (s: SessionRow): string => {
  const turbo = s.turbo
    ? '<button type="button" class="toggle" id="turbo" aria-pressed="false">Turbo off</button>'
    : ""
  const auto = s.autoplay
    ? `<details class="auto" id="auto"><summary>Autoplay</summary>
<div class="controls"><div><label for="autoSpins">Spins (1–100)</label><input id="autoSpins" inputmode="numeric" value="10" autocomplete="off"></div>
<div><label for="autoLoss">Stop if the loss reaches (${escapeHtml(s.currency)})</label><input id="autoLoss" inputmode="decimal" placeholder="No limit" autocomplete="off"></div></div>
<div class="check"><input type="checkbox" id="autoWin"><label for="autoWin">Stop on any win</label></div>
<button type="button" id="autoStart">Start autoplay</button></details>
<button type="button" id="autoStop" hidden>Stop autoplay</button>`
    : ""
  const rules =
    s.minRoundMs > 0 ? ` Rounds here are at least ${(s.minRoundMs / 1000).toString()} s apart.` : ""
  const note =
    !s.autoplay || !s.turbo
      ? `<p class="muted rules">${[!s.autoplay ? "autoplay" : null, !s.turbo ? "turbo" : null]
          .filter((x) => x !== null)
          .join(" and ")
          .replace(/^./, (c) =>
            c.toUpperCase(),
          )} ${!s.autoplay && !s.turbo ? "are" : "is"} not offered where you play.${rules}</p>`
      : rules === ""
        ? ""
        : `<p class="muted rules">${rules.trim()}</p>`
  return `<div class="extras">${turbo}${auto}<p class="muted" id="autoStatus" role="status" aria-live="polite"></p>${note}</div>`
}

/** The page's one script: the shared core, the kind's module, then the round's flow (pages/). */
const pageScript = (kind: GameDefinition["kind"]): string =>
  `(function(){${coreScript}${kindModule(kind).script}${bootScript}})();`
