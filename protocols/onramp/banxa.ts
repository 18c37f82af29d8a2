/**
 * Banxa's family (docs/onramp.md). Banxa's partner API signs every request:
 * `Authorization: Bearer <apiKey>:<hex HMAC-SHA256(secretKey, method + "\n" + path + "\n" + nonce
 * [+ "\n" + body])>:<nonce>`, the nonce being the Unix time in seconds. The frame opens Banxa's
 * hosted checkout with `coinType`, `blockchain`, `walletAddress`, `fiatType=EUR`, `fiatAmount`; a
 * casino that creates orders through the API (`POST /api/orders`) signs the request with
 * `banxaAuthorization`, and the sandbox checks the same. Callback: Banxa's webhook carries the same
 * scheme in `Authorization` (without "Bearer") over `POST <path>`, keyed by the webhook secret.
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
  tickerOf,
} from "./family.ts"

const signedText = (method: string, path: string, nonce: string, body: string | undefined): string =>
  body === undefined ? `${method}\n${path}\n${nonce}` : `${method}\n${path}\n${nonce}\n${body}`

/** The Authorization header of a Banxa API request. */
export const banxaAuthorization = (
  apiKey: string,
  secretKey: string,
  method: "GET" | "POST",
  path: string,
  nonce: number,
  body?: string,
): string => `Bearer ${apiKey}:${hmacHex(secretKey, signedText(method, path, String(nonce), body))}:${nonce}`

/** Splits "key:signature:nonce" (the key may not contain ':'). */
const parseAuth = (value: string): { key: string; signature: string; nonce: string } | undefined => {
  const parts = value.replace(/^Bearer\s+/i, "").split(":")
  if (parts.length !== 3) return undefined
  const [key = "", signature = "", nonce = ""] = parts
  return { key, signature, nonce }
}

/** Checks a Banxa API request's Authorization (the sandbox's side of the order API). */
export const verifyBanxaAuthorization = (
  apiKey: string,
  secretKey: string,
  value: string | undefined,
  request: { readonly method: string; readonly path: string; readonly body: string | undefined },
  now: number,
  tolerance: number,
): "ok" | "unsigned" | "forged" | "stale" => {
  const auth = value === undefined ? undefined : parseAuth(value)
  if (auth === undefined) return "unsigned"
  if (!sameText(auth.key, apiKey)) return "forged"
  const expected = hmacHex(secretKey, signedText(request.method, request.path, auth.nonce, request.body))
  if (!sameText(auth.signature, expected)) return "forged"
  if (!/^\d{1,12}$/.test(auth.nonce) || !fresh(Number(auth.nonce), now, tolerance)) return "stale"
  return "ok"
}

export const banxa: OnrampAdapter = {
  family: "banxa",
  launchUrl: (creds, p) => {
    const query = new URLSearchParams({
      coinType: tickerOf(p.currency),
      blockchain: chainOf(p.currency) === "ethereum" ? "ETH" : tickerOf(p.currency),
      walletAddress: p.address,
      fiatType: "EUR",
    })
    if (p.fiatAmountEur !== undefined) query.set("fiatAmount", p.fiatAmountEur)
    return `${creds.baseUrl}?${query.toString()}`
  },
  // Banxa's hosted checkout takes its parameters unsigned (the signed part is the order API).
  readLaunch: (_creds, url) => {
    const q = url.searchParams
    const currency = currencyFromProvider(q.get("coinType"))
    if (currency === undefined) return { ok: false, reason: "currency" }
    const address = q.get("walletAddress") ?? ""
    const amount = fiatAmountParam(q.get("fiatAmount"))
    if (address === "" || amount === null || (q.get("fiatType") ?? "EUR") !== "EUR")
      return { ok: false, reason: "malformed" }
    return { ok: true, launch: { currency, address, fiatAmountEur: amount } }
  },
  signCallback: (creds, event, now, path) => {
    const body = JSON.stringify(event)
    const signature = hmacHex(creds.webhookSecret, signedText("POST", path, String(now), body))
    return { headers: { authorization: `${creds.apiKey}:${signature}:${now}` }, body }
  },
  verifyCallback: (creds, request, now, tolerance) => {
    const result = verifyBanxaAuthorization(
      creds.apiKey,
      creds.webhookSecret,
      header(request.headers, "authorization"),
      { method: "POST", path: request.path, body: request.body },
      now,
      tolerance,
    )
    if (result !== "ok") return { ok: false, reason: result }
    const event = readOrderEvent(parseJson(request.body))
    return event === undefined ? { ok: false, reason: "malformed" } : { ok: true, event }
  },
}
