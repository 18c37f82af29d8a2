/**
 * The session's calls (machines/auth.machine.ts): is this browser signed in, the account it loads
 * once signed in (profile and fund), sign-out. Their own chunk: the contract tables of the user and
 * profile groups they use are not part of the first screen's download (docs/performance.md). The
 * app starts downloading it while the shell boots, so the session check does not wait for it.
 */
import { Effect } from "effect"
import { profileClient } from "./clients/profile.ts"
import { userClient } from "./clients/user.ts"
import { profileQuery } from "./profile-queries.ts"
import type { Fund, Profile } from "./profile-service.ts"

export interface Account {
  readonly profile: Profile
  readonly fund: Fund
}

export const checkSession = Effect.gen(function* () {
  return yield* userClient.isAuthenticated()
})

export const loadAccount = Effect.gen(function* () {
  const [profile, fund] = yield* Effect.all([profileQuery.fresh, profileClient.getFund()], {
    concurrency: "unbounded",
  })
  const account: Account = { profile, fund }
  return account
})

/** The wallets alone (`GET …/profile/currency`): what a pushed change of wallets needs. */
export const loadFund = Effect.gen(function* () {
  return yield* profileClient.getFund()
})

export const signOut = Effect.gen(function* () {
  yield* userClient.signout()
})
