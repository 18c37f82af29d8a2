/**
 * The default registration tutorial, written once to `${cdnDir}/tutorial/index.html` and embedded by
 * the video modal (site-config.json `tutorialVideoUrl`). It is a self-contained page served by us
 * (no outside host, no script); an operator can replace the file or point TUTORIAL_VIDEO_URL at a
 * hosted video player page instead.
 */

import { escapeHtml } from "../../lib/html.ts"
import type { AppConfigShape } from "../config.ts"

export const tutorialPage = (config: Pick<AppConfigShape, "productName" | "supportEmail">): string => {
  const product = escapeHtml(config.productName)
  const support = escapeHtml(config.supportEmail)
  const steps = [
    ["Open Sign up", "Press Sign up at the top of the page. The registration form opens in a window."],
    ["Your name and e-mail", "Type your full name (first and last name) and an e-mail address you can read."],
    ["Choose a password", "Pick a password of at least 8 characters that you do not use anywhere else."],
    [
      "Pick your currency",
      "Choose the currency of your wallet: a fiat currency such as EUR, or a crypto currency.",
    ],
    ["Bonus code", "Have a bonus code? Switch on the bonus code field and type it in. It is optional."],
    ["Confirm you are 18+", "Tick the box to confirm you are over 18 and accept the terms and conditions."],
    [
      "Create the account",
      "Press Sign up. We send you an e-mail: open the link in it to confirm your address.",
    ],
  ]
  const items = steps
    .map(
      ([title, text], i) =>
        `<li style="--i:${i}"><span class="n">${i + 1}</span><div><h2>${escapeHtml(title ?? "")}</h2><p>${escapeHtml(text ?? "")}</p></div></li>`,
    )
    .join("\n      ")
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>How to register — ${product}</title>
  <style>
    :root { color-scheme: dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
    body { margin: 0; background: #0f1420; color: #e8ecf4; display: grid; place-items: center; min-height: 100vh; }
    main { max-width: 640px; padding: 24px; }
    h1 { font-size: 1.5rem; margin: 0 0 16px; }
    ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 12px; }
    li { display: flex; gap: 14px; align-items: flex-start; background: #182033; border-radius: 12px; padding: 14px 16px;
         opacity: 0; animation: in 0.6s ease-out forwards; animation-delay: calc(var(--i) * 1.2s); }
    .n { flex: 0 0 32px; height: 32px; border-radius: 50%; background: #f5b301; color: #0f1420; font-weight: 700;
         display: grid; place-items: center; }
    h2 { font-size: 1rem; margin: 4px 0; }
    p { margin: 0; color: #b8c2d6; line-height: 1.4; }
    footer { margin-top: 16px; color: #8a96ad; font-size: 0.9rem; }
    @keyframes in { from { opacity: 0; transform: translateY(8px); } to { opacity: 1; transform: none; } }
    @media (prefers-reduced-motion: reduce) { li { animation: none; opacity: 1; } }
  </style>
</head>
<body>
  <main>
    <h1>How to register at ${product}</h1>
    <ol>
      ${items}
    </ol>
    <footer>Questions? Write to ${support}.</footer>
  </main>
</body>
</html>
`
}
