/**
 * The studio's client of the casino's seamless wallet (docs/game-wallet-protocol.md):
 * `POST {walletUrl}/{op}` with a JSON body signed by the wallet secret. No transaction is held while
 * posting: the casino may be this very process, on the same single-connection PGlite.
 */
import { Effect } from "effect"
import { SIGNATURE_HEADER, signBody } from "./signature.ts"

export type WalletOp = "balance" | "bet" | "win" | "rollback"

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
          [SIGNATURE_HEADER]: signBody(secret, body),
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
      if (response.status >= 400 && response.status < 500) {
        const error = typeof record.error === "string" ? record.error : `HTTP_${response.status}`
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
