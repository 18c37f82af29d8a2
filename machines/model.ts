/**
 * The contract between a machine's `<flow>.model.ts` and the generated path tests (tests/model).
 * Traversal is pure: invoked actors never run, so a model supplies their outcomes as events
 * (`xstate.done.actor.<id>` with an `output`, `xstate.error.actor.<id>` with an `error`) and timers
 * as `xstate.after.<delay>.<stateNodeId>`.
 */
import type { AnyEventObject, AnyStateMachine, SnapshotFrom } from "xstate"

export interface UncoveredTransition {
  /** State node id the transition leaves, e.g. "login.submitting". */
  readonly from: string
  /** The event type, e.g. "xstate.error.actor.signIn". */
  readonly event: string
  /** Why no generated path can take it. Required: an unexplained gap fails the run. */
  readonly reason: string
}

export interface MachineModel<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** Name shown in the coverage table. */
  readonly name: string
  readonly machine: TMachine
  /** Input for `createActor(machine, { input })`, when the machine takes one. */
  readonly input?: unknown
  /**
   * Every event the paths may use, including invoke outcomes and timers. A function receives the
   * current snapshot so payloads can depend on it; it must still list every event type needed.
   */
  readonly events:
    | ReadonlyArray<AnyEventObject>
    | ((snapshot: SnapshotFrom<TMachine>) => ReadonlyArray<AnyEventObject>)
  /** Project the context to what matters for distinguishing states (keeps the graph small). */
  readonly projectContext?: (snapshot: SnapshotFrom<TMachine>) => unknown
  /** Transitions no path can take, each with its reason. */
  readonly uncovered?: ReadonlyArray<UncoveredTransition>
}

export const defineModel = <TMachine extends AnyStateMachine>(
  model: MachineModel<TMachine>,
): MachineModel<TMachine> => model
