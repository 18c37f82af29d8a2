/**
 * Types for the profile-service group's handlers, which three modules provide (profile with the
 * sessions, kyc, responsible-gaming) and server/profile/http.ts composes into the one group.
 */
import type { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import type { ProfileServiceApi } from "../../services/api/profile-service.ts"

type Endpoints = HttpApiGroup.Endpoints<typeof ProfileServiceApi>

export type ProfileEndpointName = HttpApiEndpoint.Identifier<Endpoints>

/** Handlers of some of the group's endpoints; services are taken when the handlers are built. */
export type ProfileHandlers<Names extends ProfileEndpointName> = {
  readonly [Name in Names]: HttpApiEndpoint.Handler<
    HttpApiEndpoint.WithIdentifier<Endpoints, Name>,
    never,
    never
  >
}
