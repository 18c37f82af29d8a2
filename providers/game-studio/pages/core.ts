/**
 * The game page's shared client script (plain ES2020 in a String.raw, no template literals inside):
 * money formatting, the result words, the JSON calls, the rounds table with its Verify links, the
 * sound toggle (WebAudio, off by default, remembered), reduced motion, and the round's flow. A kind's
 * module (dice.ts, plinko.ts …) sets `K.options` (what the round sends) and `K.show(round)` (a promise
 * of the outcome's words, resolved when its animation has ended). A kind with a flow of its own
 * (mines, tile by tile) sets `K.submit` (the play button) and `K.resume(state)` (the session's state
 * on load) instead, and ends its round with `announce`. The board carries
 * data-state="idle" | "running" | "settled" so tests wait for a state, never for time.
 */

/**
 * The result words, the same rule as services/games/words.ts (tests/unit/games/words.test.ts checks
 * both against one table): win > bet "Won", 0 < win ≤ bet "Returned" (−/±), 0 "Lost"; thousands
 * grouped with commas like the casino's amounts, so the game and the Bets tab read the same.
 */
export const wordsScript = String.raw`function grp(d){return d.replace(/\B(?=(\d{3})+$)/g,",")}
function amt(minor,exp){var n=minor<0n?-minor:minor;var s=n.toString();if(exp===0)return grp(s);s=s.padStart(exp+1,"0");return grp(s.slice(0,-exp))+"."+s.slice(-exp)}
function resultWords(bet,win,currency){var exp=currency==="JPY"||currency==="KRW"?0:2;var net=win-bet;if(win===0n)return {text:"Lost "+amt(bet,exp)+" "+currency,tone:"loss"};var sign=net>0n?"+":net<0n?"\u2212":"\u00b1";return {text:(net>0n?"Won ":"Returned ")+amt(win,exp)+" "+currency+" ("+sign+amt(net,exp)+")",tone:net>0n?"win":net===0n?"even":"loss"}}
function paidMultiplier(bet,win){if(bet<=0n)return "0.00\u00d7";var h=win*100n/bet;return (h/100n).toString()+"."+(h%100n).toString().padStart(2,"0")+"\u00d7"}
`

