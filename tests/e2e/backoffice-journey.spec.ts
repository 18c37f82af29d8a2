/**
 * The casino team and a player in Chromium against the real server, each in their own browser:
 * - an admin (from the command line) creates a KYC officer and a payments officer in the Operators
 *   screen, reading each one-time password off the page; a player registers, deposits 30 EUR by
 *   card through the sandbox and uploads an identity document (an image) and a proof of address (a
 *   PDF); the KYC officer approves both from the KYC queue with the preview open; the player's
 *   Verification tab says verified and both e-mails arrive; the player cashes out 12.50 EUR to a bank
 *   e-mail; the payments officer reads the risk context beside it and approves after confirming; the
 *   player's withdrawals list follows until "Paid" (the sandbox provider pays);
 * - axe-core on both queue screens, with an item chosen, at 1280×800 and 390×844 (the same steps
 *   arranged faster: the approvals through the API with a KYC token, which the journey covers in the UI).
 * Screenshots go to test-results/screenshots/bo-journey-*.png.
 */
import { deflateSync } from "node:zlib"
import type { Browser, Locator, Page } from "@playwright/test"
import { expectAccessible, VIEWPORTS } from "./support/a11y.ts"
import {
  addOperatorByCommand,
  approveDocuments,
  type Staff,
  signInToBackoffice,
} from "./support/backoffice.ts"
import { balance, banner, depositThirtyByCard, newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { expect, test, type World } from "./support/fixtures.ts"
import { dismissToasts, signUpInPage } from "./support/ui.ts"

// ── A real image to preview: a PNG drawn here (the server accepts files by their signature) ──

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

const crc32 = (bytes: Buffer): number => {
  let c = 0xffffffff
  for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

const chunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, "ascii"), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A 240×150 RGB PNG that looks a little like an ID card: a pale card, a photo box, lines of text. */
const idCardPng = (): Buffer => {
  const width = 240
  const height = 150
  const rows: Array<Buffer> = []
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3)
    for (let x = 0; x < width; x++) {
      const photo = x >= 16 && x < 86 && y >= 30 && y < 120
      const line = x >= 100 && x < 220 && (y % 22 === 40 % 22 || y % 22 === 41 % 22) && y >= 40 && y < 120
      const band = y < 20
      const [r, g, b] = band ? [40, 70, 140] : photo ? [150, 160, 180] : line ? [60, 60, 70] : [235, 238, 245]
      row[1 + x * 3] = r ?? 0
      row[2 + x * 3] = g ?? 0
      row[3 + x * 3] = b ?? 0
    }
    rows.push(row)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ])
}

const identityFile = { name: "passport.png", mimeType: "image/png", buffer: idCardPng() }
const addressFile = {
  name: "utility-bill.pdf",
  mimeType: "application/pdf",
  buffer: Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"),
}

// ── The player's side ──

const cashoutDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Cash out" })

/** Both documents uploaded in the Verification tab: both waiting for review. */
const uploadDocuments = async (page: Page): Promise<void> => {
  await page.goto("/profile/verification")
  const identity = page.getByRole("region", { name: "Identity document" })
  const address = page.getByRole("region", { name: "Proof of address" })
  await identity.getByLabel(/Choose a file/).setInputFiles(identityFile)
  await identity.getByRole("button", { name: "Upload" }).click()
  await expect(identity.getByText("Waiting for review").first()).toBeVisible()
  await address.getByLabel(/Choose a file/).setInputFiles(addressFile)
  await address.getByRole("button", { name: "Upload" }).click()
  await expect(address.getByText("Waiting for review").first()).toBeVisible()
}

