/**
 * MoonPay's family (docs/onramp.md). Launch: the hosted buy page with `apiKey`, `currencyCode`
 * (lowercase ticker), `walletAddress`, `baseCurrencyCode=eur`, `baseCurrencyAmount`, and — as MoonPay
 * requires whenever a wallet address is passed — `signature` = base64 HMAC-SHA256(secretKey, the
 * URL's query string from its "?"), appended last. Callback: header
 * `Moonpay-Signature-V2: t=<unix s>,s=<hex HMAC-SHA256(webhookSecret, t + "." + body)>`,
 * body `{ "type": "transaction_updated", "data": <order> }`.
 */
import {
  currencyFromProvider,
  fiatAmountParam,
  fresh,
  header,
  hmacBase64,
  hmacHex,
  type OnrampAdapter,
  parseJson,
  readOrderEvent,
  sameText,
  tickerOf,
} from "./family.ts"

/** MoonPay names USDT on Ethereum "usdt" (its ERC-20 default) and Dogecoin "doge". */
const currencyCode = (ticker: string): string => ticker.toLowerCase()

export const moonpay: OnrampAdapter = {
  family: "moonpay",
  launchUrl: (creds, p) => {
    const query = new URLSearchParams({
      apiKey: creds.apiKey,
      currencyCode: currencyCode(tickerOf(p.currency)),
      walletAddress: p.address,
      baseCurrencyCode: "eur",
    })
    if (p.fiatAmountEur !== undefined) query.set("baseCurrencyAmount", p.fiatAmountEur)
    const search = `?${query.toString()}`
    const signature = hmacBase64(creds.secretKey, search)
    return `${creds.baseUrl}${search}&signature=${encodeURIComponent(signature)}`
  },
  readLaunch: (creds, url) => {
    // The signed text is the query exactly as sent, up to "&signature=".
    const search = url.search
    const at = search.lastIndexOf("&signature=")
    if (at < 0) return { ok: false, reason: "forged" }
    const signed = search.slice(0, at)
    const given = decodeURIComponent(search.slice(at + "&signature=".length))
    const q = url.searchParams
    if (q.get("apiKey") !== creds.apiKey) return { ok: false, reason: "unknown-key" }
    if (!sameText(given, hmacBase64(creds.secretKey, signed))) return { ok: false, reason: "forged" }
    const currency = currencyFromProvider(q.get("currencyCode"))
    if (currency === undefined) return { ok: false, reason: "currency" }
    const address = q.get("walletAddress") ?? ""
    const amount = fiatAmountParam(q.get("baseCurrencyAmount"))
    if (address === "" || amount === null || (q.get("baseCurrencyCode") ?? "eur") !== "eur")
      return { ok: false, reason: "malformed" }
    return { ok: true, launch: { currency, address, fiatAmountEur: amount } }
  },
  signCallback: (creds, event, now) => {
    const body = JSON.stringify({ type: "transaction_updated", data: event })
    return {
      headers: { "moonpay-signature-v2": `t=${now},s=${hmacHex(creds.webhookSecret, `${now}.${body}`)}` },
      body,
    }
  },
  verifyCallback: (creds, request, now, tolerance) => {
    const value = header(request.headers, "moonpay-signature-v2")
    if (value === undefined) return { ok: false, reason: "unsigned" }
    const parts = new Map(
      value.split(",").map((kv) => {
        const i = kv.indexOf("=")
        return [kv.slice(0, i).trim(), kv.slice(i + 1).trim()] as const
      }),
    )
    const t = Number(parts.get("t"))
    const s = parts.get("s") ?? ""
    if (!sameText(s, hmacHex(creds.webhookSecret, `${parts.get("t") ?? ""}.${request.body}`)))
      return { ok: false, reason: "forged" }
    if (!fresh(t, now, tolerance)) return { ok: false, reason: "stale" }
    const json = parseJson(request.body)
    const data = typeof json === "object" && json !== null ? (json as { data?: unknown }).data : undefined
    const event = readOrderEvent(data)
    return event === undefined ? { ok: false, reason: "malformed" } : { ok: true, event }
  },
}
