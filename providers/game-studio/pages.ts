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
 * Accessibility: every control has a label, the result is announced (aria-live), the mines grid and
 * the roulette board are buttons with aria-pressed, and the panels are <details>. Works from 320 px.
 *
 * A studio running as a test environment (STUDIO_SANDBOX) marks its pages "Sandbox": a small label on
 * the brand's line in the header, in the page's flow, so it never covers the game's controls.
 */
import { escapeHtml } from "../../lib/html.ts"
import type { GameDefinition } from "../../services/games/catalogue.ts"
import { plinkoTableSets } from "../../services/games/plinko.ts"
import { exactRtp, formatPercent } from "../../services/games/rtp.ts"
import { paylines } from "../../services/games/slot.ts"
import type { FreeRoundsView } from "./freeRounds.ts"
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

const styles = (def: GameDefinition) => `
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
.result{min-height:1.4em;margin:8px 0;font-size:1.05rem;font-weight:600}.result.win{color:#8ef0a8}.result.error{color:#ffb4ab}
.grid{display:grid;gap:6px}.mines{grid-template-columns:repeat(5,1fr);max-width:340px;margin:0 auto}
.mines button{aspect-ratio:1;padding:0;font-size:1.2rem}.mines button[aria-pressed=true]{background:var(--pri);color:var(--on-pri)}
.mines button.mine{background:#c62828;color:#fff}.mines button.safe{outline:2px solid var(--acc)}
.reels{grid-template-columns:repeat(5,1fr);max-width:340px;margin:0 auto}
.cell{aspect-ratio:1;border-radius:10px;display:flex;align-items:center;justify-content:center;font-weight:800;color:#111;font-size:1.1rem}
.cell.hit{outline:3px solid var(--acc)}
.roulette{grid-template-columns:repeat(7,minmax(0,1fr))}.roulette button{padding:6px 0;font-size:.85rem;line-height:1.2}
.roulette .red{background:#b71c1c;color:#fff}.roulette .black{background:#161616;color:#fff}.roulette .green{background:#1b5e20;color:#fff}
.roulette button[data-chips]:not([data-chips="0"]){outline:3px solid var(--acc)}
.buckets{display:flex;gap:2px;flex-wrap:wrap;justify-content:center;font-size:.72rem}.buckets span{padding:4px 3px;border-radius:4px;background:rgba(255,255,255,.12);min-width:2.6em;text-align:center}
.buckets span.hit{background:var(--acc);color:#111;font-weight:700}
.big{font-size:2.4rem;font-weight:800;text-align:center;margin:8px 0}
details{background:rgba(0,0,0,.25);border-radius:10px;padding:8px 12px;margin-top:10px}summary{cursor:pointer;font-weight:700}
table{border-collapse:collapse;width:100%;font-size:.85rem}td,th{padding:4px;border-top:1px solid rgba(255,255,255,.15);text-align:left}
code{word-break:break-all;font-size:.8rem}a{color:var(--txt);text-decoration:underline}a:focus-visible{outline:3px solid var(--acc);outline-offset:2px}
.scroll{overflow-x:auto}#roundsTable td.win{font-weight:700}#roundsTable td:nth-child(2),#roundsTable td:nth-child(4){white-space:nowrap}.muted{opacity:.75;font-size:.85rem}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
/* A frame wider than a phone: the board beside the bet and the play button, so both show without
   scrolling inside the frame (a 5×5 field above the controls is taller than a 720 px window leaves). */
@media (min-width:600px){.stage{display:grid;grid-template-columns:minmax(0,3fr) minmax(210px,2fr);gap:12px;align-items:start}.stage .board{margin-bottom:0}.stage .controls{grid-template-columns:repeat(auto-fit,minmax(120px,1fr))}}
@media (max-width:420px){main{padding:8px}.board{padding:8px}.big{font-size:1.8rem;margin:2px 0}.roulette{gap:4px}.roulette button{font-size:.72rem;padding:5px 0}.cell{font-size:.9rem}}
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
      return `${head}<p>Choose 1–24 mines and the tiles to open. All safe: the payout is 0.99 ÷ P(all safe). The RTP shown is for 3 mines and 1 pick; every choice returns at most 99 %.</p>`
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
      const rows = p.symbols
        .map(
          (s) =>
            `<tr><td><span class="sr">${escapeHtml(s.name)}</span><span aria-hidden="true">${escapeHtml(s.glyph)}</span> ${escapeHtml(s.name)}${s.kind === "wild" ? " (wild)" : s.kind === "scatter" ? " (scatter, pays anywhere × total bet)" : ""}</td><td>${s.pays.join(" / ")}</td></tr>`,
        )
        .join("")
      return `${head}<p>5 reels, 3 rows, ${p.lines} paylines paying left to right in line bets (total bet ÷ ${p.lines}). Reel lengths ${p.reels.map((r) => r.length).join(", ")}.</p><table><tr><th>Symbol</th><th>3 / 4 / 5</th></tr>${rows}</table>`
    }
  }
}

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
  const active = free?.status === "active" ? free : null
  const config = {
    sessionId: s.id,
    kind: def.kind,
    currency: s.currency,
    demo: s.demo,
    maxTarget: def.kind === "crash" ? def.params.maxTarget : null,
    plinko: def.kind === "plinko" ? plinkoTableSets[def.params.tableSet] : null,
    symbols:
      def.kind === "slot"
        ? def.params.symbols.map((x) => ({ id: x.id, color: x.color, glyph: x.glyph, name: x.name }))
        : null,
    lines: def.kind === "slot" ? paylines.slice(0, def.params.lines) : null,
    verifyUrl: verifierUrl(s.lobbyUrl),
    freeRounds: free,
  }
  return `<!doctype html>
