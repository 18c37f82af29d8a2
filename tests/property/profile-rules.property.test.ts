/**
 * Properties of the profile rules: the shared `services/profile-rules.ts` (phone split,
 * dates of birth and the placeholder, postal code, read-only fields, the fields each deposit method
 * needs, self-exclusion never shortened, when a limit change applies, what may still be deposited)
 * and the browser's rules built on them (`profile-form.ts`, `responsible-gaming.ts`,
 * `documents.ts`, the tab addresses), over generated inputs, boundaries included.
 */
import fc from "fast-check"
import { getCountries, getExampleNumber } from "libphonenumber-js/min"
import examples from "libphonenumber-js/mobile/examples"
import { describe, expect, it } from "vitest"
import { fixtureProfile } from "../../machines/profile/fixtures.ts"
import { documentMessage, documentProblem, isVerified } from "../../services/documents.ts"
import {
  emptyInputs,
  type FormInputs,
  formProblems,
  inputNames,
  isFilled,
  nothingFilled,
  profilePayload,
  profileValuesOf,
} from "../../services/profile-form.ts"
import {
  DATE_PLACEHOLDER,
  DateOfBirthBounds,
  type DepositMethodKind,
  exclusionEnd,
  extendsExclusion,
  fullPhone,
  hasValue,
  isDateOfBirthInRange,
  isReadOnly,
  isValidZip,
  LIMIT_INCREASE_DELAY_MS,
  limitChangeEffectiveAt,
  missingFields,
  type PhoneProblem,
  type ProfileField,
  type ProfileValues,
  parseDateOfBirth,
  phoneMessage,
  profileFields,
  remainingUnder,
  requiredProfileFields,
  type SelfExclusionPeriod,
  selfExclusionPeriods,
  splitPhone,
  TextLimits,
  tightest,
  unixToIsoDate,
} from "../../services/profile-rules.ts"
import { DOCUMENT_MAX_BYTES, type DocumentStatus } from "../../services/profile-service.ts"
import { ProfileTabInfo, profileTabOf, profileTabs } from "../../services/profile-tabs.ts"
import {
  formatEuros,
  formatSessionTime,
  isEmptyPayload,
  limitInputsOf,
  nextReminderAt,
  offeredExclusionPeriods,
  parseEuros,
  responsibleGamingPayload,
} from "../../services/responsible-gaming.ts"
import { isProfilePath, unsubscribeIdOf } from "../../services/rules.ts"

const runs = { numRuns: 300 }
const DAY = 86_400
const unixOf = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 1000
const minDob = unixOf(DateOfBirthBounds.min)
const maxDob = unixOf(DateOfBirthBounds.max)

// ── Generators ───────────────────────────────────────────────────────────────────────────────
/** A valid mobile number of a country, from libphonenumber's own examples. */
const exampleNumber = fc.constantFrom(...getCountries()).chain((country) => {
  const number = getExampleNumber(country, examples)
  return number === undefined || !number.isValid()
    ? fc.constant(null)
    : fc.constant({ code: number.countryCallingCode, national: number.nationalNumber })
})
/** Spaces, dots, dashes and brackets the way people group digits. */
const grouped = (digits: string) =>
  fc
    .array(fc.constantFrom("", "", " ", "-", "."), { minLength: digits.length, maxLength: digits.length })
    .map((separators) => [...digits].map((d, i) => `${i === 0 ? "" : separators[i]}${d}`).join(""))

