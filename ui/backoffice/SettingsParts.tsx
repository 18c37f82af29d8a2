/** What the settings screens share: a refused change in the server's words. */
import type { Action } from "./actors.tsx"

export const Failure = ({ action }: { readonly action: Action }) =>
  action.error ? (
    <p className="bo-error" role="alert">
      {action.error}
    </p>
  ) : null
