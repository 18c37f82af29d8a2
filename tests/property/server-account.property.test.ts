/**
 * Properties of the server-only rules of the player's account: the PUT /profile plan (read-only
 * rule, normalisation, all-or-nothing), document sniffing by content, file-name cleaning, the
 * order of deposit limits, the active self-exclusion, and the session's browser label.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cleanFileName, sniffDocument } from "../../server/kyc/sniff.ts"
import { planProfileUpdate, type StoredProfile } from "../../server/profile/update.ts"
import { activeExclusionEnd } from "../../server/responsible-gaming/ResponsibleGaming.ts"
import { browserLabel } from "../../server/users/userAgent.ts"
import {
  DepositLimitBounds,
  isDepositLimitInBounds,
  limitOrderProblem,
  limitPeriods,
  ProfileMessages,
} from "../../services/profile-rules.ts"

const runs = { numRuns: 300 }

const empty: StoredProfile = {
  email: "ada@example.com",
  firstName: null,
  lastName: null,
  nickName: null,
  dateOfBirth: null,
  gender: null,
  country: null,
  phoneNumber: null,
  dialingCode: null,
  city: null,
  state: null,
  address: null,
  address2: null,
  zipCode: null,
  avatar: null,
  receiveEmailPromo: false,
}

const filled: StoredProfile = {
  ...empty,
  firstName: "Ada",
  lastName: "Lovelace",
  nickName: "ada",
  dateOfBirth: Date.UTC(1990, 0, 2) / 1000,
  gender: "FEMALE",
  country: "MT",
  phoneNumber: "21234567",
  dialingCode: "356",
  city: "Valletta",
  state: "Malta",
  address: "Main Street 1",
  address2: "Flat 2",
  zipCode: "VLT1000",
}

const textFields = [
  "firstName",
  "lastName",
  "nickName",
  "city",
  "state",
  "address",
  "address2",
  "zipCode",
] as const

/** Printable text without control characters, as the contract lets through. */
const printable = fc.string({ minLength: 0, maxLength: 40 }).filter((s) => !/[\p{Cc}\p{Cs}]/u.test(s))

