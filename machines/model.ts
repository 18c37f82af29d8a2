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

/** One more way the caller starts the machine, named for the paths that start with it. */
export interface NamedInput {
  /** Short, e.g. `fresh`: the id of every path from this input starts with `(fresh)`. */
  readonly name: string
  readonly input: unknown
}

export interface MachineModel<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** Name shown in the coverage table. */
  readonly name: string
  readonly machine: TMachine
  /** Input for `createActor(machine, { input })`, when the machine takes one. */
  readonly input?: unknown
  /**
   * Further inputs the caller starts the machine with (a dialog opened afresh beside one reopened on
   * a payment). Paths are generated from each of them too, so a choice the machine makes on its input
   * is covered rather than allow-listed; such a path replays with its own input.
   */
  readonly otherInputs?: ReadonlyArray<NamedInput>
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
