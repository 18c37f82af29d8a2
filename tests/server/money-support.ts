/**
 * Helpers for the money tests (tests/server/money.*.test.ts): players with a complete profile, a
 * webhook signed like a provider's, and the ledger check through the server's own pool.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { SIGNATURE_HEADER, signEvent } from "../../protocols/payments/signature.ts"
import { checkLedger } from "../../server/ledger/check.ts"
import { Gateways } from "../../server/payments/Gateways.ts"
import { cardGateways } from "../../services/wallet-service.ts"
import { newPlayer, type Player, PROFILE, put } from "./account-support.ts"
import type { TestServer } from "./harness.ts"

export { PROFILE, put }

/** A profile complete for every method (spec section 5). */
export const completeProfile = {
  firstName: "Ada",
  lastName: "Lovelace",
  gender: "FEMALE",
  dateOfBirth: 315532800,
  country: "MT",
  city: "Valletta",
  state: "Valletta",
  address: "1 Republic Street",
  zipCode: "VLT1117",
  phoneNumber: "21234567",
  dialingCode: "356",
}

export const newCompletePlayer = async (server: TestServer, tag: string): Promise<Player> => {
  const player = await newPlayer(server, tag)
  const res = await put(player.browser, `${PROFILE}/profile`, completeProfile)
  if (res.status !== 200) throw new Error(`profile update: ${res.status} ${JSON.stringify(res.body)}`)
  return player
}

export const userIdOf = async (server: TestServer, email: string): Promise<string> => {
  const rows = await server.query<{ id: string }>(
    "SELECT id::text AS id FROM users WHERE lower(email) = lower($1)",
    [email],
  )
  const id = rows[0]?.id
  if (id === undefined) throw new Error(`no user ${email}`)
  return id
}

export const webhookSecretOf = (server: TestServer, code: string): Promise<string> =>
  server.run(
    Effect.gen(function* () {
      const gateways = yield* Gateways
      const g = gateways.byCode(code)
      if (g === undefined) return yield* Effect.die(new Error(`no gateway ${code}`))
      return g.webhookSecret
    }),
  )

export interface WebhookInput {
  readonly id?: string
  readonly type?: "payment.completed" | "payment.failed" | "payment.pending"
  readonly reference: string
  readonly amount: string
  readonly currency: string
  readonly reason?: string | null
}

export const webhookBody = (e: WebhookInput): string =>
  JSON.stringify({
    id: e.id ?? randomUUID(),
    type: e.type ?? "payment.completed",
    paymentId: `pay_${e.reference.slice(0, 8)}`,
    reference: e.reference,
    amount: e.amount,
    currency: e.currency,
    reason: e.reason ?? null,
    createdAt: new Date().toISOString(),
  })

