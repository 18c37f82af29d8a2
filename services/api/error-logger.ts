/**
 * The error logger (spec section 7): the browser reports unexpected errors before showing the 500 page.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ErrorReport } from "../error-logger.ts"
import { RateLimited } from "../errors.ts"

export class ErrorLoggerApi extends HttpApiGroup.make("errorLogger")
  .add(
    HttpApiEndpoint.post("report", "/api/error-logger", {
      payload: ErrorReport,
      success: HttpApiSchema.Accepted,
      error: [RateLimited],
    }),
  )
  .annotateMerge(OpenApi.annotations({ title: "error-logger", description: "Browser error reports." })) {}