export const coreScript =
  String.raw`"use strict";
var cfg=JSON.parse(document.getElementById("cfg").textContent);
var api="/studio/api/session/"+encodeURIComponent(cfg.sessionId);
var $=function(id){return document.getElementById(id)};
var board=$("board"),controls=$("controls"),result=$("result"),play=$("play");
var exp=cfg.currency==="JPY"||cfg.currency==="KRW"?0:2;
var SVGNS="http://www.w3.org/2000/svg";
function fmt(minor){if(minor===null||minor===undefined)return "—";var n=BigInt(minor),neg=n<0n;if(neg)n=-n;var s=n.toString();if(exp===0)return (neg?"-":"")+s+" "+cfg.currency;s=s.padStart(exp+1,"0");return (neg?"-":"")+s.slice(0,-exp)+"."+s.slice(-exp)+" "+cfg.currency}
function toMinor(text){var t=String(text).trim().replace(",",".");if(!/^\d+(\.\d{1,2})?$/.test(t))return null;var p=t.split(".");var frac=(p[1]||"").padEnd(exp,"0").slice(0,exp);var v=BigInt(p[0]+frac);return v>0n?v.toString():null}
function el(tag,attrs,text){var e=document.createElement(tag);for(var k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=text;return e}
function sv(tag,attrs){var e=document.createElementNS(SVGNS,tag);for(var k in attrs)e.setAttribute(k,attrs[k]);return e}
function field(labelText,input){var d=el("div");d.appendChild(el("label",{"for":input.id},labelText));d.appendChild(input);controls.appendChild(d);return input}
function call(method,path,body){return fetch(api+path,{method:method,headers:{"content-type":"application/json"},body:body===undefined?undefined:JSON.stringify(body),credentials:"same-origin"}).then(function(r){return r.json().then(function(j){return {ok:r.ok,status:r.status,body:j}},function(){return {ok:false,status:r.status,body:{message:"The game server answered "+r.status+"."}}})},function(){return {ok:false,status:0,body:{message:"No connection to the game server."}}})}
function setBalance(b){$("balance").textContent=fmt(b);if(b!==null&&b!==undefined&&window.parent!==window){window.parent.postMessage({type:"studio:balance",balance:b,currency:cfg.currency},"*")}}
function setSeed(s){$("hash").textContent=s.serverSeedHash;$("nonce").textContent=String(s.nonce);$("client").value=s.clientSeed}
// Reduced motion: every animation jumps to its end (checked at each round: the setting may change).
function still(){return window.matchMedia("(prefers-reduced-motion: reduce)").matches}
// One animation as a promise (WAAPI, transforms and opacity); the end state is kept.
// Turbo (where the operator allows it) plays every animation at this fraction of its time.
var speed=1;
function anim(node,frames,opts){if(speed!==1)opts=Object.assign({},opts,{duration:(opts.duration||0)*speed,delay:(opts.delay||0)*speed});if(still()||!node.animate){var last=frames[frames.length-1];for(var k in last)if(k!=="offset"&&k!=="easing")node.style[k]=last[k];return Promise.resolve()}var a=node.animate(frames,Object.assign({fill:"forwards"},opts));return a.finished.then(function(){var last=frames[frames.length-1];for(var k in last)if(k!=="offset"&&k!=="easing")node.style[k]=last[k];a.cancel()},function(){})}
function pause(ms){return still()?Promise.resolve():new Promise(function(res){setTimeout(res,ms*speed)})}
// A number counting up to its end (requestAnimationFrame), e.g. the roll or the win.
function countTo(ms,step){ms=ms*speed;return new Promise(function(res){if(still()){step(1);res();return}var t0=0;function f(t){if(!t0)t0=t;var p=Math.min(1,(t-t0)/ms);step(1-Math.pow(1-p,3));if(p<1)requestAnimationFrame(f);else res()}requestAnimationFrame(f)})}
// ---- sound: synthesized, off until the player turns it on ----
var sound=false;try{sound=localStorage.getItem("studio:sound")==="on"}catch(e){}
var actx=null;
function tone(freq,ms,type,vol){if(!sound)return;try{actx=actx||new AudioContext();var o=actx.createOscillator(),g=actx.createGain();o.type=type||"sine";o.frequency.value=freq;g.gain.setValueAtTime(vol||0.08,actx.currentTime);g.gain.exponentialRampToValueAtTime(0.0001,actx.currentTime+ms/1000);o.connect(g);g.connect(actx.destination);o.start();o.stop(actx.currentTime+ms/1000)}catch(e){}}
function sfx(kind){if(kind==="tick")tone(880,40,"square",0.03);else if(kind==="stop")tone(220,90,"triangle",0.08);else if(kind==="win"){tone(523,140,"sine");setTimeout(function(){tone(659,140,"sine")},120);setTimeout(function(){tone(784,240,"sine")},240)}else if(kind==="lose")tone(160,200,"sawtooth",0.04)}
var snd=$("sound");function paintSound(){snd.setAttribute("aria-pressed",sound?"true":"false");snd.textContent=sound?"\u266a Sound on":"\u266a Sound off"}
snd.addEventListener("click",function(){sound=!sound;try{localStorage.setItem("studio:sound",sound?"on":"off")}catch(e){}paintSound();if(sound)tone(660,80)});paintSound();
// The free rounds this session plays now (the grant's bet, no stake), or null: normal play.
var free=null;
function setFree(f){free=f&&f.status==="active"?f:null;$("free").textContent=free?"Free spins: "+free.roundsLeft+" of "+free.rounds+" left":f&&f.status==="finished"?"Free spins finished":"";$("free").hidden=$("free").textContent==="";$("betField").hidden=!!free;$("freeBet").hidden=!free;$("freeBet").textContent=free?"Bet "+fmt(free.bet)+" — free":""}
// The rounds table: the player's round number in this game, and a link to the casino's verifier for
// the round id the casino got with the bet.
var rounds=[];
function verifyHref(id){if(!cfg.verifyUrl)return null;var u=new URL(cfg.verifyUrl);u.searchParams.set("round",id);return u.toString()}
function addRound(r,text){rounds.unshift({n:r.gameRound,id:r.roundId,bet:r.bet,win:r.win,text:text,free:r.freeRound});if(rounds.length>10)rounds.pop();var body=$("roundsBody");body.textContent="";rounds.forEach(function(x){var tr=el("tr");tr.appendChild(el("td",{},"#"+x.n));tr.appendChild(el("td",{},fmt(x.bet)+(x.free?" (free)":"")));tr.appendChild(el("td",{},x.text));var w=BigInt(x.win),b=BigInt(x.bet);tr.appendChild(el("td",{"class":w>b?"win":""},w>0n?fmt(x.win):"—"));var td=el("td"),href=verifyHref(x.id);if(href){var a=el("a",{href:href,target:"_top",rel:"noopener","aria-label":"Verify round "+x.n},"Verify");td.appendChild(a)}else td.textContent="—";tr.appendChild(td);body.appendChild(tr)});$("roundsTable").hidden=false;$("noRounds").hidden=true;if(cfg.verifyUrl){$("verifyLink").setAttribute("href",cfg.verifyUrl);$("verifyHint").hidden=false}}
function say(text,tone){result.textContent=text;result.className="result"+(tone?" "+tone:"")}
` +
  wordsScript +
  `
var K={options:function(){return {}},show:function(){return Promise.resolve("")},reset:function(){}};
function setState(s){board.setAttribute("data-state",s)}
setState("idle");
`

