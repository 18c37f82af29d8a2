/**
 * European roulette: the table as a casino lays it out (0 on the left; rows 3/6/…/36, 2/5/…/35,
 * 1/4/…/34; "2 to 1" columns at the end; the dozens below, then 1–18, Even, Red, Black, Odd, 19–36).
 * Every bet services/games/roulette.ts takes is placed by clicking: a number (straight), the line
 * between two numbers (split, also 0 with 1, 2 or 3), a corner where four meet, the bottom edge of a
 * column of three (street) or the bottom corner between two columns (six line). Chips: a value
 * chooses how many chips a click places; undo and clear; the total shows. The wheel (SVG, European
 * order) spins and stops with the server's pocket under the ball; data-landed is the pocket read
 * back from the wheel's final angle.
 */
import { redNumbers } from "../../../services/games/roulette.ts"

export const wheelOrder = [
  0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9, 22,
  18, 29, 7, 28, 12, 35, 3, 26,
] as const

const colour = (n: number) => (n === 0 ? "#15803d" : redNumbers.has(n) ? "#b91c1c" : "#18181b")

/** The wheel, drawn once on the server: 37 sectors clockwise from the top. */
export const wheelSvg = (): string => {
  const step = 360 / 37
  const pt = (deg: number, r: number) => {
    const a = ((deg - 90) * Math.PI) / 180
    return `${(50 + r * Math.cos(a)).toFixed(3)} ${(50 + r * Math.sin(a)).toFixed(3)}`
  }
  const sectors = wheelOrder
    .map((n, i) => {
      const a0 = (i - 0.5) * step
      const a1 = (i + 0.5) * step
      return `<path d="M${pt(a0, 46)}A46 46 0 0 1 ${pt(a1, 46)}L${pt(a1, 33)}A33 33 0 0 0 ${pt(a0, 33)}Z" fill="${colour(n)}"/><text x="50" y="8.2" transform="rotate(${(i * step).toFixed(3)} 50 50)">${n}</text>`
    })
    .join("")
  const spokes = Array.from({ length: 8 }, (_, i) => `<path d="M50 50 L${pt(i * 45, 30)}" />`).join("")
  return `<svg class="wheel" viewBox="0 0 100 100" aria-hidden="true"><defs><radialGradient id="rim"><stop offset=".8" stop-color="#3f2a14"/><stop offset="1" stop-color="#a16207"/></radialGradient><radialGradient id="hub"><stop offset="0" stop-color="#fde68a"/><stop offset="1" stop-color="#92400e"/></radialGradient></defs><circle cx="50" cy="50" r="50" fill="url(#rim)"/><g id="wheelRotor"><circle cx="50" cy="50" r="46.5" fill="#111"/>${sectors}<circle cx="50" cy="50" r="33" fill="#4a2f14" stroke="#a16207" stroke-width=".6"/><g stroke="#d4a017" stroke-width="1.2" stroke-linecap="round">${spokes}</g><circle cx="50" cy="50" r="7" fill="url(#hub)"/></g><path d="M50 1.5 47.5 -2.5h5Z" fill="#fde68a"/><circle id="wheelBall" cx="50" cy="14.5" r="2" fill="#f8fafc" stroke="#94a3b8" stroke-width=".4"/></svg>`
}

