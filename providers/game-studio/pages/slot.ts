/**
 * Video slot: vector symbol art generated from each symbol's colour, kind and name (a wild badge, a
 * scatter star, gems cut in different shapes for the theme's high symbols, card suits for the
 * royals), five reels that scroll through their real strips and stop one after another on the
 * server's stops (so the window shown is `detail.window`, read back as data-window), the winning
 * lines drawn over the reels, a win counter, and a picture pay table for the Info panel.
 */
import { escapeHtml } from "../../../lib/html.ts"
import type { SlotParams } from "../../../services/games/slot.ts"

type SlotSymbol = SlotParams["symbols"][number]

/** #rrggbb lightened (f > 0) or darkened (f < 0). */
const shade = (hex: string, f: number): string => {
  const n = Number.parseInt(hex.replace("#", "").padEnd(6, "0").slice(0, 6), 16)
  const ch = (v: number) => Math.round(f >= 0 ? v + (255 - v) * f : v * (1 + f))
  const r = ch((n >> 16) & 255)
  const g = ch((n >> 8) & 255)
  const b = ch(n & 255)
  return `#${((r << 16) | (g << 8) | b).toString(16).padStart(6, "0")}`
}

const ROYALS: Readonly<Record<string, { suit: string; letter: string }>> = {
  Ace: { suit: "spade", letter: "A" },
  King: { suit: "heart", letter: "K" },
  Queen: { suit: "diamond", letter: "Q" },
  Jack: { suit: "club", letter: "J" },
  Ten: { suit: "spade", letter: "10" },
  Nine: { suit: "heart", letter: "9" },
}

const suitPath: Readonly<Record<string, string>> = {
  spade:
    "M50 12C38 30 18 40 18 58c0 12 10 20 21 18-2 6-5 10-10 14h42c-5-4-8-8-10-14 11 2 21-6 21-18 0-18-20-28-32-46Z",
  heart:
    "M50 86C30 70 14 56 14 38c0-12 9-22 21-22 7 0 12 4 15 9 3-5 8-9 15-9 12 0 21 10 21 22 0 18-16 32-36 48Z",
  diamond: "M50 10 82 50 50 90 18 50Z",
  club: "M50 12a15 15 0 0 0-13 23 15 15 0 1 0 8 26c-2 10-6 17-13 23h36c-7-6-11-13-13-23a15 15 0 1 0 8-26 15 15 0 0 0-13-23Z",
}

/** Gem cuts for the high symbols, in turn: brilliant, hexagon, heart, round, emerald. */
const gems: ReadonlyArray<{ outline: string; facets: string }> = [
  {
    outline: "M30 14h40l18 20-38 54-38-54Z",
    facets: "M12 34h76M30 14l-6 20 26 54 26-54-6-20M50 14l-14 20h28Z",
  },
  { outline: "M50 8 86 29v42L50 92 14 71V29Z", facets: "M50 8v84M14 29l72 42M86 29 14 71M32 40h36l-18 30Z" },
  {
    outline:
      "M50 88C28 70 12 56 12 36c0-12 10-22 22-22 7 0 13 4 16 10 3-6 9-10 16-10 12 0 22 10 22 22 0 20-16 34-38 52Z",
    facets: "M50 24v64M26 30l24 20 24-20M18 44l32 6 32-6",
  },
  {
    outline: "M50 10a40 40 0 1 1 0 80 40 40 0 0 1 0-80Z",
    facets: "M50 10v80M10 50h80M22 22l56 56M78 22 22 78",
  },
  {
    outline: "M32 10h36l20 20v40L68 90H32L12 70V30Z",
    facets: "M26 22h48l10 10v36l-10 10H26L16 68V32ZM12 30l14-8M88 30l-14-8M12 70l14 8M88 70l-14 8",
  },
]