<html lang="${escapeHtml(s.lang.slice(0, 2))}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(def.name)} · ${escapeHtml(def.brand)}</title>
<style nonce="${nonce}">${styles(def)}</style></head>
<body>
<header><div><h1>${escapeHtml(def.name)}${s.demo ? '<span class="badge">DEMO</span>' : ""}</h1><div class="brand"><span class="brand-name">${escapeHtml(def.brand)}</span>${sandboxMark(options)}</div></div>
<div class="balance" aria-live="polite">Balance: <span id="balance">…</span></div></header>
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
<button class="play" id="play" type="submit">${def.kind === "slot" ? "Spin" : def.kind === "roulette" ? "Spin the wheel" : def.kind === "plinko" ? "Drop" : def.kind === "crash" ? "Launch" : def.kind === "mines" ? "Open tiles" : "Roll"}</button>
</form>
</div>
<details id="rounds" open><summary>Your rounds</summary>
<p class="muted" id="noRounds">No rounds yet in this session.</p>
<div class="scroll"><table id="roundsTable" hidden><caption class="sr">Your last rounds, newest first</caption><thead><tr><th scope="col">Round</th><th scope="col">Bet</th><th scope="col">Outcome</th><th scope="col">Win</th></tr></thead><tbody id="roundsBody"></tbody></table></div>
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
<script nonce="${nonce}">${script}</script>
</body></html>`
}

export const notFoundPage = (
  nonce: string,
  options: PageOptions = { sandbox: false },
): string => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Game session not found</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;background:#111;color:#eee;padding:24px}${sandboxMarkStyle}</style></head>
<body>${options.sandbox ? `<p>${sandboxMark(options)}</p>` : ""}<main><h1>Game session not found</h1><p>This game session does not exist or has ended. Open the game again from the lobby.</p></main></body></html>`

