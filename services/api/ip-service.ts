/**
 * ip-service (spec section 7): where the caller is, for the country block.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ClientIp } from "../ip-service.ts"

export class IpServiceApi extends HttpApiGroup.make("ip")
  .add(HttpApiEndpoint.get("currentIp", "/user/currentIp", { success: ClientIp }))
  .prefix("/ip-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({ title: "ip-service", description: "The caller's country, offline GeoIP." }),
  ) {}
