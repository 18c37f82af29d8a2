/**
 * One crash bet's proof, `/studio/crash-rounds/{roundId}` (the crash page's "Verify your round"
 * link): the game's number, hash, the previous hash in the chain, the public salt and the bust, with
 * the player's bet, cash-out and win — and the check done in the player's own browser (WebCrypto):
 * HMAC-SHA256(game hash, salt) gives the bust by bustabit's rule, and SHA-256(game hash) is the
 * previous game's hash (the published terminating hash before game 1), so the game was fixed before
 * any bet. The casino's verifier recomputes the single-player kinds; a multiplayer crash game has no
 * seeds of the player's, so its proof is the chain's, and it lives with the chain.
 */
import { escapeHtml } from "../../../lib/html.ts"
import type { RoundProof } from "./engine.ts"

/**
 * The page's check (plain ES2020, also run by tests/unit/crash-proof-page.test.ts against
 * services/games/crash-chain.ts): the bust in hundredths from the HMAC's hex — 1 in 101 busts at
 * 1.00×, else floor((100·2^52 − h) / (2^52 − h)) with h the HMAC's first 52 bits.
 */
export const bustScript = `function bustOf(hex){if(BigInt("0x"+hex)%101n===0n)return 100;var e=2n**52n,h=BigInt("0x"+hex.slice(0,13));return Number((100n*e-h)/(e-h))}`

const x = (hundredths: number | null): string =>
  hundredths === null ? "—" : `${(hundredths / 100).toFixed(2)}×`

const money = (minor: string | null, currency: string): string => {
  if (minor === null) return "—"
  const s = minor.padStart(3, "0")
  return `${s.slice(0, -2)}.${s.slice(-2)} ${currency}`
}

export const crashProofPage = (nonce: string, gameName: string, p: RoundProof): string => {
  const settled = p.hash !== null && p.bust !== null
  const data = JSON.stringify({
    hash: p.hash,
    previousHash: p.previousHash,
    salt: p.salt,
    bust: p.bust,
  }).replace(/</g, "\\u003c")
  const row = (label: string, value: string, code = false) =>
    `<tr><th scope="row">${label}</th><td>${code ? `<code>${escapeHtml(value)}</code>` : escapeHtml(value)}</td></tr>`
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(gameName)} · game #${p.number} · proof</title>
<style nonce="${nonce}">body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#120a18;color:#f3eef7;line-height:1.45}
main{max-width:760px;margin:0 auto;padding:20px}h1{font-size:1.4rem;margin:0 0 4px}p{margin:8px 0}
table{border-collapse:collapse;width:100%;margin:14px 0}th,td{text-align:left;padding:8px;border-top:1px solid #3a2d44;vertical-align:top}th{width:34%;font-weight:600;color:#cdbfd8}
code{word-break:break-all;font-size:.85rem}.checks{list-style:none;padding:0}.checks li{padding:10px 12px;margin:8px 0;border-radius:10px;background:#241830}
.ok{outline:2px solid #2ecc71}.bad{outline:2px solid #ff6b6b}.muted{color:#cdbfd8;font-size:.9rem}</style></head>
<body><main>
<h1>${escapeHtml(gameName)} — game #${p.number}</h1>
<p class="muted">Your bet's proof. Everything below is public: anyone can check it.</p>
<table>
${row("Your bet", money(p.bet, p.currency))}
${row("Cashed out at", x(p.cashedOut))}
${row("Paid", money(p.win, p.currency))}
${row("Busted at", x(p.bust))}
${row("Game hash", p.hash ?? "not played yet", p.hash !== null)}
${row("Previous hash in the chain", p.previousHash ?? "—", p.previousHash !== null)}
${row("Salt (public)", p.salt, true)}
${row("Terminating hash (published first)", p.terminatingHash, true)}
</table>
${
  settled
    ? `<ul class="checks" aria-live="polite"><li id="bustCheck">Recomputing the bust in your browser…</li><li id="chainCheck">Checking the chain…</li></ul>
<p class="muted">How: the bust is HMAC-SHA256(key: game hash, message: salt); 1 in 101 busts at 1.00×, else
floor((100·2<sup>52</sup> − h) / (2<sup>52</sup> − h)) / 100, h its first 52 bits. Each game's hash is the SHA-256 of
the next one's, from a chain computed backwards and committed by its terminating hash before the first game, so no
game could be changed after bets were placed.</p>`
    : `<p>This game has not been played to its end yet: its hash is revealed when it busts.</p>`
}
</main>
<script type="application/json" id="proof">${data}</script>
<script nonce="${nonce}">(function(){"use strict";
${bustScript}
var p=JSON.parse(document.getElementById("proof").textContent);if(!p.hash||p.bust===null)return;
var enc=new TextEncoder();function hex(b){return Array.from(new Uint8Array(b)).map(function(x){return x.toString(16).padStart(2,"0")}).join("")}
function say(id,ok,text){var li=document.getElementById(id);li.textContent=(ok?"✓ ":"✗ ")+text;li.className=ok?"ok":"bad"}
crypto.subtle.importKey("raw",enc.encode(p.hash),{name:"HMAC",hash:"SHA-256"},false,["sign"]).then(function(k){return crypto.subtle.sign("HMAC",k,enc.encode(p.salt))}).then(function(sig){var b=bustOf(hex(sig));
say("bustCheck",b===p.bust,b===p.bust?"The bust recomputes to "+(b/100).toFixed(2)+"×, as played.":"The bust recomputes to "+(b/100).toFixed(2)+"×, not "+(p.bust/100).toFixed(2)+"× as played.")});
crypto.subtle.digest("SHA-256",enc.encode(p.hash)).then(function(d){var ok=hex(d)===p.previousHash;
say("chainCheck",ok,ok?"SHA-256 of this game's hash is the previous game's hash: it was fixed in the chain before play.":"SHA-256 of this game's hash is not the previous game's hash.")});
})();</script>
</body></html>`
}