const symbolArt = (s: SlotSymbol, index: number): string => {
  const id = `sym-${s.id}`
  const light = shade(s.color, 0.55)
  const dark = shade(s.color, -0.5)
  const grad = `<defs><linearGradient id="${id}-g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${light}"/><stop offset=".55" stop-color="${s.color}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>`
  if (s.kind === "wild")
    return `<symbol id="${id}" viewBox="0 0 100 100">${grad}<rect x="6" y="14" width="88" height="72" rx="14" fill="url(#${id}-g)" stroke="#fde68a" stroke-width="4"/><path d="M50 20 56 34h14l-11 9 4 14-13-8-13 8 4-14-11-9h14Z" fill="#fde68a" stroke="${dark}" stroke-width="1.5"/><text x="50" y="78" text-anchor="middle" font-family="Georgia,serif" font-weight="900" font-size="22" fill="#fff" stroke="${dark}" stroke-width="2.5" paint-order="stroke">WILD</text></symbol>`
  if (s.kind === "scatter")
    return `<symbol id="${id}" viewBox="0 0 100 100">${grad}<path d="M50 4 59 30 86 18 72 42 96 50 72 58 86 82 59 70 50 96 41 70 14 82 28 58 4 50 28 42 14 18 41 30Z" fill="url(#${id}-g)" stroke="#fff" stroke-width="2"/><circle cx="50" cy="50" r="17" fill="${dark}" stroke="#fff" stroke-width="2"/><path d="M50 38 53.5 46.5 62 47 55.5 52.5 57.5 61 50 56.5 42.5 61 44.5 52.5 38 47 46.5 46.5Z" fill="#fff"/></symbol>`
  const royal = ROYALS[s.name]
  if (royal !== undefined)
    return `<symbol id="${id}" viewBox="0 0 100 100">${grad}<path d="${suitPath[royal.suit]}" fill="url(#${id}-g)" stroke="${dark}" stroke-width="3" opacity=".9"/><text x="50" y="66" text-anchor="middle" font-family="Georgia,'Times New Roman',serif" font-weight="900" font-size="${royal.letter.length > 1 ? 30 : 40}" fill="#fff" stroke="${dark}" stroke-width="4" paint-order="stroke">${royal.letter}</text></symbol>`
  const g = gems[index % gems.length] ?? gems[0]
  if (g === undefined) return ""
  return `<symbol id="${id}" viewBox="0 0 100 100">${grad}<path d="${g.outline}" fill="url(#${id}-g)" stroke="${dark}" stroke-width="3" stroke-linejoin="round"/><path d="${g.facets}" fill="none" stroke="#fff" stroke-opacity=".45" stroke-width="1.6" stroke-linejoin="round"/><path d="M34 24 44 20 38 36Z" fill="#fff" opacity=".7"/></symbol>`
}

/** Every symbol's <symbol id="sym-…"> (the lobby's tile art draws the top ones too). */
export const slotSymbols = (p: SlotParams): string => {
  let gemIndex = 0
  return p.symbols
    .map((s) => symbolArt(s, s.kind === "normal" && ROYALS[s.name] === undefined ? gemIndex++ : 0))
    .join("")
}

/** The symbols as an SVG sprite (hidden), used by the reels and the pay table. */
export const slotSprite = (p: SlotParams): string =>
  `<svg width="0" height="0" class="sprite" aria-hidden="true" focusable="false">${slotSymbols(p)}</svg>`

/** The pay table as a picture: each symbol's art with its pays for 3, 4 and 5. */
export const slotPayTable = (p: SlotParams): string =>
  `<ul class="pays">${p.symbols
    .map(
      (s) =>
        `<li><svg class="sym" viewBox="0 0 100 100" aria-hidden="true"><use href="#sym-${s.id}"/></svg><div><strong>${escapeHtml(s.name)}</strong>${s.kind === "wild" ? " <em>wild</em>" : s.kind === "scatter" ? " <em>scatter, pays anywhere × total bet</em>" : ""}<br><span class="muted">3 · 4 · 5: ${s.pays.join(" · ")}</span></div></li>`,
    )
    .join("")}</ul>`

export const slotStyle = `
.sprite{position:absolute}
.slot{position:relative;max-width:520px;margin:0 auto;padding:10px;border-radius:16px;background:linear-gradient(180deg,rgba(255,255,255,.12),rgba(0,0,0,.35));box-shadow:inset 0 0 0 3px var(--acc),0 10px 30px rgba(0,0,0,.5)}
.reels{display:grid;grid-template-columns:repeat(5,1fr);gap:6px;position:relative}
.reel{position:relative;aspect-ratio:1/3;overflow:hidden;border-radius:10px;background:linear-gradient(180deg,#0008,#0003 20%,#0003 80%,#0008)}
.strip{position:absolute;left:0;right:0;top:0;will-change:transform}
.strip .c{display:block;width:100%;aspect-ratio:1;padding:8%}
.strip .c svg{width:100%;height:100%;display:block;filter:drop-shadow(0 3px 3px rgba(0,0,0,.45))}
.strip .c.hit svg{filter:drop-shadow(0 0 8px var(--acc)) drop-shadow(0 0 2px #fff)}
.lines{position:absolute;inset:0;width:100%;height:100%;pointer-events:none}
.lines polyline{fill:none;stroke-width:6;stroke-linejoin:round;stroke-linecap:round;opacity:.9}
.winbox{position:absolute;left:50%;top:50%;transform:translate(-50%,-50%);padding:8px 18px;border-radius:12px;background:rgba(0,0,0,.78);border:2px solid var(--acc);color:#fde68a;font-size:1.8rem;font-weight:900;font-variant-numeric:tabular-nums;pointer-events:none;opacity:0;white-space:nowrap}
.pays{list-style:none;padding:0;margin:8px 0;display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:8px}
.pays li{display:flex;gap:8px;align-items:center;background:rgba(255,255,255,.05);border-radius:8px;padding:6px}
.pays .sym{width:44px;height:44px;flex:none}
`

