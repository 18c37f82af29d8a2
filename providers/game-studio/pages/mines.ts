/**
 * Mines, tile by tile (the studio's minesRounds.ts): Bet starts a round (the bet taken, the mines
 * fixed), each tile clicked is one call answered "a gem" (the offer grows) or "a mine" (lost); the
 * play button becomes "Cash out 1.12 EUR (1.12×)" after the first gem. At the end the tile that
 * ended it flips, then every mine of the field shows and the unopened safe tiles dim. A ladder under
 * the field shows the multiplier after each safe tile (cfg.minesLadder, from the same maths). A page
 * that reloads resumes the round in play (the session's state carries it).
 */
const gem = `<svg viewBox="0 0 40 40" aria-hidden="true"><defs><linearGradient id="mg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6ee7b7"/><stop offset="1" stop-color="#059669"/></linearGradient></defs><path d="M20 4 34 15 20 36 6 15Z" fill="url(#mg)" stroke="#d1fae5" stroke-width="1.5"/><path d="M6 15h28M14 15l6-11 6 11-6 21Z" fill="none" stroke="#ecfdf5" stroke-opacity=".6" stroke-width="1"/></svg>`
const bomb = `<svg viewBox="0 0 40 40" aria-hidden="true"><circle cx="19" cy="23" r="12" fill="#1f2937" stroke="#f87171" stroke-width="2"/><circle cx="15" cy="19" r="3" fill="#9ca3af"/><path d="M26 12l4-4" stroke="#fbbf24" stroke-width="3" stroke-linecap="round"/><circle cx="31" cy="7" r="3" fill="#f97316"/></svg>`

export const minesStyle = `
.grid{display:grid;gap:8px}.mines{grid-template-columns:repeat(5,1fr);max-width:360px;margin:0 auto;perspective:600px}
.mines button{aspect-ratio:1;padding:0;border:0;border-radius:10px;background:linear-gradient(#3b4a63,#2a3548);box-shadow:0 4px 0 #1a2231,inset 0 1px 0 rgba(255,255,255,.15);position:relative;transition:transform .08s}
.mines button:hover{transform:translateY(-2px)}
.mines button[aria-disabled=true]{cursor:default}.mines button[aria-disabled=true]:hover{transform:none}
[data-state=running] .mines button[aria-disabled=false]{box-shadow:0 4px 0 #1a2231,inset 0 1px 0 rgba(255,255,255,.15),0 0 0 2px var(--acc)}
.mines button svg{position:absolute;left:15%;top:15%;width:70%;height:70%;opacity:0}
.mines button.safe,.mines button.mine{background:#0f172a;box-shadow:inset 0 0 0 2px rgba(255,255,255,.08)}
.mines button.safe svg.g,.mines button.mine svg.b{opacity:1}
.mines button.safe.picked{box-shadow:inset 0 0 0 3px #34d399}.mines button.mine.hit{background:#7f1d1d;box-shadow:inset 0 0 0 3px #f87171}
.mines button.dim{opacity:.45}
.ladder{display:flex;gap:6px;list-style:none;margin:10px auto 0;padding:0;max-width:360px}
.ladder li{flex:1 1 0;min-width:0;text-align:center;padding:4px 2px;border-radius:8px;background:rgba(255,255,255,.08);font-weight:700;font-variant-numeric:tabular-nums;font-size:.85rem;border:2px solid transparent}
.ladder li span{display:block;font-weight:400;font-size:.7rem}
.ladder li.done{background:transparent;border-color:#34d399}.ladder li.next{background:var(--acc);color:#111}
`

