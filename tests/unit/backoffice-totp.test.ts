/**
 * The hand-written TOTP (server/backoffice/totp.ts) against RFC 6238 Appendix B (SHA-1, 8 digits,
 * the ASCII secret "12345678901234567890"), RFC 4226 Appendix D (HOTP, 6 digits), RFC 4648 base32
 * vectors, the ±1 step window and replay refusal.
 */
import { describe, expect, it } from "vitest"
import {
  base32Decode,
  base32Encode,
  hotp,
  otpauthUri,
  totpAt,
  totpStep,
  verifyTotp,
} from "../../server/backoffice/totp.ts"

const rfcSecret = new TextEncoder().encode("12345678901234567890")

describe("TOTP (RFC 6238 Appendix B, SHA-1)", () => {
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ])("T = %i s gives %s", (time, code) => {
    expect(totpAt(rfcSecret, time, 8)).toBe(code)
  })

  it("HOTP matches RFC 4226 Appendix D (counters 0…9, 6 digits)", () => {
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
    expect(expected.map((_, counter) => hotp(rfcSecret, counter))).toEqual(expected)
  })

  it("steps are 30 seconds", () => {
    expect(totpStep(59)).toBe(1)
    expect(totpStep(60)).toBe(2)
    expect(totpStep(1111111109)).toBe(37037036)
  })
})

describe("verifyTotp", () => {
  const t = 1111111111 // step 37037037
  it("accepts the current step and one either side, nothing further", () => {
    expect(verifyTotp(rfcSecret, hotp(rfcSecret, 37037037), t)).toBe(37037037)
    expect(verifyTotp(rfcSecret, hotp(rfcSecret, 37037036), t)).toBe(37037036)
    expect(verifyTotp(rfcSecret, hotp(rfcSecret, 37037038), t)).toBe(37037038)
    expect(verifyTotp(rfcSecret, hotp(rfcSecret, 37037035), t)).toBeUndefined()
    expect(verifyTotp(rfcSecret, hotp(rfcSecret, 37037039), t)).toBeUndefined()
  })

  it("refuses the step already used and older ones (replay), accepts a later one", () => {
    expect(verifyTotp(rfcSecret, hotp(rfcSecret, 37037037), t, 37037037)).toBeUndefined()
    expect(verifyTotp(rfcSecret, hotp(rfcSecret, 37037036), t, 37037037)).toBeUndefined()
    expect(verifyTotp(rfcSecret, hotp(rfcSecret, 37037038), t, 37037037)).toBe(37037038)
  })

  it("refuses anything that is not six digits", () => {
    expect(verifyTotp(rfcSecret, "", t)).toBeUndefined()
    expect(verifyTotp(rfcSecret, "12345", t)).toBeUndefined()
    expect(verifyTotp(rfcSecret, "1234567", t)).toBeUndefined()
    expect(verifyTotp(rfcSecret, "abcdef", t)).toBeUndefined()
    expect(verifyTotp(rfcSecret, "000000", t)).toBeUndefined()
  })
})

describe("base32 (RFC 4648 §10)", () => {
  const vectors: ReadonlyArray<readonly [string, string]> = [
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ]
  it.each(vectors)("%j ⇄ %s", (plain, encoded) => {
    expect(base32Encode(new TextEncoder().encode(plain))).toBe(encoded)
    expect(new TextDecoder().decode(base32Decode(encoded))).toBe(plain)
  })

  it("decodes lower case, spaces and padding; refuses other characters", () => {
    expect(new TextDecoder().decode(base32Decode("mzxw 6ytb oi======"))).toBe("foobar")
    expect(base32Decode("MZXW1")).toBeUndefined()
  })

  it("the RFC secret in base32", () => {
    expect(base32Encode(rfcSecret)).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
  })
})

describe("otpauthUri", () => {
  it("names issuer and account, carries the base32 secret and the parameters", () => {
    expect(otpauthUri("Casino", "ana@example.com", rfcSecret)).toBe(
      "otpauth://totp/Casino:ana%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Casino&algorithm=SHA1&digits=6&period=30",
    )
  })
})
