/**
 * Properties of the shared rules (services/rules.ts): the browser machines use them as guards and
 * the server re-checks with them, so each rule is exercised over generated inputs, boundaries included.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  AccountMessages,
  isAcceptablePassword,
  isBlockedDomain,
  isValidEmail,
  isValidFullName,
  passwordLooksLong,
  resetPasswordMessage,
  resetPasswordProblem,
} from "../../services/account-rules.ts"
import { Constants, currencyDisplayName, isRestrictedCountry } from "../../services/rules.ts"

const runs = { numRuns: 300 }

// ── Generators ───────────────────────────────────────────────────────────────────────────────
const LOCAL_CHARS =
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.!#$%&'*+/=?^_`{|}~-".split("")
const LABEL_EDGE = "abcdefghijklmnopqrstuvwxyz0123456789".split("")

const localPart = fc.string({ unit: fc.constantFrom(...LOCAL_CHARS), minLength: 1, maxLength: 64 })
/** A DNS label: alphanumeric at both ends, hyphens inside, 1..63 characters. */
const label = fc
  .tuple(
    fc.constantFrom(...LABEL_EDGE),
    fc.string({ unit: fc.constantFrom(...LABEL_EDGE, "-"), maxLength: 20 }),
    fc.constantFrom(...LABEL_EDGE),
  )
  .map(([a, mid, z]) => `${a}${mid}${z}`)
/** A domain with at least one dot, as the rule demands. */
const dottedDomain = fc.array(label, { minLength: 2, maxLength: 4 }).map((labels) => labels.join("."))
const validEmail = fc
  .tuple(localPart, dottedDomain)
  .map(([local, domain]) => `${local}@${domain}`)
  .filter((e) => e.length <= Constants.emailMaxLength)

const LATIN = "abcdefghijklmnopqrstuvwxyzéèüöñçABCDEFGHIJKLMNOPQRSTUVWXYZÉÖ".split("")
const CYRILLIC = "абвгдежзийклмнопрстуфхцчшщыэюяАБВГДЕЖЗ".split("")
const GREEK = "αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔ".split("")
const ARABIC = "ابتثجحخدذرزسشصضطظعغفقكلمنهوي".split("")
const CJK = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林".split("")
const letterOf = fc.constantFrom(...LATIN, ...CYRILLIC, ...GREEK, ...ARABIC, ...CJK)
const word = fc.string({ unit: letterOf, minLength: 1, maxLength: 12 })
/** Two or more words of letters (any script), single spaces, 3..50 characters in all. */
const validFullName = fc
  .array(word, { minLength: 2, maxLength: 5 })
  .map((words) => words.join(" "))
  .filter((n) => n.length >= Constants.fullNameMinLength && n.length <= Constants.fullNameMaxLength)

const asciiString = (min: number, max: number) => fc.string({ minLength: min, maxLength: max })

const randomCase = (s: string): fc.Arbitrary<string> =>
  fc
    .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
    .map((flags) => [...s].map((ch, i) => (flags[i] === true ? ch.toUpperCase() : ch.toLowerCase())).join(""))

// ── isValidEmail ─────────────────────────────────────────────────────────────────────────────
describe("isValidEmail", () => {
  it("accepts fast-check's RFC addresses whenever the domain is dotted and the length is within 254", () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        const domain = email.slice(email.lastIndexOf("@") + 1)
        const expected = domain.includes(".") && email.length <= Constants.emailMaxLength
        expect(isValidEmail(email)).toBe(expected)
      }),
      runs,
    )
  })

  it("accepts generated well-formed addresses with a dotted domain", () => {
    fc.assert(
      fc.property(validEmail, (email) => {
        expect(isValidEmail(email)).toBe(true)
      }),
      runs,
    )
  })

  it("refuses anything without an @", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }).filter((s) => !s.includes("@")),
        (s) => {
          expect(isValidEmail(s)).toBe(false)
        },
      ),
      runs,
    )
  })

  it("refuses an address with whitespace anywhere", () => {
    fc.assert(
      fc.property(validEmail, fc.nat(), fc.constantFrom(" ", "\t", "\n", "\u00a0"), (email, at, space) => {
        const i = at % (email.length + 1)
        expect(isValidEmail(`${email.slice(0, i)}${space}${email.slice(i)}`)).toBe(false)
      }),
      runs,
    )
  })

  it("refuses a domain without a dot (a@localhost)", () => {
    fc.assert(
      fc.property(localPart, label, (local, host) => {
        expect(isValidEmail(`${local}@${host}`)).toBe(false)
      }),
      runs,
    )
  })

  it("refuses more than 254 characters, even when well-formed", () => {
    fc.assert(
      fc.property(localPart, fc.array(label, { minLength: 2, maxLength: 6 }), (local, labels) => {
        // Pad with extra 60-character labels until the address is over the limit.
        let domain = labels.join(".")
        while (`${local}@${domain}`.length <= Constants.emailMaxLength) domain = `${"a".repeat(60)}.${domain}`
        const email = `${local}@${domain}`
        expect(email.length).toBeGreaterThan(Constants.emailMaxLength)
        expect(isValidEmail(email)).toBe(false)
      }),
      runs,
    )
  })

  it("has its length boundary exactly at 254", () => {
    const domain = `${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`
    const at254 = `${"a".repeat(Constants.emailMaxLength - domain.length - 1)}@${domain}`
    expect(at254.length).toBe(254)
    expect(isValidEmail(at254)).toBe(true)
    expect(isValidEmail(`a${at254}`)).toBe(false)
  })
})