describe("PUT /profile plan", () => {
  it("sending every stored value again (padded with spaces) changes and refuses nothing", () => {
    fc.assert(
      fc.property(fc.constantFrom("", " ", "  "), (pad) => {
        const payload = {
          ...Object.fromEntries(textFields.map((f) => [f, `${pad}${filled[f] ?? ""}${pad}`])),
          dateOfBirth: filled.dateOfBirth,
          gender: "female",
          country: "mt",
          phoneNumber: "+356 2123 4567",
          dialingCode: "356",
        }
        expect(planProfileUpdate(filled, payload, true)).toEqual({ _tag: "Write", columns: {} })
      }),
      runs,
    )
  })

  it("a different value, or clearing, for any filled text field is Locked naming exactly that field", () => {
    fc.assert(
      fc.property(fc.constantFrom(...textFields), fc.option(printable, { nil: null }), (field, value) => {
        const next = value === null ? null : value.trim() === "" ? null : value.trim()
        fc.pre(next !== filled[field])
        expect(planProfileUpdate(filled, { [field]: value }, undefined)).toEqual({
          _tag: "Locked",
          fields: [field],
        })
      }),
      runs,
    )
  })

  it("locked fields win over invalid ones, and the plan never writes part of a refused request", () => {
    fc.assert(
      fc.property(fc.subarray([...textFields], { minLength: 1 }), (fields) => {
        const payload = { ...Object.fromEntries(fields.map((f) => [f, "changed value"])), dateOfBirth: 1 }
        const plan = planProfileUpdate({ ...filled, dateOfBirth: null }, payload, undefined)
        expect(plan._tag).toBe("Locked")
        if (plan._tag === "Locked") expect([...plan.fields].sort()).toEqual([...fields].sort())
      }),
      runs,
    )
  })

  it("on an empty profile a valid value is written trimmed; empty text writes nothing", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("city", "state", "address", "address2", "nickName"),
        fc.stringMatching(/^[A-Za-z0-9 ]{0,20}$/),
        (field, value) => {
          const plan = planProfileUpdate(empty, { [field]: `  ${value}  ` }, undefined)
          const column = {
            city: "city",
            state: "state",
            address: "address",
            address2: "address2",
            nickName: "nick_name",
          }[field]
          expect(plan).toEqual({
            _tag: "Write",
            columns: value.trim() === "" ? {} : { [column]: value.trim() },
          })
        },
      ),
      runs,
    )
  })

  it("dates of birth: written only inside the bounds and at a UTC midnight", () => {
    const min = Date.UTC(1900, 0, 1) / 1000
    const max = Date.UTC(2005, 11, 31) / 1000
    fc.assert(
      fc.property(fc.integer({ min: min - 86_400 * 400, max: max + 86_400 * 400 }), (unix) => {
        const plan = planProfileUpdate(empty, { dateOfBirth: unix }, undefined)
        const ok = unix >= min && unix <= max && unix % 86_400 === 0
        if (ok)
          expect(plan).toEqual({
            _tag: "Write",
            columns: { date_of_birth: new Date(unix * 1000).toISOString().slice(0, 10) },
          })
        else
          expect(plan).toEqual({
            _tag: "Invalid",
            field: "dateOfBirth",
            message: ProfileMessages.dateOfBirthRange,
          })
      }),
      runs,
    )
  })

  it("a country is written only when it is a known two-letter code", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 4 }), fc.boolean(), (code, known) => {
        fc.pre(code.trim() !== "")
        const plan = planProfileUpdate(empty, { country: code }, known)
        const upper = code.trim().toUpperCase()
        if (known && /^[A-Z]{2}$/.test(upper))
          expect(plan).toEqual({ _tag: "Write", columns: { country: upper } })
        else expect(plan).toMatchObject({ _tag: "Invalid", field: "country" })
      }),
      runs,
    )
  })

  it("avatar and the promo flag are never read-only", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.stringMatching(/^[a-z0-9-]{1,12}$/), (promo, avatar) => {
        const stored = { ...filled, avatar: "old", receiveEmailPromo: !promo }
        expect(planProfileUpdate(stored, { avatar, receiveEmailPromo: promo }, undefined)).toEqual({
          _tag: "Write",
          columns: { ...(avatar === "old" ? {} : { avatar }), receive_email_promo: promo },
        })
      }),
      runs,
    )
  })
})

describe("document sniffing", () => {
  const jpeg = [0xff, 0xd8, 0xff, 0xe0]
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
  const pdf = [...Buffer.from("%PDF-1.7")]
  const tail = fc.uint8Array({ maxLength: 64 })

  it("recognises the three signatures whatever follows", () => {
    fc.assert(
      fc.property(tail, (rest) => {
        expect(sniffDocument(new Uint8Array([...jpeg, ...rest]))).toBe("image/jpeg")
        expect(sniffDocument(new Uint8Array([...png, ...rest]))).toBe("image/png")
        expect(sniffDocument(new Uint8Array([...pdf, ...rest]))).toBe("application/pdf")
      }),
      runs,
    )
  })

  it("refuses anything else, including the signatures shifted by one byte or cut short", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const starts = (sig: ReadonlyArray<number>) => sig.every((b, i) => bytes[i] === b)
        fc.pre(
          !starts([0xff, 0xd8, 0xff]) &&
            !starts([0x89, 0x50, 0x4e, 0x47]) &&
            !starts([...Buffer.from("%PDF-")]),
        )
        expect(sniffDocument(bytes)).toBeUndefined()
      }),
      runs,
    )
    for (const sig of [jpeg, png, pdf]) {
      expect(sniffDocument(new Uint8Array([0, ...sig]))).toBeUndefined()
      expect(sniffDocument(new Uint8Array(sig.slice(0, 3)))).toBeUndefined()
    }
    expect(sniffDocument(new Uint8Array([...Buffer.from("MZ"), ...jpeg]))).toBeUndefined()
    expect(sniffDocument(new Uint8Array([0x50, 0x4b, 0x03, 0x04]))).toBeUndefined()
  })

  it("file names keep their last segment, printable, at most 128 characters", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (name) => {
        const clean = cleanFileName(name, "image/png")
        expect(clean.length).toBeGreaterThan(0)
        expect([...clean].length).toBeLessThanOrEqual(128)
        expect(clean).not.toMatch(/[\\/\p{Cc}]/u)
      }),
      runs,
    )
    expect(cleanFileName("C:\\fakepath\\id.jpg", "image/jpeg")).toBe("id.jpg")
    expect(cleanFileName("../../etc/passwd", "application/pdf")).toBe("passwd")
    expect(cleanFileName("..", "application/pdf")).toBe("document.pdf")
  })
})

