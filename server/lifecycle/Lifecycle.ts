/**
 * Where this server is in its life: serving, or draining before it stops (SIGTERM, a rolling
 * deploy). One per server, not per process: tests run several servers in one process.
 *
 * The drain begins before anything closes: readiness answers 503 (the proxy stops sending new
 * players), answers carry `Connection: close` (keep-alive clients, the proxy included, open their
 * next request elsewhere), event streams end with a reconnect hint. Only then does the server stop
 * accepting and wait for what is in flight (server/app.ts `drain`).
 */
import { Context, Effect } from "effect"

export interface LifecycleShape {
  /** Whether the drain has begun (readiness, the edge's `Connection: close`). */
  readonly isDraining: () => boolean
  /** Completes when the drain begins; never fails. Event streams race it. */
  readonly draining: Effect.Effect<void>
  /** Begins the drain; later calls do nothing. */
  readonly beginDrain: () => void
}

export const makeLifecycle = (): LifecycleShape => {
  let draining = false
  let release: () => void = () => undefined
  const begun = new Promise<void>((resolve) => {
    release = resolve
  })
  return {
    isDraining: () => draining,
    draining: Effect.promise(() => begun),
    beginDrain: () => {
      if (draining) return
      draining = true
      release()
    },
  }
}

export class Lifecycle extends Context.Service<Lifecycle, LifecycleShape>()("casino/server/Lifecycle") {}