/** The page's script (plain ES2020; no template literals inside, so this stays one TS string). */
const script = String.raw`(function(){
"use strict";
var cfg=JSON.parse(document.getElementById("cfg").textContent);
var api="/studio/api/session/"+encodeURIComponent(cfg.sessionId);
var $=function(id){return document.getElementById(id)};
var board=$("board"),controls=$("controls"),result=$("result"),play=$("play");
var exp=cfg.currency==="JPY"||cfg.currency==="KRW"?0:2;
function fmt(minor){if(minor===null||minor===undefined)return "—";var n=BigInt(minor),neg=n<0n;if(neg)n=-n;var s=n.toString();if(exp===0)return (neg?"-":"")+s+" "+cfg.currency;s=s.padStart(exp+1,"0");return (neg?"-":"")+s.slice(0,-exp)+"."+s.slice(-exp)+" "+cfg.currency}
function toMinor(text){var t=String(text).trim().replace(",",".");if(!/^\d+(\.\d{1,2})?$/.test(t))return null;var p=t.split(".");var frac=(p[1]||"").padEnd(exp,"0").slice(0,exp);var v=BigInt(p[0]+frac);return v>0n?v.toString():null}
function el(tag,attrs,text){var e=document.createElement(tag);for(var k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=text;return e}
function field(labelText,input){var d=el("div");var id=input.id;d.appendChild(el("label",{"for":id},labelText));d.appendChild(input);controls.appendChild(d);return input}
function call(method,path,body){return fetch(api+path,{method:method,headers:{"content-type":"application/json"},body:body===undefined?undefined:JSON.stringify(body),credentials:"same-origin"}).then(function(r){return r.json().then(function(j){return {ok:r.ok,status:r.status,body:j}},function(){return {ok:false,status:r.status,body:{message:"The game server answered "+r.status+"."}}})},function(){return {ok:false,status:0,body:{message:"No connection to the game server."}}})}
function setBalance(b){$("balance").textContent=fmt(b);if(b!==null&&b!==undefined&&window.parent!==window){window.parent.postMessage({type:"studio:balance",balance:b,currency:cfg.currency},"*")}}
function setSeed(s){$("hash").textContent=s.serverSeedHash;$("nonce").textContent=String(s.nonce);$("client").value=s.clientSeed}
// The free rounds this session plays now (the grant's bet, no stake), or null: normal play.
var free=null;
function setFree(f){free=f&&f.status==="active"?f:null;$("free").textContent=free?"Free spins: "+free.roundsLeft+" of "+free.rounds+" left":f&&f.status==="finished"?"Free spins finished":"";$("free").hidden=$("free").textContent==="";$("betField").hidden=!!free;$("freeBet").hidden=!free;$("freeBet").textContent=free?"Bet "+fmt(free.bet)+" — free":""}
var rounds=[];
function addRound(r,text){rounds.unshift({nonce:r.nonce,bet:r.bet,win:r.win,text:text,free:r.freeRound});if(rounds.length>10)rounds.pop();var body=$("roundsBody");body.textContent="";rounds.forEach(function(x){var tr=el("tr");tr.appendChild(el("td",{},"#"+x.nonce));tr.appendChild(el("td",{},fmt(x.bet)+(x.free?" (free)":"")));tr.appendChild(el("td",{},x.text));tr.appendChild(el("td",{"class":BigInt(x.win)>0n?"win":""},BigInt(x.win)>0n?fmt(x.win):"—"));body.appendChild(tr)});$("roundsTable").hidden=false;$("noRounds").hidden=true;if(cfg.verifyUrl){$("verifyLink").setAttribute("href",cfg.verifyUrl);$("verifyHint").hidden=false}}
function say(text,cls){result.textContent=text;result.className="result"+(cls?" "+cls:"")}
var getOptions=function(){return {}},show=function(){};
// ---- kinds ----
if(cfg.kind==="dice"){
  var target=field("Target (0.01–99.99)",el("input",{id:"target",type:"number",min:"1",max:"98",step:"0.01",value:"50"}));
  var dir=field("Roll",el("select",{id:"dir"}));dir.appendChild(el("option",{value:"under"},"Under"));dir.appendChild(el("option",{value:"over"},"Over"));
  var slider=el("input",{id:"slider",type:"range",min:"1",max:"98",step:"0.01",value:"50","aria-label":"Target"});board.appendChild(slider);
  var big=el("div",{"class":"big","aria-hidden":"true"},"—");board.appendChild(big);var odds=el("p",{"class":"muted"});board.appendChild(odds);
  var upd=function(){var t=Number(target.value),c=dir.value==="under"?t:99.99-t;odds.textContent=c>0?"Chance "+c.toFixed(2)+" % · payout "+(99/c).toFixed(4)+"×":"";};
  slider.addEventListener("input",function(){target.value=slider.value;upd()});target.addEventListener("input",function(){slider.value=target.value;upd()});dir.addEventListener("change",upd);upd();
  getOptions=function(){return {target:Number(target.value),direction:dir.value}};
  show=function(r){big.textContent=r.detail.roll.toFixed(2);return "Roll "+r.detail.roll.toFixed(2)+" ("+r.detail.direction+" "+r.detail.target+")"};
}
if(cfg.kind==="crash"){
  var ct=field("Auto cash-out (×)",el("input",{id:"ctarget",type:"number",min:"1.01",max:String(cfg.maxTarget/100),step:"0.01",value:"2.00"}));
  var cbig=el("div",{"class":"big"},"1.00×");board.appendChild(cbig);
  getOptions=function(){return {target:Number(ct.value)}};
  show=function(r){cbig.textContent=r.detail.crashPoint.toFixed(2)+"×";return "Crashed at "+r.detail.crashPoint.toFixed(2)+"× — your target "+r.detail.target.toFixed(2)+"×"};
}
if(cfg.kind==="mines"){
  var mc=field("Mines",el("select",{id:"mines"}));for(var m=1;m<=24;m++){var o=el("option",{value:String(m)},String(m));if(m===3)o.selected=true;mc.appendChild(o)}
  var grid=el("div",{"class":"grid mines",role:"group","aria-label":"Field: choose the tiles to open"});board.appendChild(grid);var picks=[];
  for(var i=0;i<25;i++){(function(i){var b=el("button",{type:"button","aria-pressed":"false","aria-label":"Tile "+(Math.floor(i/5)+1)+"-"+(i%5+1)},"");b.addEventListener("click",function(){var k=picks.indexOf(i);if(k>=0){picks.splice(k,1);b.setAttribute("aria-pressed","false")}else{picks.push(i);b.setAttribute("aria-pressed","true")}});grid.appendChild(b)})(i)}
  getOptions=function(){return {mines:Number(mc.value),picks:picks.slice()}};
  show=function(r){var bs=grid.querySelectorAll("button");bs.forEach(function(b,i){b.classList.remove("mine","safe");b.textContent="";if(r.detail.mines.indexOf(i)>=0){b.classList.add("mine");b.textContent="✹"}else if(r.detail.picks.indexOf(i)>=0){b.classList.add("safe");b.textContent="◆"}});return r.detail.win?"All "+r.detail.picks.length+" tiles safe!":"Mine hit after "+r.detail.opened+" safe tile(s)."};
}
if(cfg.kind==="plinko"){
  var rows=field("Rows",el("select",{id:"rows"}));for(var n=8;n<=16;n++){var ro=el("option",{value:String(n)},String(n));if(n===12)ro.selected=true;rows.appendChild(ro)}
  var risk=field("Risk",el("select",{id:"risk"}));["low","medium","high"].forEach(function(x){var ro=el("option",{value:x},x);if(x==="medium")ro.selected=true;risk.appendChild(ro)});
  var path=el("p",{"class":"muted","aria-hidden":"true"});board.appendChild(path);var buckets=el("div",{"class":"buckets","aria-label":"Multipliers per bucket"});board.appendChild(buckets);
  var draw=function(hit){buckets.textContent="";(cfg.plinko[risk.value][Number(rows.value)-8]||[]).forEach(function(m,i){buckets.appendChild(el("span",{"class":i===hit?"hit":""},(m/10000)+"×"))})};
  rows.addEventListener("change",function(){draw(-1)});risk.addEventListener("change",function(){draw(-1)});draw(-1);
  getOptions=function(){return {rows:Number(rows.value),risk:risk.value}};
  show=function(r){draw(r.detail.bucket);path.textContent=r.detail.path.map(function(x){return x?"↘":"↙"}).join(" ");return "Bucket "+(r.detail.bucket+1)+" of "+(r.detail.rows+1)};
}
if(cfg.kind==="roulette"){
  var reds=[1,3,5,7,9,12,14,16,18,19,21,23,25,27,30,32,34,36];var chips={};
  var rb=el("div",{"class":"grid roulette",role:"group","aria-label":"Betting board: each press adds one chip"});board.appendChild(rb);
  var pocket=el("div",{"class":"big"},"—");board.insertBefore(pocket,rb);
  var add=function(key,full,cls,bet,shown){var text=shown||full;var label=shown?shown+" ("+full+")":full;var b=el("button",{type:"button","class":cls||"","data-chips":"0","aria-label":label+", 0 chips"},text);b.addEventListener("click",function(){chips[key]=chips[key]||{bet:bet,n:0};chips[key].n++;b.setAttribute("data-chips",String(chips[key].n));b.setAttribute("aria-label",label+", "+chips[key].n+" chips");b.textContent=text+" ("+chips[key].n+")"});rb.appendChild(b)};
  add("n0","0","green",{type:"straight",numbers:[0]});for(var k=1;k<=36;k++){add("n"+k,String(k),reds.indexOf(k)>=0?"red":"black",{type:"straight",numbers:[k]})}
  [["red","Red"],["black","Black"],["odd","Odd"],["even","Even"],["low","1–18"],["high","19–36"]].forEach(function(x){add(x[0],x[1],"",{type:x[0]})});
  // The table's short names show (they fit seven to a row on a phone); the name announced starts with them too.
  [1,2,3].forEach(function(d){add("d"+d,"Dozen "+d,"",{type:"dozen",numbers:[d]},["1st","2nd","3rd"][d-1]+" 12");add("c"+d,"Column "+d,"",{type:"column",numbers:[d]},"Col "+d)});
  var clear=el("button",{type:"button"},"Clear bets");clear.addEventListener("click",function(){chips={};rb.querySelectorAll("button").forEach(function(b){b.setAttribute("data-chips","0");b.textContent=b.textContent.replace(/ \(\d+\)$/,"")})});controls.appendChild(clear);
  getOptions=function(){var bets=[];for(var k in chips){var c=chips[k];var b={type:c.bet.type,chips:c.n};if(c.bet.numbers)b.numbers=c.bet.numbers;bets.push(b)}return {bets:bets.length?bets:[{type:"red",chips:1}]}};
  show=function(r){pocket.textContent=r.detail.pocket+" "+r.detail.color;return "The ball lands on "+r.detail.pocket+" ("+r.detail.color+")"};
}
if(cfg.kind==="slot"){
  var reels=el("div",{"class":"grid reels",role:"img","aria-label":"Reels"});board.appendChild(reels);var byId={};cfg.symbols.forEach(function(s){byId[s.id]=s});
  var paint=function(w,hits){reels.textContent="";var names=[];for(var row=0;row<3;row++){for(var c=0;c<5;c++){var id=w?w[c][row]:cfg.symbols[(c+row)%cfg.symbols.length].id;var s=byId[id];var cell=el("div",{"class":"cell"+(hits&&hits[c+":"+row]?" hit":"")},s.glyph);cell.style.background=s.color;reels.appendChild(cell);names.push(s.name)}}reels.setAttribute("aria-label","Reels: "+names.join(", "))};
  paint(null,null);
  show=function(r){var hits={};r.detail.wins.forEach(function(w){var line=cfg.lines[w.line];for(var c=0;c<w.count;c++)hits[c+":"+line[c]]=true});paint(r.detail.window,hits);var t=r.detail.wins.map(function(w){return "line "+(w.line+1)+": "+w.count+"× "+byId[w.symbol].name+" pays "+w.pay}).join("; ");if(r.detail.scatterPay>0)t+=(t?"; ":"")+r.detail.scatters+" scatters pay "+r.detail.scatterPay+"× bet";return t||"Nothing on the lines"};
}
// ---- state, round, seeds ----
function load(){call("GET","").then(function(r){if(!r.ok){say(r.body.message||"This game session is not available.","error");play.disabled=true;return}setBalance(r.body.balance);setSeed(r.body.seed);setFree(r.body.freeRounds);if(r.body.balanceMessage)say(r.body.balanceMessage,"error")})}
$("form").addEventListener("submit",function(e){e.preventDefault();var bet=free?free.bet:toMinor($("bet").value);if(bet===null){say("Enter a bet, e.g. 1.00.","error");$("bet").focus();return}
  play.disabled=true;say("…");call("POST","/round",{bet:bet,options:getOptions(),freeRound:!!free}).then(function(r){play.disabled=false;
    if(!r.ok){say(r.body.message||"The round did not go through.","error");if(typeof r.body.error==="string"&&window.parent!==window)window.parent.postMessage({type:"studio:error",code:r.body.error},"*");if(r.status===503||r.status===402||r.body.error==="FREE_ROUNDS_ENDED")load();return}
    var text=show(r.body);var win=BigInt(r.body.win);var msg=text+" — "+(win>0n?"you win "+fmt(r.body.win)+" ("+(Number(r.body.multiplier)/10000)+"×)":"no win")+".";
    if(r.body.jackpotHit)msg+=r.body.jackpotAmount?" JACKPOT! "+fmt(r.body.jackpotAmount):" The jackpot draw hit!";
    if(r.body.freeRound)msg="Free spin: "+msg;say(msg,win>0n?"win":"");addRound(r.body,text);setBalance(r.body.balance);setFree(r.body.freeRounds);$("nonce").textContent=String(r.body.nonce+1)})});
$("saveSeed").addEventListener("click",function(){call("POST","/seed",{clientSeed:$("client").value}).then(function(r){if(r.ok){setSeed(r.body);$("revealed").textContent="Client seed saved."}else $("revealed").textContent=r.body.message})});
$("rotate").addEventListener("click",function(){call("POST","/rotate").then(function(r){if(!r.ok){$("revealed").textContent=r.body.message||"Could not rotate.";return}var v=r.body.revealed;$("revealed").textContent="Revealed server seed: "+v.serverSeed+" (hash "+v.serverSeedHash+", client seed "+v.clientSeed+", "+v.nonce+" rounds played).";setSeed(r.body.next)})});
setFree(cfg.freeRounds);load();
})();`