export const slotScript = `
var byId={};cfg.symbols.forEach(function(s){byId[s.id]=s});
var frame=el("div",{"class":"slot"});var reels=el("div",{"class":"reels",role:"img","aria-label":"Reels"});frame.appendChild(reels);board.appendChild(frame);
var linesSvg=sv("svg",{"class":"lines",viewBox:"0 0 500 300",preserveAspectRatio:"none","aria-hidden":"true"});reels.appendChild(linesSvg);
var winbox=el("div",{"class":"winbox","aria-hidden":"true"});frame.appendChild(winbox);
var LINECOL=["#facc15","#f472b6","#38bdf8","#4ade80","#fb923c","#a78bfa","#f87171","#2dd4bf"];
function cell(id){var d=el("span",{"class":"c","data-sym":id});var s=sv("svg",{viewBox:"0 0 100 100"});s.appendChild(sv("use",{href:"#sym-"+id}));d.appendChild(s);return d}
var strips=[];
function label(w){var names=[];for(var row=0;row<3;row++)for(var c=0;c<5;c++)names.push(byId[w[c][row]].name);reels.setAttribute("aria-label","Reels: "+names.join(", "))}
// The strip from the stop on: the window (stop, stop+1, stop+2) on top, the symbols after it below.
function stripAt(c,stop,extra){var reel=cfg.reels[c],L=reel.length,ids=[];for(var j=0;j<extra+3;j++)ids.push(reel.charAt(((stop+j)%L+L)%L));return ids}
function setStrip(c,ids){var s=strips[c];s.textContent="";ids.forEach(function(id){s.appendChild(cell(id))});s.style.height=(ids.length*100/3)+"%"}
var start=[];for(var c=0;c<5;c++){var reel=el("div",{"class":"reel"});var strip=el("div",{"class":"strip"});reel.appendChild(strip);reels.insertBefore(reel,linesSvg);strips.push(strip);start.push(c*7%cfg.reels[c].length);setStrip(c,stripAt(c,start[c],0))}
(function(){var w=[];for(var c=0;c<5;c++)w.push(stripAt(c,start[c],0));label(w)})();
K.reset=function(){linesSvg.textContent="";winbox.style.opacity="0";reels.querySelectorAll(".hit").forEach(function(x){x.classList.remove("hit")})};
K.show=function(r){var d=r.detail,spins=[];
  // Each reel scrolls through its own strip (the symbols above its stop, in order) and stops on the server's stop.
  for(var c=0;c<5;c++){(function(c){var extra=still()?0:14+c*6;var ids=stripAt(c,d.stops[c],extra);setStrip(c,ids);var s=strips[c],N=ids.length;
    // Symbols travel down as on a real reel: the strip starts on its bottom three and ends on the window.
    spins.push(anim(s,[{transform:"translateY("+(-(N-3)*100/N)+"%)"},{transform:"translateY("+(15/N)+"%)",offset:.93},{transform:"translateY(0)"}],{duration:900+c*260,easing:"cubic-bezier(.3,0,.25,1)"}).then(function(){if(extra){setStrip(c,ids.slice(0,3));s.style.transform="translateY(0)"}sfx("stop")}))})(c)}
  return Promise.all(spins).then(function(){
    // What the reels show now, read back from the cells.
    var shown=strips.map(function(s){return Array.prototype.slice.call(s.children,0,3).map(function(x){return x.getAttribute("data-sym")})});
    reels.setAttribute("data-window",JSON.stringify(shown));label(shown);
    d.wins.forEach(function(w,k){var line=cfg.lines[w.line],pts=[];for(var c=0;c<5;c++)pts.push((c*100+50)+","+(line[c]*100+50));var pl=sv("polyline",{points:pts.join(" "),stroke:LINECOL[k%LINECOL.length]});linesSvg.appendChild(pl);for(var c2=0;c2<w.count;c2++){var x=strips[c2].children[line[c2]];if(x)x.classList.add("hit")}});
    var fades=[];linesSvg.querySelectorAll("polyline").forEach(function(p,k){fades.push(anim(p,[{opacity:0},{opacity:.9}],{duration:300,delay:k*80}))});
    var hits=[];reels.querySelectorAll(".c.hit").forEach(function(x){hits.push(anim(x,[{transform:"scale(1)"},{transform:"scale(1.12)"},{transform:"scale(1)"}],{duration:450,iterations:2}))});
    var win=BigInt(r.win),count=Promise.resolve();
    if(win>0n){winbox.style.opacity="1";count=countTo(Math.min(2000,600+Number(win*10n/BigInt(r.bet))*40),function(p){var v=win*BigInt(Math.round(p*1000))/1000n;winbox.textContent=fmt(p===1?win:v)})}
    return Promise.all(fades.concat(hits).concat([count]))}).then(function(){
    var t=d.wins.map(function(w){return "line "+(w.line+1)+": "+w.count+"× "+byId[w.symbol].name+" pays "+w.pay}).join("; ");if(d.scatterPay>0)t+=(t?"; ":"")+d.scatters+" scatters pay "+d.scatterPay+"× bet";return t||"Nothing on the lines"})};
`