const maybeText = fc.option(
  fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ""),
  {
    nil: null,
  },
)
const profileValues: fc.Arbitrary<ProfileValues> = fc.record({
  email: fc.constant("ada@lovelace.example"),
  firstName: maybeText,
  lastName: maybeText,
  nickName: maybeText,
  dateOfBirth: fc.option(
    fc.integer({ min: minDob / DAY, max: maxDob / DAY }).map((d) => d * DAY),
    { nil: null },
  ),
  gender: fc.option(fc.constantFrom("FEMALE" as const, "MALE" as const), { nil: null }),
  country: fc.option(fc.constantFrom("MT", "DE", "GB"), { nil: null }),
  phoneNumber: fc.option(fc.constantFrom("21234567", "79123456"), { nil: null }),
  dialingCode: fc.option(fc.constantFrom("356", "49"), { nil: null }),
  city: maybeText,
  state: maybeText,
  address: maybeText,
  address2: maybeText,
  zipCode: maybeText,
})
const fieldList = fc.subarray([...profileFields], { minLength: 1 })
const inputs: fc.Arbitrary<FormInputs> = fc.record(
  Object.fromEntries(
    inputNames.map((n) => [n, fc.oneof(fc.constant(""), fc.string({ maxLength: 14 }))]),
  ) as Record<keyof FormInputs, fc.Arbitrary<string>>,
)
const methods: ReadonlyArray<DepositMethodKind> = ["card", "ewalletOne", "ewalletTwo"]
const nowMs = fc.integer({ min: Date.parse("2020-01-01"), max: Date.parse("2040-01-01") })

// ── Phone ───────────────────────────────────────────────────────────────────────────────────
describe("phone split (spec section 5)", () => {
  it("a valid number typed with its calling code splits into that code and the national number, however grouped", () => {
    fc.assert(
      fc.property(
        exampleNumber.filter((n) => n !== null),
        fc.boolean(),
        (n, plusCode) => {
          if (n === null) return
          fc.assert(
            fc.property(grouped(n.national), (typed) => {
              const split = splitPhone(typed, plusCode ? `+${n.code}` : n.code)
              expect(split).toEqual({ dialingCode: n.code, phoneNumber: n.national })
              // Typed in international form, the number's own code wins over the chosen one.
              expect(splitPhone(`+${n.code} ${typed}`, "999")).toEqual(split)
              if (typeof split !== "string") expect(fullPhone(split)).toBe(`+${n.code} ${n.national}`)
            }),
            { numRuns: 3 },
          )
        },
      ),
      { numRuns: 200 },
    )
  })

  it("names the problem: not a number, too short, too long, no calling code, not valid there", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }).filter((s) => /[a-z]/i.test(s)),
        (text) => {
          expect(splitPhone(text, "356")).toBe("NOT_A_NUMBER")
        },
      ),
      runs,
    )
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{6,10}$/), (digits) => {
        expect(splitPhone(digits, "")).toBe("INVALID_COUNTRY")
        expect(splitPhone(digits, "+abc")).toBe("INVALID_COUNTRY")
      }),
      runs,
    )
    fc.assert(
      fc.property(fc.stringMatching(/^[12]\d{17,25}$/), (digits) => {
        expect(splitPhone(digits, "356")).toBe("TOO_LONG")
      }),
      runs,
    )
    expect(splitPhone("", "356")).toBe("NOT_A_NUMBER")
    expect(splitPhone("   ", "356")).toBe("NOT_A_NUMBER")
    expect(splitPhone("2", "356")).toBe("TOO_SHORT")
    expect(splitPhone("21234567", "356")).toEqual({ dialingCode: "356", phoneNumber: "21234567" })
    expect(splitPhone("11234567", "356")).toBe("INVALID")
  })

  it("every problem has its own message", () => {
    const problems: ReadonlyArray<PhoneProblem> = [
      "NOT_A_NUMBER",
      "TOO_SHORT",
      "TOO_LONG",
      "INVALID_COUNTRY",
      "INVALID",
    ]
    const messages = problems.map(phoneMessage)
    expect(new Set(messages).size).toBe(problems.length)
    for (const m of messages) expect(m.length).toBeGreaterThan(10)
  })
})

