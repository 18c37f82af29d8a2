/**
 * What a verification upload really is, from its first bytes (never from its name or the
 * Content-Type the browser claims). Only three formats are accepted, each by its signature:
 *
 * - JPEG: FF D8 FF (start of image, then the first marker);
 * - PNG: 89 50 4E 47 0D 0A 1A 0A, then the IHDR chunk (length 13) as the PNG spec requires;
 * - PDF: "%PDF-" then a version digit "1." or "2." at offset 0.
 *
 * Everything else — an executable or ZIP renamed .jpg, HTML, SVG (scriptable), GIF, HEIC, a PDF
 * whose header is not at offset 0 — is refused. Checking three signatures by hand keeps this
 * dependency-free and auditable; a general detector (the `file-type` package) would recognise
 * 100+ formats only to refuse them.
 */

export type DocumentContentType = "image/jpeg" | "image/png" | "application/pdf"

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>, offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b)

const ascii = (text: string): ReadonlyArray<number> => [...text].map((c) => c.charCodeAt(0))

export const sniffDocument = (bytes: Uint8Array): DocumentContentType | undefined => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff]) && bytes.length >= 4) return "image/jpeg"
  if (
    startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) &&
    startsWith(bytes, [0x00, 0x00, 0x00, 0x0d, ...ascii("IHDR")], 8)
  ) {
    return "image/png"
  }
  if (startsWith(bytes, ascii("%PDF-1.")) || startsWith(bytes, ascii("%PDF-2."))) return "application/pdf"
  return undefined
}

/** A safe file name to show back: the last path segment, printable, at most 128 characters. */
export const cleanFileName = (name: string, contentType: DocumentContentType): string => {
  const base = (name.split(/[\\/]/).pop() ?? "").replace(/[\p{Cc}\p{Cf}\p{Cs}]/gu, "").trim()
  const fallback =
    contentType === "application/pdf"
      ? "document.pdf"
      : contentType === "image/png"
        ? "document.png"
        : "document.jpg"
  if (base === "" || base === "." || base === "..") return fallback
  return [...base].slice(0, 128).join("")
}