describe("deposit limits", () => {
  const limit = fc.option(fc.bigInt({ min: 0n, max: 10n ** 12n }), { nil: null })
  it("an order problem is reported exactly when a shorter period's limit exceeds a longer one's (no limit: nothing to compare)", () => {
    fc.assert(
      fc.property(limit, limit, limit, (daily, weekly, monthly) => {
        const limits = { daily, weekly, monthly }
        const above = (a: bigint | null, b: bigint | null) => a !== null && b !== null && a > b
        const disordered = above(daily, weekly) || above(weekly, monthly) || above(daily, monthly)
        const problem = limitOrderProblem(limits)
        expect(problem !== undefined).toBe(disordered)
        if (problem !== undefined) {
          expect(limitPeriods.indexOf(problem.lower)).toBeLessThan(limitPeriods.indexOf(problem.higher))
          expect(above(limits[problem.lower], limits[problem.higher])).toBe(true)
        }
      }),
      runs,
    )
  })

  it("bounds are inclusive", () => {
    expect(isDepositLimitInBounds(DepositLimitBounds.min)).toBe(true)
    expect(isDepositLimitInBounds(DepositLimitBounds.min - 1n)).toBe(false)
    expect(isDepositLimitInBounds(DepositLimitBounds.max)).toBe(true)
    expect(isDepositLimitInBounds(DepositLimitBounds.max + 1n)).toBe(false)
  })
})

describe("active self-exclusion", () => {
  it("indefinite is permanent; a past or missing end is none; a future end is that end", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        fc.option(fc.constantFrom("timeout", "cool-off"), { nil: null }),
        (offset, kind) => {
          const now = new Date(Date.UTC(2026, 10, 23))
          const until = new Date(now.getTime() + offset)
          expect(activeExclusionEnd({ now, until, kind, period: null })).toBe(
            offset > 0 ? until.getTime() : undefined,
          )
          expect(activeExclusionEnd({ now, until: null, kind, period: null })).toBeUndefined()
          expect(activeExclusionEnd({ now, until, kind: "indefinite", period: "permanent" })).toBeNull()
        },
      ),
      runs,
    )
  })
})

describe("browser label", () => {
  it("names the browser family, its major version and the system, without guessing", () => {
    const cases: ReadonlyArray<readonly [string | null, string]> = [
      [
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        "Chrome 131 on Linux",
      ],
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
        "Edge 131 on Windows",
      ],
      [
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15",
        "Safari 17 on macOS",
      ],
      [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
        "Safari 17 on iPhone",
      ],
      [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
        "Chrome 131 on iPhone",
      ],
      [
        "Mozilla/5.0 (Linux; Android 14; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
        "Samsung Internet 26 on Android",
      ],
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/116.0.0.0",
        "Opera 116 on Windows",
      ],
      [
        "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
        "Firefox 133 on Linux",
      ],
      ["curl/8.5.0", "curl 8"],
      ["", "Unknown browser"],
      [null, "Unknown browser"],
    ]
    for (const [ua, label] of cases) expect(browserLabel(ua)).toBe(label)
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (ua) => {
        expect(browserLabel(ua).length).toBeGreaterThan(0)
      }),
      runs,
    )
  })
})
