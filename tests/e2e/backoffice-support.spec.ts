/**
 * The support inbox in Chromium against the real server (docs/backoffice.md, "Support inbox"): a
 * signed-in player writes in the chat widget; a support agent sees the conversation in the inbox
 * with its unread badge and the player's context, inserts a canned reply, answers, assigns it to
 * themselves; the player sees the answer appear live in the widget without reloading, and the
 * player's next message appears live in the inbox (its stream, not its 30 s poll, which is longer
 * than an expectation waits). axe finds nothing serious or critical on the inbox at desktop and
 * phone width.
 */
import { expectAccessible } from "./support/a11y.ts"
import { addOperatorByCommand, signInToBackoffice } from "./support/backoffice.ts"
import { newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { expect, test } from "./support/fixtures.ts"

test("a support agent answers a player from the inbox; the player sees it live", async ({
  page,
  browser,
  world,
}, testInfo) => {
  await signedInThroughApi(page, world, newPlayer(world, "bo-support", "Grace Hopper"))
  await page.getByRole("button", { name: "Support chat" }).click()
  const panel = page.getByRole("region", { name: "Support" })
  await expect(panel).toBeVisible()
  await panel.getByLabel("Your message").fill("Hello, my withdrawal is late.")
  await panel.getByRole("button", { name: "Send" }).click()
  const log = panel.getByRole("log", { name: "Messages" })
  await expect(log).toContainText("Hello, my withdrawal is late.")
  await expect(panel.getByText("Connecting…")).toHaveCount(0)

  const staffContext = await browser.newContext({
    baseURL: world.baseUrl,
    viewport: { width: 1280, height: 800 },
  })
  const staff = await staffContext.newPage()
  const agent = await addOperatorByCommand(world, "support", "Sam Support")
  await signInToBackoffice(staff, agent, "/backoffice/support")
  await expect(staff.getByRole("heading", { name: "Support inbox", level: 1 })).toBeVisible()
  await expect(staff.getByRole("status", { name: "Inbox updates" })).toHaveText("Live")

  const inbox = staff.getByRole("navigation", { name: "Conversations" })
  const item = inbox.getByRole("button", { name: /Grace Hopper/ })
  await expect(item).toBeVisible()
  await expect(item).toContainText("1 unread")
  await expect(item).toContainText("Hello, my withdrawal is late.")
  await item.click()

  const thread = staff.getByRole("region", { name: "Grace Hopper" })
  const messages = thread.getByRole("log", { name: "Messages with Grace Hopper" })
  await expect(messages).toContainText("Hello, my withdrawal is late.")
  const context = staff.getByRole("complementary", { name: "Player" })
  await expect(context).toContainText("Grace Hopper")
  await expect(context).toContainText("KYC none")
  // Opening it marked it read, and the list is reloaded then: the badge goes at once.
  await expect(item).not.toContainText("unread")

  await thread.getByRole("button", { name: "Assign to me" }).click()
  await expect(thread).toContainText("Assigned to Sam Support")
  await expect(thread.getByRole("button", { name: "Unassign" })).toBeVisible()

  await thread.getByLabel("Canned reply").selectOption({ label: "Looking into it" })
  const reply = thread.getByLabel("Your reply")
  await expect(reply).toHaveValue(/I am looking into this now/)
  await reply.fill("Hi Ada, I can see it: it was approved and is on its way.")
  await thread.getByRole("button", { name: "Send reply" }).click()
  await expect(messages).toContainText("Hi Ada, I can see it: it was approved and is on its way.")
  await expect(reply).toHaveValue("")

  // The player's widget shows it without a reload.
  await expect(log).toContainText("Hi Ada, I can see it: it was approved and is on its way.")

  // The player's answer reaches the open conversation and the list by the inbox's stream.
  await panel.getByLabel("Your message").fill("Thank you, that was quick.")
  await panel.getByRole("button", { name: "Send" }).click()
  await expect(messages).toContainText("Thank you, that was quick.")
  await expect(item).toContainText("Thank you, that was quick.")

  await expectAccessible(staff, testInfo, "support inbox (desktop)")
  await world.screenshot(staff, "backoffice-support-desktop")
  await staff.setViewportSize({ width: 390, height: 844 })
  await expect(messages).toBeVisible()
  await expectAccessible(staff, testInfo, "support inbox (phone)")
  await world.screenshot(staff, "backoffice-support-phone")

  // Close asks first; then the conversation leaves the open list.
  await thread.getByRole("button", { name: "Close", exact: true }).click()
  await thread.getByRole("button", { name: "Close conversation" }).click()
  await expect(thread.getByText("This conversation is closed.")).toBeVisible()
  await expect(inbox.getByRole("button", { name: /Grace Hopper/ })).toHaveCount(0)
  await staffContext.close()
})
