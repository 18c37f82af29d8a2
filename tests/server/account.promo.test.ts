/**
 * Promotional e-mail on PostgreSQL: the switch, the welcome offer (sent once, when the e-mail
 * is confirmed and promo mail accepted — in either order), its unsubscribe link and RFC 2369 /
 * RFC 8058 headers read from the .eml outbox, and unsubscribing without a session: the page's
 * DELETE, a mail client's one-click POST, idempotent, unknown ids 404, and a GET that only
 * redirects to the page.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import PostalMime from "postal-mime"
import { afterAll, beforeAll, expect, it } from "vitest"
import { ProfileMessages } from "../../services/profile-rules.ts"
import { newPlayer, type Player, PROFILE, put } from "./account-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { Browser, linkOf, USER, waitForMail } from "./users-support.ts"

const WELCOME = "Your welcome offer at Casino"

interface PromoMail {
  readonly text: string
  readonly html: string
  readonly headers: ReadonlyMap<string, string>
}

/** Every welcome mail to `to`, parsed with its headers. */
const welcomeMails = async (server: TestServer, to: string): Promise<ReadonlyArray<PromoMail>> => {
  let files: Array<string>
  try {
    files = (await readdir(server.outboxDir)).filter((f) => f.endsWith(".eml")).sort()
  } catch {
    return []
  }
  const found: Array<PromoMail> = []
  for (const file of files) {
    const mail = await PostalMime.parse(await readFile(join(server.outboxDir, file)))
    const recipients = (mail.to ?? []).map((a) => ("address" in a ? a.address : ""))
    if (!recipients.includes(to) || mail.subject !== WELCOME) continue
    found.push({
      text: mail.text ?? "",
      html: mail.html ?? "",
      headers: new Map(mail.headers.map((h) => [h.key.toLowerCase(), h.value])),
    })
  }
  return found
}

const confirm = async (server: TestServer, player: Player) => {
  const { token } = linkOf(await waitForMail(server, player.email, "Confirm your e-mail"), server)
  const res = await new Browser(server).post(`${USER}/account/confirm`, { token })
  expect(res.status).toBe(200)
}

const flag = async (server: TestServer, email: string): Promise<boolean | undefined> =>
  (
    await server.query<{ promo: boolean }>(
      "SELECT receive_email_promo AS promo FROM users WHERE email = $1",
      [email],
    )
  )[0]?.promo

describeOn("postgres", "promotional e-mail", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
  })
  afterAll(() => server?.close())

  it("the switch sets the flag (a retry is harmless) and needs a session", async () => {
    const player = await newPlayer(server, "promo-switch")
    for (const value of [true, true, false]) {
      const res = await put(player.browser, `${PROFILE}/profile/receive-email`, { receiveEmailPromo: value })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ receiveEmailPromo: value })
      expect(await flag(server, player.email)).toBe(value)
    }
    expect((await player.browser.get(`${PROFILE}/profile`)).body).toMatchObject({
      receiveEmailPromo: false,
      userDetails: { receiveEmailPromo: false },
    })
    const anonymous = await new Browser(server).call("PUT", `${PROFILE}/profile/receive-email`, {
      receiveEmailPromo: true,
    })
    expect(anonymous.status).toBe(401)
  })

  it("welcome offer at confirmation, with its unsubscribe link and headers; the link works without a session, idempotently", async () => {
    const player = await newPlayer(server, "promo-welcome")
    expect(
      (await put(player.browser, `${PROFILE}/profile/receive-email`, { receiveEmailPromo: true })).status,
    ).toBe(200)
    // Not confirmed yet: no promotion.
    expect(await welcomeMails(server, player.email)).toHaveLength(0)
    await confirm(server, player)
    const [mail] = await welcomeMails(server, player.email)
    expect(mail).toBeDefined()
    if (mail === undefined) return

    const header = mail.headers.get("list-unsubscribe") ?? ""
    const api = new RegExp(
      `^<${server.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${PROFILE}/profile/unsubscribe/([A-Za-z0-9_-]{43})>$`,
    ).exec(header)
    expect(api, header).not.toBeNull()
    const id = api?.[1] ?? ""
    expect(mail.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click")
    const page = `${server.url}/unsubscribe/${id}`
    expect(mail.text).toContain(page)
    expect(mail.html).toContain(`href="${page}"`)
    // Only the hash of the id is stored.
    const stored = await server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM unsubscribe_links WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')",
      [id],
    )
    expect(stored).toEqual([{ n: 1 }])
    expect(await server.query("SELECT 1 FROM unsubscribe_links WHERE token_hash = $1", [id])).toHaveLength(0)

    // A GET (a mail client opening the header's address, a link scanner) only redirects to the page.
    const peek = await fetch(`${server.url}${PROFILE}/profile/unsubscribe/${id}`, { redirect: "manual" })
    expect(peek.status).toBe(303)
    expect(peek.headers.get("location")).toBe(page)
    expect(await flag(server, player.email)).toBe(true)

    // The page's DELETE, with no cookie at all.
    const first = await fetch(`${server.url}${PROFILE}/profile/unsubscribe/${id}`, { method: "DELETE" })
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ message: ProfileMessages.unsubscribed, email: player.email })
    expect(await flag(server, player.email)).toBe(false)
    const again = await fetch(`${server.url}${PROFILE}/profile/unsubscribe/${id}`, { method: "DELETE" })
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({ message: ProfileMessages.unsubscribed, email: player.email })

    // Subscribed again, then a mail client's RFC 8058 one-click POST.
    await put(player.browser, `${PROFILE}/profile/receive-email`, { receiveEmailPromo: true })
    const oneClick = await fetch(`${server.url}${PROFILE}/profile/unsubscribe/${id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    })
    expect(oneClick.status).toBe(200)
    expect(await flag(server, player.email)).toBe(false)

    // The welcome offer went out once, whatever the switch did afterwards.
    await put(player.browser, `${PROFILE}/profile/receive-email`, { receiveEmailPromo: true })
    expect(await welcomeMails(server, player.email)).toHaveLength(1)
  })

  it("welcome offer when a confirmed player switches promo mail on later (also through PUT /profile)", async () => {
    const player = await newPlayer(server, "promo-later")
    await confirm(server, player)
    expect(await welcomeMails(server, player.email)).toHaveLength(0)
    const res = await put(player.browser, `${PROFILE}/profile`, { receiveEmailPromo: true })
    expect(res.status).toBe(200)
    expect(await welcomeMails(server, player.email)).toHaveLength(1)
  })

  it("unknown or malformed ids are 404 UnsubscribeLinkInvalid and change nothing", async () => {
    for (const id of ["A".repeat(43), "short", "..%2F..%2Fetc"]) {
      const res = await fetch(`${server.url}${PROFILE}/profile/unsubscribe/${id}`, { method: "DELETE" })
      expect(res.status, id).toBe(404)
      expect(await res.json()).toMatchObject({ _tag: "UnsubscribeLinkInvalid" })
    }
    const tooLong = await fetch(`${server.url}${PROFILE}/profile/unsubscribe/${"a".repeat(129)}`, {
      method: "DELETE",
    })
    // Longer than any id (and than the router takes for one path segment): nothing there.
    expect(tooLong.status).toBe(404)
    expect(await tooLong.json()).toMatchObject({ error: "NotFound" })
  })
})
