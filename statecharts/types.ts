/**
 * The shapes the statechart toolkit passes around: a machine read into a plain `Chart`, a `Chart`
 * laid out into a `ChartLayout` (absolute coordinates, ready to draw), and the live-inspection
 * messages the player app sends to the visualizer. Plain data only (JSON-safe), so the same values
 * serve the /statecharts route, the static export in docs/statecharts/ and the tests.
 */

export type ChartStateType = "atomic" | "compound" | "parallel" | "final" | "history"

export interface ChartInvoke {
  /** The invoke's id: the suffix of its `xstate.done.actor.<id>` / `xstate.error.actor.<id>` events. */
  readonly id: string
  /** The actor it runs, by the name it is provided under (`src`). */
  readonly src: string
}

export interface ChartState {
  /** The state node id, e.g. `login.submitting`. Unique within the machine. */
  readonly id: string
  /** The last segment of the id (the state's key in its parent), `login` for the root. */
  readonly key: string
  readonly type: ChartStateType
  /** Id of the initial child (compound states only). */
  readonly initial: string | null
  /** Named actions, in order; an inline function action is `inline`, an assign is `assign`. */
  readonly entry: ReadonlyArray<string>
  readonly exit: ReadonlyArray<string>
  readonly invokes: ReadonlyArray<ChartInvoke>
  readonly tags: ReadonlyArray<string>
  /** The state's `description`, when the machine gives one. */
  readonly description: string | null
  readonly children: ReadonlyArray<ChartState>
}

export type ChartEventKind = "event" | "after" | "done.invoke" | "error.invoke" | "done.state" | "always"

export interface ChartTransition {
  /**
   * `<source state id>|<event type or "always">|<index among that node's transitions for the
   * event>`: the same key the generated paths record in `PathStep.fired` (statecharts/paths.ts).
   */
  readonly key: string
  readonly source: string
  /** Target state ids; empty for a targetless transition (actions only, no state change). */
  readonly targets: ReadonlyArray<string>
  /** The raw event type, e.g. `xstate.after.5000.login.done` or `SUBMIT`. */
  readonly event: string
  readonly kind: ChartEventKind
  /** What a person reads: `SUBMIT`, `after 5 s`, `done: signIn`, `error: signIn`, `done`, `always`. */
  readonly eventLabel: string
  /** The named guard (`isValid`, `and(a, b)`, `not(a)`), or null when unguarded. */
  readonly guard: string | null
  readonly actions: ReadonlyArray<string>
  /** Whole label: `SUBMIT [isValid] / clearErrors`. */
  readonly label: string
  readonly reenter: boolean
}

export interface Chart {
  /** The machine's id (its root state node id), e.g. `login`. */
  readonly id: string
  /** The model's name (file stem of machines/<name>.model.ts), e.g. `login`. */
  readonly name: string
  readonly root: ChartState
  /** Every transition of every state node (root included), in document order. */
  readonly transitions: ReadonlyArray<ChartTransition>
}

// ── Layout ─────────────────────────────────────────────────────────────────────────────────────
export interface Point {
  readonly x: number
  readonly y: number
}

export interface TextLine {
  readonly text: string
  /** Baseline-left anchor, absolute. */
  readonly x: number
  readonly y: number
  readonly kind: "title" | "entry" | "exit" | "invoke" | "internal" | "tag"
}

export interface StateBox {
  /** The state node id. */
  readonly id: string
  readonly type: ChartStateType
  /** Absolute, in the diagram's coordinate space. */
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
  /** Nesting depth: 0 for the root. */
  readonly depth: number
  /** Id of the parent box, or null for the root. */
  readonly parent: string | null
  /** The region of a parallel state draws dashed. */
  readonly isRegion: boolean
  /** Title (the state key) first, then entry/exit/invoke/internal-transition lines, all inside the box. */
  readonly lines: ReadonlyArray<TextLine>
}

