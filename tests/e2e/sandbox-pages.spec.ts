/**
 * The payment sandbox's pages in Chromium, the sandbox running beside the casino on its own port
 * (every gateway of the casino points at it): a registered player with a complete profile starts a
 * deposit through the API, and the test opens the page the answer names, as the casino's payment
 * frame would. Every page wears the "Sandbox" mark, clear of the form. A card number failing Luhn is
 * refused inline and announced; a 3-D Secure card asks for the code on the same document and, with
 * 1234, the page navigates to the casino's returnUrl (the webhook then credits the deposit); axe
 * finds nothing serious on the card page nor on Skrill's.
 */
import type { APIRequestContext, Locator, Page } from "@playwright/test"
import { API } from "./bindings/common.ts"
import { expectAccessible } from "./support/a11y.ts"
import { registerPlayer, solvedCaptcha } from "./support/api.ts"
import { expect, test, type World } from "./support/fixtures.ts"
import { paymentSandboxUrl } from "./support/payments.ts"

const PROFILE = "/profile-service/api/v1"

const completeProfile = {
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

interface DepositAnswer {
  readonly depositId: string
  readonly redirectUrl: string | null
}

const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, "0")

/** A new player, signed in on `request` (the page's own cookie jar), with a complete profile. */
const signedInPlayer = async (world: World, request: APIRequestContext, tag: string): Promise<void> => {
  const player = {
    fullName: "Ada Lovelace",
    email: world.uniqueEmail(tag),
    password: "analytical engine 1843",
    currency: "EUR",
  }
  await registerPlayer(world.baseUrl, player)
  const headers = { origin: world.baseUrl }
  const signin = await request.post(`${world.baseUrl}${API}/signin`, {
    data: { email: player.email, password: player.password, captcha: await solvedCaptcha(world.baseUrl) },
    headers,
  })
  expect(signin.status()).toBe(200)
  const profile = await request.put(`${world.baseUrl}${PROFILE}/profile`, { data: completeProfile, headers })
  expect(profile.status(), await profile.text()).toBe(200)
}

const startDeposit = async (
  world: World,
  request: APIRequestContext,
  path: string,
  payload: Record<string, unknown>,
): Promise<DepositAnswer> => {
  const res = await request.post(`${world.baseUrl}${PROFILE}/profile/${path}`, {
    data: { language: "en", currency: "EUR", ...payload },
    headers: { origin: world.baseUrl },
  })
  expect(res.status(), await res.text()).toBe(200)
  const answer = (await res.json()) as DepositAnswer
  expect(answer.redirectUrl).not.toBeNull()
  // The sandbox's own origin, not the casino's.
  expect(answer.redirectUrl?.startsWith(`${paymentSandboxUrl()}/sandbox-pay/`)).toBe(true)
  return answer
}

/** The "Sandbox" mark: visible, readable, and clear of `content` (it covers none of it). */
const expectSandboxMark = async (page: Page, content: Locator): Promise<void> => {
  const mark = page.getByRole("complementary", { name: /^Sandbox/ })
  await expect(mark).toBeVisible()
  await expect(mark).toHaveText("Sandbox")
  expect(await mark.evaluate((el) => getComputedStyle(el).position)).toBe("fixed")
  const a = await mark.boundingBox()
  const b = await content.boundingBox()
  if (a === null || b === null) throw new Error("no box for the mark or the content")
  const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
  expect(overlap, `mark ${JSON.stringify(a)} over ${JSON.stringify(b)}`).toBe(false)
}

const cardForm = (page: Page) => page.locator("form#card")

const fillCard = async (page: Page, number: string): Promise<void> => {
  const form = cardForm(page)
  await form.getByLabel("Name on the card").fill("Ada Lovelace")
  await form.getByLabel("Card number").fill(number)
  await form.getByLabel("Expiry (MM/YY)").fill(`12/${nextYear}`)
  await form.getByLabel("Security code (CVC)").fill("123")
}

/** The deposit's status in the player's fiat history. */
const depositStatus = async (request: APIRequestContext, world: World, depositId: string) => {
  const res = await request.get(`${world.baseUrl}${PROFILE}/profile/fiat/deposit`)
  const rows = (await res.json()) as ReadonlyArray<{ id: string; status: string }>
  return rows.find((r) => r.id === depositId)?.status
}

