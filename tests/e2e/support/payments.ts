/**
 * The payment sandbox seen from the e2e tests: its control endpoint (a gateway's initiation rule,
 * docs/payment-sandbox.md) on the sandbox's own address (E2E_PARTY_PAYMENTS_URL), called with the
 * sandbox's own secret — PAYMENT_SANDBOX_SECRET when the runner's environment sets it, else the one
 * it generated into its folder of the e2e DATA_DIR — and the deposit flow's `payment_config` cookie
 * as the browser holds it.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { BrowserContext } from "@playwright/test"
import { E2E_ENV, partyUrlEnv, requiredEnv } from "./env.ts"

/** Where browsers reach the payment sandbox's pages and API. */
export const paymentSandboxUrl = (): string => requiredEnv(partyUrlEnv("payments"))

export const sandboxSecret = (): string => {
  const fromEnv = process.env.PAYMENT_SANDBOX_SECRET
  if (fromEnv !== undefined && fromEnv.trim() !== "") return fromEnv.trim()
  return readFileSync(join(requiredEnv(E2E_ENV.dataDir), "payments", "secret"), "utf8").trim()
}

/** PUT /sandbox-pay/control/gateways/{code} { rule } on the sandbox: the rule now in force ("up" = none). */
export const setGatewayRule = async (code: string, rule: string): Promise<string> => {
  const response = await fetch(`${paymentSandboxUrl()}/sandbox-pay/control/gateways/${code}`, {
    method: "PUT",
    headers: {
      authorization: `Bearer ${sandboxSecret()}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ rule }),
  })
  const text = await response.text()
  if (response.status !== 200)
    throw new Error(`sandbox control ${code} ${rule}: HTTP ${response.status} ${text}`)
  const body: unknown = JSON.parse(text)
  return typeof body === "object" && body !== null && "rule" in body && typeof body.rule === "string"
    ? body.rule
    : text
}

export interface PaymentCookie {
  readonly tabs: Readonly<Record<string, string>>
  readonly depositAmount: string
  readonly currency: string
  readonly promotionCoupon: string
}

const isStringRecord = (value: unknown): value is Readonly<Record<string, string>> =>
  typeof value === "object" && value !== null && Object.values(value).every((v) => typeof v === "string")

/** The `payment_config` cookie of the context, decoded (it is URI-encoded JSON), or undefined. */
export const paymentCookie = async (context: BrowserContext): Promise<PaymentCookie | undefined> => {
  const cookie = (await context.cookies()).find((c) => c.name === "payment_config")
  if (cookie === undefined) return undefined
  const value: unknown = JSON.parse(decodeURIComponent(cookie.value))
  const get = (key: string): unknown =>
    typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined
  const tabs = get("tabs")
  const depositAmount = get("depositAmount")
  const currency = get("currency")
  const promotionCoupon = get("promotionCoupon")
  if (
    !isStringRecord(tabs) ||
    typeof depositAmount !== "string" ||
    typeof currency !== "string" ||
    typeof promotionCoupon !== "string"
  ) {
    throw new Error(`payment_config is not the deposit flow's: ${decodeURIComponent(cookie.value)}`)
  }
  return { tabs, depositAmount, currency, promotionCoupon }
}
