/**
 * Realistic inputs and failures for the machines' models (machines/<flow>.model.ts) and their actor
 * tests (tests/unit): the flow input the modal host passes, a session user with its account, and
 * the client-side failures (transport error, HTTP status without our body, undecodable answer).
 */
import { Schema, SchemaIssue } from "effect"
import type { Me } from "../services/backoffice/operators.ts"
import type { Currencies, SiteConfig } from "../services/cdn.ts"
import { ClientError } from "../services/client.ts"
import type { AuthStatus, SessionUser } from "../services/user-service.ts"
import type { Account } from "./auth.machine.ts"
import type { FlowInput } from "./flow.ts"

export const fixtureSiteConfig: SiteConfig = {
  productName: "Casino",
  supportEmail: "support@casino.example",
  blockedEmailDomains: ["blocked.example", "banned.example"],
  tutorialVideoUrl: "https://www.youtube-nocookie.com/embed/tutorial",
  defaultCurrency: "EUR",
  languages: ["en", "de"],
}

export const fixtureCurrencies: Currencies = [
  { code: "EUR", name: "Euro", symbol: "€", type: "FIAT", fiat: true, subunits_to_unit: "100" },
  { code: "USD", name: "US Dollar", symbol: "$", type: "FIAT", fiat: true, subunits_to_unit: "100" },
  { code: "BTC", name: "Bitcoin", symbol: "₿", type: "CRYPTO", fiat: false, subunits_to_unit: "100000000" },
]

export const flowInput = (
  token: string | null = null,
  siteConfig: SiteConfig = fixtureSiteConfig,
): FlowInput => ({
  siteConfig,
  currencies: fixtureCurrencies,
  token,
})

export const fixtureUser: SessionUser = {
  id: "0b7c6f0e-5d0a-4f43-9a59-2f8f3c1d9e11",
  email: "ada@lovelace.example",
  fullName: "Ada Lovelace",
  confirmed: false,
}

/**
 * The account a signed-in session loads: the profile of a fresh registration, its first wallet and
 * its loyalty level (every player starts Bronze).
 */
export const fixtureAccount: Account = {
  profile: {
    email: fixtureUser.email,
    confirmed: false,
    firstName: "Ada",
    lastName: "Lovelace",
    receiveEmailPromo: false,
    idVerification: { verified: false },
    billVerification: { verified: false },
    userDetails: {
      phone: { phoneNumber: null, dialingCode: null },
      address: null,
      address2: null,
      nickName: null,
      zipCode: null,
      country: null,
      city: null,
      state: null,
      gender: null,
      dateOfBirth: null,
      receiveEmailPromo: false,
    },
    lastLogin: null,
  },
  fund: [{ currency: "EUR", default: true, balance: "1250", freeSpinWallet: null }],
  loyalty: { level: 1, name: "Bronze" },
}

/** A signed-in back-office operator (the KYC role, which may also answer the chat). */
export const kycOfficer: Me = {
  operator: {
    id: "5b1e8f0a-7a51-4a8e-9d38-2a8f3c1d9e11",
    email: "kim@ops.example",
    name: "Kim",
    role: "kyc",
    enrolled: true,
    disabled: false,
    mustChangePassword: false,
    createdAt: "2026-11-28T09:00:00.000Z",
    updatedAt: "2026-11-28T09:00:00.000Z",
  },
  role: "kyc",
  permissions: ["players.read", "kyc.review", "chat.answer"],
}

export const signedInStatus: AuthStatus = { isAuthenticated: true, user: fixtureUser }
export const anonymousStatus: AuthStatus = { isAuthenticated: false, user: null }

/** The network failed before any answer (offline, DNS, reset connection). */
export const transportError = (): ClientError =>
  new ClientError({
    reason: "Transport",
    method: "POST",
    url: "/user-service/api/v1/signin",
    status: null,
    cause: new TypeError("Failed to fetch"),
  })

/** An answer with this status whose body is not one of the contract's errors (e.g. from a proxy). */
export const statusError = (status: number): ClientError =>
  new ClientError({ reason: "Status", method: "POST", url: "/user-service/api/v1/signin", status })

/** An answer the contract's schema could not decode. */
export const schemaError = (): Schema.SchemaError =>
  new Schema.SchemaError(new SchemaIssue.InvalidValue({ message: "unexpected response body" }))
