/**
 * The multiplayer crash page (kind "crash" of `/studio/play/{sessionId}`; pages.ts delegates here):
 * one document with an inline stylesheet and script under the page's nonce, like the other kinds.
 *
 * It listens to the table's events (EventSource on /studio/api/crash/{gameId}/events) and draws the
 * curve locally from the game's start time with the same growth formula as the server
 * (⌊100·e^(0.00006 t)⌋/100), corrected by the server's clock in every event. The Bet button takes a
 * bet in the betting phase; while running it becomes "Cash out 2.35×". The players table lists every
 * bet of the game under a pseudonym; the chips are the last bust points; the Fairness panel shows
 * each finished game's hash, the chain's terminating hash and salt, and a Verify link per own round
 * to its proof page (crash/proofPage.ts: the bust and the chain link checked in the browser). The balance goes to the parent window (`studio:balance`), a refused
 * bet's code too (`studio:error`), as on the other pages. Reduced motion: no animated curve, the
 * multiplier text is updated a few times a second.
 */
import { escapeHtml } from "../../../lib/html.ts"
import type { GameDefinition } from "../../../services/games/catalogue.ts"
import { crashMultiplayerRtp } from "../../../services/games/crash-chain.ts"
import type { SessionRow } from "../Studio.ts"

const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, "\\u003c")

const styles = (def: GameDefinition) => `
:root{--bg:${def.palette.background};--pri:${def.palette.primary};--acc:${def.palette.accent};--txt:${def.palette.text};color-scheme:dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.4}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--txt);min-height:100vh}
header{display:flex;flex-wrap:wrap;gap:8px;align-items:center;justify-content:space-between;padding:10px 14px;background:rgba(0,0,0,.35)}
h1{font-size:1.1rem;margin:0}.brand{font-size:.85rem;opacity:.85}.badge{background:var(--acc);color:#111;border-radius:4px;padding:1px 6px;font-size:.75rem;font-weight:700;margin-left:6px}
.sandbox-mark{display:inline-block;margin-left:8px;padding:0 6px;border-radius:4px;background:#ffd54f;color:#111;font-size:.75rem;font-weight:700;line-height:1.5}
.balance{font-weight:700;font-size:1.05rem}
main{max-width:1180px;margin:0 auto;padding:12px;display:grid;gap:12px;grid-template-columns:minmax(0,1fr)}
@media (min-width:900px){main{grid-template-columns:minmax(0,1fr) 340px}.side{grid-row:span 2}}
.chips{display:flex;gap:6px;overflow:hidden;margin:0 0 8px;list-style:none;padding-left:0}
.chip{flex:none;border-radius:999px;padding:2px 10px;font-weight:700;font-size:.85rem;background:rgba(255,255,255,.1)}
.chip.hi{background:#1b5e20;color:#c8f7d0}.chip.lo{background:#5d1a1a;color:#ffcdd2}
.stage{position:relative;background:linear-gradient(180deg,rgba(0,0,0,.45),rgba(0,0,0,.2));border-radius:14px;overflow:hidden;height:clamp(220px,45vw,400px)}
.stage svg{position:absolute;inset:0;width:100%;height:100%}#rocket{filter:drop-shadow(0 0 6px var(--acc))}.stage.busted #curve{stroke:#ff5252}.stage.busted #rocket{fill:#ff5252}
.mult{position:absolute;left:50%;top:38%;transform:translate(-50%,-50%);padding:0 18px;border-radius:14px;background:var(--bg);white-space:nowrap;text-align:center;font-size:clamp(2.4rem,9vw,4.6rem);font-weight:800;font-variant-numeric:tabular-nums}
.mult.busted{color:#ff5252;font-size:clamp(1.7rem,7vw,4rem)}.mult.cashed{color:#69f0ae}
.sub{position:absolute;left:50%;top:calc(38% + 2.9rem);transform:translateX(-50%);padding:2px 10px;border-radius:8px;background:var(--bg);white-space:nowrap;text-align:center;font-weight:600;font-size:.95rem}
.ylab{position:absolute;right:8px;transform:translateY(-110%);font-size:.75rem;padding:0 4px;border-radius:4px;background:var(--bg);font-variant-numeric:tabular-nums}.y1{top:25%}.y2{top:50%}.y3{top:75%}
.bar{position:absolute;left:10%;right:10%;bottom:14px;height:6px;border-radius:3px;background:rgba(255,255,255,.15);overflow:hidden}
.bar>i{display:block;height:100%;background:var(--acc);width:0}
.panel{background:rgba(0,0,0,.3);border-radius:12px;padding:12px}
.controls{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:10px;align-items:end}
label{display:block;font-size:.85rem;margin-bottom:3px;opacity:.9}
input,button{font:inherit;border-radius:8px;border:1px solid rgba(255,255,255,.35);padding:9px 10px;background:rgba(255,255,255,.08);color:var(--txt);width:100%}
button{cursor:pointer;font-weight:700}
#action{grid-column:1/-1;font-size:1.2rem;padding:14px;border:0;background:var(--pri);color:#111}
#action.cash{background:#00c853;color:#04210f}#action[disabled]{opacity:.55;cursor:default}
button:focus-visible,input:focus-visible,summary:focus-visible,a:focus-visible{outline:3px solid var(--acc);outline-offset:2px}
.result{min-height:1.4em;margin:10px 0 0;font-size:1.05rem;font-weight:700}.result.win{color:#8ef0a8}.result.loss{color:#ffb4ab}.result.error{color:#ffb4ab}
table{width:100%;border-collapse:collapse;font-size:.9rem;font-variant-numeric:tabular-nums}th,td{text-align:left;padding:5px 4px;border-bottom:1px solid rgba(255,255,255,.1)}
th{font-size:.8rem;opacity:.8}td.num,th.num{text-align:right}tr.me td{font-weight:700}tr.won td{color:#8ef0a8}tr.lost td{color:#ffb4ab}
h2{font-size:1rem;margin:0 0 8px}.muted{opacity:.75;font-size:.85rem}
details{background:rgba(0,0,0,.25);border-radius:10px;padding:8px 12px}summary{cursor:pointer;font-weight:700}
code{word-break:break-all;font-size:.8rem}.fair li{margin:4px 0}a{color:var(--acc)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
`

