/**
 * Mercuryo's family (docs/onramp.md). Launch: the hosted widget with `widget_id`, `type=buy`,
 * `currency` (ticker), `network`, `address`, `fiat_currency=EUR`, `fiat_amount`, and Mercuryo's
 * address signature `signature` = hex SHA-512(address + secretKey): the address cannot be changed
 * without the secret. Callback: `X-Signature` = hex HMAC-SHA256(webhookSecret, timestamp + "." +
 * body) with `X-Timestamp` (Mercuryo signs the body; the signed timestamp bounds replays),
 * body `{ "data": <order> }`.
 */
import {
  chainOf,
  currencyFromProvider,
  fiatAmountParam,
  fresh,
  header,
  hmacHex,
  type OnrampAdapter,
  parseJson,
  readOrderEvent,
  sameText,
  sha512Hex,
  tickerOf,
} from "./family.ts"

export const mercuryo: OnrampAdapter = {
  family: "mercuryo",
  launchUrl: (creds, p) => {
    const query = new URLSearchParams({
      widget_id: creds.apiKey,
      type: "buy",
      currency: tickerOf(p.currency),
      network: chainOf(p.currency).toUpperCase(),
      address: p.address,
      fiat_currency: "EUR",
    })
    if (p.fiatAmountEur !== undefined) query.set("fiat_amount", p.fiatAmountEur)
    query.set("signature", sha512Hex(p.address + creds.secretKey))
    return `${creds.baseUrl}?${query.toString()}`
  },
  readLaunch: (creds, url) => {
    const q = url.searchParams
    if (q.get("widget_id") !== creds.apiKey) return { ok: false, reason: "unknown-key" }
    const address = q.get("address") ?? ""
    if (!sameText(q.get("signature") ?? "", sha512Hex(address + creds.secretKey)))
      return { ok: false, reason: "forged" }
    const currency = currencyFromProvider(q.get("currency"))
    if (currency === undefined) return { ok: false, reason: "currency" }
    const amount = fiatAmountParam(q.get("fiat_amount"))
    if (address === "" || amount === null || (q.get("fiat_currency") ?? "EUR") !== "EUR")
      return { ok: false, reason: "malformed" }
    return { ok: true, launch: { currency, address, fiatAmountEur: amount } }
  },
  signCallback: (creds, event, now) => {
    const body = JSON.stringify({ data: event })
    return {
      headers: { "x-timestamp": String(now), "x-signature": hmacHex(creds.webhookSecret, `${now}.${body}`) },
      body,
    }
  },
  verifyCallback: (creds, request, now, tolerance) => {
    const signature = header(request.headers, "x-signature")
    const timestamp = header(request.headers, "x-timestamp")
    if (signature === undefined || timestamp === undefined) return { ok: false, reason: "unsigned" }
    if (!sameText(signature, hmacHex(creds.webhookSecret, `${timestamp}.${request.body}`)))
      return { ok: false, reason: "forged" }
    if (!/^\d{1,12}$/.test(timestamp) || !fresh(Number(timestamp), now, tolerance))
      return { ok: false, reason: "stale" }
    const json = parseJson(request.body)
    const data = typeof json === "object" && json !== null ? (json as { data?: unknown }).data : undefined
    const event = readOrderEvent(data)
    return event === undefined ? { ok: false, reason: "malformed" } : { ok: true, event }
  },
}