// On a phone the bet and Spin come first (the frame is taller than the screen; the table below
// scrolls sideways). The table is drawn at a fixed size where every spot is a 24 px target that leaves each number 24 px
// unobscured (numbers 50 px, the line and corner spots 24 px on their edges); a narrower frame scrolls it.
export const rouletteStyle = `
.rl{display:flex;gap:16px;align-items:center;justify-content:center;margin-bottom:10px}
.wheel{width:170px;height:auto;display:block;filter:drop-shadow(0 6px 12px rgba(0,0,0,.5))}
.wheel text{font-size:3.6px;font-weight:700;fill:#fff;text-anchor:middle}
.wheel #wheelRotor{transform-origin:50px 50px}
.wheel #wheelBall{transform-origin:50px 50px}
.last{font-size:2.4rem;font-weight:800;text-align:center;border-radius:12px;min-width:84px;padding:8px 10px;background:rgba(255,255,255,.08)}
.last.red{background:#b91c1c;color:#fff}.last.black{background:#18181b;color:#fff}.last.green{background:#15803d;color:#fff}
.felt{overflow-x:auto;padding:2px 2px 16px}
.table{display:grid;grid-template-columns:48px repeat(12,50px) 52px;grid-template-rows:repeat(3,50px) 42px 42px;width:max-content;margin:0 auto;background:#0d5a2c;border:2px solid #d4af37;border-radius:8px;padding:6px;gap:0;position:relative;box-shadow:inset 0 0 30px rgba(0,0,0,.35)}
.table button{border-radius:0;border:1px solid rgba(255,255,255,.55);padding:0;font-size:1rem;font-weight:700;color:#fff;background:transparent;position:relative;width:auto}
.table .n.red{background:#b91c1c}.table .n.black{background:#18181b}.table .zero{background:#15803d;grid-row:1/4;grid-column:1;border-radius:24px 0 0 24px}
.table .col{grid-column:14;font-size:.72rem}.table .doz{grid-row:4}.table .out{grid-row:5;font-size:.85rem}
.table .out.red span.dia,.table .out.black span.dia{display:inline-block;width:18px;height:18px;transform:rotate(45deg);border:1px solid #fff}
.table .out.red span.dia{background:#b91c1c}.table .out.black span.dia{background:#18181b}
.table button:hover{background-color:rgba(255,255,255,.18)}
.inside{position:absolute;left:54px;top:6px;width:600px;height:150px;pointer-events:none}
.inside button{position:absolute;width:24px;height:24px;margin:-12px 0 0 -12px;border:0;border-radius:50%;background:transparent;pointer-events:auto;z-index:2}
.inside button:hover,.inside button:focus-visible{background:rgba(255,255,255,.45)}
.chip{position:absolute;left:50%;top:50%;width:26px;height:26px;margin:-13px 0 0 -13px;border-radius:50%;background:var(--chip,#f59e0b);border:3px dashed #fff;color:#111;font-size:.62rem;font-weight:800;line-height:20px;text-align:center;box-shadow:0 2px 4px rgba(0,0,0,.6);pointer-events:none;z-index:3}
.inside .chip{width:22px;height:22px;margin:-11px 0 0 -11px;line-height:16px}
.chips{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin-top:6px}
.chips button{width:42px;height:42px;border-radius:50%;border:3px dashed #fff;padding:0;font-weight:800;font-size:.8rem;color:#111}
.chips button[aria-pressed=true]{outline:3px solid var(--acc);outline-offset:2px;transform:translateY(-3px)}
.chips .act{width:auto;height:auto;border-radius:8px;border:1px solid rgba(255,255,255,.35);color:var(--txt);padding:10px 12px;font-size:.85rem}
.total{margin-left:auto;font-weight:700}
main[data-kind=roulette] .board{padding:10px 6px}
.table .doz .chip,.table .out .chip{left:auto;right:6px;margin-left:0}
main[data-kind=roulette] #form{position:sticky;bottom:0;z-index:5;background:var(--bg);padding:8px 0 10px;box-shadow:0 -10px 18px -8px rgba(0,0,0,.55)}
main[data-kind=roulette] #form .controls{grid-template-columns:minmax(120px,200px)}
main[data-kind=roulette] #form .result{margin:6px 0}
@media (max-width:600px){.wheel{width:140px}.last{font-size:1.8rem;min-width:64px}
main[data-kind=roulette] .stage{display:flex;flex-direction:column}main[data-kind=roulette] #form{order:-1;position:static;box-shadow:none;padding:0;margin-bottom:10px}}
`

