/**
 * Mines: the 5×5 field. After a round the tiles flip in the order they were opened (gems), the hit
 * mine bursts, then every mine of the server's field shows and the unopened safe tiles dim.
 */
const gem = `<svg viewBox="0 0 40 40" aria-hidden="true"><defs><linearGradient id="mg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6ee7b7"/><stop offset="1" stop-color="#059669"/></linearGradient></defs><path d="M20 4 34 15 20 36 6 15Z" fill="url(#mg)" stroke="#d1fae5" stroke-width="1.5"/><path d="M6 15h28M14 15l6-11 6 11-6 21Z" fill="none" stroke="#ecfdf5" stroke-opacity=".6" stroke-width="1"/></svg>`
const bomb = `<svg viewBox="0 0 40 40" aria-hidden="true"><circle cx="19" cy="23" r="12" fill="#1f2937" stroke="#f87171" stroke-width="2"/><circle cx="15" cy="19" r="3" fill="#9ca3af"/><path d="M26 12l4-4" stroke="#fbbf24" stroke-width="3" stroke-linecap="round"/><circle cx="31" cy="7" r="3" fill="#f97316"/></svg>`

export const minesStyle = `
.grid{display:grid;gap:8px}.mines{grid-template-columns:repeat(5,1fr);max-width:360px;margin:0 auto;perspective:600px}
.mines button{aspect-ratio:1;padding:0;border:0;border-radius:10px;background:linear-gradient(#3b4a63,#2a3548);box-shadow:0 4px 0 #1a2231,inset 0 1px 0 rgba(255,255,255,.15);position:relative;transition:transform .08s}
.mines button:hover{transform:translateY(-2px)}
.mines button[aria-pressed=true]{background:linear-gradient(var(--pri),var(--pri));box-shadow:0 4px 0 rgba(0,0,0,.45),0 0 0 2px var(--acc)}
.mines button svg{position:absolute;left:15%;top:15%;width:70%;height:70%;opacity:0}
.mines button.safe,.mines button.mine{background:#0f172a;box-shadow:inset 0 0 0 2px rgba(255,255,255,.08)}
.mines button.safe svg.g,.mines button.mine svg.b{opacity:1}
.mines button.safe.picked{box-shadow:inset 0 0 0 3px #34d399}.mines button.mine.hit{background:#7f1d1d;box-shadow:inset 0 0 0 3px #f87171}
.mines button.dim{opacity:.45}
`

export const minesScript = `
var GEM=${JSON.stringify(gem)},BOMB=${JSON.stringify(bomb)};
var mc=field("Mines",el("select",{id:"mines"}));for(var m=1;m<=24;m++){var o=el("option",{value:String(m)},String(m));if(m===3)o.selected=true;mc.appendChild(o)}
var grid=el("div",{"class":"grid mines",role:"group","aria-label":"Field: choose the tiles to open"});board.appendChild(grid);var picks=[];
var tpl=el("template");
function art(b){tpl.innerHTML=GEM;var g=tpl.content.firstChild;g.setAttribute("class","g");tpl.innerHTML=BOMB;var x=tpl.content.firstChild;x.setAttribute("class","b");b.appendChild(g);b.appendChild(x)}
var settled=false;
function clearField(){if(!settled)return;settled=false;grid.querySelectorAll("button").forEach(function(b){b.classList.remove("mine","safe","picked","hit","dim");b.getAnimations&&b.getAnimations().forEach(function(a){a.cancel()});b.style.transform=""})}
for(var i=0;i<25;i++){(function(i){var b=el("button",{type:"button","aria-pressed":"false","aria-label":"Tile "+(Math.floor(i/5)+1)+"-"+(i%5+1)});art(b);b.addEventListener("click",function(){clearField();var k=picks.indexOf(i);if(k>=0){picks.splice(k,1);b.setAttribute("aria-pressed","false")}else{picks.push(i);b.setAttribute("aria-pressed","true")}});grid.appendChild(b)})(i)}
mc.addEventListener("change",clearField);
K.options=function(){return {mines:Number(mc.value),picks:picks.slice()}};
K.reset=function(){settled=true;clearField()};
function flip(b,cls){b.classList.add.apply(b.classList,cls);sfx("tick");return anim(b,[{transform:"rotateY(90deg) scale(.9)"},{transform:"rotateY(0deg) scale(1)"}],{duration:220,easing:"ease-out"})}
K.show=function(r){var d=r.detail,bs=grid.querySelectorAll("button"),chain=Promise.resolve();
  // The opened tiles in their order: the safe ones, then the mine that ended the round (if any).
  d.picks.slice(0,d.opened).forEach(function(t){chain=chain.then(function(){return flip(bs[t],["safe","picked"])}).then(function(){return pause(60)})});
  if(d.hit!==null)chain=chain.then(function(){return flip(bs[d.hit],["mine","hit"])}).then(function(){return anim(bs[d.hit],[{transform:"scale(1)"},{transform:"scale(1.15)"},{transform:"scale(1)"}],{duration:300})});
  return chain.then(function(){return pause(150)}).then(function(){var rest=[];bs.forEach(function(b,i){if(d.mines.indexOf(i)>=0&&i!==d.hit){b.classList.add("mine");rest.push(anim(b,[{opacity:0},{opacity:1}],{duration:250}))}else if(d.picks.indexOf(i)<0){b.classList.add("safe","dim")}});return Promise.all(rest)}).then(function(){settled=true;board.setAttribute("data-mines",d.mines.join(","));return d.win?"All "+d.picks.length+" tiles safe!":"Mine hit after "+d.opened+" safe tile(s)."})};
`
