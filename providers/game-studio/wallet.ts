/**
 * The studio's client of the casino's seamless wallet (docs/game-wallet-protocol.md):
 * `POST {walletUrl}/{op}` with a JSON body signed by the wallet secret. No transaction is held while
 * posting: a slow casino must not hold the studio's rows (its PGlite has a single connection).
 *
 * Every attempt is signed anew: the casino honours an exact signature once (401 REPLAYED_SIGNATURE)
 * and answers a retry under a new signature by its transaction id.
 */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { GameWalletErrors } from "../../protocols/game-wallet/errors.ts"
import { SIGNATURE_HEADER, signBody } from "../../protocols/game-wallet/signature.ts"
import type { WalletOp } from "../../protocols/game-wallet/wallet.ts"

export type { WalletOp }

export type WalletAnswer =
  /** 2xx: the casino took the call. */
  | { readonly _tag: "Ok"; readonly status: number; readonly body: Readonly<Record<string, unknown>> }
  /** 4xx: the casino answered no (INSUFFICIENT_FUNDS, PLAYER_BLOCKED, …): final for this call. */
  | {
      readonly _tag: "Refused"
      readonly status: number
      readonly error: string
      readonly body: Readonly<Record<string, unknown>>
    }
  /** No usable answer: network error, timeout, 5xx. The call may or may not have been applied. */
  | { readonly _tag: "NoAnswer"; readonly error: string }

// The last timestamp each (key, body) was signed with. Signatures have one-second timestamps, so two
// sends of the same bytes within a second (a quick retry, two balance reads of one session) would
// carry the same signature: the second takes the next second instead (the casino accepts ±300 s).
const lastSigned = new Map<string, number>()
const uniqueSignature = (secret: string, body: string): string => {
  const key = createHash("sha256").update(secret).update("\0").update(body).digest("base64")
  const now = Math.floor(Date.now() / 1000)
  const last = lastSigned.get(key)
  const t = last !== undefined && last >= now ? last + 1 : now
  lastSigned.set(key, t)
  if (lastSigned.size > 10_000) for (const [k, v] of lastSigned) if (v < now) lastSigned.delete(k)
  return signBody(secret, body, t)
}

const asRecord = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value))
    : {}

export const callWallet = (
  walletUrl: string,
  secret: string,
  op: WalletOp,
  body: string,
  timeoutMs: number,
): Effect.Effect<WalletAnswer> =>
  Effect.tryPromise({
    try: async (signal): Promise<WalletAnswer> => {
      const response = await fetch(`${walletUrl}/${op}`, {
        method: "POST",
        body,
        redirect: "manual",
        headers: {
          "content-type": "application/json",
          "user-agent": "casino-game-studio/1",
          [SIGNATURE_HEADER]: uniqueSignature(secret, body),
        },
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      })
      const text = await response.text()
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = {}
      }
      const record = asRecord(parsed)
      if (response.status >= 200 && response.status < 300)
        return { _tag: "Ok", status: response.status, body: record }
      const error = typeof record.error === "string" ? record.error : `HTTP_${response.status}`
      // These very bytes were taken before (the casino may have applied the call): not a refusal.
      if (error === GameWalletErrors.replayedSignature) return { _tag: "NoAnswer", error }
      if (response.status >= 400 && response.status < 500) {
        return { _tag: "Refused", status: response.status, error, body: record }
      }
      return { _tag: "NoAnswer", error: `HTTP ${response.status}` }
    },
    catch: (e) => e,
  }).pipe(
    Effect.catch((e) =>
      Effect.succeed<WalletAnswer>({ _tag: "NoAnswer", error: e instanceof Error ? e.message : String(e) }),
    ),
  )