/** The header's Cash out, an amount, the Bank Account tab, an e-mail: sent, the modal gone. */
const cashOutToBank = async (page: Page, amount: string): Promise<void> => {
  await page.goto("/")
  await dismissToasts(page)
  await banner(page).getByRole("button", { name: "Cash out" }).click()
  const amountForm = cashoutDialog(page).getByRole("form", { name: "Cash out amount" })
  await expect(amountForm.getByLabel("Amount")).not.toHaveValue("")
  await amountForm.getByLabel("Amount").fill(amount)
  await amountForm.getByRole("button", { name: "Continue" }).click()
  const fiatForm = cashoutDialog(page).getByRole("form", { name: "Cash out to" })
  await fiatForm.getByRole("tab", { name: "Bank Account" }).click()
  await fiatForm.getByLabel(/E-mail/).fill("mary@bank.example")
  await fiatForm.getByRole("button", { name: "Cash out" }).click()
  await expect(page.getByText("Cash out request has been sent!", { exact: true }).first()).toBeVisible()
  await expect(cashoutDialog(page)).toHaveCount(0)
}

// ── The back office's side ──

/** An operator created by the admin in the Operators screen; the one-time password read off the page. */
const createOperator = async (admin: Page, world: World, name: string, role: string): Promise<Staff> => {
  const email = world.uniqueEmail(`bo-${role}`)
  const form = admin.getByRole("region", { name: "New operator" })
  await form.getByLabel("Name").fill(name)
  await form.getByLabel("E-mail").fill(email)
  await form.getByLabel("Role").selectOption(role)
  await form.getByRole("button", { name: "Create" }).click()
  const created = form.getByRole("status")
  await expect(created).toContainText(`${name} (${email}) can sign in as ${role}.`)
  const password = (await created.locator("code").innerText()).trim()
  expect(password.length).toBeGreaterThanOrEqual(20)
  // The one-time password stays until the admin hides it (it is shown only here).
  await created.getByRole("button", { name: "Done, hide it" }).click()
  await expect(created).toHaveCount(0)
  return { email, password, secret: null, lastStep: 0 }
}

