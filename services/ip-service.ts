/**
 * ip-service (spec section 7): where the caller is, for the country block.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

export const ClientIp = Schema.Struct({
  /** Country name, e.g. "Malta". */
  country: Schema.String,
  /** ISO 3166-1 alpha-2, e.g. "MT". */
  isoCode: Schema.String,
})
export type ClientIp = typeof ClientIp.Type

export class IpServiceApi extends HttpApiGroup.make("ip")
  .add(HttpApiEndpoint.get("currentIp", "/user/currentIp", { success: ClientIp }))
  .prefix("/ip-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({ title: "ip-service", description: "The caller's country, offline GeoIP." }),
  ) {}
