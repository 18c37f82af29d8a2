/**
 * The session's calls (machines/auth.machine.ts): is this browser signed in, the account it loads
 * once signed in (profile, fund and the loyalty level the header shows), sign-out. Their own chunk: the contract tables of the user and
 * profile groups they use are not part of the first screen's download (docs/performance.md). The
 * app starts downloading it while the shell boots, so the session check does not wait for it.
 */
import { Effect } from "effect"
import { bonusesClient } from "./clients/bonuses.ts"
import { profileClient } from "./clients/profile.ts"
import { userClient } from "./clients/user.ts"
import { profileQuery } from "./profile-queries.ts"
import type { Fund, Profile } from "./profile-service.ts"

/** The loyalty level as the header shows it (docs/loyalty.md). */
export interface LoyaltyBadge {
  readonly level: number
  readonly name: string
}

export interface Account {
  readonly profile: Profile
  readonly fund: Fund
  /** null when it could not be read: the header then shows no level, the account still loads. */
  readonly loyalty: LoyaltyBadge | null
}

/** The header's level: a failure here never fails the account's load. */
const loyaltyBadge = () =>
  bonusesClient.loyaltyLevel().pipe(
    Effect.map((l): LoyaltyBadge | null => ({ level: l.level, name: l.name })),
    Effect.orElseSucceed(() => null),
  )

export const checkSession = Effect.gen(function* () {
  return yield* userClient.isAuthenticated()
})

export const loadAccount = Effect.gen(function* () {
  const [profile, fund, loyalty] = yield* Effect.all(
    [profileQuery.fresh, profileClient.getFund(), loyaltyBadge()],
    { concurrency: "unbounded" },
  )
  const account: Account = { profile, fund, loyalty }
  return account
})

/** The wallets alone (`GET …/profile/currency`): what a pushed change of wallets needs. */
export const loadFund = Effect.gen(function* () {
  return yield* profileClient.getFund()
})

export const signOut = Effect.gen(function* () {
  yield* userClient.signout()
})