/** A browser of the operator's own, signed in on `path`. */
const staffBrowser = async (browser: Browser, world: World, staff: Staff, path: string): Promise<Page> => {
  const context = await browser.newContext({ baseURL: world.baseUrl, viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await signInToBackoffice(page, staff, path)
  return page
}

/** The queue's row of this player (other tests share the queues) whose text matches `what`. */
const queueRow = (page: Page, email: string, what: string | RegExp): Locator =>
  page.getByRole("table").first().getByRole("row").filter({ hasText: email }).filter({ hasText: what })

const imageDrawn = (image: Locator): Promise<boolean> =>
  image.evaluate(
    (element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0,
  )

test("KYC officer approves a player's documents, the player cashes out, the payments officer approves it", async ({
  page,
  browser,
  world,
}) => {
  test.setTimeout(300_000)
  await page.setViewportSize({ width: 1280, height: 800 })

  // ── The admin creates the two officers ──
  const adminStaff = await addOperatorByCommand(world, "admin", "Ada Admin")
  const admin = await staffBrowser(browser, world, adminStaff, "/backoffice/operators")
  await expect(admin.getByRole("heading", { name: "Operators", level: 1 })).toBeVisible()
  const kycStaff = await createOperator(admin, world, "Kim Officer", "kyc")
  const paymentsStaff = await createOperator(admin, world, "Pat Payments", "payments")
  await world.screenshot(admin, "bo-journey-01-operators")
  await admin.context().close()

  // ── The player registers, deposits, uploads both documents ──
  const player = {
    fullName: "Mary Jackson",
    email: world.uniqueEmail("bo-journey"),
    password: "wind tunnel 1958 langley",
    currency: "EUR",
  }
  await signUpInPage(page, player)
  await depositThirtyByCard(page)
  await uploadDocuments(page)

  // ── The KYC officer approves both from the queue, the preview open ──
  const kyc = await staffBrowser(browser, world, kycStaff, "/backoffice/kyc")
  await expect(kyc.getByRole("heading", { name: "KYC queue", level: 1 })).toBeVisible()
  // The admin's screens are not in this role's menu.
  await expect(
    kyc
      .getByRole("navigation", { name: "Back office", exact: true })
      .getByRole("link", { name: "Operators" }),
  ).toHaveCount(0)
  const identityRow = queueRow(kyc, player.email, "Identity document")
  const addressRow = queueRow(kyc, player.email, "Proof of address")
  await expect(identityRow).toHaveCount(1)
  await expect(addressRow).toHaveCount(1)

  await identityRow.getByRole("button", { name: /^Review/ }).click()
  const review = kyc.getByRole("region", { name: "Identity document of Mary Jackson" })
  const preview = review.getByRole("img", { name: "Identity document uploaded by Mary Jackson" })
  await expect(preview).toBeVisible()
  await expect.poll(() => imageDrawn(preview)).toBe(true)
  await expect(review).toContainText(player.email)
  await expect(review).toContainText("passport.png")
  await world.screenshot(kyc, "bo-journey-02-kyc-identity")
  await review.getByRole("button", { name: "Approve" }).click()
  await expect(
    kyc.getByRole("status").filter({ hasText: "Approved: Identity document of Mary Jackson." }),
  ).toBeVisible()
  await expect(identityRow).toHaveCount(0)

  await addressRow.getByRole("button", { name: /^Review/ }).click()
  const addressReview = kyc.getByRole("region", { name: "Proof of address of Mary Jackson" })
  const pdfLink = addressReview.getByRole("link", { name: "Open the PDF (utility-bill.pdf)" })
  await expect(pdfLink).toBeVisible()
  // The link opens the stored file itself: the officer's cookie goes with it.
  const pdf = await kyc.request.get((await pdfLink.getAttribute("href")) ?? "")
  expect(pdf.status()).toBe(200)
  expect(pdf.headers()["content-type"]).toBe("application/pdf")
  await world.screenshot(kyc, "bo-journey-03-kyc-address")
  await addressReview.getByRole("button", { name: "Approve" }).click()
  await expect(
    kyc.getByRole("status").filter({ hasText: "Approved: Proof of address of Mary Jackson." }),
  ).toBeVisible()
  await expect(addressRow).toHaveCount(0)
  await kyc.context().close()

  // ── The player is verified, and told so by e-mail ──
  await page.goto("/profile/verification")
  await expect(page.getByRole("status").filter({ hasText: "Verified." })).toBeVisible()
  await expect(
    page.getByRole("region", { name: "Identity document" }).getByText("Approved").first(),
  ).toBeVisible()
  await expect(
    page.getByRole("region", { name: "Proof of address" }).getByText("Approved").first(),
  ).toBeVisible()
  const idMail = await world.mailTo(player.email, (m) => m.subject === "Your identity document is approved")
  expect(idMail.links.some((l) => l.endsWith("/profile/verification"))).toBe(true)
  await world.mailTo(player.email, (m) => m.subject === "Your proof of address is approved")

  // ── The player cashes out 12.50 EUR to a bank e-mail ──
  await cashOutToBank(page, "12.50")
  await expect(balance(page)).toContainText("17.50")
  await page.goto("/profile/withdrawals")
  const item = page.getByRole("list", { name: "Withdrawals" }).getByRole("listitem").first()
  await expect(item.getByTestId("withdrawal-status")).toHaveText("Requested")

  // ── The payments officer reads the risk context and approves ──
  const payments = await staffBrowser(browser, world, paymentsStaff, "/backoffice/withdrawals")
  await expect(payments.getByRole("heading", { name: "Withdrawals", level: 1 })).toBeVisible()
  const row = queueRow(payments, player.email, "12.50 EUR")
  await expect(row).toHaveCount(1)
  await expect(row).toContainText("Bank account")
  await expect(row).toContainText("mary@bank.example")
  await row.getByRole("button", { name: /^Review/ }).click()
  const detail = payments.getByRole("region", { name: "Withdrawal of 12.50 EUR" })
  await expect(detail.getByRole("heading", { name: "Risk context" })).toBeVisible()
  const totals = detail.getByRole("table", { name: "Deposits against paid withdrawals per currency" })
  await expect(totals.getByRole("row", { name: /EUR/ })).toContainText("30.00 EUR")
  await expect(totals.getByRole("row", { name: /EUR/ })).toContainText("1 deposit")
  await expect(detail.getByText("Verified", { exact: true })).toBeVisible()
  await expect(detail).toContainText("0 days")
  await expect(detail).toContainText("No active bonus.")
  await world.screenshot(payments, "bo-journey-04-withdrawal-risk")

  await detail.getByRole("button", { name: "Approve…" }).click()
  const confirm = detail.getByRole("group", { name: "Confirm approval" })
  await expect(confirm).toContainText("Approve 12.50 EUR by Bank account to mary@bank.example?")
  await confirm.getByRole("button", { name: "Confirm: approve 12.50 EUR" }).click()
  await expect(detail.getByRole("status").filter({ hasText: "Approved." })).toBeVisible()
  await expect(row).toHaveCount(0)
  // The status (the first fact) moved on; the sandbox may have paid already.
  await expect(detail.getByRole("definition").first()).toHaveText(/^(Approved|Sent|Paid)$/)
  await world.screenshot(payments, "bo-journey-05-withdrawal-approved")
  await payments.context().close()

  // ── The player's list follows: approved, then paid by the sandbox provider ──
  await expect(item.getByTestId("withdrawal-status")).toHaveText("Paid", { timeout: 60_000 })
  await expect(item.getByRole("list", { name: "Timeline" })).toContainText("Approved")
  await world.screenshot(page, "bo-journey-06-player-paid")
})

test("both queue screens pass axe at desktop and phone width, with an item chosen", async ({
  page,
  browser,
  world,
}, testInfo) => {
  test.setTimeout(300_000)
  await page.setViewportSize({ width: 1280, height: 800 })
  const player = await signedInThroughApi(page, world, newPlayer(world, "bo-axe", "Dorothy Vaughan"))
  await depositThirtyByCard(page)
  await uploadDocuments(page)

  const adminStaff = await addOperatorByCommand(world, "admin", "Axe Admin")
  const admin = await staffBrowser(browser, world, adminStaff, "/backoffice/kyc")

  // ── KYC queue with this player's documents; the image chosen ──
  await queueRow(admin, player.email, "Identity document")
    .getByRole("button", { name: /^Review/ })
    .click()
  const preview = admin.getByRole("img", { name: "Identity document uploaded by Dorothy Vaughan" })
  await expect(preview).toBeVisible()
  await expect.poll(() => imageDrawn(preview)).toBe(true)
  for (const viewport of VIEWPORTS) {
    await admin.setViewportSize({ width: viewport.width, height: viewport.height })
    await expectAccessible(admin, testInfo, `backoffice kyc ${viewport.name}`)
    // Nothing widens the page: only the tables scroll sideways.
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    )
    await world.screenshot(admin, `bo-journey-kyc-${viewport.name}`)
  }
  // The reject form (its reason field) passes too.
  await admin.getByRole("button", { name: "Reject…" }).click()
  await expect(admin.getByLabel("Reason (the player reads it)")).toBeVisible()
  await expectAccessible(admin, testInfo, "backoffice kyc reject form mobile")

  // ── The approvals through the API with a KYC token (the journey covers the screen), then a cashout ──
  await approveDocuments(world, player.email)
  await cashOutToBank(page, "10.00")

  // ── Withdrawals queue with it; chosen, its risk context and the confirmation open ──
  await admin.setViewportSize({ width: 1280, height: 800 })
  await admin.goto("/backoffice/withdrawals")
  await queueRow(admin, player.email, "10.00 EUR")
    .getByRole("button", { name: /^Review/ })
    .click()
  const detail = admin.getByRole("region", { name: "Withdrawal of 10.00 EUR" })
  await expect(detail.getByRole("heading", { name: "Risk context" })).toBeVisible()
  await detail.getByRole("button", { name: "Approve…" }).click()
  await expect(detail.getByRole("group", { name: "Confirm approval" })).toBeVisible()
  for (const viewport of VIEWPORTS) {
    await admin.setViewportSize({ width: viewport.width, height: viewport.height })
    await expectAccessible(admin, testInfo, `backoffice withdrawals ${viewport.name}`)
    // Nothing widens the page: only the tables scroll sideways.
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    )
    await world.screenshot(admin, `bo-journey-withdrawals-${viewport.name}`)
  }
  await admin.context().close()
})