// ── Dates ───────────────────────────────────────────────────────────────────────────────────
describe("date of birth (spec section 5: 1900-01-01 … 2005-12-31, the placeholder sent as null)", () => {
  it("every day inside the bounds round-trips through the picker's text", () => {
    fc.assert(
      fc.property(fc.integer({ min: minDob / DAY, max: maxDob / DAY }), (day) => {
        const unix = day * DAY
        expect(isDateOfBirthInRange(unix)).toBe(true)
        expect(parseDateOfBirth(unixToIsoDate(unix))).toEqual({ _tag: "Date", unix })
      }),
      runs,
    )
  })

  it("days outside the bounds, instants that are not midnight and impossible dates are refused", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -40_000, max: minDob / DAY - 1 }),
          fc.integer({ min: maxDob / DAY + 1, max: 40_000 }),
        ),
        fc.integer({ min: 1, max: DAY - 1 }),
        (day, offset) => {
          expect(isDateOfBirthInRange(day * DAY)).toBe(false)
          expect(parseDateOfBirth(unixToIsoDate(day * DAY))).toBe("invalid")
          const inside = Math.min(Math.max(day * DAY, minDob), maxDob)
          expect(isDateOfBirthInRange(inside + offset)).toBe(false)
        },
      ),
      runs,
    )
    for (const impossible of [
      "2001-02-29",
      "1999-04-31",
      "1990-13-01",
      "1990-00-10",
      "90-01-01",
      "1990/01/01",
    ])
      expect(parseDateOfBirth(impossible)).toBe("invalid")
    expect(parseDateOfBirth(DateOfBirthBounds.min)).toEqual({ _tag: "Date", unix: minDob })
    expect(parseDateOfBirth(DateOfBirthBounds.max)).toEqual({ _tag: "Date", unix: maxDob })
  })

  it("the placeholder and an empty picker are empty (sent as null), whatever the spaces", () => {
    fc.assert(
      fc.property(fc.constantFrom("", DATE_PLACEHOLDER), fc.stringMatching(/^ {0,3}$/), (text, pad) => {
        expect(parseDateOfBirth(`${pad}${text}${pad}`)).toEqual({ _tag: "Empty" })
      }),
      runs,
    )
  })
})

// ── Postal code, read-only, missing fields ──────────────────────────────────────────────────
describe("postal code (spec section 5: at most 7)", () => {
  it("is valid exactly when 1 to 7 letters, digits, spaces or hyphens remain after trimming", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (zip) => {
        const z = zip.trim()
        expect(isValidZip(zip)).toBe(
          z.length >= 1 && z.length <= TextLimits.zipCode && /^[\p{L}\p{N} -]+$/u.test(z),
        )
      }),
      runs,
    )
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z0-9]{1,7}$/), fc.stringMatching(/^[A-Z0-9]{8,12}$/), (ok, long) => {
        expect(isValidZip(ok)).toBe(true)
        expect(isValidZip(long)).toBe(false)
      }),
      runs,
    )
  })
})

describe("read-only fields (spec section 4)", () => {
  it("the e-mail always; any other field exactly when it has a value; the phone when both parts do", () => {
    fc.assert(
      fc.property(profileValues, fc.constantFrom(...profileFields), (values, field) => {
        if (field === "email") expect(isReadOnly(values, field)).toBe(true)
        else expect(isReadOnly(values, field)).toBe(hasValue(values, field))
        if (field === "phone")
          expect(hasValue(values, "phone")).toBe(values.phoneNumber !== null && values.dialingCode !== null)
      }),
      runs,
    )
  })
})

describe("profile data per deposit method (spec section 5)", () => {
  it("the missing fields are exactly the needed ones without a value, in the method's order", () => {
    fc.assert(
      fc.property(profileValues, fc.constantFrom(...methods), (values, method) => {
        const needed = requiredProfileFields(method)
        const missing = missingFields(values, needed)
        expect(missing).toEqual(needed.filter((f) => !hasValue(values, f)))
        for (const f of missing) expect(isReadOnly(values, f)).toBe(false)
      }),
      runs,
    )
  })

  it("the methods need what the spec lists: card without names, e-wallet two is e-wallet one plus the phone", () => {
    expect(requiredProfileFields("card")).not.toContain("firstName")
    expect(requiredProfileFields("card")).toContain("phone")
    expect(requiredProfileFields("ewalletOne")).not.toContain("phone")
    expect(new Set(requiredProfileFields("ewalletTwo"))).toEqual(
      new Set([...requiredProfileFields("ewalletOne"), "phone"]),
    )
  })
})

