/**
 * Helpers for the player's-account tests (tests/server/account.*.test.ts): a signed-in player per
 * "browser", JSON calls with any method, multipart uploads, and real document bytes made here —
 * a baseline JPEG, a PNG and a PDF that decoders accept, and files that only pretend (a Windows
 * executable and a ZIP archive).
 */
import { crc32, deflateSync } from "node:zlib"
import type { TestServer } from "./harness.ts"
import { Browser, PROFILE, type Reply, register, uniqueEmail, uniqueIp } from "./users-support.ts"

export { PROFILE }

export const PASSWORD = "correct horse 1"

export interface Player {
  readonly browser: Browser
  readonly email: string
}

/** Registers a fresh player (signed in by the registration) from its own private IP. */
export const newPlayer = async (
  server: TestServer,
  tag: string,
  fullName = "Ada Lovelace",
): Promise<Player> => {
  const email = uniqueEmail(tag)
  const browser = new Browser(server, uniqueIp())
  const res = await register(browser, email, { fullName })
  if (res.status !== 200)
    throw new Error(`registration of ${email}: HTTP ${res.status} ${JSON.stringify(res.body)}`)
  return { browser, email }
}

/** A JSON call with any method (`Browser` has post/get/delete). */
export const put = (browser: Browser, path: string, body: unknown): Promise<Reply> =>
  browser.call("PUT", path, body)

export type DocumentPath = "id-verification" | "bill-verification"

/** POST multipart/form-data with one part `file` (or the parts given), with the browser's cookie. */
export const upload = async (
  browser: Browser,
  path: DocumentPath,
  bytes: Uint8Array,
  fileName: string,
  contentType: string,
  field = "file",
): Promise<Reply> => {
  const form = new FormData()
  form.append(field, new Blob([new Uint8Array(bytes)], { type: contentType }), fileName)
  const headers: Record<string, string> = { origin: browser.server.url }
  if (browser.ip !== undefined) headers["x-forwarded-for"] = browser.ip
  const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  if (cookie !== "") headers.cookie = cookie
  const res = await fetch(`${browser.server.url}${PROFILE}/profile/${path}`, {
    method: "POST",
    headers,
    body: form,
  })
  const text = await res.text()
  const body: unknown =
    (res.headers.get("content-type") ?? "").includes("json") && text !== "" ? JSON.parse(text) : text
  return { status: res.status, headers: res.headers, body, setCookie: res.headers.getSetCookie() }
}

// ── Real documents ──────────────────────────────────────────────────────────────────────────

const bytesOf = (...parts: ReadonlyArray<ReadonlyArray<number> | Uint8Array>): Uint8Array => {
  const out: Array<number> = []
  for (const part of parts) out.push(...part)
  return new Uint8Array(out)
}

const u16 = (n: number): ReadonlyArray<number> => [(n >> 8) & 255, n & 255]
const u32 = (n: number): ReadonlyArray<number> => [
  (n >>> 24) & 255,
  (n >>> 16) & 255,
  (n >>> 8) & 255,
  n & 255,
]
const ascii = (s: string): ReadonlyArray<number> => [...s].map((c) => c.charCodeAt(0))

/**
 * An 8×8 mid-grey baseline JPEG (JFIF): quantisation table of ones, one DC and one AC Huffman
 * table of a single one-bit code each (DC category 0, AC end-of-block), and one block whose
 * entropy-coded data is "0" (DC difference 0) + "0" (EOB), padded with 1-bits.
 */
export const jpegBytes = (): Uint8Array => {
  const segment = (marker: number, body: ReadonlyArray<number>) => [
    0xff,
    marker,
    ...u16(body.length + 2),
    ...body,
  ]
  const dqt = segment(0xdb, [0x00, ...new Array<number>(64).fill(1)])
  const sof0 = segment(0xc0, [8, ...u16(8), ...u16(8), 1, 1, 0x11, 0])
  const huffman = (tableClass: number, symbol: number) =>
    segment(0xc4, [(tableClass << 4) | 0, 1, ...new Array<number>(15).fill(0), symbol])
  const sos = segment(0xda, [1, 1, 0x00, 0, 63, 0])
  const app0 = segment(0xe0, [...ascii("JFIF"), 0, 1, 1, 0, ...u16(1), ...u16(1), 0, 0])
  return bytesOf([0xff, 0xd8], app0, dqt, sof0, huffman(0, 0), huffman(1, 0x00), sos, [0x3f], [0xff, 0xd9])
}

/** A 2×2 RGB PNG: signature, IHDR, one zlib IDAT, IEND, each chunk with its CRC-32. */
export const pngBytes = (): Uint8Array => {
  const chunk = (type: string, data: ReadonlyArray<number> | Uint8Array) => {
    const typed = bytesOf(ascii(type), data)
    return bytesOf(u32(data.length), typed, u32(crc32(typed)))
  }
  const ihdr = [...u32(2), ...u32(2), 8, 2, 0, 0, 0]
  const rows = [0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]
  return bytesOf(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", []),
  )
}

/** A one-page PDF 1.4 with a correct cross-reference table. */
export const pdfBytes = (): Uint8Array => {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >>",
    "<< /Length 0 >>\nstream\n\nendstream",
  ]
  let text = "%PDF-1.4\n"
  const offsets: Array<number> = []
  objects.forEach((body, i) => {
    offsets.push(text.length)
    text += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = text.length
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) text += `${String(offset).padStart(10, "0")} 00000 n \n`
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new Uint8Array(Buffer.from(text, "latin1"))
}

/** The start of a Windows executable: "MZ", the DOS stub offset, "PE\0\0" at 0x80. */
export const exeBytes = (): Uint8Array => {
  const out = new Uint8Array(512)
  out.set(ascii("MZ"), 0)
  out.set([0x80, 0, 0, 0], 0x3c)
  out.set(ascii("This program cannot be run in DOS mode."), 0x40)
  out.set([...ascii("PE"), 0, 0], 0x80)
  return out
}

/** A ZIP archive holding one stored file. */
export const zipBytes = (): Uint8Array => {
  const name = ascii("a.txt")
  const data = ascii("hello")
  const crc = crc32(Buffer.from(data))
  const le16 = (n: number) => [n & 255, (n >> 8) & 255]
  const le32 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255]
  const local = [
    ...le32(0x04034b50),
    ...le16(10),
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    ...le32(crc),
    ...le32(5),
    ...le32(5),
    ...le16(name.length),
    0,
    0,
    ...name,
    ...data,
  ]
  const central = [
    ...le32(0x02014b50),
    ...le16(20),
    ...le16(10),
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    ...le32(crc),
    ...le32(5),
    ...le32(5),
    ...le16(name.length),
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    ...le32(0),
    ...name,
  ]
  const end = [
    ...le32(0x06054b50),
    0,
    0,
    0,
    0,
    ...le16(1),
    ...le16(1),
    ...le32(central.length),
    ...le32(local.length),
    0,
    0,
  ]
  return bytesOf(local, central, end)
}
