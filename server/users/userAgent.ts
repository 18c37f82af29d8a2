/**
 * A short, honest label for a session's device from its User-Agent header: "Chrome 131 on
 * Linux", "Safari 17 on iPhone", "Firefox 133 on Windows". It names only what the header states
 * plainly (the browser family with its major version and the operating system); anything it does
 * not recognise is "Unknown browser" / omitted, never guessed. Deliberately small instead of a
 * parser library: the session list only needs to let a player recognise their own devices.
 *
 * Order matters because browsers claim each other's names: Edge and Opera and Samsung Internet
 * say "Chrome", Chrome says "Safari", every one says "Mozilla".
 */

const browsers: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, "Edge"],
  [/\bOPR\/(\d+)/, "Opera"],
  [/\bOPiOS\/(\d+)/, "Opera"],
  [/\bSamsungBrowser\/(\d+)/, "Samsung Internet"],
  [/\bYaBrowser\/(\d+)/, "Yandex Browser"],
  [/\bVivaldi\/(\d+)/, "Vivaldi"],
  [/\bFxiOS\/(\d+)/, "Firefox"],
  [/\bFirefox\/(\d+)/, "Firefox"],
  [/\bCriOS\/(\d+)/, "Chrome"],
  [/\bChromium\/(\d+)/, "Chromium"],
  [/\bChrome\/(\d+)/, "Chrome"],
  [/\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, "Safari"],
  [/\bcurl\/(\d+)/, "curl"],
]

const systems: ReadonlyArray<readonly [RegExp, string]> = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
]

export const browserLabel = (userAgent: string | null | undefined): string => {
  const ua = userAgent ?? ""
  let browser = "Unknown browser"
  for (const [pattern, name] of browsers) {
    const match = pattern.exec(ua)
    if (match !== null) {
      browser = `${name} ${match[1] ?? ""}`.trim()
      break
    }
  }
  const system = systems.find(([pattern]) => pattern.test(ua))?.[1]
  return system === undefined ? browser : `${browser} on ${system}`
}
