/**
 * The error logger (spec section 7): the browser reports unexpected errors before showing the 500 page.
 */
import { Schema } from "effect"

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

export const ErrorReport = Schema.Struct({
  /** The stored local user record (name and user-id), when there is one. */
  user: Schema.NullOr(Schema.Struct({ name: Text(200), userId: Text(64) })),
  error: Schema.Struct({
    name: Text(200),
    message: Text(2_000),
    stack: Schema.optional(Text(8_000)),
    componentStack: Schema.optional(Text(8_000)),
  }),
  browser: Schema.Struct({
    userAgent: Text(512),
    language: Text(32),
    url: Text(2_048),
    viewport: Schema.optional(Text(32)),
  }),
})
export type ErrorReport = typeof ErrorReport.Type
