/**
 * ip-service (spec section 7): where the caller is, for the country block.
 */
import { Schema } from "effect"

export const ClientIp = Schema.Struct({
  /** Country name, e.g. "Malta". */
  country: Schema.String,
  /** ISO 3166-1 alpha-2, e.g. "MT". */
  isoCode: Schema.String,
})
export type ClientIp = typeof ClientIp.Type