/**
 * The round's flow and the seed panel, after the kind's module. One round is spin(), a promise of
 * what happened; the Spin button and autoplay both call it (unless the kind has its own K.submit). The jurisdiction's rules (cfg.play) are
 * kept here as well as on the server: the next round waits out the least time between rounds
 * (counted from the last answer, so it never reaches the server early), and the autoplay and turbo
 * controls exist only where they are allowed.
 */
export const bootScript = `
var rules=cfg.play||{autoplay:false,turbo:false,minRoundMs:0},lastAnswer=0;
function load(){call("GET","").then(function(r){if(!r.ok){say(r.body.message||"This game session is not available.","error");play.disabled=true;return}setBalance(r.body.balance);setSeed(r.body.seed);setFree(r.body.freeRounds);if(r.body.balanceMessage)say(r.body.balanceMessage,"error");if(K.resume)K.resume(r.body)})}
// A refused round: its message, its code to the casino's page (INSUFFICIENT_FUNDS: Deposit), the state again after some.
function refused(r){play.disabled=!!auto;setState("idle");var m=r.body.message||"The round did not go through.";say(m,"error");if(typeof r.body.error==="string"&&window.parent!==window)window.parent.postMessage({type:"studio:error",code:r.body.error},"*");if(r.status===503||r.status===402||r.body.error==="FREE_ROUNDS_ENDED")load();return m}
// A finished round: the result in money words, the rounds table, the balance, the board settled.
function announce(round,text){var b=BigInt(round.bet),w=BigInt(round.win);var words=resultWords(b,w,cfg.currency);
  var msg=text+" — "+words.text+(w>0n?" · "+paidMultiplier(b,w):"")+".";
  if(round.jackpotHit)msg+=round.jackpotAmount?" JACKPOT! "+fmt(round.jackpotAmount):" The jackpot draw hit!";
  if(round.freeRound)msg="Free spin: "+msg;say(msg,words.tone);sfx(words.tone==="win"?"win":words.tone==="loss"?"lose":"stop");addRound(round,text);setBalance(round.balance);$("nonce").textContent=String(round.nonce+1);setState("settled");play.disabled=!!auto;
  return {ok:true,bet:b,win:w,free:!!round.freeRound}}
function spin(){var bet=free?free.bet:toMinor($("bet").value);if(bet===null){say("Enter a bet, e.g. 1.00.","error");$("bet").focus();return Promise.resolve({ok:false,message:"enter a bet."})}
  play.disabled=true;var gap=rules.minRoundMs-(Date.now()-lastAnswer);
  return new Promise(function(res){setTimeout(res,gap>0?gap:0)}).then(function(){say("");K.reset();setState("running");return call("POST","/round",{bet:bet,options:K.options(),freeRound:!!free})}).then(function(r){lastAnswer=Date.now();
    if(!r.ok)return {ok:false,message:refused(r)};
    var round=r.body;setFree(round.freeRounds);
    return K.show(round).then(function(text){return announce(round,text)})})}
$("form").addEventListener("submit",function(e){e.preventDefault();if(K.submit)K.submit();else if(!auto)spin()});
// ---- turbo and autoplay (slots, where the rules allow them) ----
var auto=null,turboBtn=$("turbo");
if(turboBtn){var paintTurbo=function(){turboBtn.setAttribute("aria-pressed",speed!==1?"true":"false");turboBtn.textContent=speed!==1?"Turbo on":"Turbo off"};turboBtn.addEventListener("click",function(){speed=speed===1?0.3:1;paintTurbo()});paintTurbo()}
function autoSay(t){$("autoStatus").textContent=t}
function endAuto(why){auto=null;board.setAttribute("data-auto","off");$("autoStop").hidden=true;$("autoStart").disabled=false;$("bet").disabled=false;play.disabled=false;autoSay("Autoplay stopped: "+why)}
function nextAuto(){if(!auto)return;if(auto.stop){endAuto(auto.stop);return}
  if(auto.left===0){endAuto("all "+auto.total+" spins played.");return}
  var bet=free?0n:BigInt(toMinor($("bet").value)||"0");
  if(auto.loss!==null&&auto.lost+bet>auto.loss){endAuto("the next spin could take your loss past "+fmt(auto.loss)+".");return}
  spin().then(function(out){if(!auto)return;if(!out.ok){endAuto(out.message);return}
    auto.left--;if(!out.free)auto.lost+=out.bet-out.win;var played=auto.total-auto.left;
    autoSay("Autoplay: "+played+" of "+auto.total+" spins played"+(auto.lost>0n?", "+fmt(auto.lost)+" down":auto.lost<0n?", "+fmt(-auto.lost)+" up":"")+".");
    if(auto.onWin&&out.win>out.bet){endAuto("a win.");return}nextAuto()})}
if($("autoStart")){
  $("autoStart").addEventListener("click",function(){var n=Number($("autoSpins").value);
    if(!/^\\d{1,3}$/.test($("autoSpins").value.trim())||n<1||n>100){autoSay("Choose 1 to 100 spins.");$("autoSpins").focus();return}
    var lt=$("autoLoss").value.trim(),loss=null;if(lt!==""){loss=toMinor(lt);if(loss===null){autoSay("Enter the loss limit as an amount, e.g. 20.00, or leave it empty.");$("autoLoss").focus();return}}
    if(!free&&toMinor($("bet").value)===null){say("Enter a bet, e.g. 1.00.","error");$("bet").focus();return}
    auto={left:n,total:n,loss:loss===null?null:BigInt(loss),lost:0n,onWin:$("autoWin").checked,stop:null};
    board.setAttribute("data-auto","on");$("auto").open=false;$("autoStart").disabled=true;$("bet").disabled=true;$("autoStop").hidden=false;$("autoStop").focus();autoSay("Autoplay: "+n+" spins.");nextAuto()});
  // Stopping lets the spin under way finish: its result is already decided.
  $("autoStop").addEventListener("click",function(){if(auto)auto.stop="you stopped it."})}
$("saveSeed").addEventListener("click",function(){call("POST","/seed",{clientSeed:$("client").value}).then(function(r){if(r.ok){setSeed(r.body);$("revealed").textContent="Client seed saved."}else $("revealed").textContent=r.body.message})});
$("rotate").addEventListener("click",function(){call("POST","/rotate").then(function(r){if(!r.ok){$("revealed").textContent=r.body.message||"Could not rotate.";return}var v=r.body.revealed;$("revealed").textContent="Revealed server seed: "+v.serverSeed+" (hash "+v.serverSeedHash+", client seed "+v.clientSeed+", "+v.nonce+" rounds played).";setSeed(r.body.next)})});
setFree(cfg.freeRounds);load();
`