// ── Self-exclusion and limits ───────────────────────────────────────────────────────────────
describe("self-exclusion (never shortened)", () => {
  const current = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.integer({ min: Date.parse("2020-01-01"), max: Date.parse("2050-01-01") }),
  )

  it("a new exclusion is allowed only when it ends later (permanent counts as latest)", () => {
    fc.assert(
      fc.property(current, fc.constantFrom(...selfExclusionPeriods), nowMs, (until, period, now) => {
        const end = exclusionEnd(period, now)
        const allowed = extendsExclusion(until, end)
        if (until === undefined) expect(allowed).toBe(true)
        else if (until === null) expect(allowed).toBe(false)
        else expect(allowed).toBe(end === null || end > until)
      }),
      runs,
    )
  })

  it("the periods offered never end before the current exclusion; all are offered without one", () => {
    fc.assert(
      fc.property(current, nowMs, (until, now) => {
        const offered = offeredExclusionPeriods(
          until === undefined
            ? null
            : { period: "7d", until: until === null ? null : new Date(until).toISOString() },
          now,
        )
        if (until === undefined) expect(offered).toEqual(selfExclusionPeriods)
        if (until === null) expect(offered).toEqual([])
        for (const period of offered) {
          const end = exclusionEnd(period, now)
          if (typeof until === "number") expect(end === null || end > until).toBe(true)
        }
        // Longer periods are offered whenever a shorter one is.
        const lengths = (p: SelfExclusionPeriod) => exclusionEnd(p, now) ?? Number.POSITIVE_INFINITY
        for (const p of offered)
          for (const q of selfExclusionPeriods) if (lengths(q) > lengths(p)) expect(offered).toContain(q)
      }),
      runs,
    )
  })
})

describe("deposit limits (a decrease at once, a raise after 24 hours)", () => {
  const cents = fc.option(fc.bigInt({ min: 0n, max: 10n ** 12n }), { nil: null })

  it("lowering or setting a first limit applies now; raising or removing one waits 24 hours", () => {
    fc.assert(
      fc.property(cents, cents, nowMs, (current, requested, now) => {
        const at = limitChangeEffectiveAt(current, requested, now)
        const lowers = requested !== null && (current === null || requested <= current)
        expect(at).toBe(lowers ? now : now + LIMIT_INCREASE_DELAY_MS)
      }),
      runs,
    )
  })

  it("what is left under a limit is never negative; the tightest is the smallest, or none", () => {
    fc.assert(
      fc.property(cents, fc.bigInt({ min: 0n, max: 10n ** 12n }), (limit, deposited) => {
        const left = remainingUnder(limit, deposited)
        if (limit === null) expect(left).toBeNull()
        else expect(left).toBe(limit > deposited ? limit - deposited : 0n)
      }),
      runs,
    )
    fc.assert(
      fc.property(fc.array(cents, { maxLength: 5 }), (remainders) => {
        const numbers = remainders.filter((r): r is bigint => r !== null)
        const expected = numbers.length === 0 ? null : numbers.reduce((a, b) => (b < a ? b : a))
        expect(tightest(remainders)).toBe(expected)
        expect(tightest([...remainders].reverse())).toBe(expected)
      }),
      runs,
    )
  })

  it("euros as typed round-trip through cents; anything else is invalid; empty is no limit", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 999_999_999_99n }), (c) => {
        expect(parseEuros(formatEuros(c))).toBe(c)
        expect(parseEuros(`€ ${formatEuros(c).replace(".", ",")}`)).toBe(c)
      }),
      runs,
    )
    for (const bad of ["fifty", "-5", "1.234", "1e3", "1 000", "0x10", "10000000000"])
      expect(parseEuros(bad)).toBe("invalid")
    expect(parseEuros("  ")).toBeNull()
  })

  it("saving unchanged settings sends nothing", () => {
    const settings = {
      currency: "EUR" as const,
      depositLimits: {
        daily: { amount: "5000", pending: null, used: "0", remaining: "5000" },
        weekly: { amount: null, pending: null, used: "0", remaining: null },
        monthly: { amount: "100000", pending: null, used: "2500", remaining: "97500" },
      },
      remainingDeposit: "5000",
      realityCheckMinutes: 30 as const,
      selfExclusion: null,
    }
    expect(isEmptyPayload(responsibleGamingPayload(settings, limitInputsOf(settings), 30))).toBe(true)
    expect(responsibleGamingPayload(settings, { ...limitInputsOf(settings), weekly: "80" }, null)).toEqual({
      depositLimits: { weekly: "8000" },
      realityCheckMinutes: null,
    })
  })
})

