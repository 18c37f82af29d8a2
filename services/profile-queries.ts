/**
 * The account's reads, reused until stale (services/query-cache.ts). The session reads the profile
 * `fresh` when it loads the account (and again when stale or changed), so the profile page opened
 * afterwards shows that answer without asking again; a save keeps the saved profile, a change of
 * the e-mail preference forgets it.
 */
import { Effect } from "effect"
import { CdnFiles, CountryCodes } from "./cdn.ts"
import { fetchCdnFile } from "./client.ts"
import { profileClient } from "./clients/profile.ts"
import { query } from "./query-cache.ts"

export const profileQuery = query(profileClient.getProfile(), { scope: "player" })

export const countryCodesQuery = query(
  // The CDN base is read from the page when the file is asked for, not when this module loads.
  Effect.suspend(() => fetchCdnFile(CdnFiles.countryCodes, CountryCodes)),
  { scope: "public" },
)
