/**
 * The back office's second factor (server/backoffice/secondFactor.ts, on the `otpauth` library)
 * against RFC 6238 Appendix B (SHA-1, the ASCII secret "12345678901234567890") and RFC 4226
 * Appendix D (HOTP, 6 digits); the ±1 step window, replay refusal and the enrolment URI. The codes a
 * test sends are the RFCs' own, or computed by the library directly, never by the module under test.
 */
import { HOTP, Secret, TOTP, URI } from "otpauth"
import { describe, expect, it } from "vitest"
import { enrolment, newTotpSecret, verifyTotp } from "../../server/backoffice/secondFactor.ts"

const rfcSecret = new TextEncoder().encode("12345678901234567890")
const rfc = Secret.fromLatin1("12345678901234567890")
/** The 6-digit HOTP code of a counter, by the library itself. */
const codeOf = (counter: number) => HOTP.generate({ secret: rfc, counter })

describe("TOTP (RFC 6238 Appendix B, SHA-1)", () => {
  // The RFC's 8-digit codes; a 6-digit code is the same number modulo 10^6 (RFC 4226 §5.3), its last
  // six digits. The step is the time divided by 30 seconds, rounded down.
  it.each([
    [59, "94287082", 1],
    [1111111109, "07081804", 37037036],
    [1111111111, "14050471", 37037037],
    [1234567890, "89005924", 41152263],
    [2000000000, "69279037", 66666666],
    [20000000000, "65353130", 666666666],
  ])("T = %i s gives %s (step %i)", (time, code, step) => {
    expect(TOTP.generate({ secret: rfc, digits: 8, timestamp: time * 1000 })).toBe(code)
    expect(verifyTotp(rfcSecret, code.slice(2), time, null)).toBe(step)
  })

  it("matches RFC 4226 Appendix D (HOTP counters 0…9, 6 digits) at each counter's time-step", () => {
    const expected = [
      "755224",
      "287082",
      "359152",
      "969429",
      "338314",
      "254676",
      "287922",
      "162583",
      "399871",
      "520489",
    ]
    expect(expected.map((code, counter) => verifyTotp(rfcSecret, code, counter * 30 + 15, null))).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ])
  })
})

describe("verifyTotp", () => {
  const t = 1111111111 // step 37037037
  it("accepts the current step and one either side, nothing further", () => {
    expect(verifyTotp(rfcSecret, codeOf(37037037), t, null)).toBe(37037037)
    expect(verifyTotp(rfcSecret, codeOf(37037036), t, null)).toBe(37037036)
    expect(verifyTotp(rfcSecret, codeOf(37037038), t, null)).toBe(37037038)
    expect(verifyTotp(rfcSecret, codeOf(37037035), t, null)).toBeUndefined()
    expect(verifyTotp(rfcSecret, codeOf(37037039), t, null)).toBeUndefined()
  })

  it("refuses the step already used and older ones (replay), accepts a later one", () => {
    expect(verifyTotp(rfcSecret, codeOf(37037037), t, 37037037)).toBeUndefined()
    expect(verifyTotp(rfcSecret, codeOf(37037036), t, 37037037)).toBeUndefined()
    expect(verifyTotp(rfcSecret, codeOf(37037038), t, 37037037)).toBe(37037038)
  })

  it("refuses anything that is not six digits, and a wrong code", () => {
    for (const code of ["", "12345", "1234567", "abcdef", " 12345", "000000", codeOf(37037037).slice(1)])
      expect(verifyTotp(rfcSecret, code, t, null), code).toBeUndefined()
  })

  it("refuses another secret's code", () => {
    const other = new TextEncoder().encode("09876543210987654321")
    expect(verifyTotp(other, codeOf(37037037), t, null)).toBeUndefined()
  })
})

describe("enrolment", () => {
  it("names issuer and account, carries the base32 secret and the parameters", () => {
    expect(enrolment("Casino", "ana@example.com", rfcSecret)).toEqual({
      base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
      uri: "otpauth://totp/Casino:ana%40example.com?issuer=Casino&secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&algorithm=SHA1&digits=6&period=30",
    })
  })

  it("the URI reads back (as an authenticator app parses it) to the same secret and parameters", () => {
    const read = URI.parse(enrolment("Casino", "ana@example.com", rfcSecret).uri)
    expect(read).toBeInstanceOf(TOTP)
    expect(read.secret.base32).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    expect([read.issuer, read.label, read.algorithm, read.digits]).toEqual([
      "Casino",
      "ana@example.com",
      "SHA1",
      6,
    ])
  })
})

describe("newTotpSecret", () => {
  it("is 20 random bytes (160 bits, RFC 4226's length for HMAC-SHA1), new each time", () => {
    const a = newTotpSecret()
    const b = newTotpSecret()
    expect(a).toHaveLength(20)
    expect(b).toHaveLength(20)
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false)
  })
})