export const crashPage = (
  nonce: string,
  s: SessionRow,
  def: GameDefinition,
  options: { readonly sandbox: boolean },
): string => {
  const maxTarget = def.kind === "crash" ? def.params.maxTarget : 100_000
  const config = {
    sessionId: s.id,
    gameId: def.id,
    currency: s.currency,
    demo: s.demo,
    maxTarget,
  }
  return `<!doctype html>
<html lang="${escapeHtml(s.lang.slice(0, 2))}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(def.name)} · ${escapeHtml(def.brand)}</title>
<style nonce="${nonce}">${styles(def)}</style></head>
<body>
<header><div><h1>${escapeHtml(def.name)}${s.demo ? '<span class="badge">DEMO</span>' : ""}</h1><div class="brand">${escapeHtml(def.brand)} · multiplayer${options.sandbox ? '<span class="sandbox-mark" title="This game studio is a test environment">Sandbox</span>' : ""}</div></div>
<div class="balance" aria-live="polite">Balance: <span id="balance">…</span></div></header>
<main data-kind="crash">
<section class="game" aria-label="Game">
<ul class="chips" id="chips" aria-label="Last bust points"></ul>
<div class="stage" id="stage">
<svg viewBox="0 0 600 300" preserveAspectRatio="none" aria-hidden="true"><g id="grid" stroke="rgba(255,255,255,.08)"></g><path id="fill" fill="rgba(255,255,255,.06)"></path><path id="curve" fill="none" stroke-width="4" stroke-linecap="round"></path><circle id="rocket" r="7" cx="0" cy="300"></circle></svg>
<span class="ylab y1" id="y1" aria-hidden="true"></span><span class="ylab y2" id="y2" aria-hidden="true"></span><span class="ylab y3" id="y3" aria-hidden="true"></span>
<div class="mult" id="mult" role="timer" aria-live="off">…</div>
<div class="sub" id="sub" aria-live="polite">Connecting…</div>
<div class="bar" id="bar" hidden><i id="barFill"></i></div>
</div>
<div class="panel">
<form id="form" novalidate><div class="controls">
<div><label for="bet">Bet (${escapeHtml(s.currency)})</label><input id="bet" inputmode="decimal" value="1.00" autocomplete="off"></div>
<div><label for="auto">Auto cash-out (×, empty: manual)</label><input id="auto" type="number" min="1.01" max="${(maxTarget / 100).toFixed(2)}" step="0.01" value="2.00" autocomplete="off"></div>
<button id="action" type="submit" disabled>Bet</button>
</div></form>
<p class="result" id="result" role="status" aria-live="polite"></p>
</div>
</section>
<aside class="side panel" aria-labelledby="playersTitle">
<h2 id="playersTitle">Players in this round <span id="count" class="muted"></span></h2>
<table><thead><tr><th scope="col">Player</th><th scope="col" class="num">Bet</th><th scope="col" class="num">Cashed out</th><th scope="col" class="num">Profit</th></tr></thead><tbody id="players"></tbody></table>
<p class="muted" id="noPlayers">No bets yet in this round.</p>
<p class="muted">You play as <strong id="me">…</strong>.</p>
</aside>
<details id="fair"><summary>Fairness</summary>
<p class="muted">Every game's hash is the SHA-256 of the next game's hash, in a chain of <span id="chainLength">…</span> hashes generated in advance; the last of them, the terminating hash below, was published before the first game. A game's bust point is HMAC-SHA256(game hash, salt): 1 in 101 games busts at 1.00×, otherwise ⌊(100·2⁵² − h)/(2⁵² − h)⌋/100 with h its first 52 bits.</p>
<p>Terminating hash: <code id="terminating">…</code></p>
<p>Salt: <code id="salt">…</code></p>
<ol class="fair" id="games" reversed></ol>
</details>
<details id="info"><summary>How to play</summary>
<p>Bet while the countdown runs. Then the multiplier rises from 1.00× for everyone at once until it busts. Cash out before the bust to win your bet × the multiplier; set an auto cash-out (up to ${(maxTarget / 100).toFixed(2)}×) to cash out at that multiplier automatically. If it busts first, the bet is lost.</p>
<p>RTP <strong>${crashMultiplayerRtp(200)} %</strong> with a 2.00× cash-out (${crashMultiplayerRtp(101)} % at 1.01×, ${crashMultiplayerRtp(maxTarget)} % at ${(maxTarget / 100).toFixed(2)}×): 1 in 101 games busts at 1.00×, and P(bust ≥ x) = 0.99 ÷ (x − 0.01) for the others.</p>
</details>
</main>
<script type="application/json" id="cfg">${scriptJson(config)}</script>
<script nonce="${nonce}">${script}</script>
</body></html>`
}

