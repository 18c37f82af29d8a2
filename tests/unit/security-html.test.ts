/**
 * The server-rendered pages' output encoding and frame CSP (server/security/html.ts), shared by the
 * payment sandbox, the on-ramp sandbox, the game studio and the tutorial page.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { escapeHtml, framedPageCsp } from "../../lib/html.ts"

describe("escapeHtml", () => {
  it("escapes the five characters that could end HTML content or a quoted attribute", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    )
  })

  it("leaves no raw < > \" ' and decodes back to the text", () => {
    const decode = (html: string) =>
      html
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, "&")
    fc.assert(
      fc.property(fc.string(), (text) => {
        const html = escapeHtml(text)
        expect(html).not.toMatch(/[<>"']/)
        expect(decode(html)).toBe(text)
      }),
    )
  })
})

describe("framedPageCsp", () => {
  it("frames only by itself and the casino's origin; forms only where told", () => {
    expect(
      framedPageCsp("n", "https://casino.example/any/path", ["'self'", "https://shop.example/return?x=1"]),
    ).toBe(
      "default-src 'none'; script-src 'nonce-n'; style-src 'nonce-n'; img-src 'self' data:; connect-src 'self'; " +
        "form-action 'self' https://shop.example; frame-ancestors 'self' https://casino.example; base-uri 'none'",
    )
  })

  it("leaves out what is not a URL", () => {
    const csp = framedPageCsp("n", "not a url", ["'none'", ""])
    expect(csp).toContain("form-action 'none';")
    expect(csp).toContain("frame-ancestors 'self';")
  })
})
