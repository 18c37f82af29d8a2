/**
 * The running actors, shared with every view. The shell is the root; the session (auth) and the
 * modal host are its long-lived children, present while the shell is `ready`.
 */
import { useSelector } from "@xstate/react"
import { createContext, type ReactNode, useContext } from "react"
import type { ActorRefFrom, SnapshotFrom } from "xstate"
import type { authMachine } from "../../machines/auth.machine.ts"
import type { modalsMachine } from "../../machines/modals.machine.ts"
import type { shellMachine } from "../../machines/shell.machine.ts"

export type ShellActor = ActorRefFrom<typeof shellMachine>
export type AuthActor = ActorRefFrom<typeof authMachine>
export type ModalsActor = ActorRefFrom<typeof modalsMachine>

const ShellContext = createContext<ShellActor | null>(null)

export const ShellProvider = ({ actor, children }: { actor: ShellActor; children: ReactNode }) => (
  <ShellContext.Provider value={actor}>{children}</ShellContext.Provider>
)

export const useShellActor = (): ShellActor => {
  const actor = useContext(ShellContext)
  if (!actor) throw new Error("useShellActor outside ShellProvider")
  return actor
}

export const useShell = <T,>(selector: (snapshot: SnapshotFrom<typeof shellMachine>) => T): T =>
  useSelector(useShellActor(), selector)

/** The session actor; only exists while the shell is ready (views under the ready layout). */
export const useAuthActor = (): AuthActor => {
  const auth = useShell((s) => s.children.auth)
  if (!auth) throw new Error("The session actor is not running")
  return auth as AuthActor
}

export const useModalsActor = (): ModalsActor => {
  const modals = useShell((s) => s.children.modals)
  if (!modals) throw new Error("The modal host is not running")
  return modals as ModalsActor
}
