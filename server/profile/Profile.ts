/**
 * The player's profile (spec sections 3–5): read it (with the verification flags and the last
 * sign-in), update it under the read-only rule (update.ts, one UPDATE on the locked row: all or
 * nothing), switch promotional e-mail, and list the wallets. Every call is for the session's own
 * player: the user id always comes from the session, never from the request.
 */
import { Context, Effect, Layer } from "effect"
import { ProfileFieldLocked, ValidationFailed } from "../../services/errors.ts"
import { ProfileMessages } from "../../services/profile-rules.ts"
import type { Fund, Profile as ProfileView, UpdateProfilePayload } from "../../services/profile-service.ts"
import { Kyc } from "../kyc/Kyc.ts"
import { type CurrentSession, Sessions } from "../users/Sessions.ts"
import { ProfileRepo, type ProfileRow } from "./ProfileRepo.ts"
import { PromoMail } from "./PromoMail.ts"
import { planProfileUpdate, type StoredProfile } from "./update.ts"

export interface ProfileShape {
  readonly get: (session: CurrentSession) => Effect.Effect<ProfileView>
  readonly update: (
    session: CurrentSession,
    payload: UpdateProfilePayload,
  ) => Effect.Effect<ProfileView, ValidationFailed | ProfileFieldLocked>
  readonly setReceiveEmail: (
    userId: string,
    receive: boolean,
  ) => Effect.Effect<{ readonly receiveEmailPromo: boolean }>
  readonly fund: (userId: string) => Effect.Effect<Fund>
}

const gender = (g: string | null) => (g === "FEMALE" || g === "MALE" ? g : null)

export const toStored = (row: ProfileRow): StoredProfile => ({
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  nickName: row.nickName,
  dateOfBirth: row.dateOfBirth,
  gender: gender(row.gender),
  country: row.country,
  phoneNumber: row.phoneNumber,
  dialingCode: row.dialingCode,
  city: row.city,
  state: row.state,
  address: row.address,
  address2: row.address2,
  zipCode: row.zipCode,
  avatar: row.avatar,
  receiveEmailPromo: row.receiveEmailPromo,
})

const make = Effect.gen(function* () {
  const repo = yield* ProfileRepo
  const kyc = yield* Kyc
  const sessions = yield* Sessions
  const promo = yield* PromoMail

  const get = Effect.fn("Profile.get")(function* (session: CurrentSession) {
    const userId = session.user.id
    const row = yield* repo.find(userId).pipe(Effect.orDie)
    if (row === undefined)
      return yield* Effect.die(new Error(`user ${userId} of a live session does not exist`))
    const verified = yield* kyc.verified(userId)
    const lastLogin = yield* sessions.lastLogin(userId, session.sessionId)
    return {
      email: row.email,
      confirmed: row.confirmed,
      firstName: row.firstName,
      lastName: row.lastName,
      receiveEmailPromo: row.receiveEmailPromo,
      idVerification: { verified: verified.id },
      billVerification: { verified: verified.bill },
      userDetails: {
        phone: { phoneNumber: row.phoneNumber, dialingCode: row.dialingCode },
        address: row.address,
        address2: row.address2,
        nickName: row.nickName,
        zipCode: row.zipCode,
        country: row.country,
        city: row.city,
        state: row.state,
        gender: gender(row.gender),
        dateOfBirth: row.dateOfBirth,
        receiveEmailPromo: row.receiveEmailPromo,
      },
      lastLogin,
    } satisfies ProfileView
  })

  const update = Effect.fn("Profile.update")(function* (
    session: CurrentSession,
    payload: UpdateProfilePayload,
  ) {
    const userId = session.user.id
    const country = payload.country?.trim().toUpperCase()
    const optedIn = yield* repo
      .transaction(
        Effect.gen(function* () {
          const row = yield* repo.findForUpdate(userId)
          if (row === undefined)
            return yield* Effect.die(new Error(`user ${userId} of a live session does not exist`))
          const countryKnown =
            country === undefined || country === "" ? undefined : yield* repo.countryExists(country)
          const plan = planProfileUpdate(toStored(row), payload, countryKnown)
          switch (plan._tag) {
            case "Locked":
              return yield* new ProfileFieldLocked({
                message: ProfileMessages.fieldLocked,
                fields: plan.fields,
              })
            case "Invalid":
              return yield* new ValidationFailed({ field: plan.field, message: plan.message })
            case "Write":
              yield* repo.update(userId, plan.columns)
              return plan.columns.receive_email_promo === true
          }
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
    if (optedIn) yield* promo.welcomeOfferIfDue(userId)
    return yield* get(session)
  })

  const setReceiveEmail = Effect.fn("Profile.setReceiveEmail")(function* (userId: string, receive: boolean) {
    yield* repo.setReceiveEmail(userId, receive).pipe(Effect.orDie)
    if (receive) yield* promo.welcomeOfferIfDue(userId)
    return { receiveEmailPromo: receive }
  })

  const fund = Effect.fn("Profile.fund")(function* (userId: string) {
    const rows = yield* repo.fund(userId).pipe(Effect.orDie)
    return rows.map((row) => ({
      currency: row.currency,
      default: row.isDefault,
      balance: row.balance,
      bonusBalance: row.bonusBalance,
      freeSpinWallet: null,
    })) satisfies Fund
  })

  return { get, update, setReceiveEmail, fund } satisfies ProfileShape
})

export class Profile extends Context.Service<Profile, ProfileShape>()("casino/server/Profile") {
  /** Needs ProfileRepo, Kyc, Sessions and PromoMail. */
  static readonly layer = Layer.effect(Profile, make)
}
