/**
 * The server's mail outbox (MAIL_OUTBOX_DIR): every message is an .eml file, parsed here with
 * postal-mime. Tests wait for the message a flow sends and follow the link inside it.
 */
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import PostalMime from "postal-mime"

export interface OutboxMail {
  readonly file: string
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
  readonly html: string
  /** Every http(s) URL in the message (text part and hrefs), in order, without duplicates. */
  readonly links: ReadonlyArray<string>
}

const decodeEntities = (s: string): string =>
  s
    .replace(/&amp;/g, "&")
    .replace(/&#x3D;/gi, "=")
    .replace(/&#61;/g, "=")
    .replace(/&quot;/g, '"')

export const linksIn = (text: string, html: string): Array<string> => {
  const found = [
    ...[...text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)].map((m) => m[0]),
    ...[...html.matchAll(/href="(https?:\/\/[^"]+)"/g)].map((m) => decodeEntities(m[1] ?? "")),
  ]
  return [...new Set(found)]
}

const parseMail = async (file: string): Promise<OutboxMail> => {
  const parsed = await PostalMime.parse(await readFile(file))
  const text = parsed.text ?? ""
  const html = parsed.html ?? ""
  return {
    file,
    to: (parsed.to ?? []).flatMap((a) =>
      "address" in a && typeof a.address === "string" ? [a.address] : [],
    ),
    subject: parsed.subject ?? "",
    text,
    html,
    links: linksIn(text, html),
  }
}

// The mailer renames a finished message into place, so an .eml file never changes once listed:
// each is parsed once per worker, not on every poll (the outbox grows to hundreds of messages
// over a run, and re-parsing them all every 200 ms cost the shared cores real time).
const parsedMails = new Map<string, Promise<OutboxMail>>()

export const readOutbox = async (dir: string): Promise<Array<OutboxMail>> => {
  let names: Array<string>
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".eml")).sort()
  } catch {
    return []
  }
  return Promise.all(
    names.map((name) => {
      const file = join(dir, name)
      const known = parsedMails.get(file)
      if (known !== undefined) return known
      const parsing = parseMail(file)
      parsedMails.set(file, parsing)
      parsing.catch(() => parsedMails.delete(file))
      return parsing
    }),
  )
}

/** Waits for the newest message to `to` matching `predicate`, ignoring the files listed in `seen`. */
export const waitForMail = async (
  dir: string,
  to: string,
  predicate: (mail: OutboxMail) => boolean = () => true,
  options: { readonly timeoutMs?: number; readonly seen?: ReadonlySet<string> } = {},
): Promise<OutboxMail> => {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000)
  for (;;) {
    const mails = (await readOutbox(dir)).filter(
      (m) =>
        m.to.some((a) => a.toLowerCase() === to.toLowerCase()) &&
        !(options.seen?.has(m.file) ?? false) &&
        predicate(m),
    )
    const newest = mails.at(-1)
    if (newest !== undefined) return newest
    if (Date.now() > deadline) {
      const all = await readOutbox(dir)
      throw new Error(
        `no mail to ${to} arrived within ${options.timeoutMs ?? 20_000} ms; outbox has: ${all
          .map((m) => `${m.to.join(",")}: ${m.subject}`)
          .join(" | ")}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** The first link of the mail whose URL carries a `token` query parameter. */
export const tokenLink = (mail: OutboxMail): URL => {
  for (const link of mail.links) {
    const url = new URL(link)
    if (url.searchParams.get("token") !== null) return url
  }
  throw new Error(`no link with a token in "${mail.subject}": ${mail.links.join(", ")}`)
}
