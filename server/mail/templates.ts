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

export interface UnsubscribeLinks {
  /** The player app's page (`/unsubscribe/{id}`): the link in the body, for people. */
  readonly page: string
  /** The API address (`…/profile/unsubscribe/{id}`): the header, for mail clients (RFC 8058 POST). */
  readonly oneClick: string
}

/**
 * Promotional mail always carries its way out: a visible unsubscribe link in both parts and the
 * RFC 2369 / RFC 8058 headers, so mail clients offer their own one-click "Unsubscribe" button.
 * `List-Unsubscribe` names exactly one HTTPS URI, as RFC 8058 requires; a client that opens it in
 * a browser instead of POSTing is redirected to the page (server/profile/http.ts).
 */
const promotional = (
  ctx: MailContext,
  to: string,
  subject: string,
  paragraphs: ReadonlyArray<string>,
  action: { readonly label: string; readonly link: string },
  unsubscribe: UnsubscribeLinks,
): MailMessage => {
  const footer = `You receive this because you accepted promotional e-mail from ${ctx.productName}.`
  const text = [
    ...paragraphs,
    `${action.label}: ${action.link}`,
    footer,
    `Unsubscribe: ${unsubscribe.page}`,
    `${ctx.productName} - ${ctx.supportEmail}`,
  ].join("\n\n")
  const body = [
    "<!doctype html>",
    `<html><body style="font-family: sans-serif; line-height: 1.5">`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(action.link)}">${escapeHtml(action.label)}</a></p>`,
    `<p style="color: #555; font-size: 0.9em">${escapeHtml(footer)} ` +
      `<a href="${escapeHtml(unsubscribe.page)}">Unsubscribe</a></p>`,
    `<p style="color: #555">${escapeHtml(ctx.productName)} - ${escapeHtml(ctx.supportEmail)}</p>`,
    "</body></html>",
  ].join("\n")
  return {
    to,
    subject,
    text: `${text}\n`,
    html: body,
    headers: {
      "List-Unsubscribe": `<${unsubscribe.oneClick}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  }
}

/** The welcome offer: the first promotional mail, once the e-mail is confirmed and promo mail accepted. */
export const welcomeOfferMail = (
  ctx: MailContext,
  to: string,
  lobby: string,
  unsubscribe: UnsubscribeLinks,
): MailMessage =>
  promotional(
    ctx,
    to,
    `Your welcome offer at ${ctx.productName}`,
    [
      `Welcome to ${ctx.productName}, and thank you for confirming your e-mail address.`,
      "Your first deposit comes with a welcome bonus of up to 200% and up to 150 free spins (terms apply). " +
        "Play responsibly: you can set deposit limits, reminders and time-outs in your profile at any time.",
    ],
    { label: "Go to the lobby", link: lobby },
    unsubscribe,
  )

/** A verification document decided by an officer (the back office or the operator command). */
export const documentReviewedMail = (
  ctx: MailContext,
  to: string,
  review: {
    readonly kind: "ID" | "BILL"
    readonly status: "APPROVED" | "REJECTED"
    readonly reason: string | null
  },
  link: string,
): MailMessage => {
  const what = review.kind === "ID" ? "identity document" : "proof of address"
  const approved = review.status === "APPROVED"
  const intro = approved
    ? `Your ${what} has been approved.`
    : `Your ${what} could not be approved. The reason: ${review.reason ?? "-"}`
  const outro = approved
    ? "Thank you: there is nothing more to do for this document."
    : "Please upload a new document that addresses this reason."
  return {
    to,
    subject: approved ? `Your ${what} is approved` : `Your ${what} was not approved`,
    text: `${intro}\n\n${link}\n\n${outro}\n\n${ctx.productName} - ${ctx.supportEmail}\n`,
    html: html(ctx, intro, "Open my verification", link, outro),
  }
}
