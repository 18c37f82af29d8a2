/**
 * Reporting an unexpected error (spec: "Any unexpected error is logged … and this page appears").
 * Gathers what the browser can tell — user agent, language, URL — with the local user record.
 * Loaded only when an error happens (the shell imports it on demand).
 */
import { Effect } from "effect"
import type { CapturedError } from "./captured-error.ts"
import { errorLoggerClient } from "./clients/errorLogger.ts"
import type { ErrorReport } from "./error-logger.ts"
import { readLocalUser } from "./local-user.ts"

const clip = (text: string | undefined, max: number): string | undefined => text?.slice(0, max)

export const buildErrorReport = (error: CapturedError): ErrorReport => {
  const stack = clip(error.stack, 8_000)
  const componentStack = clip(error.componentStack, 8_000)
  const nav = globalThis.navigator
  const viewport = globalThis.innerWidth ? `${globalThis.innerWidth}x${globalThis.innerHeight}` : undefined
  return {
    user: readLocalUser(),
    error: {
      name: error.name.slice(0, 200),
      message: error.message.slice(0, 2_000),
      ...(stack ? { stack } : {}),
      ...(componentStack ? { componentStack } : {}),
    },
    browser: {
      userAgent: (nav?.userAgent ?? "unknown").slice(0, 512),
      language: (nav?.language ?? "en").slice(0, 32),
      url: (globalThis.location?.href ?? "/").slice(0, 2_048),
      ...(viewport ? { viewport } : {}),
    },
  }
}

export const reportUnexpectedError = (error: CapturedError) =>
  Effect.gen(function* () {
    yield* errorLoggerClient.report({ payload: buildErrorReport(error) })
  })