// ── isBlockedDomain ──────────────────────────────────────────────────────────────────────────
describe("isBlockedDomain", () => {
  it("blocks the domain itself, in any case on either side", () => {
    fc.assert(
      fc.property(
        localPart,
        dottedDomain.chain((d) => fc.tuple(randomCase(d), randomCase(d))),
        (local, [inEmail, inList]) => {
          expect(isBlockedDomain(`${local}@${inEmail}`, [inList])).toBe(true)
          expect(isBlockedDomain(`${local}@${inEmail}`, [` ${inList} `])).toBe(true)
        },
      ),
      runs,
    )
  })

  it("blocks subdomains", () => {
    fc.assert(
      fc.property(
        localPart,
        fc.array(label, { minLength: 1, maxLength: 3 }),
        dottedDomain,
        (local, subs, d) => {
          expect(isBlockedDomain(`${local}@${subs.join(".")}.${d}`, ["other.example", d])).toBe(true)
        },
      ),
      runs,
    )
  })

  it("does not block look-alikes: a prefix without a dot, or a longer top-level domain", () => {
    fc.assert(
      fc.property(localPart, label, dottedDomain, (local, prefix, d) => {
        expect(isBlockedDomain(`${local}@${prefix}${d}`, [d])).toBe(false)
        expect(isBlockedDomain(`${local}@${d}.${prefix}`, [d])).toBe(false)
        expect(isBlockedDomain(`${local}@${prefix}-${d}`, [d])).toBe(false)
      }),
      runs,
    )
  })

  it("blocks nothing with an empty list, and nothing without an @", () => {
    fc.assert(
      fc.property(validEmail, dottedDomain, (email, d) => {
        expect(isBlockedDomain(email, [])).toBe(false)
        expect(isBlockedDomain(email, ["", "  "])).toBe(false)
        expect(isBlockedDomain(d, [d])).toBe(false)
      }),
      runs,
    )
  })
})

// ── isValidFullName ──────────────────────────────────────────────────────────────────────────
describe("isValidFullName", () => {
  it("accepts two or more words of letters in any script, 3 to 50 characters", () => {
    fc.assert(
      fc.property(validFullName, (name) => {
        expect(isValidFullName(name)).toBe(true)
      }),
      runs,
    )
  })

  it("ignores surrounding whitespace", () => {
    fc.assert(
      fc.property(validFullName, fc.constantFrom(" ", "  ", "\t"), (name, pad) => {
        expect(isValidFullName(`${pad}${name}${pad}`)).toBe(true)
      }),
      runs,
    )
  })

  it("refuses a single word", () => {
    fc.assert(
      fc.property(word, (w) => {
        expect(isValidFullName(w)).toBe(false)
      }),
      runs,
    )
  })

  it("refuses digits anywhere", () => {
    fc.assert(
      fc.property(validFullName, fc.nat(), fc.constantFrom(..."0123456789"), (name, at, digit) => {
        const i = at % (name.length + 1)
        expect(isValidFullName(`${name.slice(0, i)}${digit}${name.slice(i)}`)).toBe(false)
      }),
      runs,
    )
  })

  it("refuses more than 50 characters", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 12 }), (words) => {
        let name = words.join(" ")
        while (name.length <= Constants.fullNameMaxLength) name = `${name} ${words[0] ?? "x"}`
        expect(isValidFullName(name)).toBe(false)
      }),
      runs,
    )
  })

  it("refuses two spaces between words", () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(isValidFullName(`${a}  ${b}`)).toBe(false)
      }),
      runs,
    )
  })

  it("has its length boundaries at 3 and 50", () => {
    expect(isValidFullName("a b")).toBe(true)
    expect(isValidFullName("ab")).toBe(false)
    expect(isValidFullName(`${"a".repeat(24)} ${"b".repeat(25)}`)).toBe(true)
    expect(isValidFullName(`${"a".repeat(25)} ${"b".repeat(25)}`)).toBe(false)
  })
})