export interface EdgeLabel {
  readonly text: string
  /** Top-left of the label's box, absolute. */
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
  /** The label wrapped for drawing (it reads as `text`); absent = one line, `text`. */
  readonly lines?: ReadonlyArray<string>
}

/**
 * A "from any state" chip drawn inside a compound state: where that state's transitions into its
 * own descendants start (e.g. a root-level `on: { OPEN_LOGIN: ".login" }`). Such an edge would
 * otherwise leave the container's own border and cross its header into its children.
 */
export interface SourceChip {
  /** `chip:<state id>` */
  readonly id: string
  /** The compound state whose transitions start here (the edges' `source`). */
  readonly state: string
  readonly text: string
  /** Absolute top-left and size. */
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

export interface EdgeLayout {
  /**
   * Unique per edge: the `ChartTransition.key`, suffixed `>` + target id when a transition has
   * several targets; `initial:<state id>` for the arrow into an initial state.
   */
  readonly id: string
  readonly kind: "transition" | "initial"
  /** The `ChartTransition.key` this edge draws (null for an initial arrow): what paths highlight. */
  readonly transition: string | null
  readonly source: string
  readonly target: string
  /** The polyline, absolute, from the source's border to the target's border. */
  readonly points: ReadonlyArray<Point>
  readonly label: EdgeLabel | null
}

export interface InitialMarker {
  /** `initial:<id of the initial state>` */
  readonly id: string
  readonly cx: number
  readonly cy: number
  readonly r: number
}

export interface ChartLayout {
  readonly chart: Chart
  readonly width: number
  readonly height: number
  readonly states: ReadonlyArray<StateBox>
  readonly edges: ReadonlyArray<EdgeLayout>
  readonly initials: ReadonlyArray<InitialMarker>
  /** "from any state" chips (see `SourceChip`); absent or empty when no state needs one. */
  readonly chips?: ReadonlyArray<SourceChip>
}

/** What the renderer emphasizes: the active (or current-step) states, visited ones, fired edges. */
export interface Highlight {
  readonly active: ReadonlySet<string>
  readonly visited: ReadonlySet<string>
  readonly edges: ReadonlySet<string>
  readonly selected: string | null
}

export const noHighlight: Highlight = {
  active: new Set(),
  visited: new Set(),
  edges: new Set(),
  selected: null,
}

// ── Live inspection (player app → visualizer, same origin, BroadcastChannel) ──────────────────
export const LIVE_CHANNEL = "casino-statecharts-live"

/** The query flag that opts a player tab into live mode: `/?statecharts=live`. */
export const LIVE_QUERY_FLAG = "statecharts"
export const LIVE_QUERY_VALUE = "live"

/** Context values never leave the app: only key names and the kind of value (`string`, `number`…). */
export type MaskedContext = Readonly<Record<string, string>>

export type LiveMessage =
  | {
      readonly type: "actor"
      /** The player tab that sent it (random per page load). */
      readonly tab: string
      readonly sessionId: string
      /** The machine id (root state node id), e.g. `auth`. */
      readonly machine: string
      readonly systemId: string | null
      readonly parent: string | null
    }
  | {
      readonly type: "snapshot"
      readonly tab: string
      readonly sessionId: string
      readonly machine: string
      readonly systemId: string | null
      /** The event type that led here (payload never sent). */
      readonly event: string
      readonly status: string
      /** Active state node ids, atomic and compound, sorted. */
      readonly stateIds: ReadonlyArray<string>
      readonly context: MaskedContext
      readonly at: number
    }
  | {
      readonly type: "event"
      readonly tab: string
      readonly sessionId: string
      readonly machine: string
      readonly event: string
      readonly at: number
    }
  | { readonly type: "stopped"; readonly tab: string; readonly sessionId: string; readonly machine: string }
  /** Sent by a visualizer when it starts listening: every live tab answers with its actors' snapshots. */
  | { readonly type: "hello" }
