/**
 * Output encoding for the server-rendered pages (the sandboxes' and the studio's pages, the tutorial
 * page): text placed in HTML content or a quoted attribute, with the five characters that could end
 * either escaped. (E-mails keep their own numeric-entity form: server/mail/templates.ts.)
 */
const entities: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
}

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => entities[c] ?? c)

/** The origin of `url`, or "" when it is missing or not a URL (then the source is left out). */
export const originOf = (url: string | undefined): string => {
  if (url === undefined) return ""
  try {
    return new URL(url).origin
  } catch {
    return ""
  }
}

/**
 * The CSP of a provider's page shown in the casino's frame: nothing from outside its own origin, the
 * inline style and script allowed by the response's nonce, framed only by itself and `framedBy`'s
 * origin(s), forms posted only to `formAction` (CSP sources, or URLs whose origin is taken).
 */
export const framedPageCsp = (
  nonce: string,
  framedBy: string | ReadonlyArray<string>,
  formAction: ReadonlyArray<string>,
): string => {
  const sources = (list: ReadonlyArray<string>) =>
    list
      .map((s) => (s.startsWith("'") ? s : originOf(s)))
      .filter((s) => s !== "")
      .join(" ")
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    `form-action ${sources(formAction)}`,
    `frame-ancestors ${sources(["'self'", ...(typeof framedBy === "string" ? [framedBy] : framedBy)])}`,
    "base-uri 'none'",
  ].join("; ")
}
