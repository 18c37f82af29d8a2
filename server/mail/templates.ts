/**
 * The account e-mails: plain text plus a simple HTML body, each carrying one link.
 */
import type { MailMessage } from "./Mailer.ts"

export interface MailContext {
  readonly productName: string
  readonly supportEmail: string
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const html = (ctx: MailContext, intro: string, action: string, link: string, outro: string): string =>
  [
    "<!doctype html>",
    `<html><body style="font-family: sans-serif; line-height: 1.5">`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
    `<p style="color: #555">${escapeHtml(outro)}</p>`,
    `<p style="color: #555">${escapeHtml(ctx.productName)} - ${escapeHtml(ctx.supportEmail)}</p>`,
    "</body></html>",
  ].join("\n")

export const confirmationMail = (
  ctx: MailContext,
  to: string,
  link: string,
  ttlHours: number,
): MailMessage => {
  const intro = `Welcome to ${ctx.productName}! Please confirm your e-mail address.`
  const outro = `The link is valid for ${ttlHours} hours. If you did not create an account, ignore this e-mail.`
  return {
    to,
    subject: "Confirm your e-mail",
    text: `${intro}\n\n${link}\n\n${outro}\n\n${ctx.productName} - ${ctx.supportEmail}\n`,
    html: html(ctx, intro, "Confirm my e-mail", link, outro),
  }
}

export const resetPasswordMail = (
  ctx: MailContext,
  to: string,
  link: string,
  ttlMinutes: number,
): MailMessage => {
  const intro = `Someone asked to reset the password of your ${ctx.productName} account.`
  const outro = `The link works once and is valid for ${ttlMinutes} minutes. If it was not you, ignore this e-mail: your password stays as it is.`
  return {
    to,
    subject: "Reset your password",
    text: `${intro}\n\n${link}\n\n${outro}\n\n${ctx.productName} - ${ctx.supportEmail}\n`,
    html: html(ctx, intro, "Choose a new password", link, outro),
  }
}
