/**
 * Outgoing mail. With `SMTP_URL` set, messages go through nodemailer's SMTP transport; otherwise
 * each message is rendered to RFC 822 (CRLF) and written as an `.eml` file into `MAIL_OUTBOX_DIR`,
 * named `<UTC time>-<sequence>-<recipient>.eml` so a directory listing sorts by time.
 */
import { mkdir, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Context, Effect, Layer, Schema } from "effect"
import { createTransport } from "nodemailer"
import { AppConfig } from "../config.ts"

export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html: string
  /** Extra header fields, e.g. `List-Unsubscribe` on promotional mail. */
  readonly headers?: Readonly<Record<string, string>>
}

export class MailError extends Schema.TaggedError<MailError>()("MailError", {
  message: Schema.String,
  cause: Schema.Defect(),
}) {}

export interface MailerShape {
  readonly send: (message: MailMessage) => Effect.Effect<void, MailError>
}

/** A file-name-safe rendering of an address: letters, digits, `.`, `_`, `-`, `@`, `+`. */
export const safeAddress = (address: string): string =>
  address.replace(/[^A-Za-z0-9._@+-]/g, "_").slice(0, 120)

const make = Effect.gen(function* () {
  const config = yield* AppConfig
  const smtpUrl = config.smtpUrl
  let sequence = 0

  if (smtpUrl !== undefined) {
    const transport = createTransport(smtpUrl)
    yield* Effect.addFinalizer(() => Effect.sync(() => transport.close()))
    const send = Effect.fn("Mailer.send")((message: MailMessage) =>
      Effect.tryPromise({
        try: () => transport.sendMail({ from: config.mailFrom, ...message, headers: { ...message.headers } }),
        catch: (cause) => new MailError({ message: `SMTP delivery to ${message.to} failed`, cause }),
      }).pipe(Effect.asVoid),
    )
    return { send } satisfies MailerShape
  }

  const outbox = config.mailOutboxDir
  const render = createTransport({ streamTransport: true, buffer: true, newline: "windows" })
  const send = Effect.fn("Mailer.send")((message: MailMessage) =>
    Effect.tryPromise({
      try: async () => {
        const info = await render.sendMail({
          from: config.mailFrom,
          ...message,
          headers: { ...message.headers },
        })
        const body = info.message
        if (!Buffer.isBuffer(body)) throw new Error("the stream transport did not return a buffer")
        await mkdir(outbox, { recursive: true })
        sequence = (sequence + 1) % 1_000_000
        const stamp = new Date().toISOString().replace(/[:.]/g, "-")
        const name = `${stamp}-${String(sequence).padStart(6, "0")}-${safeAddress(message.to)}.eml`
        // Written aside, then renamed: a reader of the outbox never sees half a message.
        const partial = join(outbox, `.${name}.partial`)
        await writeFile(partial, body, { mode: 0o600 })
        await rename(partial, join(outbox, name))
      },
      catch: (cause) => new MailError({ message: `Could not write the message to ${outbox}`, cause }),
    }),
  )
  return { send } satisfies MailerShape
})

export class Mailer extends Context.Service<Mailer, MailerShape>()("casino/server/Mailer") {
  static readonly layer = Layer.effect(Mailer, make)
}
