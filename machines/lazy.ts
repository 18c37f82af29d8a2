/**
 * Actor logic whose code is downloaded on first need. A host machine names it in `setup({ actors })`
 * like any other logic, and invokes it only from a state entered after `load()` resolved (the host
 * invokes `load` itself, so the wait is a state of its chart, with its own `onError`).
 *
 * Why a stand-in object: XState resolves `invoke.src` from the actors given to `setup`, which must
 * exist before the module does. The stand-in takes the loaded logic as its prototype, so from then
 * on it IS that logic for XState, the views (`ActorRefFrom<typeof m>`) and live inspection
 * (`ref.logic.root`). Before that, starting it throws — a host bug, reported by the host's onError.
 */
import type { AnyActorLogic } from "xstate"

export interface LazyLogic<L extends AnyActorLogic> {
  /** The logic to put in `setup({ actors })`; usable once `load()` resolved. */
  readonly logic: L
  /** Downloads the module (once; later calls share the first download). */
  readonly load: () => Promise<void>
  readonly loaded: () => boolean
}

const notLoaded = (name: string): never => {
  throw new Error(`the ${name} flow was started before its code was loaded`)
}

export const lazyLogic = <L extends AnyActorLogic>(
  name: string,
  importer: () => Promise<L>,
): LazyLogic<L> => {
  const pending: AnyActorLogic = {
    transition: () => notLoaded(name),
    getInitialSnapshot: () => notLoaded(name),
    getPersistedSnapshot: () => notLoaded(name),
  }
  const standIn: object = Object.create(pending)
  let download: Promise<void> | undefined
  let done = false
  return {
    // The stand-in becomes an L when the download completes (see above); the type says what it will be.
    logic: standIn as L,
    load: () => {
      download ??= importer().then(
        (logic) => {
          Object.setPrototypeOf(standIn, logic)
          done = true
        },
        (error: unknown) => {
          download = undefined // a failed download (offline) may be retried on the next open
          throw error
        },
      )
      return download
    },
    loaded: () => done,
  }
}

/**
 * A module downloaded on first need, once: every caller shares the first download, and a failed one
 * (offline, a replaced deploy) is retried by the next call.
 */
export const lazyModule = <M>(importer: () => Promise<M>): (() => Promise<M>) => {
  let download: Promise<M> | undefined
  return () => {
    download ??= importer().catch((error: unknown) => {
      download = undefined
      throw error
    })
    return download
  }
}