test("a card number failing Luhn is refused inline and announced; nothing is decided", async ({
  page,
  world,
}, testInfo) => {
  await signedInPlayer(world, page.request, "sbx-luhn")
  const answer = await startDeposit(world, page.request, "ikajo/deposit", { amount: "3000" })
  const errors: Array<string> = []
  page.on("console", (m) => {
    // The refused form's 422 is the page's designed answer (its JSON carries the field errors).
    if (m.type() === "error" && !m.text().includes("status of 422")) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(e.message))
  await page.goto(answer.redirectUrl ?? "")
  await expect(page.getByRole("heading", { name: "Pay by card" })).toBeVisible()
  await expect(page.locator("p.amount")).toHaveText("30.00 EUR")
  await expectSandboxMark(page, page.locator("main"))
  await world.screenshot(page, "sandbox-card-page")
  await expectAccessible(page, testInfo, "sandbox card page")

  await fillCard(page, "4242 4242 4242 4241")
  await cardForm(page).getByRole("button", { name: "Pay 30.00 EUR" }).click()
  const number = cardForm(page).getByLabel("Card number")
  await expect(number).toHaveAttribute("aria-invalid", "true")
  await expect(number).toBeFocused()
  // The message beside the input is its accessible description; the summary is a live alert.
  await expect(number).toHaveAccessibleDescription("This card number is not valid.")
  await expect(cardForm(page).getByRole("alert")).toHaveText("Please correct the highlighted fields.")
  await expect(cardForm(page).getByLabel("Expiry (MM/YY)")).not.toHaveAttribute("aria-invalid", "true")
  await world.screenshot(page, "sandbox-card-page-luhn-error")
  // As in the casino's payment frame on a phone.
  await page.setViewportSize({ width: 390, height: 844 })
  await expectSandboxMark(page, page.locator("main"))
  await world.screenshot(page, "sandbox-card-page-luhn-error-mobile")
  await expectAccessible(page, testInfo, "sandbox card page with an error")
  // Still the same document, still payable: the refusal decided nothing.
  expect(page.url()).toBe(answer.redirectUrl)
  expect(await depositStatus(page.request, world, answer.depositId)).toBe("initiated")
  expect(errors, "no script or CSP error on the page").toEqual([])
})

test("3-D Secure: the challenge on the same page, code 1234, then the casino's returnUrl; credited", async ({
  page,
  world,
}) => {
  await signedInPlayer(world, page.request, "sbx-3ds")
  const answer = await startDeposit(world, page.request, "payweb/deposit", { amount: "7500" })
  const documents: Array<string> = []
  page.on("framenavigated", (f) => {
    if (f === page.mainFrame()) documents.push(f.url())
  })
  await page.goto(answer.redirectUrl ?? "")
  await fillCard(page, "4000 0000 0000 3220")
  await cardForm(page).getByRole("button", { name: "Pay 75.00 EUR" }).click()

  const heading = page.getByRole("heading", { name: "3-D Secure check" })
  await expect(heading).toBeVisible()
  await expect(heading).toBeFocused()
  await expect(page.getByRole("heading", { name: "Pay by card" })).toBeHidden()
  await expect(page.getByText("card ending 3220")).toBeVisible()
  await expectSandboxMark(page, page.locator("main"))
  await world.screenshot(page, "sandbox-3ds-step")
  // One document so far: the challenge came in place.
  expect(documents).toEqual([answer.redirectUrl])

  await page.locator("form#challenge").getByLabel("Confirmation code").fill("1234")
  await page.locator("form#challenge").getByRole("button", { name: "Confirm" }).click()
  await page.waitForURL(`**/api/payments/return?deposit=${answer.depositId}`)
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible()
  expect(documents).toHaveLength(2)

  await expect
    .poll(() => depositStatus(page.request, world, answer.depositId), { timeout: 20_000 })
    .toBe("completed")
  const fund = await page.request.get(`${world.baseUrl}${PROFILE}/profile/currency`)
  expect(await fund.json()).toMatchObject([{ currency: "EUR", balance: "7500" }])
})

test("framed by the casino's page (its CSP lets the sandbox's origin in, the sandbox's lets the casino frame it): pay, then the return page in the frame", async ({
  page,
  world,
}) => {
  await signedInPlayer(world, page.request, "sbx-frame")
  const answer = await startDeposit(world, page.request, "ikajo/deposit", { amount: "3000" })
  const blocked: Array<string> = []
  page.on("console", (m) => {
    if (/Refused|frame-ancestors|X-Frame-Options/i.test(m.text())) blocked.push(m.text())
  })
  await page.goto("/")
  // What the deposit's payment frame does: an iframe on the app's page at the answer's redirectUrl.
  await page.evaluate((src) => {
    const frame = document.createElement("iframe")
    frame.id = "payment-frame"
    frame.title = "Payment"
    frame.src = src
    frame.style.cssText = "position:fixed;inset:40px;width:480px;height:640px;z-index:99999;background:#fff"
    document.body.append(frame)
  }, answer.redirectUrl ?? "")
  const frame = page.frameLocator("#payment-frame")
  await expect(frame.getByRole("heading", { name: "Pay by card" })).toBeVisible()
  await expect(frame.getByRole("complementary", { name: /^Sandbox/ })).toHaveText("Sandbox")
  await frame.getByLabel("Name on the card").fill("Ada Lovelace")
  await frame.getByLabel("Card number").fill("4242 4242 4242 4242")
  await frame.getByLabel("Expiry (MM/YY)").fill(`12/${nextYear}`)
  await frame.getByLabel("Security code (CVC)").fill("123")
  await frame.getByRole("button", { name: "Pay 30.00 EUR" }).click()
  await expect(frame.getByRole("heading", { name: "Payment received" })).toBeVisible()
  expect(blocked).toEqual([])
  await expect
    .poll(() => depositStatus(page.request, world, answer.depositId), { timeout: 20_000 })
    .toBe("completed")
})

test("without script the same forms post as documents: 3-D Secure as its own page, then the returnUrl", async ({
  browser,
  page,
  world,
}) => {
  await signedInPlayer(world, page.request, "sbx-noscript")
  const answer = await startDeposit(world, page.request, "payweb/deposit", { amount: "3000" })
  const context = await browser.newContext({ javaScriptEnabled: false })
  try {
    const plain = await context.newPage()
    await plain.goto(answer.redirectUrl ?? "")
    const form = plain.locator("form#card")
    await form.getByLabel("Name on the card").fill("Ada Lovelace")
    await form.getByLabel("Card number").fill("4000 0000 0000 3220")
    await form.getByLabel("Expiry (MM/YY)").fill(`12/${nextYear}`)
    await form.getByLabel("Security code (CVC)").fill("123")
    await form.getByRole("button", { name: "Pay 30.00 EUR" }).click()
    await expect(plain.getByRole("heading", { name: "3-D Secure check" })).toBeVisible()
    await plain.locator("form#challenge").getByLabel("Confirmation code").fill("1234")
    await plain.locator("form#challenge").getByRole("button", { name: "Confirm" }).click()
    await plain.waitForURL(`**/api/payments/return?deposit=${answer.depositId}`)
    await expect(plain.getByRole("heading", { name: "Payment received" })).toBeVisible()
  } finally {
    await context.close()
  }
  await expect
    .poll(() => depositStatus(page.request, world, answer.depositId), { timeout: 20_000 })
    .toBe("completed")
})

test("Skrill's page: accessible at sign-in and at approval, and approving credits", async ({
  page,
  world,
}, testInfo) => {
  await signedInPlayer(world, page.request, "sbx-skrill")
  const answer = await startDeposit(world, page.request, "skrill/deposit", { amount: "4000" })
  await page.goto(answer.redirectUrl ?? "")
  await expect(page.getByRole("heading", { name: "Sign in to Skrill" })).toBeVisible()
  await expectSandboxMark(page, page.locator("main"))
  await world.screenshot(page, "sandbox-skrill-sign-in")
  await expectAccessible(page, testInfo, "sandbox Skrill sign-in")

  const signIn = page.locator("form#sign-in")
  await signIn.getByRole("button", { name: "Sign in" }).click()
  await expect(signIn.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true")
  await expect(signIn.getByLabel("E-mail")).toHaveAccessibleDescription("Enter your e-mail.")
  await expect(signIn.getByLabel("Password")).toHaveAccessibleDescription("Enter your password.")

  await signIn.getByLabel("E-mail").fill("payer@wallet.example")
  await signIn.getByLabel("Password").fill("secret")
  await signIn.getByRole("button", { name: "Sign in" }).click()
  await expect(page.getByRole("heading", { name: "Approve the payment" })).toBeFocused()
  await expect(page.getByText("payer@wallet.example")).toBeVisible()
  await world.screenshot(page, "sandbox-skrill-approve")
  await expectAccessible(page, testInfo, "sandbox Skrill approval")

  await page.getByRole("button", { name: "Approve 40.00 EUR" }).click()
  await page.waitForURL(`**/api/payments/return?deposit=${answer.depositId}`)
  await expect
    .poll(() => depositStatus(page.request, world, answer.depositId), { timeout: 20_000 })
    .toBe("completed")
})