// ── The reality check's schedule ────────────────────────────────────────────────────────────
describe("reality check schedule", () => {
  it("the next reminder is the first whole interval of the session after now", () => {
    fc.assert(
      fc.property(
        nowMs,
        fc.integer({ min: 0, max: 3 * 86_400_000 }),
        fc.constantFrom(15, 30, 45, 60, 90, 120),
        (signedInAt, elapsed, minutes) => {
          const interval = minutes * 60_000
          const now = signedInAt + elapsed
          const next = nextReminderAt(signedInAt, interval, now)
          expect(next).toBeGreaterThan(now)
          expect(next - interval).toBeLessThanOrEqual(now)
          expect((next - signedInAt) % interval).toBe(0)
          expect(next - signedInAt).toBeGreaterThanOrEqual(interval)
        },
      ),
      runs,
    )
    expect(formatSessionTime(15 * 60_000)).toBe("15 min")
    expect(formatSessionTime(65 * 60_000)).toBe("1 h 05 min")
    expect(formatSessionTime(120 * 60_000)).toBe("2 h")
  })
})

// ── The profile form ────────────────────────────────────────────────────────────────────────
describe("the profile form's payload (spec section 4: only changed, editable fields)", () => {
  const rules = (fields: ReadonlyArray<ProfileField>) => ({
    fields,
    requireMissing: false,
    countries: [{ name: "Malta", code: "MT", dialingCode: "356" }],
  })

  it("never sends the e-mail, a read-only field, a field not shown, or an empty input", () => {
    fc.assert(
      fc.property(profileValues, inputs, fieldList, (values, typed, fields) => {
        const payload = profilePayload(values, typed, fields)
        for (const key of Object.keys(payload)) {
          const field: ProfileField =
            key === "phoneNumber" || key === "dialingCode" ? "phone" : (key as ProfileField)
          expect(field).not.toBe("email")
          expect(fields).toContain(field)
          expect(isReadOnly(values, field)).toBe(false)
          if (field !== "dateOfBirth") expect(isFilled(typed, field)).toBe(true)
        }
        if (nothingFilled(values, typed, fields)) expect(payload).toEqual({})
      }),
      runs,
    )
  })

  it("sends the picker's placeholder as null, never as text, and a valid date as its UTC midnight", () => {
    fc.assert(
      fc.property(fc.integer({ min: minDob / DAY, max: maxDob / DAY }), (day) => {
        const empty = { ...profileValuesOf(fixtureProfile), dateOfBirth: null }
        expect(
          profilePayload(empty, { ...emptyInputs, dateOfBirth: DATE_PLACEHOLDER }, ["dateOfBirth"]),
        ).toEqual({
          dateOfBirth: null,
        })
        const iso = unixToIsoDate(day * DAY)
        expect(profilePayload(empty, { ...emptyInputs, dateOfBirth: iso }, ["dateOfBirth"])).toEqual({
          dateOfBirth: day * DAY,
        })
      }),
      { numRuns: 100 },
    )
  })

  it("a form without problems sends only what passes the shared rules", () => {
    fc.assert(
      fc.property(profileValues, inputs, fieldList, (values, typed, fields) => {
        if (Object.keys(formProblems(values, typed, rules(fields))).length > 0) return
        const payload = profilePayload(values, typed, fields)
        if (payload.zipCode !== undefined && payload.zipCode !== null)
          expect(isValidZip(payload.zipCode)).toBe(true)
        if (payload.dateOfBirth !== undefined && payload.dateOfBirth !== null)
          expect(isDateOfBirthInRange(payload.dateOfBirth)).toBe(true)
        if (payload.phoneNumber !== undefined) expect(payload.dialingCode).toBeDefined()
        // The phone is required whenever it can be filled.
        if (fields.includes("phone") && !isReadOnly(values, "phone"))
          expect(payload.phoneNumber).toBeDefined()
      }),
      runs,
    )
  })

  it("the completion step requires every missing shown field", () => {
    fc.assert(
      fc.property(profileValues, fieldList, (values, fields) => {
        const problems = formProblems(values, emptyInputs, { ...rules(fields), requireMissing: true })
        expect(Object.keys(problems).sort()).toEqual(
          [...missingFields(values, fields)].filter((f) => f !== "email").sort(),
        )
      }),
      runs,
    )
  })
})

