/**
 * profile-service (spec section 7): profile, wallets, payments. Paths are the spec's, verbatim.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Unauthenticated } from "../errors.ts"
import { Fund, Profile } from "../profile-service.ts"

export class ProfileServiceApi extends HttpApiGroup.make("profile")
  .add(
    HttpApiEndpoint.get("getProfile", "/profile", { success: Profile, error: [Unauthenticated] }),
    HttpApiEndpoint.get("getFund", "/profile/currency", { success: Fund, error: [Unauthenticated] }),
  )
  .prefix("/profile-service/api/v1")
  .annotateMerge(OpenApi.annotations({ title: "profile-service", description: "Profile and wallets." })) {}