export const minesScript = `
var GEM=${JSON.stringify(gem)},BOMB=${JSON.stringify(bomb)},LADDER=cfg.minesLadder||[];
var mc=field("Mines",el("select",{id:"mines"}));for(var m=1;m<=24;m++){var o=el("option",{value:String(m)},String(m));if(m===3)o.selected=true;mc.appendChild(o)}
var grid=el("div",{"class":"grid mines",role:"group","aria-label":"Field: press Bet, then open tiles one at a time"});board.appendChild(grid);
var ladder=el("ol",{"class":"ladder","aria-label":"Multiplier after each safe tile"});board.appendChild(ladder);
var tpl=el("template");
function art(b){tpl.innerHTML=GEM;var g=tpl.content.firstChild;g.setAttribute("class","g");tpl.innerHTML=BOMB;var x=tpl.content.firstChild;x.setAttribute("class","b");b.appendChild(g);b.appendChild(x)}
function tileName(i){return "Tile "+(Math.floor(i/5)+1)+"-"+(i%5+1)}
var tiles=[];
for(var i=0;i<25;i++){(function(i){var b=el("button",{type:"button","aria-pressed":"false","aria-disabled":"true","aria-label":tileName(i)});art(b);b.addEventListener("click",function(){pickTile(i)});grid.appendChild(b);tiles.push(b)})(i)}
// The round as the server last answered it (null: none yet), and a call on its way (one at a time).
// aria-disabled, not disabled: a tile keeps the keyboard focus while its answer comes.
var cur=null,busy=false;
function playing(){return !!cur&&cur.state==="playing"}
// Hundredths of × (cfg.minesLadder) as the page shows a multiplier: 112 → "1.12×".
function times(h){return Math.floor(h/100)+"."+String(h%100).padStart(2,"0")+"\\u00d7"}
function paintLadder(){var m=cur?cur.mines:Number(mc.value),k=playing()?cur.picks.length:0,l=LADDER[m-1]||[];ladder.textContent="";var from=Math.max(0,Math.min(k-1,l.length-6));
  for(var j=from;j<Math.min(l.length,from+6);j++){var li=el("li",{},times(l[j]));li.appendChild(el("span",{},(j+1)+(j===0?" tile":" tiles")));if(j<k)li.className="done";if(j===k&&playing()){li.className="next";li.setAttribute("aria-current","step")}ladder.appendChild(li)}}
function setControls(){var on=playing();mc.disabled=on||busy;$("bet").disabled=on||busy;
  tiles.forEach(function(b,i){b.setAttribute("aria-disabled",!on||busy||cur.picks.indexOf(i)>=0?"true":"false")});grid.setAttribute("aria-busy",busy?"true":"false");
  if(on&&cur.cashout!==null){play.textContent="Cash out "+fmt(cur.cashout)+" ("+paidMultiplier(BigInt(cur.bet),BigInt(cur.cashout))+")";play.disabled=busy}
  else if(on){play.textContent="Cash out";play.disabled=true}else{play.textContent="Bet";play.disabled=busy}
  paintLadder()}
mc.addEventListener("change",paintLadder);
function clearField(){board.removeAttribute("data-mines");tiles.forEach(function(b,i){b.classList.remove("mine","safe","picked","hit","dim");b.getAnimations&&b.getAnimations().forEach(function(a){a.cancel()});b.style.transform="";b.style.opacity="";b.setAttribute("aria-pressed","false");b.setAttribute("aria-label",tileName(i))})}
function flip(b,cls){b.classList.add.apply(b.classList,cls);sfx("tick");return anim(b,[{transform:"rotateY(90deg) scale(.9)"},{transform:"rotateY(0deg) scale(1)"}],{duration:220,easing:"ease-out"})}
function gem(i){var b=tiles[i];b.setAttribute("aria-pressed","true");b.setAttribute("aria-label",tileName(i)+", gem");return flip(b,["safe","picked"])}
// A round in play shown from its answer: a new one, or one resumed after a reload (its gems at once).
function begin(v,text){cur=v;busy=false;clearField();v.picks.forEach(function(t){tiles[t].classList.add("safe","picked");tiles[t].setAttribute("aria-pressed","true");tiles[t].setAttribute("aria-label",tileName(t)+", gem")});
  setState("running");$("nonce").textContent=String(v.nonce+1);setControls();say(text)}
function startRound(){var bet=free?free.bet:toMinor($("bet").value);if(bet===null){say("Enter a bet, e.g. 1.00.","error");$("bet").focus();return}
  busy=true;setControls();var gap=rules.minRoundMs-(Date.now()-lastAnswer);
  new Promise(function(res){setTimeout(res,gap>0?gap:0)}).then(function(){say("");return call("POST","/mines/start",{bet:bet,mines:Number(mc.value),freeRound:!!free})}).then(function(r){lastAnswer=Date.now();busy=false;
    if(!r.ok){refused(r);if(r.body.error==="ROUND_OPEN")load();setControls();return}
    var v=r.body;setFree(v.freeRounds);if(v.balance!==null)setBalance(v.balance);
    begin(v,"Bet "+fmt(v.bet)+" on "+v.mines+(v.mines===1?" mine":" mines")+": open a tile.")})}
// A refused step (the round ended elsewhere, a second tab): its message, then the state as it is.
function stepRefused(r,what){busy=false;say(r.body.message||what,"error");if(r.status===404||r.status===409)load();setControls()}
function pickTile(i){if(!playing()||busy||cur.picks.indexOf(i)>=0)return;busy=true;setControls();
  call("POST","/mines/open",{roundId:cur.roundId,tile:i}).then(function(r){if(!r.ok)return stepRefused(r,"The tile did not open.");var v=r.body;
    if(v.state!=="playing")return finish(v);
    cur=v;return gem(i).then(function(){busy=false;setControls();say(tileName(i)+": a gem. Cash out "+fmt(v.cashout)+" now, or open another tile.")})})}
function cashOut(){if(!playing()||busy||cur.cashout===null)return;busy=true;setControls();
  call("POST","/mines/cashout",{roundId:cur.roundId}).then(function(r){if(!r.ok)return stepRefused(r,"The cash-out did not go through.");return finish(r.body)})}
// The end: the tile that ended it (the last gem, or the mine bursting), then every mine of the field, then the words.
function finish(v){cur=v;busy=true;setControls();var d=v.detail,t=v.tile,chain=Promise.resolve();
  if(t&&t.safe)chain=chain.then(function(){return gem(t.index)});
  if(t&&!t.safe){var hb=tiles[t.index];hb.setAttribute("aria-pressed","true");hb.setAttribute("aria-label",tileName(t.index)+", mine");
    chain=chain.then(function(){return flip(hb,["mine","hit"])}).then(function(){return anim(hb,[{transform:"scale(1)"},{transform:"scale(1.15)"},{transform:"scale(1)"}],{duration:300})})}
  return chain.then(function(){return pause(150)}).then(function(){var rest=[];tiles.forEach(function(b,i){if(d.mines.indexOf(i)>=0&&i!==d.hit){b.classList.add("mine");b.setAttribute("aria-label",tileName(i)+", mine");rest.push(anim(b,[{opacity:0},{opacity:1}],{duration:250}))}else if(d.picks.indexOf(i)<0){b.classList.add("safe","dim")}});return Promise.all(rest)}).then(function(){
    board.setAttribute("data-mines",d.mines.join(","));busy=false;var n=d.opened,tl=n===1?" safe tile":" safe tiles";
    var text=v.state==="lost"?"Mine hit after "+n+tl:n===25-v.mines?"All "+n+tl+" opened":"Cashed out after "+n+tl;
    setFree(v.freeRounds);announce(v,text);setControls()})}
K.submit=function(){if(busy)return;if(playing())cashOut();else startRound()};
// On load (and after a refused step): the round in play, if any, shown as it stands.
K.resume=function(state){var v=state.minesRound;if(v&&!busy&&(!cur||cur.roundId!==v.roundId||cur.picks.length!==v.picks.length)){begin(v,"Your round is still open: open a tile or cash out.")}else if(!v&&playing()&&!busy){cur=null;setState("idle");setControls()}};
setControls();
`