// ── Passwords ────────────────────────────────────────────────────────────────────────────────
describe("isAcceptablePassword and passwordLooksLong", () => {
  it("accept exactly the lengths 8..128, and 'looks long' above 3", () => {
    fc.assert(
      fc.property(asciiString(0, 200), (password) => {
        const n = password.length
        expect(isAcceptablePassword(password)).toBe(n >= 8 && n <= 128)
        expect(passwordLooksLong(password)).toBe(n > 3)
      }),
      runs,
    )
  })

  it("have their boundaries exactly at 3/4, 7/8 and 128/129", () => {
    for (const [n, acceptable, long] of [
      [3, false, false],
      [4, false, true],
      [7, false, true],
      [8, true, true],
      [128, true, true],
      [129, false, true],
    ] as const) {
      expect(isAcceptablePassword("x".repeat(n)), `length ${n}`).toBe(acceptable)
      expect(passwordLooksLong("x".repeat(n)), `length ${n}`).toBe(long)
    }
  })
})

describe("resetPasswordProblem", () => {
  const form = fc.record({
    password: asciiString(0, 20),
    confirmPassword: asciiString(0, 20),
    edited: fc.boolean(),
  })

  it("reports NO_EDITS first, whatever the fields hold", () => {
    fc.assert(
      fc.property(form, (f) => {
        expect(resetPasswordProblem({ ...f, edited: false })).toBe("NO_EDITS")
      }),
      runs,
    )
  })

  it("then TOO_SHORT under 3 characters, whether or not the confirmation matches", () => {
    fc.assert(
      fc.property(asciiString(0, 2), asciiString(0, 20), (password, confirmPassword) => {
        expect(resetPasswordProblem({ password, confirmPassword, edited: true })).toBe("TOO_SHORT")
        expect(resetPasswordProblem({ password, confirmPassword: password, edited: true })).toBe("TOO_SHORT")
      }),
      runs,
    )
  })

  it("then BELOW_MINIMUM from 3 to 7 characters, whether or not the confirmation matches", () => {
    fc.assert(
      fc.property(asciiString(3, 7), asciiString(0, 20), (password, confirmPassword) => {
        expect(resetPasswordProblem({ password, confirmPassword, edited: true })).toBe("BELOW_MINIMUM")
        expect(resetPasswordProblem({ password, confirmPassword: password, edited: true })).toBe(
          "BELOW_MINIMUM",
        )
      }),
      runs,
    )
  })

  it("then MISMATCH from 8 characters when the confirmation differs", () => {
    fc.assert(
      fc.property(asciiString(8, 40), asciiString(0, 40), (password, confirmPassword) => {
        fc.pre(password !== confirmPassword)
        expect(resetPasswordProblem({ password, confirmPassword, edited: true })).toBe("MISMATCH")
      }),
      runs,
    )
  })

  it("is null exactly when edited, at least 8 characters, and confirmed", () => {
    fc.assert(
      fc.property(form, fc.boolean(), (f, same) => {
        const input = same ? { ...f, confirmPassword: f.password } : f
        const ok = input.edited && input.password.length >= 8 && input.password === input.confirmPassword
        expect(resetPasswordProblem(input) === null).toBe(ok)
      }),
      runs,
    )
  })

  it("maps each problem to the spec's message", () => {
    expect(resetPasswordMessage("NO_EDITS")).toBe(AccountMessages.resetNoEdits)
    expect(resetPasswordMessage("TOO_SHORT")).toBe("Password is too short")
    expect(resetPasswordMessage("BELOW_MINIMUM")).toBe("Password is too short, min 8 characters")
    expect(resetPasswordMessage("MISMATCH")).toBe("Password and Confirm password do not match")
  })
})

// ── Currencies and countries ─────────────────────────────────────────────────────────────────
describe("currencyDisplayName", () => {
  it("shows DOG as DOGE and marks USDT (Erc20)", () => {
    expect(currencyDisplayName("DOG")).toBe("DOGE")
    expect(currencyDisplayName("USDT")).toBe("USDT (Erc20)")
  })

  it("leaves every other code unchanged", () => {
    fc.assert(
      fc.property(
        fc
          .oneof(fc.stringMatching(/^[A-Z]{3,5}$/), fc.string({ maxLength: 8 }))
          .filter((c) => c !== "DOG" && c !== "USDT"),
        (code) => {
          expect(currencyDisplayName(code)).toBe(code)
        },
      ),
      runs,
    )
  })
})

describe("isRestrictedCountry", () => {
  const iso = fc.stringMatching(/^[A-Z]{2}$/)

  it("matches a listed country in any case on either side", () => {
    fc.assert(
      fc.property(
        iso.chain((c) => fc.tuple(randomCase(c), randomCase(c))),
        fc.array(iso, { maxLength: 5 }),
        ([asked, listed], others) => {
          expect(isRestrictedCountry(asked, [...others, listed])).toBe(true)
        },
      ),
      runs,
    )
  })

  it("does not match a country that is not listed", () => {
    fc.assert(
      fc.property(iso, fc.array(iso, { maxLength: 8 }), (asked, listed) => {
        const rest = listed.filter((c) => c !== asked)
        expect(isRestrictedCountry(asked, rest)).toBe(false)
        expect(isRestrictedCountry(asked.toLowerCase(), rest)).toBe(false)
      }),
      runs,
    )
  })
})
