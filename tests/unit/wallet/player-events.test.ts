/**
 * The push events' parser (services/player-events.ts): what the server sends decodes to the
 * contract's PlayerEvent; anything else — not a string, not JSON, another shape, a bad amount or
 * status — is null, so a stray message never reaches the session or the payment frame.
 */
import { describe, expect, it } from "vitest"
import { parsePlayerEvent } from "../../../services/player-events.ts"

describe("parsePlayerEvent", () => {
  it("decodes a balance and a deposit event", async () => {
    expect(await parsePlayerEvent('{"type":"balance","currency":"EUR","balance":"3000"}')).toEqual({
      type: "balance",
      currency: "EUR",
      balance: "3000",
    })
    const deposit = {
      type: "deposit",
      depositId: "5d9f3c1e-0b7c-4f43-9a59-2f8f3c1d9e11",
      status: "completed",
      amount: "3000",
      currency: "EUR",
    }
    expect(await parsePlayerEvent(JSON.stringify(deposit))).toEqual(deposit)
  })

  it.each([
    ["not a string", { type: "balance", currency: "EUR", balance: "1" }],
    ["not JSON", "{type: balance"],
    ["an empty message", ""],
    ["another type", '{"type":"bonus","currency":"EUR","balance":"1"}'],
    ["a float amount", '{"type":"balance","currency":"EUR","balance":"30.5"}'],
    ["an amount as a number", '{"type":"balance","currency":"EUR","balance":3000}'],
    [
      "an unknown status",
      '{"type":"deposit","depositId":"d","status":"refunded","amount":"1","currency":"EUR"}',
    ],
    ["a missing field", '{"type":"deposit","depositId":"d","status":"completed","currency":"EUR"}'],
  ])("ignores %s", async (_, data) => {
    expect(await parsePlayerEvent(data)).toBeNull()
  })
})
