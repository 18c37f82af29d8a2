/**
 * Transak's family (docs/onramp.md). Launch: the hosted widget with `apiKey`, `cryptoCurrencyCode`,
 * `network`, `walletAddress`, `disableWalletAddressForm=true`, `fiatCurrency=EUR`,
 * `defaultFiatAmount` — unsigned, as Transak's query-parameter integration is; the provider only
 * checks the key. Callback: Transak posts `{ "data": <JWT> }`, the JWT signed HS256 with the
 * partner's secret (here the webhook secret); its `iat` bounds replays.
 */
import { createHmac } from "node:crypto"
import {
  chainOf,
  currencyFromProvider,
  fiatAmountParam,
  fresh,
  type OnrampAdapter,
  parseJson,
  readOrderEvent,
  sameText,
  tickerOf,
} from "./family.ts"

const base64url = (data: string | Buffer): string => Buffer.from(data).toString("base64url")
const jwtHeader = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))

const signJwt = (secret: string, payload: object): string => {
  const body = `${jwtHeader}.${base64url(JSON.stringify(payload))}`
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`
}

/** The payload of an HS256 JWT whose signature matches, else undefined. Only HS256 is accepted. */
const verifyJwt = (secret: string, token: string): unknown => {
  const parts = token.split(".")
  if (parts.length !== 3) return undefined
  const [h = "", p = "", s = ""] = parts
  const head = parseJson(Buffer.from(h, "base64url").toString("utf8"))
  if (typeof head !== "object" || head === null || (head as { alg?: unknown }).alg !== "HS256")
    return undefined
  if (!sameText(s, createHmac("sha256", secret).update(`${h}.${p}`).digest("base64url"))) return undefined
  return parseJson(Buffer.from(p, "base64url").toString("utf8"))
}

export const transak: OnrampAdapter = {
  family: "transak",
  launchUrl: (creds, p) => {
    const query = new URLSearchParams({
      apiKey: creds.apiKey,
      cryptoCurrencyCode: tickerOf(p.currency),
      network: chainOf(p.currency),
      walletAddress: p.address,
      disableWalletAddressForm: "true",
      fiatCurrency: "EUR",
    })
    if (p.fiatAmountEur !== undefined) query.set("defaultFiatAmount", p.fiatAmountEur)
    return `${creds.baseUrl}?${query.toString()}`
  },
  readLaunch: (creds, url) => {
    const q = url.searchParams
    if (!sameText(q.get("apiKey") ?? "", creds.apiKey)) return { ok: false, reason: "unknown-key" }
    const currency = currencyFromProvider(q.get("cryptoCurrencyCode"))
    if (currency === undefined) return { ok: false, reason: "currency" }
    const address = q.get("walletAddress") ?? ""
    const amount = fiatAmountParam(q.get("defaultFiatAmount"))
    if (address === "" || amount === null || (q.get("fiatCurrency") ?? "EUR") !== "EUR")
      return { ok: false, reason: "malformed" }
    return { ok: true, launch: { currency, address, fiatAmountEur: amount } }
  },
  signCallback: (creds, event, now) => ({
    headers: {},
    body: JSON.stringify({ data: signJwt(creds.webhookSecret, { ...event, iat: now }) }),
  }),
  verifyCallback: (creds, request, now, tolerance) => {
    const json = parseJson(request.body)
    const token = typeof json === "object" && json !== null ? (json as { data?: unknown }).data : undefined
    if (typeof token !== "string") return { ok: false, reason: "unsigned" }
    const payload = verifyJwt(creds.webhookSecret, token)
    if (payload === undefined) return { ok: false, reason: "forged" }
    const iat =
      typeof payload === "object" && payload !== null ? (payload as { iat?: unknown }).iat : undefined
    if (typeof iat !== "number" || !fresh(iat, now, tolerance)) return { ok: false, reason: "stale" }
    const event = readOrderEvent(payload)
    return event === undefined ? { ok: false, reason: "malformed" } : { ok: true, event }
  },
}