// ── Documents and addresses ─────────────────────────────────────────────────────────────────
describe("verification documents in the browser", () => {
  it("a JPEG, PNG or PDF within the limit passes; anything else names its problem", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("image/jpeg", "image/png", "application/pdf", "image/gif", "text/plain", ""),
        fc.constantFrom("scan.jpg", "scan.PNG", "bill.pdf", "notes.txt", "noextension"),
        fc.integer({ min: 0, max: DOCUMENT_MAX_BYTES * 2 }),
        (type, name, size) => {
          const problem = documentProblem({ name, type, size })
          const accepted =
            type === ""
              ? /\.(jpe?g|png|pdf)$/i.test(name)
              : ["image/jpeg", "image/png", "application/pdf"].includes(type)
          if (size === 0) expect(problem).toBe("EMPTY")
          else if (!accepted) expect(problem).toBe("TYPE")
          else if (size > DOCUMENT_MAX_BYTES) expect(problem).toBe("TOO_LARGE")
          else expect(problem).toBeNull()
          if (problem !== null) expect(documentMessage(problem).length).toBeGreaterThan(10)
        },
      ),
      runs,
    )
  })

  it("verified means both approved", () => {
    const statuses: ReadonlyArray<DocumentStatus | null> = [null, "NONE", "PENDING", "APPROVED", "REJECTED"]
    fc.assert(
      fc.property(fc.constantFrom(...statuses), fc.constantFrom(...statuses), (id, bill) => {
        expect(isVerified(id, bill)).toBe(id === "APPROVED" && bill === "APPROVED")
      }),
    )
  })
})

describe("addresses of the profile area and the unsubscribe page", () => {
  it("every tab's address names that tab (a trailing slash too) and is under /profile", () => {
    for (const tab of profileTabs) {
      const path = ProfileTabInfo[tab].path
      expect(profileTabOf(path)).toBe(tab)
      expect(profileTabOf(`${path}/`)).toBe(tab)
      expect(isProfilePath(path)).toBe(true)
    }
    expect(profileTabOf("/profile/elsewhere")).toBeNull()
    expect(isProfilePath("/profiles")).toBe(false)
  })

  it("an unsubscribe id survives its URL encoding; other paths have none", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), (id) => {
        expect(unsubscribeIdOf(`/unsubscribe/${encodeURIComponent(id)}`)).toBe(id)
      }),
      runs,
    )
    expect(unsubscribeIdOf("/unsubscribe/")).toBeNull()
    expect(unsubscribeIdOf("/unsubscribe/a/b")).toBeNull()
    expect(unsubscribeIdOf("/unsubscribe/%E0%A4%A")).toBeNull()
  })
})
