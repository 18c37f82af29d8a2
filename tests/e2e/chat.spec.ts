/**
 * The support chat in the browser against the real server (docs/chat.md): a signed-in player opens
 * the widget from the launcher, sends a message, and sees a back-office operator's reply appear
 * live (server-sent events, no reload) — the reply posted through the back-office API with a
 * support agent's token, the way a support script answers. axe finds nothing serious or critical on
 * the open widget, at desktop and phone width.
 */
import { expectAccessible } from "./support/a11y.ts"
import { tokenOf } from "./support/backoffice.ts"
import { newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { expect, test } from "./support/fixtures.ts"

test("a player writes to support and sees the reply arrive live", async ({ page, world }, testInfo) => {
  const player = await signedInThroughApi(page, world, newPlayer(world, "chat", "Ada Lovelace"))
  const support = await tokenOf(world, "support")

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

  // Support finds the player's conversation in the inbox and answers it.
  const inbox = await support.call("GET", "/chat/conversations")
  expect(inbox.status).toBe(200)
  const { conversations } = inbox.body as {
    conversations: ReadonlyArray<{ id: string; player: { email: string } | null }>
  }
  const conversation = conversations.find((c) => c.player?.email === player.email)
  expect(conversation).toBeDefined()
  const reply = await support.call("POST", `/chat/conversations/${conversation?.id}/reply`, {
    body: "Hi Ada, I can see it: it is on its way.",
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
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

test("the chat's background read after sign-in neither shows the panel nor moves the focus", async ({
  page,
  world,
}) => {
  // Anything that shows the panel or moves the focus while the player is elsewhere is recorded.
  await page.addInitScript(() => {
    const seen = { panel: false, focus: [] as Array<string> }
    ;(window as unknown as { chatProbe: typeof seen }).chatProbe = seen
    new MutationObserver(() => {
      if (document.getElementById("chat-panel") !== null) seen.panel = true
    }).observe(document, { childList: true, subtree: true })
    document.addEventListener(
      "focusin",
      (e) =>
        seen.focus.push(
          (e.target as HTMLElement).getAttribute("aria-label") ?? (e.target as HTMLElement).textContent ?? "",
        ),
      true,
    )
  })
  const stream = page.waitForRequest((r) => r.url().includes("/chat-service/api/v1/chat/events"), {
    timeout: 60_000,
  })
  await signedInThroughApi(page, world, newPlayer(world, "chat-prefetch", "Grace Hopper"))
  const deposit = page.getByRole("banner").getByRole("button", { name: "Deposit", exact: true })
  await deposit.focus()
  // The read is over once the machine follows the conversation's stream.
  await stream
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
  await expect(deposit).toBeFocused()
  const probe = await page.evaluate(
    () => (window as unknown as { chatProbe: { panel: boolean; focus: Array<string> } }).chatProbe,
  )
  expect(probe.panel, "the panel was shown by a background read").toBe(false)
  expect(probe.focus.filter((f) => f.startsWith("Support chat"))).toEqual([])
})
