/**
 * Crash (single round with an auto cash-out, as before; its multiplayer game is built elsewhere):
 * the crash point shown, the words from the shared flow.
 */
export const crashStyle = `.big{font-size:2.4rem;font-weight:800;text-align:center;margin:8px 0}`

export const crashScript = `
var ct=field("Auto cash-out (×)",el("input",{id:"ctarget",type:"number",min:"1.01",max:String(cfg.maxTarget/100),step:"0.01",value:"2.00"}));
var cbig=el("div",{"class":"big"},"1.00×");board.appendChild(cbig);
K.options=function(){return {target:Number(ct.value)}};
K.show=function(r){cbig.textContent=r.detail.crashPoint.toFixed(2)+"×";return Promise.resolve("Crashed at "+r.detail.crashPoint.toFixed(2)+"× — your target "+r.detail.target.toFixed(2)+"×")};
`
