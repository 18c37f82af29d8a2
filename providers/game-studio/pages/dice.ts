/**
 * Dice: a track 0–100 with the winning zone coloured (green) and the losing one (red), the target's
 * handle (a range input over the track) and the roll's marker sliding to the server's roll while the
 * number counts up to it.
 */
export const diceStyle = `
.dice-big{font-size:3rem;font-weight:800;text-align:center;margin:4px 0 14px;font-variant-numeric:tabular-nums;letter-spacing:.02em}
.dice-big.win{color:#4ade80}.dice-big.loss{color:#f87171}
.track{position:relative;height:56px;margin:34px 10px 6px}
.track .bar{position:absolute;left:0;right:0;top:22px;height:12px;border-radius:6px;overflow:hidden;display:flex;box-shadow:inset 0 2px 4px rgba(0,0,0,.5)}
.track .lose{background:linear-gradient(#f87171,#dc2626)}.track .winz{background:linear-gradient(#4ade80,#16a34a)}
.track input[type=range]{position:absolute;left:-10px;right:-10px;width:calc(100% + 20px);top:14px;height:28px;margin:0;padding:0;background:transparent;border:0;-webkit-appearance:none;appearance:none}
.track input[type=range]::-webkit-slider-runnable-track{height:28px;background:transparent}
.track input[type=range]::-webkit-slider-thumb{-webkit-appearance:none;width:26px;height:26px;border-radius:6px;background:#e2e8f0;border:3px solid #64748b;box-shadow:0 2px 6px rgba(0,0,0,.5);cursor:grab}
.track input[type=range]::-moz-range-thumb{width:22px;height:22px;border-radius:6px;background:#e2e8f0;border:3px solid #64748b}
.track .rollpos{position:absolute;left:0;right:0;top:-30px;height:28px;pointer-events:none;transform:translateX(50%)}
.track .marker{position:absolute;left:0;top:0;transform:translateX(-50%);min-width:52px;padding:3px 6px;border-radius:8px;background:#f8fafc;color:#0f172a;font-weight:800;text-align:center;font-size:.9rem;box-shadow:0 3px 8px rgba(0,0,0,.5);opacity:0}
.track .marker::after{content:"";position:absolute;left:50%;bottom:-6px;margin-left:-6px;border:6px solid transparent;border-bottom:0;border-top-color:#f8fafc}
.track .marker.win{background:#4ade80}.track .marker.win::after{border-top-color:#4ade80}.track .marker.loss{background:#f87171}.track .marker.loss::after{border-top-color:#f87171}
.ticks{display:flex;justify-content:space-between;margin:0 10px;font-size:.75rem;opacity:.7}
.dice-stats{display:grid;grid-template-columns:repeat(3,1fr);gap:8px;margin-top:12px;text-align:center}
.dice-stats div{background:rgba(255,255,255,.06);border-radius:8px;padding:6px}.dice-stats span{display:block;font-size:.75rem;opacity:.75}.dice-stats strong{font-variant-numeric:tabular-nums}
`

export const diceScript = `
var target=field("Target (0.01–99.99)",el("input",{id:"target",type:"number",min:"1",max:"98",step:"0.01",value:"50"}));
var dir=field("Roll",el("select",{id:"dir"}));dir.appendChild(el("option",{value:"under"},"Under"));dir.appendChild(el("option",{value:"over"},"Over"));
var big=el("div",{"class":"dice-big","aria-hidden":"true"},"50.00");board.appendChild(big);
var track=el("div",{"class":"track"});var bar=el("div",{"class":"bar","aria-hidden":"true"});var z1=el("div"),z2=el("div");bar.appendChild(z1);bar.appendChild(z2);track.appendChild(bar);
var slider=el("input",{id:"slider",type:"range",min:"1",max:"98",step:"0.01",value:"50","aria-label":"Target"});track.appendChild(slider);
var rollpos=el("div",{"class":"rollpos","aria-hidden":"true"});var marker=el("div",{"class":"marker"},"0.00");rollpos.appendChild(marker);track.appendChild(rollpos);board.appendChild(track);
var ticks=el("div",{"class":"ticks","aria-hidden":"true"});["0","25","50","75","100"].forEach(function(t){ticks.appendChild(el("span",{},t))});board.appendChild(ticks);
var stats=el("div",{"class":"dice-stats"});var sMul=el("strong"),sCh=el("strong"),sDir=el("strong");[["Payout",sMul],["Roll",sDir],["Win chance",sCh]].forEach(function(x){var d=el("div");d.appendChild(el("span",{},x[0]));d.appendChild(x[1]);stats.appendChild(d)});board.appendChild(stats);
var upd=function(){var t=Number(target.value),under=dir.value==="under",c=under?t:99.99-t;z1.className=under?"winz":"lose";z2.className=under?"lose":"winz";z1.style.flex="0 0 "+Math.max(0,Math.min(100,t))+"%";z2.style.flex="1 1 auto";sCh.textContent=c>0?c.toFixed(2)+" %":"—";sMul.textContent=c>0?(Math.floor(990000/c)/10000).toFixed(4)+"×":"—";sDir.textContent=(under?"Under ":"Over ")+t.toFixed(2)};
slider.addEventListener("input",function(){target.value=slider.value;upd()});target.addEventListener("input",function(){slider.value=target.value;upd()});dir.addEventListener("change",upd);upd();
K.options=function(){return {target:Number(target.value),direction:dir.value}};
var lastRoll=50;
K.reset=function(){big.className="dice-big";marker.className="marker"};
K.show=function(r){var d=r.detail,from=lastRoll,to=d.roll;lastRoll=to;marker.style.opacity="1";
  var slide=anim(rollpos,[{transform:"translateX("+from+"%)"},{transform:"translateX("+to+"%)"}],{duration:650,easing:"cubic-bezier(.2,.8,.2,1)"});
  var count=countTo(650,function(p){var v=from+(to-from)*p;var t=(p===1?to:v).toFixed(2);big.textContent=t;marker.textContent=t});
  return Promise.all([slide,count]).then(function(){var cls=d.win?"win":"loss";big.className="dice-big "+cls;marker.className="marker "+cls;board.setAttribute("data-roll",to.toFixed(2));return "Roll "+to.toFixed(2)+" ("+d.direction+" "+d.target+")"})};
`