/** POSTs a webhook body to `baseUrl`, signed with `secret` at `timestamp` (unix s). */
export const sendWebhook = async (
  baseUrl: string,
  provider: string,
  secret: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
  signature?: string,
): Promise<{ status: number; body: unknown }> => {
  const res = await fetch(`${baseUrl}/api/payments/webhooks/${provider}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [SIGNATURE_HEADER]: signature ?? signEvent(secret, timestamp, body),
    },
    body,
  })
  const text = await res.text()
  return { status: res.status, body: text === "" ? null : JSON.parse(text) }
}

export const ledgerReport = (server: TestServer) => server.run(checkLedger)

/** Inserts a deposit row directly (initiated), for webhook tests that need no provider. */
export const insertDeposit = async (
  server: TestServer,
  userId: string,
  amount: string,
  currency = "EUR",
  provider = "paystudio",
): Promise<string> => {
  const rows = await server.query<{ id: string }>(
    `INSERT INTO deposits (user_id, method, provider, amount, currency, amount_eur_cents)
     VALUES ($1, 'card', $2, $3::numeric, $4, $3::numeric) RETURNING id::text AS id`,
    [userId, provider, amount, currency],
  )
  const id = rows[0]?.id
  if (id === undefined) throw new Error("deposit insert")
  return id
}

export const balanceOf = async (server: TestServer, userId: string, currency = "EUR"): Promise<string> => {
  const rows = await server.query<{ balance: string }>(
    "SELECT balance::text AS balance FROM ledger_accounts WHERE kind = 'player_cash' AND user_id = $1 AND currency = $2",
    [userId, currency],
  )
  return rows[0]?.balance ?? "missing"
}

/**
 * PAYMENT_GATEWAYS naming every payment gateway of the contract (`only`: just those), all at one
 * provider: its merchant API at `baseUrl`, one key pair for all.
 */
export const gatewaysEnvFor = (
  baseUrl: string,
  apiKey = "fake-api-key-0123456789",
  webhookSecret = "fake-webhook-secret-0123456789",
  only?: ReadonlyArray<string>,
): string => {
  const codes: ReadonlyArray<readonly [string, string]> = [
    ...cardGateways.map((c) => [c, "hosted-card"] as const),
    ["skrill", "skrill"],
    ["jeton", "jeton"],
    ["mifinity", "mifinity"],
  ]
  return JSON.stringify(
    codes
      .filter(([code]) => only === undefined || only.includes(code))
      .map(([code, family]) => ({ code, family, baseUrl, merchantId: code, apiKey, webhookSecret })),
  )
}

// ── A small fake provider speaking docs/payments-protocol.md ────────────────────────────────────

export interface FakeProvider {
  readonly url: string
  /** PAYMENT_GATEWAYS entries pointing every gateway at this fake. */
  readonly gatewaysEnv: string
  readonly apiKey: string
  readonly webhookSecret: string
  /** Requests received: path and JSON body. */
  readonly requests: Array<{ path: string; body: Record<string, unknown>; authorization: string | undefined }>
  /** Gateway codes that refuse initiation (503). */
  readonly down: Set<string>
  readonly close: () => Promise<void>
}

export const startFakeProvider = async (): Promise<FakeProvider> => {
  const { createServer } = await import("node:http")
  const apiKey = "fake-api-key-0123456789"
  const webhookSecret = "fake-webhook-secret-0123456789"
  const requests: FakeProvider["requests"] = []
  const down = new Set<string>()
  let counter = 0
  const server = createServer((req, res) => {
    let raw = ""
    req.on("data", (c: Buffer) => {
      raw += c.toString("utf8")
    })
    req.on("end", () => {
      const path = req.url ?? ""
      const body = (raw === "" ? {} : JSON.parse(raw)) as Record<string, unknown>
      requests.push({ path, body, authorization: req.headers.authorization })
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify(json))
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, { error: "unauthorized" })
      counter += 1
      const id = `p${counter}`
      const card = /^\/card\/([a-z]+)\/payments$/.exec(path)
      if (card !== null) {
        const code = card[1] ?? ""
        if (down.has(code)) return send(503, { error: "unavailable", message: `${code} is down` })
        return send(201, { paymentId: id, redirectUrl: `http://fake/card/${code}/pay/${id}` })
      }
      if (path === "/skrill/sessions")
        return send(201, { sessionId: id, redirectUrl: `http://fake/skrill/app/${id}` })
      if (path === "/jeton/payments")
        return send(201, {
          paymentId: id,
          checkoutUrl: `http://fake/jeton/pay/${id}`,
          qr: body.method === "QR" ? `jeton:${id}` : null,
        })
      if (path === "/mifinity/init-iframe") return send(201, { initializationToken: `tok_${id}` })
      return send(404, { error: "not found" })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const url = `http://127.0.0.1:${port}`
  const gatewaysEnv = gatewaysEnvFor(url, apiKey, webhookSecret)
  return {
    url,
    gatewaysEnv,
    apiKey,
    webhookSecret,
    requests,
    down,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
