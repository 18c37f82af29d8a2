/**
 * The Mailer on its own (no database): SMTP delivery through nodemailer to a real SMTP server on
 * loopback (smtp-server), and the .eml outbox when no SMTP_URL is set.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import PostalMime from "postal-mime"
import { SMTPServer } from "smtp-server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AppConfig, type AppConfigShape, loadConfig } from "../../server/config.ts"
import { Mailer } from "../../server/mail/Mailer.ts"
import { confirmationMail, resetPasswordMail } from "../../server/mail/templates.ts"

const context = { productName: "Casino", supportEmail: "support@casino.example" }

const sendWith = (config: AppConfigShape, message: Parameters<Mailer["Service"]["send"]>[0]) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const mailer = yield* Mailer
      yield* mailer.send(message)
    }).pipe(Effect.provide(Mailer.layer.pipe(Layer.provide(AppConfig.layerFrom(config)))), Effect.scoped),
  )

describe("Mailer", () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "casino-mail-"))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it("writes an RFC 822 .eml per message into the outbox, sortable by time, with the link", async () => {
    const outbox = join(dir, "outbox")
    const config = loadConfig({ DATA_DIR: dir, MAIL_OUTBOX_DIR: outbox, CAPTCHA_SECRET: "x".repeat(32) })
    const link = "http://localhost:8080/?modal=confirm-email&token=AbC_-123"
    await sendWith(config, confirmationMail(context, "ada+1@example.com", link, 48))
    await sendWith(
      config,
      resetPasswordMail(context, "ada+1@example.com", link.replace("confirm-email", "reset-password"), 60),
    )
    const files = (await readdir(outbox)).sort()
    expect(files).toHaveLength(2)
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-000001-ada\+1@example\.com\.eml$/)
    const raw = await readFile(join(outbox, files[0] ?? ""))
    expect(raw.toString("latin1")).toContain("\r\n")
    const first = await PostalMime.parse(raw)
    expect(first.subject).toBe("Confirm your e-mail")
    expect(first.from?.address).toBe("no-reply@casino.example")
    expect(first.text).toContain(link)
    expect(first.html).toContain(link.replace("&", "&#38;"))
    const second = await PostalMime.parse(await readFile(join(outbox, files[1] ?? "")))
    expect(second.subject).toBe("Reset your password")
    expect(second.text).toContain("modal=reset-password&token=AbC_-123")
  })

  it("delivers over SMTP when SMTP_URL is set", async () => {
    const received: Array<{ from: string; to: Array<string>; raw: Buffer }> = []
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        const chunks: Array<Buffer> = []
        stream.on("data", (c: Buffer) => chunks.push(c))
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks),
          })
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()))
    try {
      const { port } = smtp.server.address() as AddressInfo
      const config = loadConfig({
        DATA_DIR: dir,
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: "Casino <mail@casino.example>",
        CAPTCHA_SECRET: "x".repeat(32),
      })
      const link = "http://localhost:8080/?modal=reset-password&token=tok"
      await sendWith(config, resetPasswordMail(context, "grace@example.com", link, 60))
      expect(received).toHaveLength(1)
      expect(received[0]?.from).toBe("mail@casino.example")
      expect(received[0]?.to).toEqual(["grace@example.com"])
      const parsed = await PostalMime.parse(received[0]?.raw ?? Buffer.alloc(0))
      expect(parsed.subject).toBe("Reset your password")
      expect(parsed.text).toContain(link)
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()))
    }
  })

  it("fails with MailError when the SMTP server cannot be reached", async () => {
    const config = loadConfig({
      DATA_DIR: dir,
      SMTP_URL: "smtp://127.0.0.1:1",
      CAPTCHA_SECRET: "x".repeat(32),
    })
    const exit = await Effect.runPromiseExit(
      Effect.gen(function* () {
        const mailer = yield* Mailer
        yield* mailer.send(confirmationMail(context, "a@example.com", "http://x/?token=1", 1))
      }).pipe(Effect.provide(Mailer.layer.pipe(Layer.provide(AppConfig.layerFrom(config)))), Effect.scoped),
    )
    expect(exit._tag).toBe("Failure")
    expect(JSON.stringify(exit)).toContain("MailError")
  })
})