export const rouletteScript = `
var ORDER=${JSON.stringify(wheelOrder)},REDS=${JSON.stringify([...redNumbers])};
var chips={},history=[],per=1;
var CHIPCOL={1:"#e2e8f0",5:"#f87171",10:"#60a5fa",25:"#4ade80",100:"#fbbf24"};
var top=el("div",{"class":"rl"});var tpl=el("template");tpl.innerHTML=cfg.wheel;top.appendChild(tpl.content.firstChild);var last=el("div",{"class":"last","aria-hidden":"true"},"—");top.appendChild(last);board.appendChild(top);
var felt=el("div",{"class":"felt"});board.appendChild(felt);
var rb=el("div",{"class":"table",role:"group","aria-label":"Betting board: each press adds chips of the chosen value"});felt.appendChild(rb);
var rotor=board.querySelector("#wheelRotor"),ballEl=board.querySelector("#wheelBall"),angle=0;
var buttons={};
function paint(key){var b=buttons[key],c=chips[key]?chips[key].n:0;b.btn.setAttribute("aria-label",b.label+", "+c+" chips");b.btn.setAttribute("data-chips",String(c));var ch=b.btn.querySelector(".chip");if(c===0){if(ch)ch.remove();return}if(!ch){ch=el("span",{"class":"chip","aria-hidden":"true"});b.btn.appendChild(ch)}ch.textContent=String(c);var v=c>=100?100:c>=25?25:c>=10?10:c>=5?5:1;ch.style.setProperty("--chip",CHIPCOL[v]);if(!still()&&ch.animate)ch.animate([{transform:"translateY(-8px) scale(1.2)",opacity:.4},{transform:"none",opacity:1}],{duration:180,easing:"ease-out"})}
function totals(){var n=0;for(var k in chips)n+=chips[k].n;var bet=toMinor($("bet").value);totalEl.textContent="Total bet "+(bet?fmt(bet):"—")+" on "+n+" chip"+(n===1?"":"s")}
function place(key){var b=buttons[key];chips[key]=chips[key]||{bet:b.bet,n:0};chips[key].n+=per;history.push({key:key,n:per});paint(key);totals();sfx("tick")}
function add(parent,key,label,cls,bet,shown,pos){var btn=el("button",{type:"button","class":cls||"","data-chips":"0","aria-label":label+", 0 chips"});if(shown!==undefined){if(shown.nodeType)btn.appendChild(shown);else btn.appendChild(el("span",{"aria-hidden":"true"},shown))}if(pos){btn.style.left=pos[0]+"%";btn.style.top=pos[1]+"%"}buttons[key]={btn:btn,label:label,bet:bet};btn.addEventListener("click",function(){place(key)});parent.appendChild(btn);return btn}
var z=add(rb,"n0","0","zero",{type:"straight",numbers:[0]},"0");
// Numbers: table row r (0 = top: 3, 6 … 36), column c: n = 3c + 3 − r.
for(var r=0;r<3;r++)for(var c=0;c<12;c++){var n=3*c+3-r;var b=add(rb,"n"+n,String(n),"n "+(REDS.indexOf(n)>=0?"red":"black"),{type:"straight",numbers:[n]},String(n));b.style.gridRow=String(r+1);b.style.gridColumn=String(c+2)}
[3,2,1].forEach(function(k,r){var b=add(rb,"c"+k,"2 to 1, column "+k,"col",{type:"column",numbers:[k]},"2 to 1");b.style.gridRow=String(r+1)});
["1st 12","2nd 12","3rd 12"].forEach(function(t,d){var b=add(rb,"d"+(d+1),t,"doz",{type:"dozen",numbers:[d+1]},t);b.style.gridColumn=(2+4*d)+" / span 4"});
var dia=function(){var s=el("span",{"class":"dia"});return s};
[["low","1–18"],["even","Even"],["red","Red"],["black","Black"],["odd","Odd"],["high","19–36"]].forEach(function(x,i){var b=add(rb,x[0],x[1],"out "+x[0],{type:x[0]},x[0]==="red"||x[0]==="black"?dia():x[1]);b.style.gridColumn=(2+2*i)+" / span 2"});
// The lines and corners between numbers (percent of the 12 × 3 number area).
var ins=el("div",{"class":"inside"});rb.appendChild(ins);
function numAt(r,c){return 3*c+3-r}
for(var r=0;r<3;r++){add(ins,"s0-"+numAt(r,0),"Split 0/"+numAt(r,0),"",{type:"split",numbers:[0,numAt(r,0)]},undefined,[0,(r+.5)*100/3])}
for(var c=0;c<12;c++)for(var r=0;r<3;r++){var n=numAt(r,c);
  if(c<11)add(ins,"s"+n+"-"+(n+3),"Split "+n+"/"+(n+3),"",{type:"split",numbers:[n,n+3]},undefined,[(c+1)*100/12,(r+.5)*100/3]);
  if(r<2)add(ins,"s"+(n-1)+"-"+n,"Split "+(n-1)+"/"+n,"",{type:"split",numbers:[n-1,n]},undefined,[(c+.5)*100/12,(r+1)*100/3]);
  if(r<2&&c<11)add(ins,"q"+(n-1),"Corner "+(n-1)+"/"+n+"/"+(n+2)+"/"+(n+3),"",{type:"corner",numbers:[n-1,n,n+2,n+3]},undefined,[(c+1)*100/12,(r+1)*100/3])}
for(var c=0;c<12;c++){var a=3*c+1;add(ins,"t"+a,"Street "+a+"/"+(a+1)+"/"+(a+2),"",{type:"street",numbers:[a,a+1,a+2]},undefined,[(c+.5)*100/12,100]);if(c<11)add(ins,"l"+a,"Six line "+a+"–"+(a+5),"",{type:"line",numbers:[a,a+1,a+2,a+3,a+4,a+5]},undefined,[(c+1)*100/12,100])}
var bar=el("div",{"class":"chips",role:"group","aria-label":"Chips"});board.appendChild(bar);
[1,5,10,25,100].forEach(function(v){var b=el("button",{type:"button","aria-pressed":v===1?"true":"false","aria-label":"Chip: "+v+" chip"+(v===1?"":"s")+" a click"},String(v));b.style.background=CHIPCOL[v];b.addEventListener("click",function(){per=v;bar.querySelectorAll("button[data-chip]").forEach(function(x){x.setAttribute("aria-pressed",x===b?"true":"false")})});b.setAttribute("data-chip",String(v));bar.appendChild(b)});
var undo=el("button",{type:"button","class":"act"},"Undo");undo.addEventListener("click",function(){var h=history.pop();if(!h)return;chips[h.key].n-=h.n;if(chips[h.key].n<=0)delete chips[h.key];paint(h.key);totals()});bar.appendChild(undo);
var clear=el("button",{type:"button","class":"act"},"Clear bets");clear.addEventListener("click",function(){var ks=Object.keys(chips);chips={};history=[];ks.forEach(paint);totals()});bar.appendChild(clear);
var totalEl=el("span",{"class":"total"});bar.appendChild(totalEl);$("bet").addEventListener("input",totals);totals();
K.options=function(){var bets=[];for(var k in chips){var c=chips[k];var b={type:c.bet.type,chips:c.n};if(c.bet.numbers)b.numbers=c.bet.numbers;bets.push(b)}return {bets:bets.length?bets:[{type:"red",chips:1}]}};
var step=360/37;
K.show=function(r){var d=r.detail,i=ORDER.indexOf(d.pocket);
  // The rotor turns clockwise so the pocket ends under the ball at the top; the ball runs the other way.
  var base=Math.ceil(angle/360)*360+5*360,to=base+((360-i*step)%360);var from=angle;angle=to;
  var spin=anim(rotor,[{transform:"rotate("+from+"deg)"},{transform:"rotate("+to+"deg)"}],{duration:3200,easing:"cubic-bezier(.15,.6,.25,1)"});
  var ball=anim(ballEl,[{transform:"rotate(0deg) translateY(-3px)"},{transform:"rotate(-1080deg) translateY(-3px)",offset:.7},{transform:"rotate(-1440deg) translateY(0)"}],{duration:3200,easing:"cubic-bezier(.2,.7,.3,1)"});
  return Promise.all([spin,ball]).then(function(){var at=((Math.round((360-(angle%360))/step))%37+37)%37;var landed=ORDER[at];board.querySelector(".wheel").setAttribute("data-landed",String(landed));last.textContent=String(landed);last.className="last "+d.color;return "The ball lands on "+d.pocket+" ("+d.color+")"})};
`
