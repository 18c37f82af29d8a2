/**
 * The rate limiter counts in fixed windows aligned on the epoch (server/security/RateLimiter.ts): a
 * burst that straddles a window's end is counted in two windows. A test that counts exactly up to a
 * limit first waits, when the current window is about to end, for the next one to begin: a wait for
 * a known state, not a bet on timing.
 */
export const awayFromWindowEnd = async (windowSeconds: number, marginSeconds = 15): Promise<void> => {
  const windowMs = windowSeconds * 1000
  const left = windowMs - (Date.now() % windowMs)
  if (left < marginSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 1000))
}
