/**
 * The support chat in the browser against the real server (docs/chat.md): a signed-in player opens
 * the widget from the launcher, sends a message, and sees a back-office operator's reply appear
 * live (server-sent events, no reload) — the reply posted through the operator endpoint, the way
 * support answers until the back office has its inbox screen. axe finds nothing serious or
 * critical on the open widget, at desktop and phone width.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expectAccessible } from "./support/a11y.ts"
import { newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { E2E_ENV, requiredEnv } from "./support/env.ts"
import { expect, test } from "./support/fixtures.ts"
import { operator } from "./support/operator.ts"

/** The secret the e2e server generated into its data folder (no OPERATOR_SECRET is set). */
const operatorSecret = (): string =>
  process.env.OPERATOR_SECRET ??
  readFileSync(join(requiredEnv(E2E_ENV.dataDir), "operator-secret"), "utf8").trim()

test("a player writes to support and sees the reply arrive live", async ({ page, world }, testInfo) => {
  const player = await signedInThroughApi(page, world, newPlayer(world, "chat", "Ada Lovelace"))
  const supportEmail = world.uniqueEmail("support")
  await operator(world.databaseUrl, [
    "operators",
    "add",
    "--email",
    supportEmail,
    "--name",
    "Sam Support",
    "--role",
    "support",
    "--json",
  ])

  const launcher = page.getByRole("button", { name: "Support chat" })
  await expect(launcher).toBeVisible()
  await launcher.click()
  const panel = page.getByRole("region", { name: "Support" })
  await expect(panel).toBeVisible()
  const input = panel.getByLabel("Your message")
  await expect(input).toBeFocused()
  await input.fill("Hello, my deposit has not arrived.")
  await panel.getByRole("button", { name: "Send" }).click()
  const log = panel.getByRole("log", { name: "Messages" })
  await expect(log).toContainText("Hello, my deposit has not arrived.")
  await expect(input).toHaveValue("")
  // The stream is open once the "Connecting…" line is gone.
  await expect(panel.getByText("Connecting…")).toHaveCount(0)

  const reply = await page.request.post(`${world.baseUrl}/api/operator/v1/chat/reply`, {
    headers: { authorization: `Bearer ${operatorSecret()}` },
    data: {
      playerEmail: player.email,
      operatorEmail: supportEmail,
      body: "Hi Ada, I can see it: it is on its way.",
    },
  })
  expect(reply.status()).toBe(200)
  await expect(log).toContainText("Hi Ada, I can see it: it is on its way.")

  await expectAccessible(page, testInfo, "chat open (desktop)")
  await world.screenshot(page, "chat-open-desktop")
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(panel).toBeVisible()
  await expectAccessible(page, testInfo, "chat open (phone)")
  await world.screenshot(page, "chat-open-phone")

  // Minimized, the launcher takes the focus back; Escape closes too.
  await panel.getByRole("button", { name: "Minimize the chat" }).click()
  await expect(panel).toHaveCount(0)
  await expect(launcher).toBeFocused()
})
