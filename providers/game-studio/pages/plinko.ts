/**
 * Plinko: the pegs of the chosen rows drawn in SVG (row i has i + 3 pegs), the buckets coloured by
 * multiplier (hot edges, cool centre), the ball falling peg to peg along exactly `detail.path`
 * (0 left, 1 right per row) into `detail.bucket`, which lights up. The bucket the ball reached is
 * computed from the path it drew and kept as data-landed.
 */
export const plinkoStyle = `
.plinko{display:block;width:100%;max-width:520px;margin:0 auto;height:auto;overflow:visible}
.plinko .peg{fill:#e2e8f0}
.plinko .bucket rect{stroke:rgba(0,0,0,.35);stroke-width:.2}
.plinko .bucket text{font-size:2.1px;font-weight:800;fill:#111;text-anchor:middle}
.plinko .bucket.hit rect{stroke:#fff;stroke-width:.5}
.plinko .ball{fill:#fbbf24;stroke:#fff7;stroke-width:.3}
`

export const plinkoScript = `
var rows=field("Rows",el("select",{id:"rows"}));for(var n=8;n<=16;n++){var ro=el("option",{value:String(n)},String(n));if(n===12)ro.selected=true;rows.appendChild(ro)}
var risk=field("Risk",el("select",{id:"risk"}));["low","medium","high"].forEach(function(x){var ro=el("option",{value:x},x);if(x==="medium")ro.selected=true;risk.appendChild(ro)});
var svg=sv("svg",{"class":"plinko",viewBox:"0 0 100 92",role:"img","aria-label":"Plinko board"});board.appendChild(svg);
var geo=null,bucketEls=[];
function heat(m,max){var t=max>1?Math.min(1,Math.log(m)/Math.log(max)):0;if(m<1)t=0;var r=Math.round(250-10*t),g=Math.round(204-170*t),b=Math.round(21+40*t);return "rgb("+r+","+g+","+b+")"}
function draw(){svg.textContent="";var R=Number(rows.value),table=cfg.plinko[risk.value][R-8]||[],dx=96/(R+2),dy=78/R,top=6;geo={R:R,dx:dx,dy:dy,top:top};
  for(var i=0;i<R;i++){for(var j=0;j<i+3;j++){svg.appendChild(sv("circle",{"class":"peg",cx:String(50+(j-(i+2)/2)*dx),cy:String(top+i*dy),r:String(Math.min(.9,dx*.14))}))}}
  var max=Math.max.apply(null,table.map(function(m){return m/10000}));bucketEls=[];
  table.forEach(function(m,k){var x=50+(k-R/2)*dx,g=sv("g",{"class":"bucket"}),w=dx*.92;var rc=sv("rect",{x:String(x-w/2),y:String(top+R*dy),width:String(w),height:"5",rx:"1",fill:heat(m/10000,max)});g.appendChild(rc);var t=sv("text",{x:String(x),y:String(top+R*dy+3.3)});t.textContent=(m/10000)+(R>13?"":"×");if(R>13)t.setAttribute("font-size","1.6");g.appendChild(t);svg.appendChild(g);bucketEls.push(g)});
  svg.setAttribute("aria-label","Plinko board: "+R+" lines of pegs ("+risk.value+"), buckets "+table.map(function(m){return (m/10000)+"×"}).join(", "))}
rows.addEventListener("change",draw);risk.addEventListener("change",draw);draw();
K.options=function(){return {rows:Number(rows.value),risk:risk.value}};
K.reset=function(){bucketEls.forEach(function(b){b.classList.remove("hit")});svg.querySelectorAll(".ball").forEach(function(b){b.remove()})};
K.show=function(r){var d=r.detail;if(geo.R!==d.rows)draw();var R=geo.R,dx=geo.dx,dy=geo.dy,top=geo.top,br=Math.min(1.4,dx*.28),pr=Math.min(.9,dx*.14);
  var ball=sv("circle",{"class":"ball",cx:"0",cy:"0",r:String(br)});svg.appendChild(ball);
  // Peg to peg: row i's peg under the ball is at 50 + (rights − i/2)·dx; each decision moves it half a gap.
  var frames=[{transform:"translate(50px,"+(top-8)+"px)",easing:"ease-in"}],rights=0;
  for(var i=0;i<R;i++){var x=50+(rights-i/2)*dx,y=top+i*dy-pr-br;frames.push({transform:"translate("+x+"px,"+y+"px)",easing:"ease-out"});rights+=d.path[i]?1:0;var nx=50+(rights-(i+1)/2)*dx;frames.push({transform:"translate("+((x+nx)/2)+"px,"+(y-dy*.35)+"px)",easing:"ease-in"})}
  var landed=rights,fx=50+(landed-R/2)*dx;frames.push({transform:"translate("+fx+"px,"+(top+R*dy+2.5)+"px)"});
  frames.forEach(function(f,k){f.offset=k/(frames.length-1)});
  var ticker=still()?null:setInterval(function(){sfx("tick")},Math.round((R*140+250)/(R+1)));
  return anim(ball,frames,{duration:R*140+250}).then(function(){if(ticker)clearInterval(ticker);var hit=bucketEls[landed];svg.setAttribute("data-landed",String(landed));if(hit){hit.classList.add("hit");return anim(hit,[{transform:"translateY(0)"},{transform:"translateY(1.5px)"},{transform:"translateY(0)"}],{duration:250})}}).then(function(){return "Bucket "+(landed+1)+" of "+(R+1)})};
`
