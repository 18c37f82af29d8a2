/**
 * profile-service (spec section 7). The foundation serves the two read-only calls the shell needs
 * once a player is signed in — the profile and the fund (wallet) list; the rest of the service
 * arrives with the profile, wallet and payments capabilities.
 */
import { Schema } from "effect"

export const Profile = Schema.Struct({
  email: Schema.String,
  confirmed: Schema.Boolean,
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  receiveEmailPromo: Schema.Boolean,
  idVerification: Schema.Struct({ verified: Schema.Boolean }),
  billVerification: Schema.Struct({ verified: Schema.Boolean }),
  userDetails: Schema.Struct({
    phone: Schema.Struct({
      phoneNumber: Schema.NullOr(Schema.String),
      dialingCode: Schema.NullOr(Schema.String),
    }),
    address: Schema.NullOr(Schema.String),
    address2: Schema.NullOr(Schema.String),
    nickName: Schema.NullOr(Schema.String),
    zipCode: Schema.NullOr(Schema.String),
    country: Schema.NullOr(Schema.String),
    city: Schema.NullOr(Schema.String),
    state: Schema.NullOr(Schema.String),
    gender: Schema.NullOr(Schema.Literals(["FEMALE", "MALE"])),
    /** Unix seconds. */
    dateOfBirth: Schema.NullOr(Schema.Int),
    receiveEmailPromo: Schema.Boolean,
  }),
})
export type Profile = typeof Profile.Type

export const WinUnlockConfig = Schema.Struct({
  depositAmount: Schema.String,
  depositAmountInEur: Schema.String,
  depositCurrency: Schema.String,
  extraBonusPercent: Schema.Int,
})

export const FundEntry = Schema.Struct({
  currency: Schema.String,
  default: Schema.Boolean,
  /** Integer minor units of the currency (see `subunits_to_unit`), as a decimal string. Never a float. */
  balance: Schema.String,
  freeSpinWallet: Schema.NullOr(Schema.Struct({ winUnlockConfig: Schema.NullOr(WinUnlockConfig) })),
})
export type FundEntry = typeof FundEntry.Type

export const Fund = Schema.Array(FundEntry)
export type Fund = typeof Fund.Type
