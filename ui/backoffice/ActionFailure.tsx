/** A refused change in the server's words, under the control that made it. */
import type { Action } from "./actors.tsx"

export const Failure = ({ action }: { readonly action: Action }) =>
  action.error ? (
    <p className="bo-error" role="alert">
      {action.error}
    </p>
  ) : null