/** The page's script (plain ES2020; no template literals inside, so this stays one TS string). */
const script = String.raw`(function(){
"use strict";
var cfg=JSON.parse(document.getElementById("cfg").textContent);
var api="/studio/api/session/"+encodeURIComponent(cfg.sessionId);
var table="/studio/api/crash/"+encodeURIComponent(cfg.gameId);
function $(id){return document.getElementById(id)}
var reduced=window.matchMedia&&window.matchMedia("(prefers-reduced-motion: reduce)").matches;
var exp=cfg.currency==="JPY"||cfg.currency==="KRW"?0:2;
function num(minor){var n=BigInt(minor),neg=n<0n;if(neg)n=-n;var s=n.toString();if(exp===0)return (neg?"-":"")+s;s=s.padStart(exp+1,"0");return (neg?"-":"")+s.slice(0,-exp)+"."+s.slice(-exp)}
function fmt(minor){return minor===null||minor===undefined?"—":num(minor)+" "+cfg.currency}
function toMinor(text){var t=String(text).trim().replace(",",".");if(!/^\d+(\.\d{1,2})?$/.test(t))return null;var p=t.split(".");var frac=(p[1]||"").padEnd(exp,"0").slice(0,exp);var v=BigInt(p[0]+frac);return v>0n?v.toString():null}
function x2(h){return (h/100).toFixed(2)+"×"}
function el(tag,attrs,text){var e=document.createElement(tag);for(var k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=text;return e}
function call(method,url,body){return fetch(url,{method:method,headers:{"content-type":"application/json"},body:body===undefined?undefined:JSON.stringify(body),credentials:"same-origin"}).then(function(r){return r.json().then(function(j){return {ok:r.ok,status:r.status,body:j}},function(){return {ok:false,status:r.status,body:{message:"The game server answered "+r.status+"."}}})},function(){return {ok:false,status:0,body:{message:"No connection to the game server."}}})}
function setBalance(b){if(b===null||b===undefined)return;$("balance").textContent=fmt(b);if(window.parent!==window)window.parent.postMessage({type:"studio:balance",balance:b,currency:cfg.currency},"*")}
function loadBalance(){call("GET",api).then(function(r){if(r.ok)setBalance(r.body.balance)})}
function say(text,cls){var e=$("result");e.textContent=text;e.className="result"+(cls?" "+cls:"")}
// Growth: the same formula as the server's (services/games/crash-chain.ts).
function multAt(ms){return Math.max(100,Math.floor(100*Math.exp(0.00006*Math.max(0,ms))))}
var offset=0,st={phase:"idle",number:0,bettingEndsAt:null,startedAt:null,bust:null},players={},myName=null,mine=null,history=[],pending=false;
function now(){return Date.now()+offset}
function clock(e){if(typeof e.serverNow==="number")offset=e.serverNow-Date.now()}
// ---- players ----
function renderPlayers(){var body=$("players");body.textContent="";var list=Object.keys(players).map(function(k){return players[k]});
list.sort(function(a,b){return Number(BigInt(b.bet)-BigInt(a.bet))});
list.forEach(function(p){var tr=el("tr",{"class":(p.name===myName?"me ":"")+(p.status==="cashed"?"won":p.status==="lost"?"lost":"")});
tr.appendChild(el("td",{},p.name+(p.name===myName?" (you)":"")));tr.appendChild(el("td",{"class":"num"},num(p.bet)));
tr.appendChild(el("td",{"class":"num"},p.cashedOut===null?(p.status==="lost"?"busted":"—"):x2(p.cashedOut)));
var profit=p.win===null?null:BigInt(p.win)-BigInt(p.bet);tr.appendChild(el("td",{"class":"num"},profit===null?"—":(profit>=0n?"+":"")+num(profit.toString())));body.appendChild(tr)});
$("noPlayers").hidden=list.length>0;$("count").textContent=list.length?"("+list.length+")":""}
function setPlayers(list){players={};list.forEach(function(p){players[p.name+"|"+p.bet+"|"+Object.keys(players).length]=p});renderPlayers()}
function upsert(p){var key=null;Object.keys(players).forEach(function(k){var q=players[k];if(key===null&&q.name===p.name&&q.bet===p.bet&&q.status==="open")key=k});players[key===null?p.name+"|"+p.bet+"|"+Object.keys(players).length:key]=p;renderPlayers()}
// ---- history and fairness ----
function renderHistory(){var c=$("chips");c.textContent="";history.slice(0,12).forEach(function(h){c.appendChild(el("li",{"class":"chip "+(h.bust>=200?"hi":"lo"),title:"Game #"+h.number},x2(h.bust)))});
// Kept by game number, not rebuilt: a link a player has focused (or is clicking) survives the next game.
var g=$("games"),want=history.slice(0,20),have={},keep={};Array.prototype.forEach.call(g.children,function(li){have[li.getAttribute("value")]=li});
for(var i=want.length-1;i>=0;i--){var h=want[i],k=String(h.number),old=have[k];keep[k]=true;if(old&&old.getAttribute("data-round")===(h.roundId||""))continue;
var li=el("li",{value:k,"data-round":h.roundId||""});li.appendChild(document.createTextNode("#"+h.number+" busted at "+x2(h.bust)+" — hash "));li.appendChild(el("code",{},h.hash));
if(h.roundId){li.appendChild(document.createTextNode(" "));li.appendChild(el("a",{href:"/studio/crash-rounds/"+encodeURIComponent(h.roundId),target:"_blank",rel:"noopener"},"Verify your round"))}
if(old){g.replaceChild(li,old);continue}var at=null;Array.prototype.some.call(g.children,function(c){if(Number(c.getAttribute("value"))<h.number){at=c;return true}return false});g.insertBefore(li,at)}
Object.keys(have).forEach(function(k){if(!keep[k])g.removeChild(have[k])})}
// ---- the stage ----
var curve=$("curve"),fill=$("fill"),rocket=$("rocket"),mult=$("mult"),sub=$("sub");
curve.setAttribute("stroke",getComputedStyle(document.documentElement).getPropertyValue("--pri").trim()||"#ff6e40");rocket.setAttribute("fill",getComputedStyle(document.documentElement).getPropertyValue("--acc").trim()||"#ffd740");
(function(){var g=$("grid");for(var i=1;i<4;i++){var l=document.createElementNS("http://www.w3.org/2000/svg","line");l.setAttribute("x1","0");l.setAttribute("x2","600");l.setAttribute("y1",String(i*75));l.setAttribute("y2",String(i*75));g.appendChild(l)}})();
function draw(elapsed,m){var span=Math.max(10000,elapsed*1.15),top=Math.max(200,m*1.2);var pts=[],n=48;for(var i=0;i<=n;i++){var t=elapsed*i/n,v=100*Math.exp(0.00006*t);pts.push([600*t/span,300-280*(v-100)/(top-100)])}
labels(top);var d="M"+pts.map(function(p){return p[0].toFixed(1)+" "+p[1].toFixed(1)}).join(" L");curve.setAttribute("d",d);var last=pts[pts.length-1];fill.setAttribute("d",d+" L"+last[0].toFixed(1)+" 300 L0 300 Z");rocket.setAttribute("cx",last[0].toFixed(1));rocket.setAttribute("cy",last[1].toFixed(1))}
// The multiplier at each grid line (y = 75, 150, 225 of 300), as the curve's scale grows.
function labels(top){[1,2,3].forEach(function(i){var v=100+(300-75*i)*(top-100)/280;$("y"+i).textContent=(v/100).toFixed(2)+"×"})}
function clearCurve(){labels(200);curve.setAttribute("d","");fill.setAttribute("d","");rocket.setAttribute("cx","0");rocket.setAttribute("cy","300")}
var action=$("action");
function current(){return st.phase==="running"&&st.startedAt!==null?multAt(now()-st.startedAt):100}
function setAction(){var m=current();
if(st.phase==="betting"&&!mine){action.disabled=pending;action.className="";action.textContent=pending?"Placing your bet…":"Bet"}
else if(st.phase==="betting"&&mine){action.disabled=true;action.className="";action.textContent="Bet placed — waiting for the launch"}
else if(st.phase==="running"&&mine&&mine.status==="open"){action.disabled=pending;action.className="cash";action.textContent="Cash out "+x2(m)}
else{action.disabled=true;action.className="";action.textContent=st.phase==="running"?"Wait for the next round":"Bet"}}
var lastText="";
function frame(){var t=now();$("stage").className="stage"+(st.phase==="busted"?" busted":"");
if(st.phase==="betting"){var left=Math.max(0,(st.bettingEndsAt||t)-t);mult.className="mult";mult.textContent=(left/1000).toFixed(1)+" s";sub.textContent="Next round starts — place your bets";$("bar").hidden=false;$("barFill").style.width=Math.min(100,100*left/Math.max(1,(cfg.bettingMs||5000)))+"%";clearCurve()}
else if(st.phase==="running"&&st.startedAt!==null){var el2=t-st.startedAt,m=multAt(el2);$("bar").hidden=true;if(!(mine&&mine.status==="cashed"))mult.className="mult";var txt=x2(m);if(txt!==lastText){mult.textContent=txt;lastText=txt}sub.textContent=mine&&mine.status==="cashed"?"You cashed out at "+x2(mine.cashedOut):"Round #"+st.number+" in flight";if(!reduced)draw(el2,m)}
else if(st.phase==="busted"){$("bar").hidden=true;mult.className="mult busted";mult.textContent="Busted @ "+x2(st.bust);sub.textContent="Round #"+st.number+" is over — next one in a moment"}
else{mult.className="mult";mult.textContent="…";sub.textContent="Waiting for the next round"}
setAction()}
function loop(){frame();if(reduced)setTimeout(loop,250);else requestAnimationFrame(loop)}
// ---- my round ----
function myResult(p){if(!mine)return;if(p.status==="cashed"){var profit=BigInt(p.win)-BigInt(p.bet);mine.status="cashed";mine.cashedOut=p.cashedOut;say("Won "+fmt(p.win)+" ("+(profit>=0n?"+":"")+num(profit.toString())+")","win");mult.className="mult cashed"}
else if(p.status==="lost"){mine.status="lost";say("Lost "+fmt(p.bet),"loss")}}
var myRounds={};
function onEvent(e){clock(e);
if(e.type==="snapshot"){var s=e.snapshot;st={phase:s.phase,number:s.number,bettingEndsAt:s.bettingEndsAt,startedAt:s.startedAt,bust:s.bust};setPlayers(s.players);history=s.history.map(function(h){return {number:h.number,bust:h.bust,hash:h.hash,roundId:myRounds[h.number]}});renderHistory();$("terminating").textContent=s.terminatingHash;$("salt").textContent=s.salt;$("chainLength").textContent=s.chainLength.toLocaleString("en")}
else if(e.type==="betting"){st={phase:"betting",number:e.number,bettingEndsAt:e.bettingEndsAt,startedAt:null,bust:null};cfg.bettingMs=e.bettingEndsAt-e.serverNow;players={};renderPlayers();if(mine&&mine.number!==e.number)mine=null}
else if(e.type==="running"){st.phase="running";st.startedAt=e.startedAt;lastText=""}
else if(e.type==="bet"){upsert(e.player)}
else if(e.type==="cashout"){upsert(e.player);if(e.player.name===myName&&mine&&mine.status==="open"){myResult(e.player);if(!pending)setTimeout(loadBalance,400)}}
else if(e.type==="busted"){st.phase="busted";st.bust=e.bust;setPlayers(e.players);history.unshift({number:e.number,bust:e.bust,hash:e.hash,roundId:myRounds[e.number]});renderHistory();
if(mine&&mine.number===e.number){e.players.forEach(function(p){if(p.name===myName&&p.bet===mine.bet&&p.status==="lost"&&mine.status==="open")myResult(p)});setTimeout(loadBalance,400)}}
frame()}
function connect(){var src=new EventSource(table+"/events");["snapshot","betting","running","bet","cashout","busted"].forEach(function(t){src.addEventListener(t,function(m){try{onEvent(JSON.parse(m.data))}catch(_){}})});
src.onerror=function(){sub.textContent="Reconnecting…"}}
$("form").addEventListener("submit",function(ev){ev.preventDefault();if(pending)return;
if(st.phase==="running"&&mine&&mine.status==="open"){pending=true;setAction();call("POST",api+"/crash/cashout").then(function(r){pending=false;
if(!r.ok){say(r.body.message||"The cash-out did not go through.","error");return}
myResult({status:"cashed",win:r.body.win,bet:r.body.bet,cashedOut:r.body.cashedOut});setBalance(r.body.balance);frame()});return}
if(st.phase!=="betting"||mine)return;
var bet=toMinor($("bet").value);if(bet===null){say("Enter a bet, e.g. 1.00.","error");return}
var autoText=String($("auto").value).trim();var auto=autoText===""?null:Number(autoText);
if(auto!==null&&(!(auto>=1.01)||auto>cfg.maxTarget/100)){say("The auto cash-out is from 1.01× to "+x2(cfg.maxTarget)+".","error");return}
pending=true;setAction();call("POST",api+"/crash/bet",{bet:bet,autoCashout:auto}).then(function(r){pending=false;
if(!r.ok){say(r.body.message||"The bet did not go through.","error");if(typeof r.body.error==="string"&&window.parent!==window)window.parent.postMessage({type:"studio:error",code:r.body.error},"*");frame();return}
mine={roundId:r.body.roundId,number:r.body.number,bet:r.body.bet,status:"open",cashedOut:null};myRounds[r.body.number]=r.body.roundId;myName=r.body.name;$("me").textContent=myName;
say("Bet "+fmt(r.body.bet)+(r.body.autoCashout?" — auto cash-out at "+x2(r.body.autoCashout):" — cash out by hand"),"");setBalance(r.body.balance);renderPlayers();frame()})});
call("GET",api+"/crash").then(function(r){if(r.ok){myName=r.body.name;$("me").textContent=myName;if(r.body.bet&&(r.body.bet.status==="open"||r.body.bet.status==="cashed")){mine={roundId:r.body.bet.roundId,number:r.body.bet.number,bet:r.body.bet.bet,status:r.body.bet.status,cashedOut:r.body.bet.cashedOut};myRounds[mine.number]=mine.roundId}renderPlayers()}});
loadBalance();connect();loop();
})()`
