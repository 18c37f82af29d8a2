/**
 * The ONE reviewed table of reasons a generated path may be skipped in Chromium. A binding names one
 * of these and says which case it is; an event that no binding handles is not a skip: it fails the
 * run (support/replay.ts), so a new event in a machine cannot silently go untested end to end.
 * Adding a row here is a review decision, not a convenience.
 */
export const SkipReasons = {
  rateLimitsRelaxed:
    "the shared e2e server runs with relaxed rate limits so the tests do not throttle each other (the limiter is tested in tests/server)",
  proxyOnly: "an HTTP status without the contract's error body comes from a proxy, never from this server",
  contractKept: "the real server keeps its contract: it never gives this answer",
  pathContradicts: "two steps of this path exclude each other on the real server",
  notSentByApp: "the app never sends this event to this machine in this situation",
  sharedStack:
    "the e2e stack is shared by every test at once: this cannot be arranged for one test without disturbing the others",
  playedElsewhere: "it needs a set-up a dedicated end-to-end test plays instead",
} as const

export type SkipReason = keyof typeof SkipReasons

export interface Skip {
  readonly reason: SkipReason
  /** The case: which answer, which steps, which test plays it. */
  readonly detail: string
}

export const skip = (reason: SkipReason, detail: string): Skip => ({ reason, detail })

export const skipText = (s: Skip): string => `${SkipReasons[s.reason]} (${s.detail})`
