/**
 * GET/PUT /profile on PostgreSQL: the spec's fields and rules re-checked on the server with the
 * functions of services/profile-rules.ts (date of birth bounds, zip, gender, country list, phone
 * split and validity, names), the read-only rule (409 listing the fields, the same value
 * harmless), nothing half-written, the last sign-in (time, IP, country), and one player never
 * changing another's profile.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ProfileMessages } from "../../services/profile-rules.ts"
import { newPlayer, PASSWORD, type Player, PROFILE, put } from "./account-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { Browser, signIn } from "./users-support.ts"

const DE_IP = "85.214.132.117"
const NL_IP = "193.0.6.139"

const profileColumns = async (server: TestServer, email: string) => {
  const rows = await server.query<Record<string, unknown>>(
    `SELECT first_name, last_name, nick_name, to_char(date_of_birth, 'YYYY-MM-DD') AS date_of_birth, gender,
            country, city, state, address, address2, zip_code, phone_number, dialing_code, avatar,
            receive_email_promo
     FROM users WHERE email = $1`,
    [email],
  )
  return rows[0]
}

describeOn("postgres", "profile", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false }, { env: { TRUST_PROXY: "true" } })
  })
  afterAll(() => server?.close())

  const validationOf = async (player: Player, payload: Record<string, unknown>) => {
    const before = await profileColumns(server, player.email)
    const res = await put(player.browser, `${PROFILE}/profile`, payload)
    // A refused request writes nothing.
    expect(await profileColumns(server, player.email)).toEqual(before)
    return res
  }

  it("needs a session", async () => {
    const res = await new Browser(server).call("PUT", `${PROFILE}/profile`, { city: "Valletta" })
    expect(res.status).toBe(401)
  })

  it("fills empty fields, normalises them, and shows them back", async () => {
    const player = await newPlayer(server, "profile-fill", "Katherine Johnson")
    const res = await put(player.browser, `${PROFILE}/profile`, {
      nickName: "  kj  ",
      dateOfBirth: Date.UTC(1990, 0, 2) / 1000,
      gender: "female",
      country: "mt",
      city: "Valletta",
      state: "Malta",
      address: "Main Street 1",
      address2: "",
      zipCode: "VLT1000",
      phoneNumber: "2123 4567",
      dialingCode: "+356",
      avatar: "avatar-7",
      receiveEmailPromo: false,
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      email: player.email,
      firstName: "Katherine",
      lastName: "Johnson",
      userDetails: {
        phone: { phoneNumber: "21234567", dialingCode: "356" },
        address: "Main Street 1",
        address2: null,
        nickName: "kj",
        zipCode: "VLT1000",
        country: "MT",
        city: "Valletta",
        state: "Malta",
        gender: "FEMALE",
        dateOfBirth: Date.UTC(1990, 0, 2) / 1000,
        receiveEmailPromo: false,
      },
    })
    expect(await profileColumns(server, player.email)).toEqual({
      first_name: "Katherine",
      last_name: "Johnson",
      nick_name: "kj",
      date_of_birth: "1990-01-02",
      gender: "FEMALE",
      country: "MT",
      city: "Valletta",
      state: "Malta",
      address: "Main Street 1",
      address2: null,
      zip_code: "VLT1000",
      phone_number: "21234567",
      dialing_code: "356",
      avatar: "avatar-7",
      receive_email_promo: false,
    })
    expect((await player.browser.get(`${PROFILE}/profile`)).body).toEqual(res.body)
  })

  it("read-only once filled: a different value or clearing is 409 with every such field; the same value is harmless", async () => {
    const player = await newPlayer(server, "profile-locked", "Grace Hopper")
    const first = await put(player.browser, `${PROFILE}/profile`, {
      city: "Arlington",
      zipCode: "22201",
      phoneNumber: "21234567",
      dialingCode: "356",
    })
    expect(first.status).toBe(200)

    // The same values, the phone spelt differently: nothing to refuse.
    const same = await put(player.browser, `${PROFILE}/profile`, {
      firstName: "Grace",
      city: " Arlington ",
      zipCode: "22201",
      phoneNumber: "+356 2123 4567",
      dialingCode: "356",
    })
    expect(same.status).toBe(200)

    const locked = await validationOf(player, {
      firstName: "Amazing",
      city: "New York",
      zipCode: null,
      phoneNumber: "21234568",
      state: "Virginia",
    })
    expect(locked.status).toBe(409)
    expect(locked.body).toEqual({
      _tag: "ProfileFieldLocked",
      message: ProfileMessages.fieldLocked,
      fields: ["firstName", "city", "zipCode", "phone"],
    })
    // `state` was empty and valid, yet nothing of the request was written (checked by validationOf).
    expect((await profileColumns(server, player.email))?.state).toBeNull()
  })

  describe("every refused field is ValidationFailed with the field and the rule's message, writing nothing", () => {
    let player: Player
    beforeAll(async () => {
      player = await newPlayer(server, "profile-rules")
      // Names come from registration; empty them to check their rule too.
      await server.query("UPDATE users SET first_name = NULL, last_name = NULL WHERE email = $1", [
        player.email,
      ])
    })

    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string, string]> = [
      [
        "date after the bound",
        { dateOfBirth: Date.UTC(2006, 0, 1) / 1000 },
        "dateOfBirth",
        ProfileMessages.dateOfBirthRange,
      ],
      [
        "date before the bound",
        { dateOfBirth: Date.UTC(1899, 11, 31) / 1000 },
        "dateOfBirth",
        ProfileMessages.dateOfBirthRange,
      ],
      [
        "date not at midnight",
        { dateOfBirth: Date.UTC(1990, 0, 2) / 1000 + 3600 },
        "dateOfBirth",
        ProfileMessages.dateOfBirthRange,
      ],
      ["zip over 7", { zipCode: "12345678" }, "zipCode", ProfileMessages.zipTooLong],
      ["zip with symbols", { zipCode: "12$45" }, "zipCode", ProfileMessages.zipInvalid],
      ["gender", { gender: "OTHER" }, "gender", ProfileMessages.genderInvalid],
      ["unknown country code", { country: "XX" }, "country", ProfileMessages.countryUnknown],
      ["country by name", { country: "Malta" }, "country", ProfileMessages.countryUnknown],
      [
        "phone letters",
        { phoneNumber: "call me", dialingCode: "356" },
        "phoneNumber",
        ProfileMessages.phoneNotANumber,
      ],
      [
        "phone too short",
        { phoneNumber: "1", dialingCode: "356" },
        "phoneNumber",
        ProfileMessages.phoneTooShort,
      ],
      [
        "phone too long",
        { phoneNumber: "123456789012345678", dialingCode: "356" },
        "phoneNumber",
        ProfileMessages.phoneTooLong,
      ],
      [
        "phone invalid calling code",
        { phoneNumber: "21234567", dialingCode: "999" },
        "phoneNumber",
        ProfileMessages.phoneInvalidCountry,
      ],
      [
        "phone invalid for the code",
        { phoneNumber: "12345678", dialingCode: "356" },
        "phoneNumber",
        ProfileMessages.phoneInvalid,
      ],
      ["phone without its code", { phoneNumber: "21234567" }, "dialingCode", ProfileMessages.phoneIncomplete],
      ["code without a number", { dialingCode: "356" }, "phoneNumber", ProfileMessages.phoneIncomplete],
      ["first name with digits", { firstName: "R2D2" }, "firstName", ProfileMessages.nameInvalid],
      ["last name too long", { lastName: "A".repeat(51) }, "lastName", ProfileMessages.textTooLong(50)],
      ["nick name too long", { nickName: "n".repeat(33) }, "nickName", ProfileMessages.textTooLong(32)],
      ["city too long", { city: "c".repeat(65) }, "city", ProfileMessages.textTooLong(64)],
    ]
    for (const [name, payload, field, message] of cases) {
      it(name, async () => {
        const res = await validationOf(player, { ...payload, state: "written only if all is valid" })
        expect(res.status).toBe(400)
        expect(res.body).toEqual({ _tag: "ValidationFailed", field, message })
      })
    }

    it("wrong types and oversized text are 400 BadRequest from the contract", async () => {
      for (const payload of [
        { dateOfBirth: "1990-01-02" },
        { city: "c".repeat(257) },
        { receiveEmailPromo: "yes" },
        { city: "a\u0000b" },
      ]) {
        const res = await validationOf(player, payload)
        expect(res.status, JSON.stringify(payload)).toBe(400)
        expect(res.body).toMatchObject({ error: "BadRequest", kind: "Payload" })
      }
    })

    it("accepts names of any script with hyphens and apostrophes", async () => {
      const res = await put(player.browser, `${PROFILE}/profile`, {
        firstName: "Zoë-Ann",
        lastName: "O'Brien Ñúñez",
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ firstName: "Zoë-Ann", lastName: "O'Brien Ñúñez" })
    })
  })

  it("one player's update never touches another's profile", async () => {
    const a = await newPlayer(server, "profile-a")
    const b = await newPlayer(server, "profile-b")
    expect((await put(b.browser, `${PROFILE}/profile`, { city: "Mdina", nickName: "bee" })).status).toBe(200)
    const aProfile = await a.browser.get(`${PROFILE}/profile`)
    expect(aProfile.body).toMatchObject({ email: a.email, userDetails: { city: null, nickName: null } })
    // A can still fill its own city: B's value did not lock A's field.
    expect((await put(a.browser, `${PROFILE}/profile`, { city: "Rabat" })).status).toBe(200)
    expect((await b.browser.get(`${PROFILE}/profile`)).body).toMatchObject({ userDetails: { city: "Mdina" } })
  })

  it("last login: the sign-in before the current session, with its IP and that IP's country", async () => {
    const player = await newPlayer(server, "profile-last")
    const registered = new Browser(server, DE_IP)
    const email = player.email
    // Sign in from Germany, then from the Netherlands, then from a private address.
    expect((await signIn(registered, email, PASSWORD)).status).toBe(200)
    const dutch = new Browser(server, NL_IP)
    expect((await signIn(dutch, email, PASSWORD)).status).toBe(200)
    const local = new Browser(server, "10.9.8.7")
    expect((await signIn(local, email, PASSWORD)).status).toBe(200)

    // The registration's session has no earlier sign-in.
    expect((await player.browser.get(`${PROFILE}/profile`)).body).toMatchObject({ lastLogin: null })
    const fromDutch = (await dutch.get(`${PROFILE}/profile`)).body as {
      lastLogin: { ip: string; country: string; at: string }
    }
    expect(fromDutch.lastLogin).toMatchObject({ ip: DE_IP, country: "DE" })
    const fromLocal = (await local.get(`${PROFILE}/profile`)).body as {
      lastLogin: { ip: string; country: string; at: string }
    }
    expect(fromLocal.lastLogin).toMatchObject({ ip: NL_IP, country: "NL" })
    expect(Date.parse(fromLocal.lastLogin.at)).toBeGreaterThanOrEqual(Date.parse(fromDutch.lastLogin.at))
    const recorded = await server.query<{ kind: string; country: string }>(
      "SELECT l.kind, l.country FROM logins l JOIN users u ON u.id = l.user_id WHERE u.email = $1 ORDER BY l.id",
      [email],
    )
    expect(recorded).toEqual([
      { kind: "registration", country: "MT" },
      { kind: "signin", country: "DE" },
      { kind: "signin", country: "NL" },
      { kind: "signin", country: "MT" },
    ])
  })
})
